package beacon

import (
	"encoding/hex"
	"io"
	"strconv"
)

// encodeJSON writes the beacon API's whole JSON response:
// {"version":…,"execution_optimistic":…,"finalized":…,"data":…}, as a
// beacon node serves it from /eth/v2/debug/beacon/states/{state_id};
// without f, only "version" and "data".
func (s *State) encodeJSON(w io.Writer, f *Flags) error {
	if err := s.validate(); err != nil {
		return err
	}
	e := newJSONEncoder(w)
	e.raw(`{"version":"`)
	e.raw(s.Version.String())
	if f != nil {
		e.raw(`","execution_optimistic":`)
		e.buf = strconv.AppendBool(e.buf, f.ExecutionOptimistic)
		e.raw(`,"finalized":`)
		e.buf = strconv.AppendBool(e.buf, f.Finalized)
		e.raw(`,"data":`)
	} else {
		e.raw(`","data":`)
	}
	e.state(s)
	e.raw(`}`)
	return e.flush()
}

const (
	jsonOutSize = 256 << 10 // the output buffer
	// jsonOutFlush is the fill level that triggers a write: one element
	// of a list (at most ~1 KB, a pending deposit or a logs bloom) always
	// fits in the space above it.
	jsonOutFlush = jsonOutSize - 8<<10
)

// jsonEncoder appends to a bounded buffer that it writes out as it fills.
type jsonEncoder struct {
	w   io.Writer
	buf []byte
	err error
}

func newJSONEncoder(w io.Writer) *jsonEncoder {
	return &jsonEncoder{w: w, buf: make([]byte, 0, jsonOutSize)}
}

// check writes the buffer out when it is nearly full.
func (e *jsonEncoder) check() {
	if len(e.buf) >= jsonOutFlush {
		e.flush()
	}
}

// flush writes the buffer out and returns the first write error.
func (e *jsonEncoder) flush() error {
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
	return e.err
}

func (e *jsonEncoder) raw(s string) { e.buf = append(e.buf, s...) }

// hex appends "0x…" in lower case.
func (e *jsonEncoder) hex(b []byte) {
	e.buf = append(e.buf, '"', '0', 'x')
	n := len(e.buf)
	e.buf = append(e.buf, make([]byte, 2*len(b))...) // no allocation: the compiler extends in place
	hex.Encode(e.buf[n:], b)
	e.buf = append(e.buf, '"')
}

// uint appends a decimal string.
func (e *jsonEncoder) uint(v uint64) {
	e.buf = append(e.buf, '"')
	e.buf = strconv.AppendUint(e.buf, v, 10)
	e.buf = append(e.buf, '"')
}

// state appends the state object, following s.fields().
func (e *jsonEncoder) state(s *State) {
	for i, f := range s.fields() {
		if i == 0 {
			e.raw(`{"`)
		} else {
			e.raw(`,"`)
		}
		e.raw(f.name)
		e.raw(`":`)
		e.field(s, f)
		e.check()
	}
	e.raw(`}`)
}

func (e *jsonEncoder) field(s *State, f field) {
	switch p := f.ptr.(type) {
	case *uint64:
		e.uint(*p)
	case *Root:
		e.hex(p[:])
	case *Fork:
		e.fork(p)
	case *BeaconBlockHeader:
		e.blockHeader(p)
	case *Eth1Data:
		e.eth1Data(p)
	case *Checkpoint:
		e.checkpoint(p)
	case *uint8:
		e.hex([]byte{byte(*p)})
	case *SyncCommittee:
		e.raw(`{"pubkeys":`)
		encodeList(e, p.PublicKeys, func(e *jsonEncoder, k *BLSPubKey) { e.hex(k[:]) })
		e.raw(`,"aggregate_pubkey":`)
		e.hex(p.AggregatePublicKey[:])
		e.raw(`}`)
	case *ExecutionPayloadHeader:
		e.payloadHeader(p, s.Version)
	case *[]Root:
		encodeList(e, *p, func(e *jsonEncoder, r *Root) { e.hex(r[:]) })
	case *[]Gwei:
		encodeList(e, *p, func(e *jsonEncoder, g *Gwei) { e.uint(uint64(*g)) })
	case *[]ValidatorIndex:
		encodeList(e, *p, func(e *jsonEncoder, i *ValidatorIndex) { e.uint(uint64(*i)) })
	case *[]Eth1Data:
		encodeList(e, *p, (*jsonEncoder).eth1Data)
	case *[]Validator:
		encodeList(e, *p, (*jsonEncoder).validator)
	case *[]PendingAttestation:
		encodeList(e, *p, (*jsonEncoder).pendingAttestation)
	case *[]uint8:
		encodeList(e, *p, func(e *jsonEncoder, f *uint8) { e.uint(uint64(*f)) })
	case *[]uint64:
		encodeList(e, *p, func(e *jsonEncoder, v *uint64) { e.uint(*v) })
	case *[]HistoricalSummary:
		encodeList(e, *p, (*jsonEncoder).historicalSummary)
	case *[]PendingDeposit:
		encodeList(e, *p, (*jsonEncoder).pendingDeposit)
	case *[]PendingPartialWithdrawal:
		encodeList(e, *p, (*jsonEncoder).pendingPartialWithdrawal)
	case *[]PendingConsolidation:
		encodeList(e, *p, (*jsonEncoder).pendingConsolidation)
	default:
		e.gloasField(f)
	}
}

// encodeList appends a JSON array, writing the buffer out as it fills.
func encodeList[T any](e *jsonEncoder, list []T, elem func(*jsonEncoder, *T)) {
	e.buf = append(e.buf, '[')
	for i := range list {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		elem(e, &list[i])
		if len(e.buf) >= jsonOutFlush {
			if e.flush() != nil {
				return
			}
		}
	}
	e.buf = append(e.buf, ']')
}

func (e *jsonEncoder) validator(v *Validator) {
	e.raw(`{"pubkey":`)
	e.hex(v.PublicKey[:])
	e.raw(`,"withdrawal_credentials":`)
	e.hex(v.WithdrawalCredentials[:])
	e.raw(`,"effective_balance":`)
	e.uint(uint64(v.EffectiveBalance))
	if v.Slashed {
		e.raw(`,"slashed":true,"activation_eligibility_epoch":`)
	} else {
		e.raw(`,"slashed":false,"activation_eligibility_epoch":`)
	}
	e.uint(uint64(v.ActivationEligibilityEpoch))
	e.raw(`,"activation_epoch":`)
	e.uint(uint64(v.ActivationEpoch))
	e.raw(`,"exit_epoch":`)
	e.uint(uint64(v.ExitEpoch))
	e.raw(`,"withdrawable_epoch":`)
	e.uint(uint64(v.WithdrawableEpoch))
	e.raw(`}`)
}

func (e *jsonEncoder) fork(f *Fork) {
	e.raw(`{"previous_version":`)
	e.hex(f.PreviousVersion[:])
	e.raw(`,"current_version":`)
	e.hex(f.CurrentVersion[:])
	e.raw(`,"epoch":`)
	e.uint(uint64(f.Epoch))
	e.raw(`}`)
}

func (e *jsonEncoder) checkpoint(c *Checkpoint) {
	e.raw(`{"epoch":`)
	e.uint(uint64(c.Epoch))
	e.raw(`,"root":`)
	e.hex(c.Root[:])
	e.raw(`}`)
}

func (e *jsonEncoder) blockHeader(h *BeaconBlockHeader) {
	e.raw(`{"slot":`)
	e.uint(uint64(h.Slot))
	e.raw(`,"proposer_index":`)
	e.uint(uint64(h.ProposerIndex))
	e.raw(`,"parent_root":`)
	e.hex(h.ParentRoot[:])
	e.raw(`,"state_root":`)
	e.hex(h.StateRoot[:])
	e.raw(`,"body_root":`)
	e.hex(h.BodyRoot[:])
	e.raw(`}`)
}

func (e *jsonEncoder) eth1Data(d *Eth1Data) {
	e.raw(`{"deposit_root":`)
	e.hex(d.DepositRoot[:])
	e.raw(`,"deposit_count":`)
	e.uint(d.DepositCount)
	e.raw(`,"block_hash":`)
	e.hex(d.BlockHash[:])
	e.raw(`}`)
}

func (e *jsonEncoder) pendingAttestation(a *PendingAttestation) {
	e.raw(`{"aggregation_bits":`)
	e.hex(a.AggregationBits)
	e.raw(`,"data":{"slot":`)
	e.uint(uint64(a.Data.Slot))
	e.raw(`,"index":`)
	e.uint(a.Data.Index)
	e.raw(`,"beacon_block_root":`)
	e.hex(a.Data.BeaconBlockRoot[:])
	e.raw(`,"source":`)
	e.checkpoint(&a.Data.Source)
	e.raw(`,"target":`)
	e.checkpoint(&a.Data.Target)
	e.raw(`},"inclusion_delay":`)
	e.uint(uint64(a.InclusionDelay))
	e.raw(`,"proposer_index":`)
	e.uint(uint64(a.ProposerIndex))
	e.raw(`}`)
}

func (e *jsonEncoder) historicalSummary(h *HistoricalSummary) {
	e.raw(`{"block_summary_root":`)
	e.hex(h.BlockSummaryRoot[:])
	e.raw(`,"state_summary_root":`)
	e.hex(h.StateSummaryRoot[:])
	e.raw(`}`)
}

func (e *jsonEncoder) pendingDeposit(p *PendingDeposit) {
	e.raw(`{"pubkey":`)
	e.hex(p.PublicKey[:])
	e.raw(`,"withdrawal_credentials":`)
	e.hex(p.WithdrawalCredentials[:])
	e.raw(`,"amount":`)
	e.uint(uint64(p.Amount))
	e.raw(`,"signature":`)
	e.hex(p.Signature[:])
	e.raw(`,"slot":`)
	e.uint(uint64(p.Slot))
	e.raw(`}`)
}

func (e *jsonEncoder) pendingPartialWithdrawal(p *PendingPartialWithdrawal) {
	e.raw(`{"validator_index":`)
	e.uint(uint64(p.ValidatorIndex))
	e.raw(`,"amount":`)
	e.uint(uint64(p.Amount))
	e.raw(`,"withdrawable_epoch":`)
	e.uint(uint64(p.WithdrawableEpoch))
	e.raw(`}`)
}

func (e *jsonEncoder) pendingConsolidation(p *PendingConsolidation) {
	e.raw(`{"source_index":`)
	e.uint(uint64(p.SourceIndex))
	e.raw(`,"target_index":`)
	e.uint(uint64(p.TargetIndex))
	e.raw(`}`)
}

// payloadHeader appends the execution payload header with the fields of
// fork v.
func (e *jsonEncoder) payloadHeader(h *ExecutionPayloadHeader, v Version) {
	e.raw(`{"parent_hash":`)
	e.hex(h.ParentHash[:])
	e.raw(`,"fee_recipient":`)
	e.hex(h.FeeRecipient[:])
	e.raw(`,"state_root":`)
	e.hex(h.StateRoot[:])
	e.raw(`,"receipts_root":`)
	e.hex(h.ReceiptsRoot[:])
	e.raw(`,"logs_bloom":`)
	e.hex(h.LogsBloom[:])
	e.raw(`,"prev_randao":`)
	e.hex(h.PrevRandao[:])
	e.raw(`,"block_number":`)
	e.uint(h.BlockNumber)
	e.raw(`,"gas_limit":`)
	e.uint(h.GasLimit)
	e.raw(`,"gas_used":`)
	e.uint(h.GasUsed)
	e.raw(`,"timestamp":`)
	e.uint(h.Timestamp)
	e.raw(`,"extra_data":`)
	e.hex(h.ExtraData)
	e.raw(`,"base_fee_per_gas":"`)
	e.raw(h.BaseFeePerGas.Dec())
	e.raw(`","block_hash":`)
	e.hex(h.BlockHash[:])
	e.raw(`,"transactions_root":`)
	e.hex(h.TransactionsRoot[:])
	if v >= Capella {
		e.raw(`,"withdrawals_root":`)
		e.hex(h.WithdrawalsRoot[:])
	}
	if v >= Deneb {
		e.raw(`,"blob_gas_used":`)
		e.uint(h.BlobGasUsed)
		e.raw(`,"excess_blob_gas":`)
		e.uint(h.ExcessBlobGas)
	}
	e.raw(`}`)
}
