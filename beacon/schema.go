package beacon

// The codecs (SSZ, JSON, hash tree root) walk a state through its schema:
// the ordered list of the fields its fork has, as the consensus specs list
// them, each with its JSON name, a pointer to the State's field, and for
// collections the vector length or the list limit. The top level has at
// most 37 fields, so a type switch per field costs nothing measurable; the
// large collections (validators, balances, participation, inactivity
// scores) have their own tight loops in each codec.

// field is one field of a state's schema.
//
// ptr is one of:
//
//	*uint64 (also Slot, Epoch, Gwei, ValidatorIndex, converted), *Root,
//	*Fork, *BeaconBlockHeader, *Eth1Data, *Checkpoint, *uint8,
//	*SyncCommittee (n = SYNC_COMMITTEE_SIZE),
//	*ExecutionPayloadHeader (its layout follows the state's Version;
//	n = MAX_EXTRA_DATA_BYTES),
//	*[]Root, *[]Gwei, *[]ValidatorIndex (vector or list, see vector/n),
//	*[]Eth1Data, *[]Validator, *[]PendingAttestation (element bitlist
//	limit: MAX_VALIDATORS_PER_COMMITTEE), *[]uint8,
//	*[]uint64, *[]HistoricalSummary, *[]PendingDeposit,
//	*[]PendingPartialWithdrawal, *[]PendingConsolidation;
//	gloas adds *bitvector (n bits), *[]Builder, *[]BuilderPendingPayment,
//	*[]BuilderPendingWithdrawal, *ExecutionPayloadBid (n =
//	MAX_BLOB_COMMITMENTS_PER_BLOCK), *[]Withdrawal and *[][]ValidatorIndex
//	(n vectors of bits indices each), see types_gloas.go.
type field struct {
	name string // the JSON name, as the consensus specs spell the field
	ptr  any
	// vector marks an SSZ Vector of exactly n elements; otherwise a
	// collection is a List of at most n elements.
	vector bool
	n      uint64
	// bits is the bitlist limit of each element's aggregation_bits
	// (MAX_VALIDATORS_PER_COMMITTEE), for *[]PendingAttestation; the
	// inner vector's length (PTC_SIZE) for *[][]ValidatorIndex.
	bits uint64
	// progressive marks a ProgressiveList (EIP-7916, gloas and later):
	// hashed with merkleize_progressive; n still bounds its length.
	progressive bool
}

// fields returns the schema of s for its Version and preset, in SSZ order.
// The caller has checked that s.Version is known.
func (s *State) fields() []field {
	p := s.preset()
	v := s.Version
	f := make([]field, 0, 46)
	g := v >= Gloas // progressive registry lists
	f = append(f,
		field{name: "genesis_time", ptr: &s.GenesisTime},
		field{name: "genesis_validators_root", ptr: &s.GenesisValidatorsRoot},
		field{name: "slot", ptr: (*uint64)(&s.Slot)},
		field{name: "fork", ptr: &s.Fork},
		field{name: "latest_block_header", ptr: &s.LatestBlockHeader},
		field{name: "block_roots", ptr: &s.BlockRoots, vector: true, n: p.SlotsPerHistoricalRoot},
		field{name: "state_roots", ptr: &s.StateRoots, vector: true, n: p.SlotsPerHistoricalRoot},
		field{name: "historical_roots", ptr: &s.HistoricalRoots, n: p.HistoricalRootsLimit},
		field{name: "eth1_data", ptr: &s.Eth1Data},
		field{name: "eth1_data_votes", ptr: &s.Eth1DataVotes, n: p.eth1DataVotesLimit()},
		field{name: "eth1_deposit_index", ptr: &s.Eth1DepositIndex},
		field{name: "validators", ptr: &s.Validators, n: p.ValidatorRegistryLimit, progressive: g},
		field{name: "balances", ptr: &s.Balances, n: p.ValidatorRegistryLimit, progressive: g},
		field{name: "randao_mixes", ptr: &s.RandaoMixes, vector: true, n: p.EpochsPerHistoricalVector},
		field{name: "slashings", ptr: &s.Slashings, vector: true, n: p.EpochsPerSlashingsVector},
	)
	if v == Phase0 {
		f = append(f,
			field{name: "previous_epoch_attestations", ptr: &s.PreviousEpochAttestations, n: p.epochAttestationsLimit(), bits: p.MaxValidatorsPerCommittee},
			field{name: "current_epoch_attestations", ptr: &s.CurrentEpochAttestations, n: p.epochAttestationsLimit(), bits: p.MaxValidatorsPerCommittee},
		)
	} else {
		f = append(f,
			field{name: "previous_epoch_participation", ptr: &s.PreviousEpochParticipation, n: p.ValidatorRegistryLimit, progressive: g},
			field{name: "current_epoch_participation", ptr: &s.CurrentEpochParticipation, n: p.ValidatorRegistryLimit, progressive: g},
		)
	}
	f = append(f,
		field{name: "justification_bits", ptr: &s.JustificationBits},
		field{name: "previous_justified_checkpoint", ptr: &s.PreviousJustifiedCheckpoint},
		field{name: "current_justified_checkpoint", ptr: &s.CurrentJustifiedCheckpoint},
		field{name: "finalized_checkpoint", ptr: &s.FinalizedCheckpoint},
	)
	if v >= Altair {
		f = append(f,
			field{name: "inactivity_scores", ptr: &s.InactivityScores, n: p.ValidatorRegistryLimit, progressive: g},
			field{name: "current_sync_committee", ptr: &s.CurrentSyncCommittee, n: p.SyncCommitteeSize},
			field{name: "next_sync_committee", ptr: &s.NextSyncCommittee, n: p.SyncCommitteeSize},
		)
	}
	if g {
		return s.gloasFields(f)
	}
	if v >= Bellatrix {
		f = append(f, field{name: "latest_execution_payload_header", ptr: &s.LatestExecutionPayloadHeader, n: p.MaxExtraDataBytes})
	}
	if v >= Capella {
		f = append(f,
			field{name: "next_withdrawal_index", ptr: &s.NextWithdrawalIndex},
			field{name: "next_withdrawal_validator_index", ptr: (*uint64)(&s.NextWithdrawalValidatorIndex)},
			field{name: "historical_summaries", ptr: &s.HistoricalSummaries, n: p.HistoricalRootsLimit},
		)
	}
	if v >= Electra {
		f = append(f,
			field{name: "deposit_requests_start_index", ptr: &s.DepositRequestsStartIndex},
			field{name: "deposit_balance_to_consume", ptr: (*uint64)(&s.DepositBalanceToConsume)},
			field{name: "exit_balance_to_consume", ptr: (*uint64)(&s.ExitBalanceToConsume)},
			field{name: "earliest_exit_epoch", ptr: (*uint64)(&s.EarliestExitEpoch)},
			field{name: "consolidation_balance_to_consume", ptr: (*uint64)(&s.ConsolidationBalanceToConsume)},
			field{name: "earliest_consolidation_epoch", ptr: (*uint64)(&s.EarliestConsolidationEpoch)},
			field{name: "pending_deposits", ptr: &s.PendingDeposits, n: p.PendingDepositsLimit},
			field{name: "pending_partial_withdrawals", ptr: &s.PendingPartialWithdrawals, n: p.PendingPartialWithdrawalsLimit},
			field{name: "pending_consolidations", ptr: &s.PendingConsolidations, n: p.PendingConsolidationsLimit},
		)
	}
	if v >= Fulu {
		f = append(f, field{name: "proposer_lookahead", ptr: &s.ProposerLookahead, vector: true, n: p.proposerLookaheadLength()})
	}
	return f
}
