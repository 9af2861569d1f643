package beacon

// LightClientGIndices are the generalized indices that the consensus
// specs' light-client sync protocol proves, for one fork: three in the
// BeaconState (against a block header's state_root) and two in the
// BeaconBlockBody (against its body_root). Each is the specs'
// get_generalized_index of the path it is named for, and is 0 where the
// fork has no such node. They depend on the fork's containers only, not on
// the preset. A proof of one verifies with Proof.Verify; for the state's,
// Prover.Prove makes it.
//
// The state's indices move when its number of fields crosses a power of
// two (Electra) and when it becomes a progressive container (Gloas):
// finalized_checkpoint.root is 105, then 169, then 735; the current and
// next sync committees 54 and 55, then 86 and 87, then 2945 and 2946. A
// light client takes the fork of the header's slot (Fulu has the Electra
// values; the specs freeze the earlier ones under their first names).
type LightClientGIndices struct {
	// FinalizedRoot is finalized_checkpoint.root in the state (the specs'
	// FINALIZED_ROOT_GINDEX, _ELECTRA, _GLOAS).
	FinalizedRoot GIndex
	// CurrentSyncCommittee is current_sync_committee in the state
	// (CURRENT_SYNC_COMMITTEE_GINDEX…), from Altair on.
	CurrentSyncCommittee GIndex
	// NextSyncCommittee is next_sync_committee in the state
	// (NEXT_SYNC_COMMITTEE_GINDEX…), from Altair on.
	NextSyncCommittee GIndex
	// ExecutionPayload is a body gindex: execution_payload in the
	// BeaconBlockBody (EXECUTION_PAYLOAD_GINDEX, 25), from Bellatrix to
	// Fulu (the light-client protocol uses it from Capella); Gloas's body
	// has no execution payload, only the builder's bid.
	ExecutionPayload GIndex
	// ExecutionBlockHash is a body gindex: the execution block hash a
	// light-client header carries, in the BeaconBlockBody. Before Gloas it
	// is execution_payload.block_hash (EXECUTION_BLOCK_HASH_GINDEX, 412,
	// and _DENEB, 812, the payload having 17 fields from Deneb); in Gloas it
	// is signed_execution_payload_bid.message.parent_block_hash
	// (EXECUTION_BLOCK_HASH_GINDEX_GLOAS, 2856), the hash of the execution
	// block the bid builds on.
	ExecutionBlockHash GIndex
}

// LightClientGIndices returns v's light-client generalized indices; the
// zero value for a Version this package does not know.
func (v Version) LightClientGIndices() LightClientGIndices {
	var g LightClientGIndices
	switch {
	case !v.isKnown():
		return g
	case v >= Gloas:
		// The state and body are progressive containers: field i of them
		// is under the root's left child, in the subtree of 1, 4, 16, 64
		// leaves that holds it (EIP-7495).
		return LightClientGIndices{FinalizedRoot: 735, CurrentSyncCommittee: 2945, NextSyncCommittee: 2946, ExecutionBlockHash: 2856}
	case v >= Electra:
		g = LightClientGIndices{FinalizedRoot: 169, CurrentSyncCommittee: 86, NextSyncCommittee: 87}
	case v >= Altair:
		g = LightClientGIndices{FinalizedRoot: 105, CurrentSyncCommittee: 54, NextSyncCommittee: 55}
	default:
		g = LightClientGIndices{FinalizedRoot: 105}
	}
	switch {
	case v >= Deneb:
		g.ExecutionPayload, g.ExecutionBlockHash = 25, 812
	case v >= Bellatrix:
		g.ExecutionPayload, g.ExecutionBlockHash = 25, 412
	}
	return g
}
