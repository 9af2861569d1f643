package beacon

import (
	"fmt"

	"github.com/nodeaccess/nodeaccess"
)

// validate checks that s can be encoded and hashed: a non-nil s, a known
// Version, a valid preset, vectors of exactly the preset's length, lists
// within the preset's limits, well-formed bitlists, justification bits
// within the four of their Bitvector[4], no field set that the fork does
// not have, and an SSZ encoding that fits the 4 GiB its 32-bit offsets
// address. The encoders and the hash tree root call it first and refuse
// nothing else: a state that passes validate encodes and hashes. The
// error names the field.
func (s *State) validate() error {
	if err := s.checkNil(); err != nil {
		return err
	}
	if !s.Version.isKnown() {
		return unsupportedVersion(s.Version.String())
	}
	p := s.preset()
	if err := p.validate(); err != nil {
		return err
	}
	if err := s.checkGloasPreset(p); err != nil {
		return err
	}
	if name := s.foreignField(); name != "" {
		return fmt.Errorf("beacon: %s is not a field of %s %s state; clear it or change Version", name, article(s.Version), s.Version)
	}
	fields := s.fields()
	for _, f := range fields {
		if err := checkField(f); err != nil {
			return fmt.Errorf("beacon: %s: %w", f.name, err)
		}
	}
	if n, err := s.sszSize(fields); err != nil {
		// Name the largest field: what to cut.
		big := -1
		var bigSize int64
		for i := range fields {
			if fields[i].variable() {
				if sz := fields[i].varSize(s.Version); big < 0 || sz > bigSize {
					big, bigSize = i, sz
				}
			}
		}
		return fmt.Errorf("beacon: %s: %d bytes of SSZ, and the state's encoding (%d bytes) exceeds the 4 GiB that SSZ offsets address", fields[big].name, bigSize, n)
	}
	return nil
}

// checkNil refuses a nil s.
func (s *State) checkNil() error {
	if s == nil {
		return &nodeaccess.InputError{Arg: "state", Reason: "nil *State"}
	}
	return nil
}

// foreignField returns the JSON name of the first field that is set but
// does not belong to s.Version, or "".
func (s *State) foreignField() string {
	v := s.Version
	h := &s.LatestExecutionPayloadHeader
	switch {
	case v != Phase0 && s.PreviousEpochAttestations != nil:
		return "previous_epoch_attestations"
	case v != Phase0 && s.CurrentEpochAttestations != nil:
		return "current_epoch_attestations"
	case v < Altair && s.PreviousEpochParticipation != nil:
		return "previous_epoch_participation"
	case v < Altair && s.CurrentEpochParticipation != nil:
		return "current_epoch_participation"
	case v < Altair && s.InactivityScores != nil:
		return "inactivity_scores"
	case v < Altair && (s.CurrentSyncCommittee.PublicKeys != nil || s.CurrentSyncCommittee.AggregatePublicKey != BLSPubKey{}):
		return "current_sync_committee"
	case v < Altair && (s.NextSyncCommittee.PublicKeys != nil || s.NextSyncCommittee.AggregatePublicKey != BLSPubKey{}):
		return "next_sync_committee"
	case v < Bellatrix && !h.isZero():
		return "latest_execution_payload_header"
	case v < Capella && h.WithdrawalsRoot != Root{}:
		return "latest_execution_payload_header.withdrawals_root"
	case v < Deneb && h.BlobGasUsed != 0:
		return "latest_execution_payload_header.blob_gas_used"
	case v < Deneb && h.ExcessBlobGas != 0:
		return "latest_execution_payload_header.excess_blob_gas"
	case v < Capella && s.NextWithdrawalIndex != 0:
		return "next_withdrawal_index"
	case v < Capella && s.NextWithdrawalValidatorIndex != 0:
		return "next_withdrawal_validator_index"
	case v < Capella && s.HistoricalSummaries != nil:
		return "historical_summaries"
	case v < Electra && s.DepositRequestsStartIndex != 0:
		return "deposit_requests_start_index"
	case v < Electra && s.DepositBalanceToConsume != 0:
		return "deposit_balance_to_consume"
	case v < Electra && s.ExitBalanceToConsume != 0:
		return "exit_balance_to_consume"
	case v < Electra && s.EarliestExitEpoch != 0:
		return "earliest_exit_epoch"
	case v < Electra && s.ConsolidationBalanceToConsume != 0:
		return "consolidation_balance_to_consume"
	case v < Electra && s.EarliestConsolidationEpoch != 0:
		return "earliest_consolidation_epoch"
	case v < Electra && s.PendingDeposits != nil:
		return "pending_deposits"
	case v < Electra && s.PendingPartialWithdrawals != nil:
		return "pending_partial_withdrawals"
	case v < Electra && s.PendingConsolidations != nil:
		return "pending_consolidations"
	case v < Fulu && s.ProposerLookahead != nil:
		return "proposer_lookahead"
	case v >= Gloas && !h.isZero():
		return "latest_execution_payload_header"
	case v < Gloas:
		return s.gloasForeign()
	}
	return ""
}

func (h *ExecutionPayloadHeader) isZero() bool {
	return h.ParentHash == [32]byte{} && h.FeeRecipient == [20]byte{} && h.StateRoot == Root{} &&
		h.ReceiptsRoot == Root{} && h.LogsBloom == [256]byte{} && h.PrevRandao == Root{} &&
		h.BlockNumber == 0 && h.GasLimit == 0 && h.GasUsed == 0 && h.Timestamp == 0 &&
		len(h.ExtraData) == 0 && h.BaseFeePerGas.IsZero() && h.BlockHash == [32]byte{} &&
		h.TransactionsRoot == Root{} && h.WithdrawalsRoot == Root{} && h.BlobGasUsed == 0 && h.ExcessBlobGas == 0
}

// checkField checks one field's length against its vector length or list
// limit, and the parts inside it that have limits of their own.
func checkField(f field) error {
	var n int
	switch p := f.ptr.(type) {
	case *[]Root:
		n = len(*p)
	case *[]Gwei:
		n = len(*p)
	case *[]ValidatorIndex:
		n = len(*p)
	case *[]Eth1Data:
		n = len(*p)
	case *[]Validator:
		n = len(*p)
	case *[]uint8:
		n = len(*p)
	case *[]uint64:
		n = len(*p)
	case *[]HistoricalSummary:
		n = len(*p)
	case *[]PendingDeposit:
		n = len(*p)
	case *[]PendingPartialWithdrawal:
		n = len(*p)
	case *[]PendingConsolidation:
		n = len(*p)
	case *[]PendingAttestation:
		n = len(*p)
		for i := range *p {
			if err := (*p)[i].AggregationBits.check(f.bits); err != nil {
				return fmt.Errorf("[%d].aggregation_bits: %w", i, err)
			}
		}
	case *SyncCommittee:
		if uint64(len(p.PublicKeys)) != f.n {
			return fmt.Errorf("pubkeys: has %d keys, the preset's sync committee has %d", len(p.PublicKeys), f.n)
		}
		return nil
	case *ExecutionPayloadHeader:
		if uint64(len(p.ExtraData)) > f.n {
			return fmt.Errorf("extra_data: %d bytes, over the limit of %d", len(p.ExtraData), f.n)
		}
		return nil
	case *uint8:
		if *p > 0x0f {
			return fmt.Errorf("0x%02x sets bits beyond the 4 of the Bitvector[4]", uint8(*p))
		}
		return nil
	default:
		return checkGloasField(f)
	}
	if f.vector && uint64(n) != f.n {
		return fmt.Errorf("has %d elements, the preset's vector has %d", n, f.n)
	}
	if !f.vector && uint64(n) > f.n {
		return fmt.Errorf("has %d elements, over the preset's limit of %d", n, f.n)
	}
	return nil
}

// check verifies the SSZ form of a bitlist: non-empty, the last byte
// non-zero (it holds the length bit), and at most limit bits before it.
func (b Bitlist) check(limit uint64) error {
	if len(b) == 0 {
		return fmt.Errorf("empty bitlist (no length bit)")
	}
	last := b[len(b)-1]
	if last == 0 {
		return fmt.Errorf("last byte is zero (no length bit)")
	}
	if n := b.bitLen(); uint64(n) > limit {
		return fmt.Errorf("%d bits, over the limit of %d", n, limit)
	}
	return nil
}

// bitLen returns the number of bits in the bitlist (not counting the
// length bit), or 0 for a malformed one.
func (b Bitlist) bitLen() int {
	if len(b) == 0 || b[len(b)-1] == 0 {
		return 0
	}
	last := b[len(b)-1]
	hi := 7
	for last>>hi == 0 {
		hi--
	}
	return (len(b)-1)*8 + hi
}
