// proofs.mjs prints, as JSON, Lodestar's hash tree root of a Gloas state's
// SSZ and the single merkle proof (leaf and branch, bottom-up) of each
// generalized index given, taken from the state's @chainsafe/ssz tree with
// @chainsafe/persistent-merkle-tree's createProof. The gindices are the
// caller's (computed from the specs); Lodestar only walks its tree.
//
//	LODESTAR_PRESET=minimal node proofs.mjs STATE.ssz GINDEX...
import {readFileSync} from "node:fs";
import {createProof, ProofType} from "@chainsafe/persistent-merkle-tree";
import {ssz} from "@lodestar/types";

const [file, ...gindices] = process.argv.slice(2);
const t = ssz.gloas.BeaconState;
const view = t.deserializeToView(readFileSync(file));
const hex = (b) => "0x" + Buffer.from(b).toString("hex");
const proofs = gindices.map((g) => {
  const p = createProof(view.node, {type: ProofType.single, gindex: BigInt(g)});
  return {gindex: g, leaf: hex(p.leaf), branch: p.witnesses.map(hex)};
});
console.log(JSON.stringify({root: hex(view.hashTreeRoot()), proofs}, null, 1));
