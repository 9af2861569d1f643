package beacon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/bits"

	"github.com/nodeaccess/nodeaccess"
)

// The state's containers marshal to the beacon API's JSON, with the same
// encoder and decoder as the whole state, so json.Marshal(st.Fork) writes
// exactly the bytes EncodeJSON writes for the state's "fork" member:
// snake_case keys in the specs' order, integers as decimal strings, bytes
// as lower-case 0x-hex. UnmarshalJSON is as strict as DecodeJSON: every
// field is required and may come once, unknown keys are ignored, integers
// may be quoted or not, and an error is a *DecodeError naming the field.
// The MarshalJSON methods have value receivers, so a container marshals
// the same way by value, by pointer, or inside a struct of the caller's.

var (
	_ json.Marshaler   = Fork{}
	_ json.Unmarshaler = (*Fork)(nil)
	_ json.Marshaler   = ExecutionPayloadHeader{}
	_ json.Unmarshaler = (*ExecutionPayloadHeader)(nil)
)

// marshalComponent returns what fn appends.
func marshalComponent(fn func(e *jsonEncoder)) ([]byte, error) {
	var out bytes.Buffer
	e := &jsonEncoder{w: &out, buf: make([]byte, 0, 512)}
	fn(e)
	if err := e.flush(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// unmarshalComponent runs fn over b, which must hold one JSON value and
// nothing after it. JSON null leaves the value alone, as encoding/json
// does for its own types.
func unmarshalComponent(b []byte, fn func(d *jsonDecoder) error) error {
	if string(bytes.TrimSpace(b)) == "null" {
		return errNull
	}
	d := &jsonDecoder{
		r:      bytes.NewReader(b),
		buf:    make([]byte, min(jsonBufSize, max(len(b), 4096))),
		hint:   int64(len(b)),
		size:   int64(len(b)),
		preset: MainnetPreset(),
	}
	if err := fn(d); err != nil {
		return err
	}
	return d.trailing()
}

// errNull is unmarshalComponent's signal for JSON null; unmarshalInto
// turns it into nil.
var errNull = &DecodeError{Format: "json", Reason: "null"}

// unmarshalInto decodes b into a fresh T with dec and stores it in *dst
// only when the whole input decoded.
func unmarshalInto[T any](dst *T, b []byte, dec func(d *jsonDecoder, v *T) error) error {
	var v T
	err := unmarshalComponent(b, func(d *jsonDecoder) error { return dec(d, &v) })
	if err == errNull {
		return nil
	}
	if err != nil {
		return err
	}
	*dst = v
	return nil
}

// MarshalJSON writes f as the beacon API does:
// {"previous_version":"0x…","current_version":"0x…","epoch":"…"}.
func (f Fork) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.fork(&f) })
}

// UnmarshalJSON reads the beacon API's JSON of a fork.
func (f *Fork) UnmarshalJSON(b []byte) error { return unmarshalInto(f, b, (*jsonDecoder).fork) }

// MarshalJSON writes c as the beacon API does: {"epoch":"…","root":"0x…"}.
func (c Checkpoint) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.checkpoint(&c) })
}

// UnmarshalJSON reads the beacon API's JSON of a checkpoint.
func (c *Checkpoint) UnmarshalJSON(b []byte) error {
	return unmarshalInto(c, b, (*jsonDecoder).checkpoint)
}

// MarshalJSON writes h as the beacon API does: slot, proposer_index,
// parent_root, state_root, body_root.
func (h BeaconBlockHeader) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.blockHeader(&h) })
}

// UnmarshalJSON reads the beacon API's JSON of a block header (the
// "message" of a signed header, not the envelope around it).
func (h *BeaconBlockHeader) UnmarshalJSON(b []byte) error {
	return unmarshalInto(h, b, (*jsonDecoder).blockHeader)
}

// MarshalJSON writes d as the beacon API does: deposit_root,
// deposit_count, block_hash.
func (d Eth1Data) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.eth1Data(&d) })
}

// UnmarshalJSON reads the beacon API's JSON of eth1 data.
func (d *Eth1Data) UnmarshalJSON(b []byte) error {
	return unmarshalInto(d, b, (*jsonDecoder).eth1Data)
}

// MarshalJSON writes v as the beacon API does (the "validator" object of
// /eth/v1/beacon/states/{id}/validators and an element of a state's
// "validators").
func (v Validator) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.validator(&v) })
}

// UnmarshalJSON reads the beacon API's JSON of a validator.
func (v *Validator) UnmarshalJSON(b []byte) error {
	return unmarshalInto(v, b, (*jsonDecoder).validator)
}

// MarshalJSON writes a as the beacon API does: slot, index,
// beacon_block_root, source, target.
func (a AttestationData) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.attestationData(&a) })
}

// UnmarshalJSON reads the beacon API's JSON of attestation data.
func (a *AttestationData) UnmarshalJSON(b []byte) error {
	return unmarshalInto(a, b, (*jsonDecoder).attestationData)
}

// MarshalJSON writes a as the beacon API does: aggregation_bits, data,
// inclusion_delay, proposer_index. A malformed bitlist (no length bit, or
// over MAX_VALIDATORS_PER_COMMITTEE bits) is an error, as in HashTreeRoot:
// nothing is written that would not read back.
func (a PendingAttestation) MarshalJSON() ([]byte, error) {
	if err := a.AggregationBits.check(MainnetPreset().MaxValidatorsPerCommittee); err != nil {
		return nil, fmt.Errorf("beacon: pending attestation: aggregation_bits: %w", err)
	}
	return marshalComponent(func(e *jsonEncoder) { e.pendingAttestation(&a) })
}

// UnmarshalJSON reads the beacon API's JSON of a phase0 pending
// attestation, whose aggregation bits hold at most
// MAX_VALIDATORS_PER_COMMITTEE (2048 in both presets) bits.
func (a *PendingAttestation) UnmarshalJSON(b []byte) error {
	return unmarshalInto(a, b, func(d *jsonDecoder, a *PendingAttestation) error {
		return d.pendingAttestation(a, d.preset.MaxValidatorsPerCommittee)
	})
}

// MarshalJSON writes c as the beacon API does: {"pubkeys":[…],
// "aggregate_pubkey":"0x…"}.
// It needs 512 (mainnet) or 32 (minimal) keys, as HashTreeRoot does.
func (c SyncCommittee) MarshalJSON() ([]byte, error) {
	if err := c.checkSize(); err != nil {
		return nil, err
	}
	return marshalComponent(func(e *jsonEncoder) { e.syncCommittee(&c) })
}

// UnmarshalJSON reads the beacon API's JSON of a sync committee. The
// number of public keys must be SYNC_COMMITTEE_SIZE of the mainnet (512)
// or the minimal (32) preset.
func (c *SyncCommittee) UnmarshalJSON(b []byte) error {
	return unmarshalInto(c, b, func(d *jsonDecoder, c *SyncCommittee) error {
		mainnet, minimal := MainnetPreset().SyncCommitteeSize, MinimalPreset().SyncCommitteeSize
		return d.object("a sync committee", syncCommitteeNames, 1<<2-1, func(i int) (err error) {
			if i == 1 {
				return d.hexInto(c.AggregatePublicKey[:])
			}
			off := d.offset()
			c.PublicKeys, err = decodeList(d, field{n: mainnet}, 0, (*jsonDecoder).pubkey)
			if err == nil && uint64(len(c.PublicKeys)) != mainnet && uint64(len(c.PublicKeys)) != minimal {
				return d.errAt(off, "%d public keys, want %d (mainnet) or %d (minimal)", len(c.PublicKeys), mainnet, minimal)
			}
			return err
		})
	})
}

// MarshalJSON writes h as the beacon API does for the forks from deneb to
// fulu, whose header has every field of this type (withdrawals_root,
// blob_gas_used and excess_blob_gas included). A state's own encoder
// (EncodeJSON) writes the header of the state's fork; use
// MarshalJSONVersion for another fork's form.
func (h ExecutionPayloadHeader) MarshalJSON() ([]byte, error) {
	return h.MarshalJSONVersion(newestHeaderFork())
}

// newestHeaderFork is the newest fork whose state has an execution payload
// header (fulu: gloas has none), as the schema says.
func newestHeaderFork() Version {
	return Version(31 - bits.LeadingZeros32(stateFieldForks["latest_execution_payload_header"]))
}

// MarshalJSONVersion writes h with the fields of fork v's header:
// bellatrix has neither withdrawals_root nor the blob gas fields, capella
// has withdrawals_root. A fork without the header (before bellatrix, and
// gloas, which has a bid instead), or one this package does
// not know, or extra_data over MAX_EXTRA_DATA_BYTES (32), is an error.
func (h ExecutionPayloadHeader) MarshalJSONVersion(v Version) ([]byte, error) {
	if err := checkHeaderVersion(v); err != nil {
		return nil, err
	}
	if err := h.checkExtra(); err != nil {
		return nil, err
	}
	return marshalComponent(func(e *jsonEncoder) { e.payloadHeader(&h, v) })
}

// UnmarshalJSON reads the beacon API's JSON of an execution payload header
// of any fork from bellatrix on: the fork's form is chosen by the keys
// present (blob_gas_used for deneb and later, withdrawals_root for
// capella), and the fields of later forks are left zero. extra_data may
// hold at most MAX_EXTRA_DATA_BYTES (32) bytes.
func (h *ExecutionPayloadHeader) UnmarshalJSON(b []byte) error {
	var keys map[string]json.RawMessage
	v := Bellatrix
	if json.Unmarshal(b, &keys) == nil {
		switch {
		case keys["blob_gas_used"] != nil || keys["excess_blob_gas"] != nil:
			v = Deneb
		case keys["withdrawals_root"] != nil:
			v = Capella
		}
	}
	return unmarshalInto(h, b, func(d *jsonDecoder, h *ExecutionPayloadHeader) error {
		return d.payloadHeader(h, v, d.preset.MaxExtraDataBytes)
	})
}

// MarshalJSON writes h as the beacon API does: block_summary_root,
// state_summary_root.
func (h HistoricalSummary) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.historicalSummary(&h) })
}

// UnmarshalJSON reads the beacon API's JSON of a historical summary.
func (h *HistoricalSummary) UnmarshalJSON(b []byte) error {
	return unmarshalInto(h, b, (*jsonDecoder).historicalSummary)
}

// MarshalJSON writes p as the beacon API does: pubkey,
// withdrawal_credentials, amount, signature, slot.
func (p PendingDeposit) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.pendingDeposit(&p) })
}

// UnmarshalJSON reads the beacon API's JSON of a pending deposit.
func (p *PendingDeposit) UnmarshalJSON(b []byte) error {
	return unmarshalInto(p, b, (*jsonDecoder).pendingDeposit)
}

// MarshalJSON writes p as the beacon API does: validator_index, amount,
// withdrawable_epoch.
func (p PendingPartialWithdrawal) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.pendingPartialWithdrawal(&p) })
}

// UnmarshalJSON reads the beacon API's JSON of a pending partial
// withdrawal.
func (p *PendingPartialWithdrawal) UnmarshalJSON(b []byte) error {
	return unmarshalInto(p, b, (*jsonDecoder).pendingPartialWithdrawal)
}

// MarshalJSON writes p as the beacon API does: source_index, target_index.
func (p PendingConsolidation) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.pendingConsolidation(&p) })
}

// UnmarshalJSON reads the beacon API's JSON of a pending consolidation.
func (p *PendingConsolidation) UnmarshalJSON(b []byte) error {
	return unmarshalInto(p, b, (*jsonDecoder).pendingConsolidation)
}

// checkHeaderVersion refuses a fork whose state has no execution payload
// header (before bellatrix, and gloas, which has latest_block_hash and a
// bid instead), naming the forks that have one as the schema says.
func checkHeaderVersion(v Version) error {
	if !v.IsKnown() {
		return unsupportedVersion(v.String())
	}
	if mask := stateFieldForks["latest_execution_payload_header"]; mask&(1<<v) == 0 {
		return &nodeaccess.InputError{Arg: "version", Reason: v.String() + " has no execution payload header (" + forkRange(mask) + " have)"}
	}
	return nil
}

func (e *jsonEncoder) attestationData(a *AttestationData) {
	e.raw(`{"slot":`)
	e.uint(uint64(a.Slot))
	e.raw(`,"index":`)
	e.uint(a.Index)
	e.raw(`,"beacon_block_root":`)
	e.hex(a.BeaconBlockRoot[:])
	e.raw(`,"source":`)
	e.checkpoint(&a.Source)
	e.raw(`,"target":`)
	e.checkpoint(&a.Target)
	e.raw(`}`)
}

func (e *jsonEncoder) syncCommittee(c *SyncCommittee) {
	e.raw(`{"pubkeys":`)
	encodeList(e, c.PublicKeys, func(e *jsonEncoder, k *BLSPubKey) { e.hex(k[:]) })
	e.raw(`,"aggregate_pubkey":`)
	e.hex(c.AggregatePublicKey[:])
	e.raw(`}`)
}
