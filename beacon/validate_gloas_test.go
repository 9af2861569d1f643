package beacon_test

import (
	"bytes"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
