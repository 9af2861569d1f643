package beacon

import "fmt"

// HashTreeRoot returns the SSZ hash_tree_root (ssz/simple-serialize.md)
// of v: a whole state, one of its containers, or a public key or signature,
// computed by the same functions that hash them inside a state, so a
// container's root is exactly the leaf the state's tree has for it (and the
// leaf a Prover's proof of it holds).
//
// For a *State it is the state root a block commits to, for the
// BeaconState of s.Version with s's preset, after the checks WriteState
// makes (a state that fails them is an error naming the field). The large
// lists (validators, balances, participation, inactivity scores) are
// hashed in parallel by up to GOMAXPROCS goroutines, a subtree of 4096
// leaves at a time, in contiguous buffers hashed with SIMD SHA-256; the
// result does not depend on GOMAXPROCS, and memory stays at about 2 MiB per
// goroutine plus one chunk per 4096 leaves.
//
// A block's root (what EIP-4788 exposes, what a child's parent_root holds)
// is the root of its BeaconBlockHeader; for a state's latest_block_header
// the state_root must first be filled in with the state's root when it is
// zero, as the specs' process_slot does (Prover.BlockRoot does that). A
// BLSPubKey's root is SHA-256 of the key padded to two chunks, the "pubkey
// hash" restaking contracts index validators by.
//
// The containers whose type has a limit fail for a value the SSZ type cannot
// hold: a PendingAttestation's aggregation_bits must be a well-formed
// Bitlist[MAX_VALIDATORS_PER_COMMITTEE] (2048 in both presets), a
// SyncCommittee must hold 512 (mainnet) or 32 (minimal) keys, an
// ExecutionPayloadHeader's extra_data at most 32 bytes. An
// ExecutionPayloadHeader is hashed as deneb to fulu define it (17 fields,
// the layout its JSON has); the header of an earlier fork hashes
// differently (bellatrix 14 fields, capella 15), and its root is the leaf
// of its node in the state's tree: Prove(GIndexOf("latest_execution_payload_header")).
// An ExecutionPayloadBid is a progressive container with a progressive list
// of commitments (EIP-7495, EIP-7916), so every value has a root.
func HashTreeRoot[T *State | Fork | Checkpoint | BeaconBlockHeader | Eth1Data | Validator | AttestationData |
	PendingAttestation | SyncCommittee | ExecutionPayloadHeader | HistoricalSummary | PendingDeposit |
	PendingPartialWithdrawal | PendingConsolidation | Builder | BuilderPendingWithdrawal | BuilderPendingPayment |
	Withdrawal | ExecutionPayloadBid | BLSPubKey | BLSSignature](v T) (Root, error) {
	switch x := any(v).(type) {
	case *State:
		return x.hashTreeRoot()
	case Fork:
		return forkRoot(&x), nil
	case Checkpoint:
		return checkpointRoot(&x), nil
	case BeaconBlockHeader:
		return blockHeaderRoot(&x), nil
	case Eth1Data:
		return eth1DataRoot(&x), nil
	case Validator:
		return validatorRoot(&x), nil
	case AttestationData:
		return attestationDataRoot(&x), nil
	case PendingAttestation:
		limit := MainnetPreset().MaxValidatorsPerCommittee
		if err := x.AggregationBits.check(limit); err != nil {
			return Root{}, fmt.Errorf("beacon: pending attestation: aggregation_bits: %w", err)
		}
		return pendingAttestationRoot(&x, limit), nil
	case SyncCommittee:
		if err := x.checkSize(); err != nil {
			return Root{}, err
		}
		n := uint64(len(x.PublicKeys))
		keys := treeRoot(len(x.PublicKeys), depthFor(n), fillElems(x.PublicKeys, pubKeyRoot))
		agg := pubKeyRoot(&x.AggregatePublicKey)
		return hashPair(&keys, &agg), nil
	case ExecutionPayloadHeader:
		if err := x.checkExtra(); err != nil {
			return Root{}, err
		}
		return headerRoot(&x, Deneb, MainnetPreset().MaxExtraDataBytes), nil
	case HistoricalSummary:
		return historicalSummaryRoot(&x), nil
	case PendingDeposit:
		return pendingDepositRoot(&x), nil
	case PendingPartialWithdrawal:
		return pendingPartialWithdrawalRoot(&x), nil
	case PendingConsolidation:
		return pendingConsolidationRoot(&x), nil
	case Builder:
		return builderRoot(&x), nil
	case BuilderPendingWithdrawal:
		return builderPendingWithdrawalRoot(&x), nil
	case BuilderPendingPayment:
		return builderPendingPaymentRoot(&x), nil
	case Withdrawal:
		return withdrawalRoot(&x), nil
	case ExecutionPayloadBid:
		return bidRoot(&x), nil
	case BLSPubKey:
		return pubKeyRoot(&x), nil
	case BLSSignature:
		return signatureRoot(&x), nil
	}
	panic("unreachable: HashTreeRoot's type set")
}

// validatorRoot is the root of a Validator container: the leaf of the
// validator in the state's validators list.
func validatorRoot(v *Validator) Root {
	var leaves [8]Root
	validatorLeaves(v, &leaves)
	return merkleSmall(leaves[:], 3)
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
