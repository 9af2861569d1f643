// gloasgen makes random Gloas beacon states with Lodestar (@lodestar/types,
// @chainsafe/ssz) and writes, for each: the SSZ bytes, the beacon API JSON
// body ({version, execution_optimistic, finalized, data}) and the hash tree
// root. It also writes progressive list and progressive container roots on
// their own, so that the hashing rule can be tested apart from the state.
//
// The preset is chosen by Lodestar at import time from LODESTAR_PRESET, so
// run it once per preset:
//
//	LODESTAR_PRESET=minimal node gen.mjs -out DIR -seed 1 -validators 21 -builders 5 -name minimal-1
//	LODESTAR_PRESET=mainnet node gen.mjs -out DIR -seed 2 -validators 86 -builders 17 -name mainnet-2
//	node gen.mjs -out DIR -progressive
//	LODESTAR_PRESET=minimal node gen.mjs -check FILE.ssz
//
// -check reads a Gloas state's SSZ made elsewhere and prints, as one JSON
// line, Lodestar's hash tree root of it and whether Lodestar re-serializes
// it to the same bytes.
//
// -gzip writes the SSZ and JSON files gzipped (.ssz.gz, .json.gz).
//
// The random values are drawn from a seeded xorshift generator, so the same
// command makes the same files. Lodestar keeps most uint64 fields as JS
// numbers, so the values stay below 2^53 there; fields Lodestar keeps as
// bigints take any uint64.
import {readFileSync, writeFileSync, mkdirSync} from "node:fs";
import {gzipSync} from "node:zlib";
import {join} from "node:path";
import {
  BitArray,
  BitListType,
  BitVectorType,
  BooleanType,
  ByteListType,
  ByteVectorType,
  ContainerType,
  ListBasicType,
  ListCompositeType,
  ProgressiveContainerType,
  ProgressiveListBasicType,
  ProgressiveListCompositeType,
  UintBigintType,
  UintNumberType,
  VectorBasicType,
  VectorCompositeType,
} from "@chainsafe/ssz";
import {ssz} from "@lodestar/types";
import {ACTIVE_PRESET} from "@lodestar/params";

function args() {
  const a = {out: ".", seed: 1, validators: 8, builders: 3, name: "", progressive: false, gzip: false, check: ""};
  const v = process.argv.slice(2);
  for (let i = 0; i < v.length; i++) {
    switch (v[i]) {
      case "-out": a.out = v[++i]; break;
      case "-seed": a.seed = Number(v[++i]); break;
      case "-validators": a.validators = Number(v[++i]); break;
      case "-builders": a.builders = Number(v[++i]); break;
      case "-name": a.name = v[++i]; break;
      case "-progressive": a.progressive = true; break;
      case "-gzip": a.gzip = true; break;
      case "-check": a.check = v[++i]; break;
      default: throw new Error(`unknown argument ${v[i]}`);
    }
  }
  return a;
}

// xorshift64* over BigInt: small, seeded, the same on every machine.
function rng(seed) {
  let s = BigInt(seed) * 0x9e3779b97f4a7c15n + 1n;
  s &= (1n << 64n) - 1n;
  const next = () => {
    s ^= s >> 12n; s ^= (s << 25n) & ((1n << 64n) - 1n); s ^= s >> 27n;
    return (s * 0x2545f4914f6cdd1dn) & ((1n << 64n) - 1n);
  };
  return {
    u64: next,
    below: (n) => Number(next() % BigInt(n)),
    bytes: (n) => { const b = new Uint8Array(n); for (let i = 0; i < n; i++) b[i] = Number(next() & 0xffn); return b; },
  };
}

// rand makes a random value of type t. count(t, path) gives a list's length.
function rand(t, r, count, path) {
  if (t instanceof UintBigintType) return t.byteLength === 8 ? r.u64() : r.u64() & ((1n << BigInt(8 * t.byteLength)) - 1n);
  if (t instanceof UintNumberType) {
    if (t.byteLength >= 8) return r.below(2 ** 53);
    return r.below(2 ** (8 * t.byteLength));
  }
  if (t instanceof BooleanType) return r.below(2) === 1;
  if (t instanceof ByteVectorType) return r.bytes(t.lengthBytes);
  if (t instanceof ByteListType) return r.bytes(count(t, path));
  if (t instanceof BitVectorType) {
    const b = BitArray.fromBitLen(t.lengthBits);
    for (let i = 0; i < t.lengthBits; i++) b.set(i, r.below(2) === 1);
    return b;
  }
  if (t instanceof BitListType) {
    const n = count(t, path);
    const b = BitArray.fromBitLen(n);
    for (let i = 0; i < n; i++) b.set(i, r.below(2) === 1);
    return b;
  }
  if (t instanceof ContainerType || t instanceof ProgressiveContainerType) {
    const o = {};
    for (const [k, ft] of Object.entries(t.fields)) o[k] = rand(ft, r, count, `${path}.${k}`);
    return o;
  }
  if (t instanceof VectorBasicType || t instanceof VectorCompositeType) {
    // Long vectors (the mainnet preset's block_roots, randao_mixes, …) are
    // mostly zero with a few random elements, so that the vectors compress.
    const sparse = t.length > 64;
    return Array.from({length: t.length}, () =>
      sparse && r.below(16) !== 0 ? t.elementType.defaultValue() : rand(t.elementType, r, count, `${path}[]`));
  }
  if (t instanceof ListBasicType || t instanceof ListCompositeType ||
      t instanceof ProgressiveListBasicType || t instanceof ProgressiveListCompositeType) {
    const n = count(t, path);
    return Array.from({length: n}, () => rand(t.elementType, r, count, `${path}[]`));
  }
  throw new Error(`no random value for ${t.typeName} at ${path}`);
}

function hex(b) { return "0x" + Buffer.from(b).toString("hex"); }

function genState(a) {
  const r = rng(a.seed);
  const T = ssz.gloas.BeaconState;
  // Lengths of the registry-sized lists follow the validator count; the
  // builder list follows -builders; other lists get a few elements, crossing
  // the progressive subtree boundaries (1, 4, 16, 64) where the count allows.
  const registry = new Set(["validators", "balances", "previousEpochParticipation", "currentEpochParticipation", "inactivityScores"]);
  const count = (t, path) => {
    const top = path.split(".")[1];
    if (path.split(".").length === 2 && registry.has(top)) return a.validators;
    if (path === ".builders") return a.builders;
    const lim = t.limit ?? t.limitBits ?? t.maxSize ?? 16;
    const n = 1 + r.below(6);
    return Math.min(n, lim);
  };
  const v = rand(T, r, count, "");
  const bytes = T.serialize(v);
  const root = T.hashTreeRoot(v);
  const body = {version: "gloas", execution_optimistic: false, finalized: false, data: T.toJson(v)};
  const name = a.name || `${ACTIVE_PRESET}-${a.seed}`;
  mkdirSync(a.out, {recursive: true});
  const z = a.gzip ? (b) => gzipSync(b, {level: 9}) : (b) => b;
  const ext = a.gzip ? ".gz" : "";
  writeFileSync(join(a.out, `${name}.ssz${ext}`), z(bytes));
  writeFileSync(join(a.out, `${name}.json${ext}`), z(Buffer.from(JSON.stringify(body))));
  writeFileSync(join(a.out, `${name}.root`), hex(root) + "\n");
  // Lodestar reads back what it wrote: the vector is self-consistent.
  const back = T.deserialize(bytes);
  if (hex(T.hashTreeRoot(back)) !== hex(root)) throw new Error("Lodestar round trip changed the root");
  const fromJson = T.fromJson(body.data);
  if (hex(T.serialize(fromJson)) !== hex(bytes)) throw new Error("Lodestar JSON round trip changed the bytes");
  console.log(`${name}: preset ${ACTIVE_PRESET}, ${bytes.length} bytes, root ${hex(root)}`);
}

// genProgressive writes roots of progressive lists of the lengths that cross
// the subtree boundaries (1, 4, 16, 64, 256, 1024) and of progressive
// containers with gaps in active_fields. The values follow from the index
// alone (see below), so the file holds only the roots:
//
//	uint64 list:  element i = (i+1)*0x01010101 + 7
//	uint8 list:   element i = (i*37 + 5) & 0xff
//	Bytes32 list: element i = 32 bytes of (i+1)&0xff, then byte 0 = i>>8 and byte 31 = 0xa5
//	container:    field at active index i (a uint64) = i+1
function genProgressive(a) {
  const lengths = [0, 1, 2, 3, 4, 5, 6, 15, 16, 17, 20, 21, 22, 63, 64, 65, 84, 85, 86, 87, 300, 340, 341, 342, 1000, 1365, 1366, 1367];
  const U64 = new UintNumberType(8);
  const B32 = new ByteVectorType(32);
  const PL64 = new ProgressiveListBasicType(U64);
  const PL8 = new ProgressiveListBasicType(new UintNumberType(1));
  const PLB32 = new ProgressiveListCompositeType(B32);
  const out = {lists: [], containers: []};
  for (const n of lengths) {
    const u = Array.from({length: n}, (_, i) => (i + 1) * 0x01010101 + 7);
    const b8 = Array.from({length: n}, (_, i) => (i * 37 + 5) & 0xff);
    const b = Array.from({length: n}, (_, i) => { const x = new Uint8Array(32); x.fill((i + 1) & 0xff); x[0] = i >> 8; x[31] = 0xa5; return x; });
    out.lists.push({
      length: n,
      uint64_root: hex(PL64.hashTreeRoot(u)),
      uint8_root: hex(PL8.hashTreeRoot(b8)),
      bytes32_root: hex(PLB32.hashTreeRoot(b)),
    });
  }
  // Progressive containers of uint64 fields: active_fields with gaps and
  // lengths that cross the boundaries; field i holds i+1.
  const shapes = [[1], [1, 0, 1], [0, 1], [1, 1, 1, 1, 1], Array(46).fill(1), [1, 0, 0, 0, 0, 1, 1, 0, 1], Array(12).fill(1), [...Array(20).fill(0), 1, 1]];
  for (const active of shapes) {
    const fields = {};
    const value = {};
    let k = 0;
    for (let i = 0; i < active.length; i++) {
      if (active[i]) { fields[`f${i}`] = U64; value[`f${i}`] = i + 1; k++; }
    }
    const T = new ProgressiveContainerType(fields, active.map(Boolean));
    out.containers.push({active_fields: active, root: hex(T.hashTreeRoot(value))});
  }
  mkdirSync(a.out, {recursive: true});
  writeFileSync(join(a.out, "progressive.json"), JSON.stringify(out, null, 1));
  console.log(`progressive.json: ${out.lists.length} lists, ${out.containers.length} containers`);
}

// check prints Lodestar's view of a state serialized elsewhere.
function check(a) {
  const T = ssz.gloas.BeaconState;
  const bytes = new Uint8Array(readFileSync(a.check));
  const v = T.deserialize(bytes);
  const same = Buffer.compare(Buffer.from(T.serialize(v)), Buffer.from(bytes)) === 0;
  console.log(JSON.stringify({preset: ACTIVE_PRESET, root: hex(T.hashTreeRoot(v)), reserialized_same: same}));
}

const a = args();
if (a.check) check(a); else if (a.progressive) genProgressive(a); else genState(a);
