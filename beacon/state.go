package beacon

// State is a BeaconState of any fork from phase0 to fulu.
//
// One struct carries the fields of every fork; Version says which of them
// belong to this state. The fields every fork has (slot, fork, validators,
// balances, checkpoints, …) are read the same way whatever the fork; a field
// that a fork does not have is empty (nil or zero) in a state of that fork,
// and its comment names the fork that introduced it. The encoders refuse a
// state that sets a field its fork does not have, so nothing is dropped
// silently.
//
// Vectors (BlockRoots, StateRoots, RandaoMixes, Slashings, the sync
// committees' keys, ProposerLookahead) must have exactly the preset's
// length; lists must stay within the preset's limits. Decoders guarantee
// both; encoders and HashTreeRoot check them.
type State struct {
	// Version is the state's fork.
	Version Version
	// Preset is the preset the state was decoded with; the zero Preset
	// means MainnetPreset.
	Preset Preset

	GenesisTime           uint64
	GenesisValidatorsRoot Root
	Slot                  Slot
	Fork                  Fork
	LatestBlockHeader     BeaconBlockHeader
	BlockRoots            []Root // SLOTS_PER_HISTORICAL_ROOT roots
	StateRoots            []Root // SLOTS_PER_HISTORICAL_ROOT roots
	// HistoricalRoots is frozen since capella (HistoricalSummaries
	// continues it).
	HistoricalRoots  []Root
	Eth1Data         Eth1Data
	Eth1DataVotes    []Eth1Data
	Eth1DepositIndex uint64
	Validators       []Validator
	Balances         []Gwei
	RandaoMixes      []Root // EPOCHS_PER_HISTORICAL_VECTOR mixes
	Slashings        []Gwei // EPOCHS_PER_SLASHINGS_VECTOR sums

	// PreviousEpochAttestations and CurrentEpochAttestations: phase0 only.
	PreviousEpochAttestations []PendingAttestation
	CurrentEpochAttestations  []PendingAttestation

	// PreviousEpochParticipation and CurrentEpochParticipation: altair and
	// later (they replace phase0's epoch attestations), one per validator.
	PreviousEpochParticipation []ParticipationFlags
	CurrentEpochParticipation  []ParticipationFlags

	JustificationBits           JustificationBits
	PreviousJustifiedCheckpoint Checkpoint
	CurrentJustifiedCheckpoint  Checkpoint
	FinalizedCheckpoint         Checkpoint

	// InactivityScores, CurrentSyncCommittee, NextSyncCommittee: altair and
	// later.
	InactivityScores     []uint64
	CurrentSyncCommittee SyncCommittee
	NextSyncCommittee    SyncCommittee

	// LatestExecutionPayloadHeader: bellatrix and later.
	LatestExecutionPayloadHeader ExecutionPayloadHeader

	// NextWithdrawalIndex, NextWithdrawalValidatorIndex,
	// HistoricalSummaries: capella and later.
	NextWithdrawalIndex          uint64
	NextWithdrawalValidatorIndex ValidatorIndex
	HistoricalSummaries          []HistoricalSummary

	// Electra and later.
	DepositRequestsStartIndex     uint64
	DepositBalanceToConsume       Gwei
	ExitBalanceToConsume          Gwei
	EarliestExitEpoch             Epoch
	ConsolidationBalanceToConsume Gwei
	EarliestConsolidationEpoch    Epoch
	PendingDeposits               []PendingDeposit
	PendingPartialWithdrawals     []PendingPartialWithdrawal
	PendingConsolidations         []PendingConsolidation

	// ProposerLookahead: fulu and later; (MIN_SEED_LOOKAHEAD+1) *
	// SLOTS_PER_EPOCH proposer indices, from the current epoch on.
	ProposerLookahead []ValidatorIndex
}

// preset returns the state's preset, MainnetPreset for the zero value.
func (s *State) preset() Preset {
	if s.Preset == (Preset{}) {
		return MainnetPreset()
	}
	return s.Preset
}

// Epoch returns the epoch of the state's slot.
func (s *State) Epoch() Epoch {
	p := s.preset()
	return Epoch(uint64(s.Slot) / p.SlotsPerEpoch)
}
