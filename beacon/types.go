package beacon

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// Slot is a consensus slot number (12 seconds on mainnet).
type Slot uint64

// Epoch is a consensus epoch number (SLOTS_PER_EPOCH slots).
type Epoch uint64

// Gwei is an amount of ether in gwei (10^9 wei): balances and effective
// balances.
type Gwei uint64

// ValidatorIndex is a validator's position in the state's validator list.
type ValidatorIndex uint64

// FarFutureEpoch is FAR_FUTURE_EPOCH, the exit and withdrawable epoch of a
// validator that has not exited.
const FarFutureEpoch = Epoch(1<<64 - 1)

// Root is a 32-byte SSZ hash tree root, or any other Bytes32 of the state.
// It is go-ethereum's common.Hash, so a beacon block root read on the
// execution layer (EIP-4788) compares with one computed here, and it prints
// and marshals as the beacon API writes it: "0x" and 64 lower-case hex
// digits (%x prints the bare digits).
type Root = common.Hash

// ForkVersion is a 4-byte fork version (Version in the consensus specs),
// such as 0x05000000 for electra on mainnet.
type ForkVersion [4]byte

// BLSPubKey is a 48-byte compressed BLS12-381 public key.
type BLSPubKey [48]byte

// BLSSignature is a 96-byte compressed BLS12-381 signature.
type BLSSignature [96]byte

// Bitlist is an SSZ Bitlist in its serialized form: the bits little-endian
// in each byte, followed by a single 1 bit that marks the length.
type Bitlist []byte

// Fork is the state's fork: the version before the last fork, the current
// version, and the epoch of the last fork.
//
// The fields of this package's containers are the consensus specs' fields,
// in their order, named in Go case (previous_version is PreviousVersion);
// where a Go name differs from that, its comment gives the specs' name.
type Fork struct {
	// PreviousVersion is the fork version before the last fork.
	PreviousVersion ForkVersion `json:"previous_version"`
	// CurrentVersion is the fork version in force.
	CurrentVersion ForkVersion `json:"current_version"`
	// Epoch is the epoch of the last fork.
	Epoch Epoch `json:"epoch,string"`
}

// Checkpoint is an epoch and the root of its boundary block.
type Checkpoint struct {
	// Epoch is the checkpoint's epoch.
	Epoch Epoch `json:"epoch,string"`
	// Root is the root of the epoch's boundary block.
	Root Root `json:"root"`
}

// BeaconBlockHeader is a block header; the state keeps the latest one.
type BeaconBlockHeader struct {
	// Slot is the block's slot.
	Slot Slot `json:"slot,string"`
	// ProposerIndex is the index of the validator that proposed it.
	ProposerIndex ValidatorIndex `json:"proposer_index,string"`
	// ParentRoot is the hash tree root of the parent block.
	ParentRoot Root `json:"parent_root"`
	// StateRoot is the hash tree root of the post-state (zero in the
	// state's latest_block_header until the next slot fills it in).
	StateRoot Root `json:"state_root"`
	// BodyRoot is the hash tree root of the block's body.
	BodyRoot Root `json:"body_root"`
}

// Eth1Data is a vote on the deposit contract's state.
type Eth1Data struct {
	// DepositRoot is the deposit contract's deposit tree root.
	DepositRoot Root `json:"deposit_root"`
	// DepositCount is the number of deposits the contract had made.
	DepositCount uint64 `json:"deposit_count,string"`
	// BlockHash is the hash of the execution block voted for.
	BlockHash Root `json:"block_hash"`
}

// Validator is one entry of the validator registry (121 bytes in SSZ).
type Validator struct {
	// PublicKey is the validator's BLS public key (`pubkey` in the
	// consensus specs).
	PublicKey BLSPubKey `json:"pubkey"`
	// WithdrawalCredentials is the 0x00 (BLS), 0x01 or 0x02 (execution
	// address) prefix and the withdrawal key's hash or the address.
	WithdrawalCredentials Root `json:"withdrawal_credentials"`
	// EffectiveBalance is the balance that counts for rewards and
	// committees, in gwei.
	EffectiveBalance Gwei `json:"effective_balance,string"`
	// Slashed is true once the validator has been slashed.
	Slashed bool `json:"slashed"`
	// ActivationEligibilityEpoch is when it became eligible to join the
	// activation queue (FarFutureEpoch before).
	ActivationEligibilityEpoch Epoch `json:"activation_eligibility_epoch,string"`
	// ActivationEpoch is when it became (or becomes) active.
	ActivationEpoch Epoch `json:"activation_epoch,string"`
	// ExitEpoch is when it exits (FarFutureEpoch when it has not).
	ExitEpoch Epoch `json:"exit_epoch,string"`
	// WithdrawableEpoch is when its balance may be withdrawn
	// (FarFutureEpoch when not yet set).
	WithdrawableEpoch Epoch `json:"withdrawable_epoch,string"`
}

// AttestationData is what an attestation votes for.
type AttestationData struct {
	// Slot is the slot attested to.
	Slot Slot `json:"slot,string"`
	// Index is the committee's index in the slot (a CommitteeIndex in
	// the consensus specs).
	Index uint64 `json:"index,string"`
	// BeaconBlockRoot is the head block's root (the LMD GHOST vote).
	BeaconBlockRoot Root `json:"beacon_block_root"`
	// Source is the justified checkpoint (the FFG source).
	Source Checkpoint `json:"source"`
	// Target is the checkpoint voted for (the FFG target).
	Target Checkpoint `json:"target"`
}

// PendingAttestation is a phase0 attestation kept in the state until the
// end of the next epoch.
type PendingAttestation struct {
	// AggregationBits has a bit per committee member that attested: a
	// Bitlist[MAX_VALIDATORS_PER_COMMITTEE].
	AggregationBits Bitlist `json:"aggregation_bits"`
	// Data is what was attested to.
	Data AttestationData `json:"data"`
	// InclusionDelay is the number of slots until the attestation was
	// included in a block.
	InclusionDelay Slot `json:"inclusion_delay,string"`
	// ProposerIndex is the index of the proposer that included it.
	ProposerIndex ValidatorIndex `json:"proposer_index,string"`
}

// SyncCommittee is an altair sync committee: SYNC_COMMITTEE_SIZE public
// keys and their aggregate.
type SyncCommittee struct {
	// PublicKeys are the members' public keys, exactly
	// SYNC_COMMITTEE_SIZE of them (`pubkeys` in the consensus specs).
	PublicKeys []BLSPubKey `json:"pubkeys"`
	// AggregatePublicKey is the aggregate of PublicKeys
	// (`aggregate_pubkey` in the consensus specs).
	AggregatePublicKey BLSPubKey `json:"aggregate_pubkey"`
}

// ExecutionPayloadHeader is the header of the latest execution payload
// (bellatrix to fulu; a gloas state has none). One type serves every fork: WithdrawalsRoot is
// part of the header from capella on, BlobGasUsed and ExcessBlobGas from
// deneb on; before that they are zero and are neither encoded nor hashed.
type ExecutionPayloadHeader struct {
	// ParentHash is the parent execution block's hash.
	ParentHash common.Hash
	// FeeRecipient is the address that receives the priority fees.
	FeeRecipient common.Address
	// StateRoot is the execution state root.
	StateRoot Root
	// ReceiptsRoot is the root of the block's receipts.
	ReceiptsRoot Root
	// LogsBloom is the bloom filter of the block's logs.
	LogsBloom [256]byte
	// PrevRandao is the beacon chain's RANDAO mix the block used.
	PrevRandao Root
	// BlockNumber is the execution block number.
	BlockNumber uint64
	// GasLimit is the block's gas limit.
	GasLimit uint64
	// GasUsed is the gas the block used.
	GasUsed uint64
	// Timestamp is the block's Unix time in seconds.
	Timestamp uint64
	// ExtraData is the block's extra data, at most MAX_EXTRA_DATA_BYTES.
	ExtraData []byte
	// BaseFeePerGas is the block's base fee in wei (a uint256).
	BaseFeePerGas uint256.Int
	// BlockHash is the execution block's hash.
	BlockHash common.Hash
	// TransactionsRoot is the hash tree root of the block's
	// transactions.
	TransactionsRoot Root
	// WithdrawalsRoot is the hash tree root of the block's withdrawals:
	// capella and later.
	WithdrawalsRoot Root
	// BlobGasUsed is the blob gas the block used: deneb and later.
	BlobGasUsed uint64
	// ExcessBlobGas is the blob gas beyond the target carried over:
	// deneb and later.
	ExcessBlobGas uint64
}

// HistoricalSummary is a capella summary of SLOTS_PER_HISTORICAL_ROOT
// block and state roots.
type HistoricalSummary struct {
	// BlockSummaryRoot is the hash tree root of the period's block roots.
	BlockSummaryRoot Root `json:"block_summary_root"`
	// StateSummaryRoot is the hash tree root of the period's state roots.
	StateSummaryRoot Root `json:"state_summary_root"`
}

// PendingDeposit is an electra deposit waiting to be applied.
type PendingDeposit struct {
	// PublicKey is the depositing validator's key (`pubkey` in the
	// consensus specs).
	PublicKey BLSPubKey `json:"pubkey"`
	// WithdrawalCredentials are the deposit's withdrawal credentials.
	WithdrawalCredentials Root `json:"withdrawal_credentials"`
	// Amount is the deposit in gwei.
	Amount Gwei `json:"amount,string"`
	// Signature is the deposit message's BLS signature.
	Signature BLSSignature `json:"signature"`
	// Slot is the slot of the block that carried the deposit request
	// (GENESIS_SLOT for deposits from the eth1 bridge).
	Slot Slot `json:"slot,string"`
}

// PendingPartialWithdrawal is an electra partial withdrawal waiting to be
// processed.
type PendingPartialWithdrawal struct {
	// ValidatorIndex is the withdrawing validator's index.
	ValidatorIndex ValidatorIndex `json:"validator_index,string"`
	// Amount is the amount to withdraw in gwei.
	Amount Gwei `json:"amount,string"`
	// WithdrawableEpoch is the first epoch it may be processed.
	WithdrawableEpoch Epoch `json:"withdrawable_epoch,string"`
}

// PendingConsolidation is an electra consolidation waiting to be processed.
type PendingConsolidation struct {
	// SourceIndex is the validator whose balance moves.
	SourceIndex ValidatorIndex `json:"source_index,string"`
	// TargetIndex is the validator that receives it.
	TargetIndex ValidatorIndex `json:"target_index,string"`
}
