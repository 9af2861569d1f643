package light

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// Header is a light-client header (the specs' LightClientHeader) of any
// fork, as the beacon API sends it: the beacon block header and, from
// Capella on, what the block proves of its execution payload.
//
// From Capella to Fulu the header carries the execution payload header
// (Execution) and a branch from its root to the block's body_root; from
// Gloas on, the execution block hash alone (the hash of the block the
// builder's bid builds on) and a branch from it to the body_root.
// ExecutionBlockHash is the hash either way. Before Capella there is no
// execution data. Values a Client returns are verified.
type Header struct {
	// Beacon is the beacon block header; its root is the block root.
	Beacon beacon.BeaconBlockHeader
	// Execution is the execution payload header, Capella to Fulu; nil
	// in the other forks' forms. Its StateRoot and BlockNumber are those
	// of the execution block.
	Execution *beacon.ExecutionPayloadHeader
	// ExecutionBlockHash is the execution block's hash: Execution's
	// BlockHash, or Gloas's execution_block_hash; zero before Capella.
	ExecutionBlockHash common.Hash
	// ExecutionBranch is the merkle branch (bottom-up) that proves the
	// execution data against Beacon.BodyRoot.
	ExecutionBranch []beacon.Root

	// form is the fork whose LightClientHeader type the header was sent
	// as (its response's version).
	form beacon.Version
	// verified is set on the copies the Client returns.
	verified bool
}

// Bootstrap is a LightClientBootstrap: the header of a block, the sync
// committee of the block's period and the branch that proves the committee
// against the header's state root.
type Bootstrap struct {
	// Version is the fork of the response (of the header's slot).
	Version beacon.Version
	// Header is the block's light-client header.
	Header Header
	// CurrentSyncCommittee is current_sync_committee of the block's state.
	CurrentSyncCommittee beacon.SyncCommittee
	// CurrentSyncCommitteeBranch proves it against Header.Beacon.StateRoot.
	CurrentSyncCommitteeBranch []beacon.Root
}

// Update is a LightClientUpdate, or the finality or optimistic update of
// the API (a LightClientFinalityUpdate has no next sync committee, a
// LightClientOptimisticUpdate no finalized header either: those fields are
// zero, as the specs' process_light_client_finality_update and
// process_light_client_optimistic_update make them).
type Update struct {
	// Version is the fork of the response (of the attested header's slot).
	Version beacon.Version
	// AttestedHeader is the header the sync committee signed.
	AttestedHeader Header
	// NextSyncCommittee is the next sync committee of the attested state
	// (nil when the update carries none), with its branch against
	// AttestedHeader.Beacon.StateRoot.
	NextSyncCommittee       *beacon.SyncCommittee
	NextSyncCommitteeBranch []beacon.Root
	// FinalizedHeader is the attested state's finalized block (the zero
	// Header when the update carries none), with its branch.
	FinalizedHeader Header
	FinalityBranch  []beacon.Root
	// SyncCommitteeBits (a Bitvector[SYNC_COMMITTEE_SIZE], bit i of byte
	// i/8 is member i) and SyncCommitteeSignature are the sync aggregate.
	SyncCommitteeBits      []byte
	SyncCommitteeSignature beacon.BLSSignature
	// SignatureSlot is the slot of the block that carried the aggregate.
	SignatureSlot beacon.Slot
}

// The SSZ shapes of the light-client containers per form (the fork whose
// type is sent).

// headerForm returns the LightClientHeader type fork of v: Altair's for
// Altair and Bellatrix, Capella's, Deneb's (Deneb to Fulu), Gloas's.
func headerForm(v beacon.Version) beacon.Version {
	switch {
	case v >= beacon.Gloas:
		return beacon.Gloas
	case v >= beacon.Deneb:
		return beacon.Deneb
	case v >= beacon.Capella:
		return beacon.Capella
	default:
		return beacon.Altair
	}
}

// Branch depths (floorlog2 of the gindices) of the form v sends.
func currentBranchDepth(v beacon.Version) int {
	return depthOf(v.LightClientGIndices().CurrentSyncCommittee)
}
func nextBranchDepth(v beacon.Version) int { return depthOf(v.LightClientGIndices().NextSyncCommittee) }
func finalityDepth(v beacon.Version) int   { return depthOf(v.LightClientGIndices().FinalizedRoot) }
func executionDepth(v beacon.Version) int {
	switch {
	case v >= beacon.Gloas:
		return depthOf(v.LightClientGIndices().ExecutionBlockHash)
	case v >= beacon.Capella:
		return depthOf(v.LightClientGIndices().ExecutionPayload)
	}
	return 0
}

// depthOf is floorlog2(g).
func depthOf(g beacon.GIndex) int {
	d := -1
	for ; g > 0; g >>= 1 {
		d++
	}
	return d
}

// executionHeaderFixed is the fixed part of the execution payload header of
// form v (Capella 568 bytes, Deneb on 584).
func executionHeaderFixed(v beacon.Version) int {
	if v >= beacon.Deneb {
		return 584
	}
	return 568
}

// headerFixedSize returns the size of a header of form v in its
// container's fixed part: its bytes, or 4 (an offset) for a variable one.
func headerFixedSize(v beacon.Version) (size int, variable bool) {
	switch f := headerForm(v); {
	case f == beacon.Gloas:
		return 112 + 32 + 32*executionDepth(v), false
	case f >= beacon.Capella:
		return 4, true
	default:
		return 112, false
	}
}

// maxHeaderSize bounds a header's encoding.
func maxHeaderSize(v beacon.Version) int {
	if f := headerForm(v); f >= beacon.Capella && f < beacon.Gloas {
		return 112 + 4 + 32*executionDepth(v) + executionHeaderFixed(v) + 32
	}
	s, _ := headerFixedSize(v)
	return s
}
