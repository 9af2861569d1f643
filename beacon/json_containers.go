package beacon

import (
	"bytes"
	"encoding/json"
	"math/bits"

	"github.com/nodeaccess/nodeaccess"
)

// The state's containers are written as the beacon API writes them, byte
// for byte as a state's JSON has them: snake_case keys in the specs' order,
// integers as decimal strings, bytes as lower-case 0x-hex. Most do it with
// encoding/json's struct tags (the byte types marshal as text); the
// execution payload header and the bid, whose fields encoding/json cannot
// write in that form, marshal with the state's own encoder and decoder here.

var (
	_ json.Marshaler   = ExecutionPayloadHeader{}
	_ json.Unmarshaler = (*ExecutionPayloadHeader)(nil)
	_ json.Marshaler   = ExecutionPayloadBid{}
	_ json.Unmarshaler = (*ExecutionPayloadBid)(nil)
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

// MarshalJSON writes h as the beacon API does for the forks from deneb to
// fulu, whose header has every field of this type (withdrawals_root,
// blob_gas_used and excess_blob_gas included); a state's JSON (WriteState)
// has the header of the state's fork. extra_data over
// MAX_EXTRA_DATA_BYTES (32) is an error.
func (h ExecutionPayloadHeader) MarshalJSON() ([]byte, error) {
	return h.marshalJSONVersion(newestHeaderFork())
}

// newestHeaderFork is the newest fork whose state has an execution payload
// header (fulu: gloas has none), as the schema says.
func newestHeaderFork() Version {
	return Version(31 - bits.LeadingZeros32(stateFieldForks["latest_execution_payload_header"]))
}

// marshalJSONVersion writes h with the fields of fork v's header:
// bellatrix has neither withdrawals_root nor the blob gas fields, capella
// has withdrawals_root. A fork without the header (before bellatrix, and
// gloas, which has a bid instead), or one this package does
// not know, or extra_data over MAX_EXTRA_DATA_BYTES (32), is an error.
func (h ExecutionPayloadHeader) marshalJSONVersion(v Version) ([]byte, error) {
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

// checkHeaderVersion refuses a fork whose state has no execution payload
// header (before bellatrix, and gloas, which has latest_block_hash and a
// bid instead), naming the forks that have one as the schema says.
func checkHeaderVersion(v Version) error {
	if !v.isKnown() {
		return unsupportedVersion(v.String())
	}
	if mask := stateFieldForks["latest_execution_payload_header"]; mask&(1<<v) == 0 {
		return &nodeaccess.InputError{Arg: "version", Reason: v.String() + " has no execution payload header (" + forkRange(mask) + " have)"}
	}
	return nil
}

// MarshalJSON writes b as the beacon API does: its 12 fields in the specs'
// order, blob_kzg_commitments as an array of 0x-hex strings.
func (b ExecutionPayloadBid) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.bid(&b) })
}

// UnmarshalJSON reads the beacon API's JSON of an execution payload bid,
// with at most the mainnet preset's MAX_BLOB_COMMITMENTS_PER_BLOCK
// commitments (the bound a state's decoder applies).
func (b *ExecutionPayloadBid) UnmarshalJSON(data []byte) error {
	return unmarshalInto(b, data, func(d *jsonDecoder, b *ExecutionPayloadBid) error {
		return d.bid(b, d.preset.MaxBlobCommitmentsPerBlock)
	})
}
