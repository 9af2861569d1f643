package beacon_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGloasUint64AboveJSNumbers: Lodestar keeps most uint64 fields as JS
// numbers, so its vectors stay below 2^53. Here every uint64 of the gloas
// types is set to 2^53+1 or 2^64-1: SSZ and JSON round trips keep them
// exactly, JSON writes them as decimal strings, and the root is the
// test reference's.
func TestGloasUint64AboveJSNumbers(t *testing.T) {
	const above, max = 1<<53 + 1, math.MaxUint64
	for _, p := range presets {
		t.Run(p.Name, func(t *testing.T) {
			s := beacontest.NewState(beacon.Gloas, p, 9, 5)
			for i := range s.Builders {
				b := &s.Builders[i]
				b.Balance, b.DepositEpoch, b.WithdrawableEpoch = max, above, max
			}
			s.NextWithdrawalBuilderIndex = max
			for i := range s.BuilderPendingPayments {
				bp := &s.BuilderPendingPayments[i]
				bp.Weight, bp.ProposerIndex = above, max
				bp.Withdrawal.Amount, bp.Withdrawal.BuilderIndex = max, above
			}
			for i := range s.BuilderPendingWithdrawals {
				s.BuilderPendingWithdrawals[i].Amount, s.BuilderPendingWithdrawals[i].BuilderIndex = above, max
			}
			b := &s.LatestExecutionPayloadBid
			b.GasLimit, b.BuilderIndex, b.Slot, b.Value, b.ExecutionPayment = max, 1<<64-1, above, max, above
			for i := range s.PayloadExpectedWithdrawals {
				w := &s.PayloadExpectedWithdrawals[i]
				w.Index, w.ValidatorIndex, w.Amount = max, above, max
			}
			s.PTCWindow[0][0], s.PTCWindow[len(s.PTCWindow)-1][p.PTCSize-1] = max, above

			raw, err := marshalSSZ(s)
			require.NoError(t, err)
			back, err := unmarshalSSZ(raw, beacon.Gloas, p)
			require.NoError(t, err)
			assert.Equal(t, s, back, "SSZ round trip")

			var js bytes.Buffer
			require.NoError(t, encodeJSONData(&js, s))
			assert.Contains(t, js.String(), `"gas_limit":"18446744073709551615"`)
			assert.Contains(t, js.String(), `"next_withdrawal_builder_index":"18446744073709551615"`)
			assert.Contains(t, js.String(), `"weight":"9007199254740993"`)
			st, _, err := decodeJSON(&js, assumeVersion(beacon.Gloas), p)
			require.NoError(t, err)
			assert.Equal(t, s, st, "JSON round trip")

			got, err := beacon.HashTreeRoot(s)
			require.NoError(t, err)
			assert.Equal(t, beacon.Root(refStateType(beacon.Gloas, p).root(raw)), got)
		})
	}
}

// TestGloasValidate: a gloas field set in a state of an earlier fork, the
// execution payload header set in a gloas state, vectors of the wrong
// length and lists over their bounds are refused by Validate, so the
// encoders write nothing and HashTreeRoot returns no root.
func TestGloasValidate(t *testing.T) {
	p := beacon.MinimalPreset()
	cases := []struct {
		name   string
		v      beacon.Version
		change func(s *beacon.State)
		want   string
	}{
		{"latest_block_hash on fulu", beacon.Fulu, func(s *beacon.State) { s.LatestBlockHash[3] = 1 }, "latest_block_hash is not a field of a fulu state"},
		{"builders on fulu", beacon.Fulu, func(s *beacon.State) { s.Builders = []beacon.Builder{} }, "builders is not a field of a fulu state"},
		{"bid on electra", beacon.Electra, func(s *beacon.State) { s.LatestExecutionPayloadBid.GasLimit = 1 }, "latest_execution_payload_bid is not a field of an electra state"},
		{"ptc_window on fulu", beacon.Fulu, func(s *beacon.State) { s.PTCWindow = [][]beacon.ValidatorIndex{} }, "ptc_window is not a field of a fulu state"},
		{"header on gloas", beacon.Gloas, func(s *beacon.State) { s.LatestExecutionPayloadHeader.GasLimit = 1 }, "latest_execution_payload_header is not a field of a gloas state"},
		{"short ptc committee", beacon.Gloas, func(s *beacon.State) { s.PTCWindow[2] = s.PTCWindow[2][:3] }, "ptc_window: [2]: has 3 indices, the preset's PTC_SIZE is 16"},
		{"short ptc window", beacon.Gloas, func(s *beacon.State) { s.PTCWindow = s.PTCWindow[1:] }, "ptc_window: has 23 elements, the preset's vector has 24"},
		{"payments", beacon.Gloas, func(s *beacon.State) {
			s.BuilderPendingPayments = append(s.BuilderPendingPayments, beacon.BuilderPendingPayment{})
		}, "builder_pending_payments: has 17 elements, the preset's vector has 16"},
		{"availability", beacon.Gloas, func(s *beacon.State) { s.ExecutionPayloadAvailability = s.ExecutionPayloadAvailability[1:] }, "execution_payload_availability: has 7 bytes, the preset's Bitvector[64] has 8"},
		{"withdrawals", beacon.Gloas, func(s *beacon.State) { s.PayloadExpectedWithdrawals = make([]beacon.Withdrawal, 5) }, "payload_expected_withdrawals: has 5 elements, over the preset's limit of 4"},
		{"commitments", beacon.Gloas, func(s *beacon.State) {
			s.LatestExecutionPayloadBid.BlobKZGCommitments = make([]beacon.KZGCommitment, 4097)
		}, "latest_execution_payload_bid: blob_kzg_commitments: 4097 commitments, over the limit of 4096"},
		{"preset without PTC_SIZE", beacon.Gloas, func(s *beacon.State) { s.Preset.PTCSize = 0 }, `preset "minimal": PTCSize = 0: a gloas state needs it`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := beacontest.NewState(c.v, p, 5, 3)
			require.NoError(t, validateState(s))
			c.change(s)
			err := validateState(s)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			var w bytes.Buffer
			assert.Error(t, beacon.WriteState(&w, s, beacon.EncodingSSZ, nil))
			assert.Error(t, encodeJSONData(&w, s))
			assert.Zero(t, w.Len(), "nothing written")
			_, err = beacon.HashTreeRoot(s)
			assert.Error(t, err)
		})
	}
}

// TestGloasSSZBidErrors: a bid whose commitments offset is not its fixed
// size, or whose commitments are not whole, fails with a DecodeError that
// names the field.
func TestGloasSSZBidErrors(t *testing.T) {
	v := gloasVectors[0]
	raw := readVector(t, v, ".ssz")
	typ := refStateType(beacon.Gloas, v.preset)
	bid := 43 // latest_execution_payload_bid's index in the state
	start := offsetOf(raw, typ, bid)
	bad := append([]byte{}, raw...)
	put32(bad, start+188, 225)
	_, err := unmarshalSSZ(bad, beacon.Gloas, v.preset)
	var de *beacon.DecodeError
	require.True(t, errors.As(err, &de), "%v", err)
	assert.Equal(t, "latest_execution_payload_bid.blob_kzg_commitments", de.Path)
	assert.Contains(t, de.Reason, "offset 225, want 224")

	// Move the next field's offset one byte on: the bid's scope is no
	// longer a fixed part and whole commitments.
	bad = append([]byte{}, raw...)
	put32(bad, fieldPos(typ, bid+1), offsetOf(raw, typ, bid+1)+1)
	_, err = unmarshalSSZ(bad, beacon.Gloas, v.preset)
	require.True(t, errors.As(err, &de), "%v", err)
	assert.Equal(t, "latest_execution_payload_bid.blob_kzg_commitments", de.Path)
	assert.True(t, strings.Contains(de.Reason, "not a whole number of 48-byte commitments"), de.Reason)
}

// TestGloasClientState: Client.State accepts Eth-Consensus-Version: gloas
// and decodes Lodestar's state, SSZ and JSON, verified against Lodestar's
// root when asked by that root.
func TestGloasClientState(t *testing.T) {
	v := gloasVectors[0]
	root := vectorRoot(t, v.name)
	for _, enc := range []struct{ ctype, ext string }{{"application/octet-stream", ".ssz"}, {"application/json", ".json"}} {
		t.Run(enc.ext, func(t *testing.T) {
			srv, _ := serve(t, stateHandler(readVector(t, v, enc.ext), enc.ctype, "gloas"))
			c := newClient(t, srv.URL, beacon.WithPreset(v.preset))
			res, _, err := c.State(context.Background(), beacon.RootID(root))
			require.NoError(t, err)
			assert.Equal(t, beacon.Gloas, res.Version)
			assert.Len(t, res.Builders, 5)
			assert.Len(t, res.Validators, 21)
		})
	}
}
