package beacon

import (
	"github.com/ethereum/go-ethereum/common"
)

// BuilderIndex is a builder's position in the state's builder registry
// (Builders). The value 2^64-1 (BUILDER_INDEX_SELF_BUILD) in a bid marks a
// proposer that builds its own payload.
type BuilderIndex uint64

// KZGCommitment is a blob's 48-byte KZG commitment.
type KZGCommitment [48]byte

// bitvector marks a state's Bitvector[N] field in its schema: ceil(N/8)
// bytes, bit i in byte i/8 at bit i%8, the unused high bits of the last
// byte zero.
type bitvector []byte

// Builder is an entry of gloas's builder registry: a staked party that
// bids to build execution payloads.
type Builder struct {
	// The builder's BLS public key (`pubkey`).
	PublicKey BLSPubKey `json:"pubkey"`
	// The builder's version byte (`version`).
	Version uint8 `json:"version,string"`
	// The execution-layer address the builder is paid out to.
	ExecutionAddress common.Address `json:"execution_address"`
	// The builder's stake.
	Balance Gwei `json:"balance,string"`
	// The epoch of the builder's deposit.
	DepositEpoch Epoch `json:"deposit_epoch,string"`
	// The epoch from which the builder's stake can be withdrawn.
	WithdrawableEpoch Epoch `json:"withdrawable_epoch,string"`
}

// BuilderPendingWithdrawal is a payment owed by a builder, waiting to be
// withdrawn to FeeRecipient.
type BuilderPendingWithdrawal struct {
	// The execution-layer address the payment goes to.
	FeeRecipient common.Address `json:"fee_recipient"`
	// The payment.
	Amount Gwei `json:"amount,string"`
	// The builder that owes it.
	BuilderIndex BuilderIndex `json:"builder_index,string"`
}

// BuilderPendingPayment is a builder's payment for a slot of the last two
// epochs, with the attestation weight that backs it.
type BuilderPendingPayment struct {
	// The attestation weight (effective balance) that backs the payment.
	Weight Gwei `json:"weight,string"`
	// The payment, withdrawn once the weight reaches the quorum.
	Withdrawal BuilderPendingWithdrawal `json:"withdrawal"`
	// The proposer of the slot.
	ProposerIndex ValidatorIndex `json:"proposer_index,string"`
}

// Withdrawal is an execution-layer withdrawal (capella's Withdrawal).
type Withdrawal struct {
	// The withdrawal's sequence number.
	Index uint64 `json:"index,string"`
	// The validator whose balance is withdrawn.
	ValidatorIndex ValidatorIndex `json:"validator_index,string"`
	// The execution-layer address that receives it.
	Address common.Address `json:"address"`
	// The amount withdrawn.
	Amount Gwei `json:"amount,string"`
}

// ExecutionPayloadBid is the builder's bid the latest block accepted
// (a progressive container in SSZ).
type ExecutionPayloadBid struct {
	// The execution block hash the payload builds on.
	ParentBlockHash common.Hash // parent_block_hash
	// The beacon block root the bid builds on.
	ParentBlockRoot Root // parent_block_root
	// The execution block hash of the payload the builder commits to.
	BlockHash common.Hash // block_hash
	// The randomness the payload uses.
	PrevRandao Root // prev_randao
	// The execution-layer address the proposer is paid at.
	FeeRecipient common.Address // fee_recipient
	// The payload's gas limit.
	GasLimit uint64 // gas_limit
	// The bidding builder (BUILDER_INDEX_SELF_BUILD when the proposer builds).
	BuilderIndex BuilderIndex // builder_index
	// The slot of the bid.
	Slot Slot // slot
	// What the builder pays the proposer through the beacon state if the
	// bid is accepted.
	Value Gwei // value
	// The part of the payment made on the execution layer, not through the
	// beacon state.
	ExecutionPayment Gwei // execution_payment
	// The commitments to the payload's blobs.
	BlobKZGCommitments []KZGCommitment // blob_kzg_commitments (a progressive list)
	// The root of the payload's execution requests.
	ExecutionRequestsRoot Root // execution_requests_root
}

// ptcWindowLength is the length of gloas's ptc_window vector:
// (2 + MIN_SEED_LOOKAHEAD) * SLOTS_PER_EPOCH.
func (p Preset) ptcWindowLength() uint64 { return (2 + p.MinSeedLookahead) * p.SlotsPerEpoch }

// builderPendingPaymentsLength is the length of gloas's
// builder_pending_payments vector: 2 * SLOTS_PER_EPOCH.
func (p Preset) builderPendingPaymentsLength() uint64 { return 2 * p.SlotsPerEpoch }

// gloasZero reports whether no gloas field is set.
func (s *State) gloasZero() bool {
	b := &s.LatestExecutionPayloadBid
	return s.LatestBlockHash == common.Hash{} && s.Builders == nil && s.NextWithdrawalBuilderIndex == 0 &&
		s.ExecutionPayloadAvailability == nil && s.BuilderPendingPayments == nil && s.BuilderPendingWithdrawals == nil &&
		s.PayloadExpectedWithdrawals == nil && s.PTCWindow == nil &&
		b.ParentBlockHash == common.Hash{} && b.ParentBlockRoot == Root{} && b.BlockHash == common.Hash{} &&
		b.PrevRandao == Root{} && b.FeeRecipient == common.Address{} && b.GasLimit == 0 && b.BuilderIndex == 0 &&
		b.Slot == 0 && b.Value == 0 && b.ExecutionPayment == 0 && b.BlobKZGCommitments == nil && b.ExecutionRequestsRoot == Root{}
}

// gloasFields returns the fields of a gloas state after
// current_sync_committee/next_sync_committee up to the end, in SSZ order
// (gloasSpec's BeaconState): latest_block_hash, then capella's to fulu's
// fields, then the builder fields. The registry-sized and pending lists
// are progressive lists (EIP-7916); their n stays the preset's limit, which
// bounds decoding and Validate but not the tree's shape.
func (s *State) gloasFields(f []field) []field {
	p := s.preset()
	f = append(f,
		field{name: "latest_block_hash", ptr: (*Root)(&s.LatestBlockHash)},
		field{name: "next_withdrawal_index", ptr: &s.NextWithdrawalIndex},
		field{name: "next_withdrawal_validator_index", ptr: (*uint64)(&s.NextWithdrawalValidatorIndex)},
		field{name: "historical_summaries", ptr: &s.HistoricalSummaries, n: p.HistoricalRootsLimit},
		field{name: "deposit_requests_start_index", ptr: &s.DepositRequestsStartIndex},
		field{name: "deposit_balance_to_consume", ptr: (*uint64)(&s.DepositBalanceToConsume)},
		field{name: "exit_balance_to_consume", ptr: (*uint64)(&s.ExitBalanceToConsume)},
		field{name: "earliest_exit_epoch", ptr: (*uint64)(&s.EarliestExitEpoch)},
		field{name: "consolidation_balance_to_consume", ptr: (*uint64)(&s.ConsolidationBalanceToConsume)},
		field{name: "earliest_consolidation_epoch", ptr: (*uint64)(&s.EarliestConsolidationEpoch)},
		field{name: "pending_deposits", ptr: &s.PendingDeposits, n: p.PendingDepositsLimit, progressive: true},
		field{name: "pending_partial_withdrawals", ptr: &s.PendingPartialWithdrawals, n: p.PendingPartialWithdrawalsLimit, progressive: true},
		field{name: "pending_consolidations", ptr: &s.PendingConsolidations, n: p.PendingConsolidationsLimit, progressive: true},
		field{name: "proposer_lookahead", ptr: &s.ProposerLookahead, vector: true, n: p.proposerLookaheadLength()},
		// builders and builder_pending_withdrawals are progressive lists
		// without a limit in the spec; the registry limit bounds them here.
		field{name: "builders", ptr: &s.Builders, n: p.ValidatorRegistryLimit, progressive: true},
		field{name: "next_withdrawal_builder_index", ptr: (*uint64)(&s.NextWithdrawalBuilderIndex)},
		field{name: "execution_payload_availability", ptr: (*bitvector)(&s.ExecutionPayloadAvailability), vector: true, n: p.SlotsPerHistoricalRoot},
		field{name: "builder_pending_payments", ptr: &s.BuilderPendingPayments, vector: true, n: p.builderPendingPaymentsLength()},
		field{name: "builder_pending_withdrawals", ptr: &s.BuilderPendingWithdrawals, n: p.ValidatorRegistryLimit, progressive: true},
		field{name: "latest_execution_payload_bid", ptr: &s.LatestExecutionPayloadBid, n: p.MaxBlobCommitmentsPerBlock},
		field{name: "payload_expected_withdrawals", ptr: &s.PayloadExpectedWithdrawals, n: p.MaxWithdrawalsPerPayload, progressive: true},
		field{name: "ptc_window", ptr: &s.PTCWindow, vector: true, n: p.ptcWindowLength(), bits: p.PTCSize},
	)
	return f
}
