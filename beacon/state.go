package beacon

import "github.com/ethereum/go-ethereum/common"

// State is a BeaconState of any fork from phase0 to gloas.
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
// committees' keys, ProposerLookahead, gloas's ExecutionPayloadAvailability,
// BuilderPendingPayments and PTCWindow) must have exactly the preset's
// length; lists must stay within the preset's limits. Decoders guarantee
// both; encoders and HashTreeRoot check them.
type State struct {
	// Version is the state's fork.
	Version Version
	// Preset is the preset the state was decoded with; the zero Preset
	// means MainnetPreset.
	Preset Preset

	// The consensus specs' BeaconState fields follow, in their SSZ order,
	// each named in Go case (genesis_time is GenesisTime).

	// GenesisTime is the chain's genesis, in Unix seconds.
	GenesisTime uint64
	// GenesisValidatorsRoot is the hash tree root of the genesis
	// validator registry (it identifies the chain in signing domains).
	GenesisValidatorsRoot Root
	// Slot is the state's slot.
	Slot Slot
	// Fork is the fork the state is in.
	Fork Fork
	// LatestBlockHeader is the header of the latest block processed.
	LatestBlockHeader BeaconBlockHeader
	// BlockRoots are the last SLOTS_PER_HISTORICAL_ROOT block roots, a
	// ring indexed by slot.
	BlockRoots []Root
	// StateRoots are the last SLOTS_PER_HISTORICAL_ROOT state roots, a
	// ring indexed by slot.
	StateRoots []Root
	// HistoricalRoots are the roots of past batches of BlockRoots and
	// StateRoots; frozen since capella (HistoricalSummaries continues it).
	HistoricalRoots []Root
	// Eth1Data is the eth1 deposit contract state last agreed on.
	Eth1Data Eth1Data
	// Eth1DataVotes are the votes of the current voting period.
	Eth1DataVotes []Eth1Data
	// Eth1DepositIndex is the number of eth1 deposits processed.
	Eth1DepositIndex uint64
	// Validators is the validator registry.
	Validators []Validator
	// Balances are the validators' balances in gwei, one per validator.
	Balances []Gwei
	// RandaoMixes are the last EPOCHS_PER_HISTORICAL_VECTOR RANDAO mixes,
	// a ring indexed by epoch.
	RandaoMixes []Root
	// Slashings are the sums of the balances slashed in the last
	// EPOCHS_PER_SLASHINGS_VECTOR epochs, a ring indexed by epoch.
	Slashings []Gwei

	// PreviousEpochAttestations are the previous epoch's attestations:
	// phase0 only.
	PreviousEpochAttestations []PendingAttestation
	// CurrentEpochAttestations are the current epoch's attestations:
	// phase0 only.
	CurrentEpochAttestations []PendingAttestation

	// PreviousEpochParticipation holds each validator's participation
	// flags for the previous epoch: altair and later (it replaces
	// phase0's epoch attestations), one per validator.
	PreviousEpochParticipation []uint8
	// CurrentEpochParticipation holds each validator's participation
	// flags for the current epoch: altair and later, one per validator.
	CurrentEpochParticipation []uint8

	// JustificationBits says which of the last four epochs were justified.
	JustificationBits uint8
	// PreviousJustifiedCheckpoint is the justified checkpoint before the
	// current one.
	PreviousJustifiedCheckpoint Checkpoint
	// CurrentJustifiedCheckpoint is the latest justified checkpoint.
	CurrentJustifiedCheckpoint Checkpoint
	// FinalizedCheckpoint is the latest finalized checkpoint.
	FinalizedCheckpoint Checkpoint

	// InactivityScores holds each validator's inactivity score: altair
	// and later, one per validator.
	InactivityScores []uint64
	// CurrentSyncCommittee is the sync committee of the current period:
	// altair and later.
	CurrentSyncCommittee SyncCommittee
	// NextSyncCommittee is the sync committee of the next period: altair
	// and later.
	NextSyncCommittee SyncCommittee

	// LatestExecutionPayloadHeader is the header of the latest execution
	// payload: bellatrix to fulu (gloas has LatestBlockHash and
	// LatestExecutionPayloadBid instead).
	LatestExecutionPayloadHeader ExecutionPayloadHeader

	// NextWithdrawalIndex is the index of the next withdrawal: capella
	// and later.
	NextWithdrawalIndex uint64
	// NextWithdrawalValidatorIndex is the validator the next withdrawal
	// sweep starts at: capella and later.
	NextWithdrawalValidatorIndex ValidatorIndex
	// HistoricalSummaries continue HistoricalRoots, a summary per
	// SLOTS_PER_HISTORICAL_ROOT slots: capella and later.
	HistoricalSummaries []HistoricalSummary

	// DepositRequestsStartIndex is the index of the first deposit
	// request (UNSET_DEPOSIT_REQUESTS_START_INDEX until one came):
	// electra and later.
	DepositRequestsStartIndex uint64
	// DepositBalanceToConsume is the deposit churn left over: electra
	// and later.
	DepositBalanceToConsume Gwei
	// ExitBalanceToConsume is the exit churn left in EarliestExitEpoch:
	// electra and later.
	ExitBalanceToConsume Gwei
	// EarliestExitEpoch is the earliest epoch a new exit can take:
	// electra and later.
	EarliestExitEpoch Epoch
	// ConsolidationBalanceToConsume is the consolidation churn left in
	// EarliestConsolidationEpoch: electra and later.
	ConsolidationBalanceToConsume Gwei
	// EarliestConsolidationEpoch is the earliest epoch a new
	// consolidation can take: electra and later.
	EarliestConsolidationEpoch Epoch
	// PendingDeposits are the deposits waiting to be applied: electra and
	// later.
	PendingDeposits []PendingDeposit
	// PendingPartialWithdrawals are the partial withdrawals waiting to be
	// processed: electra and later.
	PendingPartialWithdrawals []PendingPartialWithdrawal
	// PendingConsolidations are the consolidations waiting to be
	// processed: electra and later.
	PendingConsolidations []PendingConsolidation

	// ProposerLookahead holds the proposer indices of
	// (MIN_SEED_LOOKAHEAD+1) * SLOTS_PER_EPOCH slots from the current
	// epoch's first on: fulu and later.
	ProposerLookahead []ValidatorIndex

	// The fields gloas adds (EIP-7732): gloas and later. LatestBlockHash
	// comes between NextSyncCommittee and NextWithdrawalIndex in the SSZ
	// order, in place of LatestExecutionPayloadHeader, which a gloas
	// state does not have; the others come last, in this order.

	// LatestBlockHash is the hash of the latest execution payload (it
	// replaces the execution payload header).
	LatestBlockHash common.Hash
	// Builders is the builder registry.
	Builders []Builder
	// NextWithdrawalBuilderIndex is the builder the next withdrawal
	// sweep starts at.
	NextWithdrawalBuilderIndex BuilderIndex
	// ExecutionPayloadAvailability has a bit per slot of the last
	// SLOTS_PER_HISTORICAL_ROOT, whether its payload was revealed: an SSZ
	// Bitvector in its SSZ form, bit i in byte i/8 at bit i%8
	// (b[i/8]>>(i%8)&1).
	ExecutionPayloadAvailability []byte
	// BuilderPendingPayments holds the builder payments of the last
	// 2 * SLOTS_PER_EPOCH slots.
	BuilderPendingPayments []BuilderPendingPayment
	// BuilderPendingWithdrawals are the builder payments waiting to be
	// withdrawn.
	BuilderPendingWithdrawals []BuilderPendingWithdrawal
	// LatestExecutionPayloadBid is the bid of the latest block.
	LatestExecutionPayloadBid ExecutionPayloadBid
	// PayloadExpectedWithdrawals are the withdrawals the next payload
	// must carry.
	PayloadExpectedWithdrawals []Withdrawal
	// PTCWindow holds the payload timeliness committees (PTC_SIZE
	// validator indices each) of (2 + MIN_SEED_LOOKAHEAD) * SLOTS_PER_EPOCH
	// slots.
	PTCWindow [][]ValidatorIndex
}

// preset returns the state's preset, MainnetPreset for the zero value.
func (s *State) preset() Preset {
	if s.Preset == (Preset{}) {
		return MainnetPreset()
	}
	return s.Preset
}
