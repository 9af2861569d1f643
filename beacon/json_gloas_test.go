package beacon_test

import (
	"bytes"
	"encoding/json"
	"math"
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

// gloasMembers returns the members of the state inside a Lodestar body,
// with the execution addresses (which Lodestar checksums, EIP-55) in lower
// case like every other hex this package writes.
func gloasMembers(t *testing.T, body []byte) map[string]json.RawMessage {
	t.Helper()
	var resp struct{ Data map[string]json.RawMessage }
	require.NoError(t, json.Unmarshal(bytes.ToLower(body), &resp))
	return resp.Data
}

// Each of gloas's own containers in Lodestar's bodies marshals to exactly
// Lodestar's bytes for it (addresses in lower case) and reads back (from
// Lodestar's checksummed bytes too) to the value the state's SSZ holds;
// json.Marshal of a whole list gives the member's whole array.
func TestGloasComponentJSONLodestar(t *testing.T) {
	for _, v := range gloasVectors {
		t.Run(v.name, func(t *testing.T) {
			st, err := unmarshalSSZ(readVector(t, v, ".ssz"), beacon.Gloas, v.preset)
			require.NoError(t, err)
			body := readVector(t, v, ".json")
			m := gloasMembers(t, body)
			checkElems(t, "builders", st.Builders, m["builders"])
			checkElems(t, "builder_pending_payments", st.BuilderPendingPayments, m["builder_pending_payments"])
			checkElems(t, "builder_pending_withdrawals", st.BuilderPendingWithdrawals, m["builder_pending_withdrawals"])
			checkElems(t, "payload_expected_withdrawals", st.PayloadExpectedWithdrawals, m["payload_expected_withdrawals"])
			checkComponent(t, "latest_execution_payload_bid", st.LatestExecutionPayloadBid, m["latest_execution_payload_bid"])
			for name, list := range map[string]any{"builders": st.Builders, "builder_pending_payments": st.BuilderPendingPayments,
				"builder_pending_withdrawals": st.BuilderPendingWithdrawals, "payload_expected_withdrawals": st.PayloadExpectedWithdrawals} {
				whole, err := json.Marshal(list)
				require.NoError(t, err)
				if string(m[name]) != "[]" { // json.Marshal writes an empty slice as null only when nil
					require.Equal(t, string(m[name]), string(whole), name)
				}
			}
			// Lodestar's own bytes, checksummed addresses included, read
			// back to the same builders.
			var orig struct {
				Data struct{ Builders []json.RawMessage }
			}
			require.NoError(t, json.Unmarshal(body, &orig))
			for i, raw := range orig.Data.Builders {
				var b beacon.Builder
				require.NoError(t, json.Unmarshal(raw, &b))
				require.Equal(t, st.Builders[i], b, "builders[%d]", i)
			}
		})
	}
}
