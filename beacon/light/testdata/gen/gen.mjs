// Writes light-client vectors from Lodestar's SSZ types (run with the
// minimal preset, whose SYNC_COMMITTEE_SIZE, 32, the Go tests' chain has):
//
//   cd beacon/light/testdata/gen && npm ci && \
//     LODESTAR_PRESET=minimal node gen.mjs < ../lodestar-input.json > ../lodestar-vectors.json
//
// For each input object (a beacon-API JSON body of a fork) it writes the
// SSZ bytes Lodestar serializes it to and the hash tree roots of what the
// light client hashes: the beacon block headers, the execution payload
// headers, the sync committees; then the signing roots of the given
// headers under the given fork versions and genesis validators root, and
// the generalized indices the light-client protocol proves.
import {readFileSync} from "node:fs";
import {ssz} from "@lodestar/types";

const hex = (b) => "0x" + Buffer.from(b).toString("hex");
const input = JSON.parse(readFileSync(0, "utf8"));
const typeName = {bootstrap: "LightClientBootstrap", update: "LightClientUpdate",
  finality_update: "LightClientFinalityUpdate", optimistic_update: "LightClientOptimisticUpdate"};

const headerRoots = (fork, h) => {
  const out = {beacon: hex(ssz.phase0.BeaconBlockHeader.hashTreeRoot(h.beacon))};
  if (h.execution) {
    const t = fork === "capella" ? ssz.capella.ExecutionPayloadHeader : ssz.deneb.ExecutionPayloadHeader;
    out.execution = hex(t.hashTreeRoot(h.execution));
  }
  out.light_client_header = hex(ssz[fork].LightClientHeader.hashTreeRoot(h));
  return out;
};

const objects = input.objects.map((o) => {
  const t = ssz[o.version][typeName[o.kind]];
  const v = t.fromJson(o.data);
  const out = {kind: o.kind, version: o.version, ssz: hex(t.serialize(v)), root: hex(t.hashTreeRoot(v))};
  if (v.header) out.header = headerRoots(o.version, v.header);
  if (v.attestedHeader) out.attested_header = headerRoots(o.version, v.attestedHeader);
  if (v.finalizedHeader) out.finalized_header = headerRoots(o.version, v.finalizedHeader);
  if (v.currentSyncCommittee) out.current_sync_committee = hex(ssz.altair.SyncCommittee.hashTreeRoot(v.currentSyncCommittee));
  if (v.nextSyncCommittee) out.next_sync_committee = hex(ssz.altair.SyncCommittee.hashTreeRoot(v.nextSyncCommittee));
  return out;
});

const gvr = Buffer.from(input.genesis_validators_root.slice(2), "hex");
const signing = input.signing.map((s) => {
  const forkDataRoot = ssz.phase0.ForkData.hashTreeRoot({currentVersion: Buffer.from(s.fork_version.slice(2), "hex"), genesisValidatorsRoot: gvr});
  const domain = Buffer.concat([Buffer.from([7, 0, 0, 0]), Buffer.from(forkDataRoot).subarray(0, 28)]); // DOMAIN_SYNC_COMMITTEE
  const objectRoot = ssz.phase0.BeaconBlockHeader.hashTreeRoot(ssz.phase0.BeaconBlockHeader.fromJson(s.header));
  return {fork_version: s.fork_version, domain: hex(domain), signing_root: hex(ssz.phase0.SigningData.hashTreeRoot({objectRoot, domain}))};
});

const gindex = (t, path) => t.getPathInfo(path).gindex.toString();
const gindices = {};
for (const f of ["altair", "capella", "deneb", "electra", "fulu", "gloas"]) {
  const st = ssz[f].BeaconState, body = ssz[f].BeaconBlockBody;
  gindices[f] = {
    finalized_root: gindex(st, ["finalizedCheckpoint", "root"]),
    current_sync_committee: gindex(st, ["currentSyncCommittee"]),
    next_sync_committee: gindex(st, ["nextSyncCommittee"]),
  };
  if (f === "gloas") gindices[f].execution_block_hash = gindex(body, ["signedExecutionPayloadBid", "message", "parentBlockHash"]);
  else if (f !== "altair") {
    gindices[f].execution_payload = gindex(body, ["executionPayload"]);
    gindices[f].execution_block_hash = gindex(body, ["executionPayload", "blockHash"]);
  }
}

process.stdout.write(JSON.stringify({generator: "@lodestar/types@1.50.0, LODESTAR_PRESET=minimal", objects, signing, gindices}, null, 1) + "\n");
