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
type Root [32]byte

// ForkVersion is a 4-byte fork version (Version in the consensus specs),
// such as 0x05000000 for electra on mainnet.
type ForkVersion [4]byte

// BLSPubKey is a 48-byte compressed BLS12-381 public key.
type BLSPubKey [48]byte

// BLSSignature is a 96-byte compressed BLS12-381 signature.
type BLSSignature [96]byte

// ParticipationFlags is one validator's altair participation flags
// (timely source, target and head as bits 0, 1 and 2).
type ParticipationFlags uint8

// JustificationBits is the state's Bitvector[4] of justified epochs; bit 0
// (the least significant) is the current epoch.
type JustificationBits uint8

// Bitlist is an SSZ Bitlist in its serialized form: the bits little-endian
// in each byte, followed by a single 1 bit that marks the length.
type Bitlist []byte

// Fork is the state's fork: the version before the last fork, the current
// version, and the epoch of the last fork.
type Fork struct {
	PreviousVersion ForkVersion
	CurrentVersion  ForkVersion
	Epoch           Epoch
}

// Checkpoint is an epoch and the root of its boundary block.
type Checkpoint struct {
	Epoch Epoch
	Root  Root
}

// BeaconBlockHeader is a block header; the state keeps the latest one.
type BeaconBlockHeader struct {
	Slot          Slot
	ProposerIndex ValidatorIndex
	ParentRoot    Root
	StateRoot     Root
	BodyRoot      Root
}

// Eth1Data is a vote on the deposit contract's state.
type Eth1Data struct {
	DepositRoot  Root
	DepositCount uint64
	BlockHash    Root
}

// Validator is one entry of the validator registry (121 bytes in SSZ).
type Validator struct {
	PublicKey                  BLSPubKey
	WithdrawalCredentials      Root
	EffectiveBalance           Gwei
	Slashed                    bool
	ActivationEligibilityEpoch Epoch
	ActivationEpoch            Epoch
	ExitEpoch                  Epoch
	WithdrawableEpoch          Epoch
}

// AttestationData is what an attestation votes for.
type AttestationData struct {
	Slot            Slot
	Index           uint64
	BeaconBlockRoot Root
	Source          Checkpoint
	Target          Checkpoint
}

// PendingAttestation is a phase0 attestation kept in the state until the
// end of the next epoch.
type PendingAttestation struct {
	AggregationBits Bitlist // Bitlist[MAX_VALIDATORS_PER_COMMITTEE]
	Data            AttestationData
	InclusionDelay  Slot
	ProposerIndex   ValidatorIndex
}

// SyncCommittee is an altair sync committee: SYNC_COMMITTEE_SIZE public
// keys and their aggregate.
type SyncCommittee struct {
	PublicKeys         []BLSPubKey // exactly SYNC_COMMITTEE_SIZE keys
	AggregatePublicKey BLSPubKey
}

// ExecutionPayloadHeader is the header of the latest execution payload
// (bellatrix and later). One type serves every fork: WithdrawalsRoot is
// part of the header from capella on, BlobGasUsed and ExcessBlobGas from
// deneb on; before that they are zero and are neither encoded nor hashed.
type ExecutionPayloadHeader struct {
	ParentHash       common.Hash
	FeeRecipient     common.Address
	StateRoot        Root
	ReceiptsRoot     Root
	LogsBloom        [256]byte
	PrevRandao       Root
	BlockNumber      uint64
	GasLimit         uint64
	GasUsed          uint64
	Timestamp        uint64
	ExtraData        []byte // at most MAX_EXTRA_DATA_BYTES
	BaseFeePerGas    uint256.Int
	BlockHash        common.Hash
	TransactionsRoot Root
	WithdrawalsRoot  Root   // capella and later
	BlobGasUsed      uint64 // deneb and later
	ExcessBlobGas    uint64 // deneb and later
}

// HistoricalSummary is a capella summary of SLOTS_PER_HISTORICAL_ROOT
// block and state roots.
type HistoricalSummary struct {
	BlockSummaryRoot Root
	StateSummaryRoot Root
}

// PendingDeposit is an electra deposit waiting to be applied.
type PendingDeposit struct {
	PublicKey             BLSPubKey
	WithdrawalCredentials Root
	Amount                Gwei
	Signature             BLSSignature
	Slot                  Slot
}

// PendingPartialWithdrawal is an electra partial withdrawal waiting to be
// processed.
type PendingPartialWithdrawal struct {
	ValidatorIndex    ValidatorIndex
	Amount            Gwei
	WithdrawableEpoch Epoch
}

// PendingConsolidation is an electra consolidation waiting to be processed.
type PendingConsolidation struct {
	SourceIndex ValidatorIndex
	TargetIndex ValidatorIndex
}
