// Lodestar's light client (@lodestar/light-client 1.28.1, the latest on
// npm, with its blst signatures) validates the light-client objects of
// lodestar-input.json as the specs say, honest and with four lies each
// (a signature byte flipped, another finalized header, a changed next
// sync committee, one participant's bit cleared), on the test chain's
// configuration (minimal preset, a fork per sync committee period):
//
//   cd beacon/light/testdata/gen && npm ci && \
//     LODESTAR_PRESET=minimal node verify.mjs < ../lodestar-input.json > ../lodestar-verdicts.json
//
// It predates Gloas: its verdicts on the gloas objects are its failure to
// read them, which the Go test skips.
import {readFileSync} from "node:fs";
import {ssz} from "@lodestar/types";
import {createChainForkConfig, createBeaconConfig} from "@lodestar/config";
import {chainConfig as minimal} from "@lodestar/config/default";
import bls from "@chainsafe/bls";
import {validateLightClientBootstrap} from "./node_modules/@lodestar/light-client/lib/spec/validateLightClientBootstrap.js";
import {validateLightClientUpdate} from "./node_modules/@lodestar/light-client/lib/spec/validateLightClientUpdate.js";
const input = JSON.parse(readFileSync(0, "utf8"));
const v = (b) => Uint8Array.from([b, 0, 0, 0x7e]);
const cc = createChainForkConfig({...minimal, GENESIS_FORK_VERSION: v(0),
  ALTAIR_FORK_VERSION: v(1), ALTAIR_FORK_EPOCH: 0, BELLATRIX_FORK_VERSION: v(2), BELLATRIX_FORK_EPOCH: 8,
  CAPELLA_FORK_VERSION: v(3), CAPELLA_FORK_EPOCH: 16, DENEB_FORK_VERSION: v(4), DENEB_FORK_EPOCH: 24,
  ELECTRA_FORK_VERSION: v(5), ELECTRA_FORK_EPOCH: 32, FULU_FORK_VERSION: v(6), FULU_FORK_EPOCH: 40,
  GLOAS_FORK_VERSION: v(7), GLOAS_FORK_EPOCH: 48});
const gvr = Buffer.from(input.genesis_validators_root.slice(2), "hex");
const config = createBeaconConfig(cc, gvr);
const out = [];
let boot;
for (const o of input.objects) {
  const t = ssz[o.version][o.kind === "bootstrap" ? "LightClientBootstrap" : "LightClientUpdate"];
  if (o.kind === "bootstrap") {
    boot = t.fromJson(o.data);
    const root = ssz.phase0.BeaconBlockHeader.hashTreeRoot(boot.header.beacon);
    try { validateLightClientBootstrap(config, root, boot); out.push({kind: o.kind, version: o.version, result: "ok"}); }
    catch (e) { out.push({kind: o.kind, version: o.version, result: String(e.message)}); }
    continue;
  }
  if (o.kind !== "update") continue;
  const committee = {pubkeys: boot.currentSyncCommittee.pubkeys.map((p) => bls.PublicKey.fromBytes(p)), aggregatePubkey: bls.PublicKey.fromBytes(boot.currentSyncCommittee.aggregatePubkey)};
  const lies = {honest: (u) => u,
    signature: (u) => { u.syncAggregate.syncCommitteeSignature[50] ^= 1; return u; },
    finalized_header: (u) => { u.finalizedHeader.beacon.proposerIndex += 1; return u; },
    next_sync_committee: (u) => { u.nextSyncCommittee.pubkeys[3][7] ^= 1; return u; },
    bits: (u) => { u.syncAggregate.syncCommitteeBits.set(31, false); return u; },
  };
  for (const [name, lie] of Object.entries(lies)) {
    const u = lie(t.fromJson(o.data));
    let result = "ok";
    try { validateLightClientUpdate(config, {config}, u, committee); } catch (e) { result = String(e.message); }
    out.push({kind: o.kind, version: o.version, lie: name, result});
  }
}
process.stdout.write(JSON.stringify(out, null, 1) + "\n");
