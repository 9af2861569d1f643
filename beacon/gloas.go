package beacon

import (
	"github.com/ethereum/go-ethereum/common"
)

// GloasSpec is the consensus-specs release whose Gloas BeaconState this
// package decodes, encodes and hashes: the one Sepolia's Gloas fork
// (epoch 353024, fork version 0x90000076, 2026-10-06) runs, with the layout
// of @lodestar/types 1.50.0, the independent implementation the tests
// compare with. A later release that changes the layout is a change to this
// constant, to gloasFields and to the types below.
const GloasSpec = "v1.7.0-beta.0"

// BuilderIndex is a builder's position in the state's builder registry
// (Builders). The value BuilderIndexSelfBuild (2^64-1) in a bid marks a
// proposer that builds its own payload.
type BuilderIndex uint64

// BuilderIndexSelfBuild is BUILDER_INDEX_SELF_BUILD.
const BuilderIndexSelfBuild = BuilderIndex(1<<64 - 1)

// KZGCommitment is a blob's 48-byte KZG commitment.
type KZGCommitment [48]byte

// Bitvector is an SSZ Bitvector[N] in its SSZ form: ceil(N/8) bytes, bit i
// in byte i/8 at bit i%8, the unused high bits of the last byte zero.
type Bitvector []byte

// BitAt reports whether bit i is set; false when i is out of range.
func (b Bitvector) BitAt(i int) bool {
	if i < 0 || i/8 >= len(b) {
		return false
	}
	return b[i/8]&(1<<(i%8)) != 0
}

// Builder is an entry of gloas's builder registry: a staked party that
// bids to build execution payloads.
type Builder struct {
	PublicKey         BLSPubKey      // pubkey
	Version           uint8          // version
	ExecutionAddress  common.Address // execution_address
	Balance           Gwei           // balance
	DepositEpoch      Epoch          // deposit_epoch
	WithdrawableEpoch Epoch          // withdrawable_epoch
}

// BuilderPendingWithdrawal is a payment owed by a builder, waiting to be
// withdrawn to FeeRecipient.
type BuilderPendingWithdrawal struct {
	FeeRecipient common.Address // fee_recipient
	Amount       Gwei           // amount
	BuilderIndex BuilderIndex   // builder_index
}

// BuilderPendingPayment is a builder's payment for a slot of the last two
// epochs, with the attestation weight that backs it.
type BuilderPendingPayment struct {
	Weight        Gwei                     // weight
	Withdrawal    BuilderPendingWithdrawal // withdrawal
	ProposerIndex ValidatorIndex           // proposer_index
}

// Withdrawal is an execution-layer withdrawal (capella's Withdrawal).
type Withdrawal struct {
	Index          uint64         // index
	ValidatorIndex ValidatorIndex // validator_index
	Address        common.Address // address
	Amount         Gwei           // amount
}

// ExecutionPayloadBid is the builder's bid the latest block accepted
// (a progressive container in SSZ).
type ExecutionPayloadBid struct {
	ParentBlockHash       common.Hash     // parent_block_hash
	ParentBlockRoot       Root            // parent_block_root
	BlockHash             common.Hash     // block_hash
	PrevRandao            Root            // prev_randao
	FeeRecipient          common.Address  // fee_recipient
	GasLimit              uint64          // gas_limit
	BuilderIndex          BuilderIndex    // builder_index
	Slot                  Slot            // slot
	Value                 Gwei            // value
	ExecutionPayment      Gwei            // execution_payment
	BlobKZGCommitments    []KZGCommitment // blob_kzg_commitments (a progressive list)
	ExecutionRequestsRoot Root            // execution_requests_root
}

// PTCWindowLength is the length of gloas's ptc_window vector:
// (2 + MIN_SEED_LOOKAHEAD) * SLOTS_PER_EPOCH.
func (p Preset) PTCWindowLength() uint64 { return (2 + p.MinSeedLookahead) * p.SlotsPerEpoch }

// BuilderPendingPaymentsLength is the length of gloas's
// builder_pending_payments vector: 2 * SLOTS_PER_EPOCH.
func (p Preset) BuilderPendingPaymentsLength() uint64 { return 2 * p.SlotsPerEpoch }

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
// (GloasSpec's BeaconState): latest_block_hash, then capella's to fulu's
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
		field{name: "proposer_lookahead", ptr: &s.ProposerLookahead, vector: true, n: p.ProposerLookaheadLength()},
		// builders and builder_pending_withdrawals are progressive lists
		// without a limit in the spec; the registry limit bounds them here.
		field{name: "builders", ptr: &s.Builders, n: p.ValidatorRegistryLimit, progressive: true},
		field{name: "next_withdrawal_builder_index", ptr: (*uint64)(&s.NextWithdrawalBuilderIndex)},
		field{name: "execution_payload_availability", ptr: &s.ExecutionPayloadAvailability, vector: true, n: p.SlotsPerHistoricalRoot},
		field{name: "builder_pending_payments", ptr: &s.BuilderPendingPayments, vector: true, n: p.BuilderPendingPaymentsLength()},
		field{name: "builder_pending_withdrawals", ptr: &s.BuilderPendingWithdrawals, n: p.ValidatorRegistryLimit, progressive: true},
		field{name: "latest_execution_payload_bid", ptr: &s.LatestExecutionPayloadBid, n: p.MaxBlobCommitmentsPerBlock},
		field{name: "payload_expected_withdrawals", ptr: &s.PayloadExpectedWithdrawals, n: p.MaxWithdrawalsPerPayload, progressive: true},
		field{name: "ptc_window", ptr: &s.PTCWindow, vector: true, n: p.PTCWindowLength(), bits: p.PTCSize},
	)
	return f
}
