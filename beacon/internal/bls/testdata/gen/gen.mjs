// gen.mjs writes ../vectors.json: BLS12-381 vectors for beacon/internal/bls,
// computed by two implementations that share no code with it (nor with each
// other): @chainsafe/blst (supranational's blst in C, Lodestar's BLS) decides
// every result, and @noble/curves (pure JavaScript) recomputes every key,
// signature and aggregate and must agree byte for byte, or the script stops.
//
// Validity follows consensus-specs phase0 "BLS signatures" (the IETF draft's
// proof-of-possession ciphersuite): a public key passes KeyValidate (on the
// curve, in the subgroup, not infinity); a signature passes signature_to_point
// and signature_subgroup_check (infinity allowed).
//
// Run: npm ci && node gen.mjs > ../vectors.json
import { createHash } from 'node:crypto';
import blst from '@chainsafe/blst';
import { bls12_381 } from '@noble/curves/bls12-381.js';

const DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const noble = bls12_381.longSignatures;
const hex = (b) => Buffer.from(b).toString('hex');
const unhex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const R = bls12_381.fields.Fr.ORDER;
const P = bls12_381.fields.Fp.ORDER;
const be = (n, len) => unhex(n.toString(16).padStart(len * 2, '0'));
const must = (ok, what) => {
  if (!ok) throw new Error('peers disagree: ' + what);
};

// Secret keys: small, the largest, arbitrary, and the interop keys
// (sha256 of i as 32 little-endian bytes, read little-endian, mod r).
const interop = (i) => {
  const in32 = new Uint8Array(32);
  new DataView(in32.buffer).setBigUint64(0, BigInt(i), true);
  const h = createHash('sha256').update(in32).digest();
  const n = BigInt('0x' + hex(Uint8Array.from(h).reverse())) % R;
  return n;
};
const secrets = [
  { name: 'one', n: 1n },
  { name: 'two', n: 2n },
  { name: 'r-1', n: R - 1n },
  { name: 'arbitrary', n: BigInt('0x263dbd792f5b1be47ed85f8938c0f29586af0d3ac7b977f21c278fe1462040e3') },
  ...[0, 1, 2, 3, 4, 511].map((i) => ({ name: `interop ${i}`, interop: i, n: interop(i) })),
];
const sk = (n) => blst.SecretKey.fromBytes(be(n, 32));
const keys = secrets.map((s) => {
  const pk = sk(s.n).toPublicKey().toBytes(true);
  must(hex(pk) === hex(noble.getPublicKey(be(s.n, 32)).toBytes(true)), 'public key of ' + s.name);
  const v = { name: s.name, secret: hex(be(s.n, 32)), public_key: hex(pk) };
  if (s.interop !== undefined) v.interop_index = s.interop;
  return v;
});

const te = new TextEncoder();
const messages = [
  new Uint8Array(0),
  te.encode('abc'),
  new Uint8Array(32),
  unhex('4a1b7c2c3f3e1b1cd1f8b3c8a9b5e1d3c6f1a7b2e9d8c7b6a5f4e3d2c1b0a998'),
  te.encode('q128_' + 'q'.repeat(123)),
];
const signOf = (n, msg) => {
  const s = sk(n).sign(msg).toBytes(true);
  must(hex(s) === hex(noble.sign(noble.hash(msg, DST), be(n, 32)).toBytes(true)), 'signature');
  return s;
};
const signatures = [];
for (const s of secrets.slice(0, 6)) {
  for (const m of messages) {
    signatures.push({ secret: hex(be(s.n, 32)), message: hex(m), signature: hex(signOf(s.n, m)) });
  }
}

// Aggregates of signatures (one message or several) and of public keys.
const m0 = messages[3];
const aggSig = (sigs) => {
  const a = blst.aggregateSignatures(sigs.map((s) => blst.Signature.fromBytes(s, true))).toBytes(true);
  return a;
};
const aggregates = [];
const addAgg = (name, sigs, nobleCheck = true) => {
  const a = aggSig(sigs);
  if (nobleCheck) must(hex(a) === hex(noble.aggregateSignatures(sigs.map((s) => noble.Signature.fromBytes(s))).toBytes(true)), 'aggregate ' + name);
  aggregates.push({ name, signatures: sigs.map(hex), aggregate: hex(a) });
};
addAgg('one signature', [signOf(1n, m0)]);
addAgg('three keys, one message', [signOf(1n, m0), signOf(2n, m0), signOf(secrets[3].n, m0)]);
addAgg('two messages', [signOf(1n, messages[0]), signOf(2n, messages[1])]);
// sk and r-sk sign the same message: the points cancel to infinity.
addAgg('cancels to infinity', [signOf(1n, m0), signOf(R - 1n, m0)], false);

const publicKeyAggregates = [];
for (const set of [[0, 1], [0, 1, 2, 3], [4, 5, 6, 7, 8]]) {
  const pks = set.map((i) => unhex(keys[i].public_key));
  const a = blst.aggregateSerializedPublicKeys(pks, true).toBytes(true);
  must(hex(a) === hex(noble.aggregatePublicKeys(pks.map((p) => bls12_381.G1.Point.fromBytes(p))).toBytes(true)), 'public key aggregate');
  publicKeyAggregates.push({ public_keys: pks.map(hex), aggregate: hex(a) });
}

// Encodings: each decoded by blst with the specs' checks.
const pkValid = (b) => {
  try {
    blst.PublicKey.fromBytes(b, true);
    return [true, ''];
  } catch (e) {
    return [false, String(e.message || e)];
  }
};
const sigValid = (b) => {
  try {
    blst.Signature.fromBytes(b, false).sigValidate(false); // subgroup check; infinity allowed
    return [true, ''];
  } catch (e) {
    return [false, String(e.message || e)];
  }
};
const onCurve = (b, g2) => {
  try {
    if (g2) blst.Signature.fromBytes(b, false, false);
    else blst.PublicKey.fromBytes(b, false);
    return true;
  } catch {
    return false;
  }
};
// notInSubgroup finds the smallest x = k (k >= 1; for G2, x = k + 0*u) whose
// compressed encoding is a point on the curve outside the subgroup.
const notInSubgroup = (g2) => {
  const size = g2 ? 96 : 48;
  for (let k = 1n; ; k++) {
    const b = new Uint8Array(size);
    b.set(be(k, 48), size - 48);
    b[0] |= 0x80;
    if (onCurve(b, g2) && !(g2 ? sigValid(b)[0] : pkValid(b)[0])) return b;
  }
};
const flip = (b, i, bits) => {
  const c = Uint8Array.from(b);
  c[i] ^= bits;
  return c;
};
const encodings = (size, good, g2) => {
  const out = [];
  const add = (name, b) => {
    const [valid, reason] = g2 ? sigValid(b) : pkValid(b);
    out.push({ name, bytes: hex(b), valid, ...(reason && { blst_error: reason }) });
  };
  const inf = new Uint8Array(size);
  inf[0] = 0xc0;
  add('valid', good);
  add('infinity', inf);
  add('infinity with a nonzero bit', flip(inf, size - 1, 1));
  add('infinity with the sign bit', flip(inf, 0, 0x20));
  add('flags 000 (uncompressed)', flip(good, 0, good[0] & 0xe0));
  add('flags 010 (uncompressed infinity)', (() => { const z = new Uint8Array(size); z[0] = 0x40; return z; })());
  add('flags 001', flip(good, 0, (good[0] & 0xe0) ^ 0x20));
  add('flags 011', flip(good, 0, (good[0] & 0xe0) ^ 0x60));
  add('flags 111', flip(good, 0, (good[0] & 0xe0) ^ 0xe0));
  add('sign bit flipped (the negated point)', flip(good, 0, 0x20));
  const xp = new Uint8Array(size);
  xp.set(be(P, 48), size - 48);
  xp[0] |= 0x80;
  add('x equal to the field modulus', xp);
  if (g2) {
    const xp1 = new Uint8Array(size);
    xp1.set(be(P, 48), 0);
    xp1[0] |= 0x80;
    add('x.c1 equal to the field modulus', xp1);
  }
  let k = 1n;
  for (;; k++) {
    const b = new Uint8Array(size);
    b.set(be(k, 48), size - 48);
    b[0] |= 0x80;
    if (!onCurve(b, g2)) {
      add('x not on the curve', b);
      break;
    }
  }
  add('on the curve, not in the subgroup', notInSubgroup(g2));
  add('one byte short', good.slice(0, size - 1));
  add('one byte long', Uint8Array.from([...good, 0]));
  add('empty', new Uint8Array(0));
  return out;
};
const goodPk = unhex(keys[0].public_key);
const goodSig = signOf(1n, m0);

// FastAggregateVerify: blst's, with key validation, on the specs' decoding.
const fav = [];
const addFav = (name, pks, msg, sig) => {
  let result = false;
  try {
    const keys = pks.map((p) => blst.PublicKey.fromBytes(p, true));
    const s = blst.Signature.fromBytes(sig, false);
    s.sigValidate(false);
    result = keys.length > 0 && blst.fastAggregateVerify(msg, keys, s, true);
  } catch {
    result = false;
  }
  if (result) {
    must(noble.verify(noble.Signature.fromBytes(sig), noble.hash(msg, DST), noble.aggregatePublicKeys(pks.map((p) => bls12_381.G1.Point.fromBytes(p)))), 'fast aggregate verify ' + name);
  }
  fav.push({ name, public_keys: pks.map(hex), message: hex(msg), signature: hex(sig), result });
};
const pkOf = (n) => sk(n).toPublicKey().toBytes(true);
const three = [1n, 2n, secrets[3].n];
const sig3 = aggSig(three.map((n) => signOf(n, m0)));
const infSig = new Uint8Array(96);
infSig[0] = 0xc0;
const infPk = new Uint8Array(48);
infPk[0] = 0xc0;
addFav('one key', [pkOf(1n)], m0, signOf(1n, m0));
addFav('three keys', three.map(pkOf), m0, sig3);
addFav('three keys, other order', [three[2], three[0], three[1]].map(pkOf), m0, sig3);
addFav('three keys, other message', three.map(pkOf), messages[2], sig3);
addFav('two of the three keys', three.slice(0, 2).map(pkOf), m0, sig3);
addFav('three keys and one more', [...three, 3n].map(pkOf), m0, sig3);
addFav('a key twice', [pkOf(1n), pkOf(1n)], m0, aggSig([signOf(1n, m0), signOf(1n, m0)]));
addFav('signature of another key', [pkOf(2n)], m0, signOf(1n, m0));
addFav('negated signature', [pkOf(1n)], m0, flip(signOf(1n, m0), 0, 0x20));
addFav('no keys, infinity signature', [], m0, infSig);
addFav('infinity signature', [pkOf(1n)], m0, infSig);
addFav('infinity key, infinity signature', [infPk], m0, infSig);
addFav('an infinity key among valid ones', [pkOf(1n), infPk], m0, signOf(1n, m0));
addFav('keys that cancel, infinity signature', [pkOf(1n), pkOf(R - 1n)], m0, infSig);
addFav('key not in the subgroup', [pkOf(1n), notInSubgroup(false)], m0, signOf(1n, m0));
addFav('signature not in the subgroup', [pkOf(1n)], m0, notInSubgroup(true));
addFav('interop keys 0..4', [0, 1, 2, 3, 4].map((i) => pkOf(interop(i))), messages[0],
  aggSig([0, 1, 2, 3, 4].map((i) => signOf(interop(i), messages[0]))));

const out = {
  source: 'gen.mjs: @chainsafe/blst 2.2.0 decides, @noble/curves 2.4.0 agrees',
  dst: DST,
  keys,
  signatures,
  signature_aggregates: aggregates,
  public_key_aggregates: publicKeyAggregates,
  public_key_encodings: encodings(48, goodPk, false),
  signature_encodings: encodings(96, goodSig, true),
  fast_aggregate_verify: fav,
};
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
