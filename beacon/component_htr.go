package beacon

import "fmt"

// The hash tree roots of the state's containers, as
// ssz/simple-serialize.md defines them, computed by the same functions
// that hash them inside State.HashTreeRoot (so a component's root is
// exactly the leaf the state's tree has for it). The fixed-size containers
// cannot be invalid and return a Root; the ones with a list or a
// fork-dependent layout return an error for a value the SSZ type cannot
// hold.

// HashTreeRoot returns the root of the 48-byte key: SHA-256 of the key
// padded with 16 zero bytes to two chunks (the key's leaf in a validator,
// and the "pubkey hash" restaking contracts index validators by).
func (k BLSPubKey) HashTreeRoot() Root { return pubKeyRoot(&k) }

// HashTreeRoot returns the root of the 96-byte signature (three chunks
// padded to four).
func (sig BLSSignature) HashTreeRoot() Root { return signatureRoot(&sig) }

// HashTreeRoot returns the root of the Fork container.
func (f Fork) HashTreeRoot() Root { return forkRoot(&f) }

// HashTreeRoot returns the root of the Checkpoint container.
func (c Checkpoint) HashTreeRoot() Root { return checkpointRoot(&c) }

// HashTreeRoot returns the root of the BeaconBlockHeader container. A
// block's root (what EIP-4788 exposes, what a child's parent_root holds)
// is the root of its header, which is the root of the block itself; for a
// state's latest_block_header its state_root must first be filled in, as
// State.LatestBlockRoot does.
func (h BeaconBlockHeader) HashTreeRoot() Root { return blockHeaderRoot(&h) }

// HashTreeRoot returns the root of the Eth1Data container.
func (d Eth1Data) HashTreeRoot() Root { return eth1DataRoot(&d) }

// HashTreeRoot returns the root of the Validator container: the leaf of
// this validator in the state's validators list.
func (v Validator) HashTreeRoot() Root {
	var leaves [8]Root
	validatorLeaves(&v, &leaves)
	return merkleSmall(leaves[:], 3)
}

// HashTreeRoot returns the root of the AttestationData container.
func (a AttestationData) HashTreeRoot() Root { return attestationDataRoot(&a) }

// HashTreeRoot returns the root of the HistoricalSummary container.
func (h HistoricalSummary) HashTreeRoot() Root { return historicalSummaryRoot(&h) }

// HashTreeRoot returns the root of the PendingDeposit container.
func (p PendingDeposit) HashTreeRoot() Root { return pendingDepositRoot(&p) }

// HashTreeRoot returns the root of the PendingPartialWithdrawal container.
func (p PendingPartialWithdrawal) HashTreeRoot() Root { return pendingPartialWithdrawalRoot(&p) }

// HashTreeRoot returns the root of the PendingConsolidation container.
func (p PendingConsolidation) HashTreeRoot() Root { return pendingConsolidationRoot(&p) }

// HashTreeRoot returns the root of the phase0 PendingAttestation
// container, whose aggregation_bits is a
// Bitlist[MAX_VALIDATORS_PER_COMMITTEE] (2048 in both presets). A
// malformed bitlist (no length bit, or over the limit) is an error.
func (a PendingAttestation) HashTreeRoot() (Root, error) {
	limit := MainnetPreset().MaxValidatorsPerCommittee
	if err := a.AggregationBits.check(limit); err != nil {
		return Root{}, fmt.Errorf("beacon: pending attestation: aggregation_bits: %w", err)
	}
	return pendingAttestationRoot(&a, limit), nil
}

// HashTreeRoot returns the root of the SyncCommittee container, whose
// pubkeys is a Vector[BLSPubkey, SYNC_COMMITTEE_SIZE]: it must hold 512
// (mainnet) or 32 (minimal) keys.
func (c SyncCommittee) HashTreeRoot() (Root, error) {
	if err := c.checkSize(); err != nil {
		return Root{}, err
	}
	n := uint64(len(c.PublicKeys))
	keys := treeRoot(len(c.PublicKeys), depthFor(n), fillElems(c.PublicKeys, pubKeyRoot))
	agg := pubKeyRoot(&c.AggregatePublicKey)
	return hashPair(&keys, &agg), nil
}

// HashTreeRoot returns the root of the execution payload header as fork v
// defines it (bellatrix: 14 fields, capella: 15 with withdrawals_root,
// deneb to fulu: 17 with the blob gas fields; the fields a fork does not
// have are not hashed). A fork without the header (before bellatrix, and
// gloas and later), or extra_data over
// MAX_EXTRA_DATA_BYTES (32), is an error.
func (h ExecutionPayloadHeader) HashTreeRoot(v Version) (Root, error) {
	if err := checkHeaderVersion(v); err != nil {
		return Root{}, err
	}
	if err := h.checkExtra(); err != nil {
		return Root{}, err
	}
	return headerRoot(&h, v, MainnetPreset().MaxExtraDataBytes), nil
}

// checkSize refuses a committee of neither preset's size.
func (c *SyncCommittee) checkSize() error {
	n := uint64(len(c.PublicKeys))
	if n != MainnetPreset().SyncCommitteeSize && n != MinimalPreset().SyncCommitteeSize {
		return fmt.Errorf("beacon: sync committee: %d public keys, want %d (mainnet) or %d (minimal)",
			n, MainnetPreset().SyncCommitteeSize, MinimalPreset().SyncCommitteeSize)
	}
	return nil
}

// checkExtra refuses extra_data over MAX_EXTRA_DATA_BYTES (32 in both
// presets).
func (h *ExecutionPayloadHeader) checkExtra() error {
	if maxExtra := MainnetPreset().MaxExtraDataBytes; uint64(len(h.ExtraData)) > maxExtra {
		return fmt.Errorf("beacon: execution payload header: extra_data: %d bytes, over the limit of %d", len(h.ExtraData), maxExtra)
	}
	return nil
}

// LatestBlockRoot returns the root of the block that produced s, the one
// in s.LatestBlockHeader: the header's root with its state_root filled in
// with s's own root when it is still zero, as the specs' process_slot
// does. This is the root a child block names as its parent_root, and the
// one EIP-4788's beacon roots contract exposes on the execution layer for
// the next slot. For a state advanced through empty slots the header's
// state_root is already filled and the state's root is not needed. A nil
// s is an error, as for HashTreeRoot.
func (s *State) LatestBlockRoot() (Root, error) {
	if err := s.checkNil(); err != nil {
		return Root{}, err
	}
	h := s.LatestBlockHeader
	if h.StateRoot == (Root{}) {
		r, err := s.HashTreeRoot()
		if err != nil {
			return Root{}, err
		}
		h.StateRoot = r
	}
	return blockHeaderRoot(&h), nil
}

// validatorLeaves writes the 8 leaves of v's container.
func validatorLeaves(v *Validator, l *[8]Root) {
	l[0] = pubKeyRoot(&v.PublicKey)
	l[1] = v.WithdrawalCredentials
	l[2] = u64Chunk(uint64(v.EffectiveBalance))
	l[3] = Root{}
	if v.Slashed {
		l[3][0] = 1
	}
	l[4] = u64Chunk(uint64(v.ActivationEligibilityEpoch))
	l[5] = u64Chunk(uint64(v.ActivationEpoch))
	l[6] = u64Chunk(uint64(v.ExitEpoch))
	l[7] = u64Chunk(uint64(v.WithdrawableEpoch))
}
