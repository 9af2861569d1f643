package beacon_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The JSON of a checkpoint as the beacon API's reference shows it
// (ethereum/beacon-APIs, the finality_checkpoints example), written by
// hand here rather than by this package.
func TestCheckpointJSONExact(t *testing.T) {
	const want = `{"epoch":"1","root":"0xcf8e0d4e9587369b2301d0790347320302cc0943d5a1884560367e8208d920f2"}`
	var c beacon.Checkpoint
	require.NoError(t, json.Unmarshal([]byte(want), &c))
	assert.Equal(t, beacon.Epoch(1), c.Epoch)
	got, err := json.Marshal(c)
	require.NoError(t, err)
	assert.Equal(t, want, string(got))
	got, err = json.Marshal(&c)
	require.NoError(t, err)
	assert.Equal(t, want, string(got))
	got, err = json.Marshal(struct {
		C beacon.Checkpoint `json:"c"`
	}{c})
	require.NoError(t, err)
	assert.Equal(t, `{"c":`+want+`}`, string(got))
}

// stateMembers splits a state's JSON into its members.
func stateMembers(t testing.TB, st *beacon.State) map[string]json.RawMessage {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, encodeJSONData(&buf, st))
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(buf.Bytes(), &m))
	return m
}

// checkComponent asserts that json.Marshal(v) writes exactly raw, and that
// raw unmarshals back into an equal value.
func checkComponent[T any](t *testing.T, name string, v T, raw json.RawMessage) {
	t.Helper()
	got, err := json.Marshal(v)
	require.NoError(t, err, name)
	require.Equal(t, string(raw), string(got), name)
	var back T
	require.NoError(t, json.Unmarshal(raw, &back), name)
	require.True(t, reflect.DeepEqual(v, back), "%s: unmarshal gives a different value", name)
}

// checkElems checks each element of a list member.
func checkElems[T any](t *testing.T, name string, list []T, raw json.RawMessage) {
	t.Helper()
	var elems []json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &elems))
	require.Len(t, elems, len(list), name)
	for i := range list {
		checkComponent(t, fmt.Sprintf("%s[%d]", name, i), list[i], elems[i])
	}
}

// Every container of a state of every fork marshals to exactly the bytes
// the state's JSON has for it, and reads back equal; json.Marshal of a
// slice of them gives the member's whole array.
func TestComponentJSONMatchesState(t *testing.T) {
	for _, v := range allForks() {
		t.Run(v.String(), func(t *testing.T) {
			st := beacontest.NewState(v, beacon.MainnetPreset(), 40, 7)
			m := stateMembers(t, st)
			checkComponent(t, "fork", st.Fork, m["fork"])
			checkComponent(t, "latest_block_header", st.LatestBlockHeader, m["latest_block_header"])
			checkComponent(t, "eth1_data", st.Eth1Data, m["eth1_data"])
			checkComponent(t, "genesis_validators_root", st.GenesisValidatorsRoot, m["genesis_validators_root"])
			checkComponent(t, "finalized_checkpoint", st.FinalizedCheckpoint, m["finalized_checkpoint"])
			checkComponent(t, "current_justified_checkpoint", st.CurrentJustifiedCheckpoint, m["current_justified_checkpoint"])
			checkElems(t, "validators", st.Validators, m["validators"])
			checkElems(t, "eth1_data_votes", st.Eth1DataVotes, m["eth1_data_votes"])
			checkElems(t, "block_roots", st.BlockRoots[:10], mustSlice(t, m["block_roots"], 10))
			whole, err := json.Marshal(st.Validators)
			require.NoError(t, err)
			assert.Equal(t, string(m["validators"]), string(whole))
			if v == beacon.Phase0 {
				checkElems(t, "previous_epoch_attestations", st.PreviousEpochAttestations, m["previous_epoch_attestations"])
				checkElems(t, "current_epoch_attestations", st.CurrentEpochAttestations, m["current_epoch_attestations"])
				require.NotEmpty(t, st.PreviousEpochAttestations)
			}
			if v >= beacon.Altair {
				checkComponent(t, "current_sync_committee", st.CurrentSyncCommittee, m["current_sync_committee"])
				checkComponent(t, "next_sync_committee", st.NextSyncCommittee, m["next_sync_committee"])
			}
			if m["latest_execution_payload_header"] != nil { // bellatrix to fulu
				// json.Marshal writes deneb's to fulu's form; any fork's
				// form reads back.
				h := st.LatestExecutionPayloadHeader
				if v >= beacon.Deneb {
					checkComponent(t, "latest_execution_payload_header", h, m["latest_execution_payload_header"])
				}
				var back beacon.ExecutionPayloadHeader
				require.NoError(t, json.Unmarshal(m["latest_execution_payload_header"], &back))
				require.Equal(t, h, back)
			}
			if v >= beacon.Capella {
				checkElems(t, "historical_summaries", st.HistoricalSummaries, m["historical_summaries"])
			}
			if v >= beacon.Electra {
				checkElems(t, "pending_deposits", st.PendingDeposits, m["pending_deposits"])
				checkElems(t, "pending_partial_withdrawals", st.PendingPartialWithdrawals, m["pending_partial_withdrawals"])
				checkElems(t, "pending_consolidations", st.PendingConsolidations, m["pending_consolidations"])
				require.NotEmpty(t, st.PendingDeposits)
			}
		})
	}
}

// mustSlice returns the first n elements of a JSON array as an array.
func mustSlice(t *testing.T, raw json.RawMessage, n int) json.RawMessage {
	t.Helper()
	var elems []json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &elems))
	out, err := json.Marshal(elems[:n])
	require.NoError(t, err)
	return out
}

// The containers decode as encoding/json reads their tags: integers must
// be quoted decimal strings (the beacon API's form), bytes 0x-hex of the
// exact length, unknown keys are ignored, and a bad value is an error
// naming the field.
func TestComponentJSONDecodeRules(t *testing.T) {
	root := `"0x` + fmt.Sprintf("%064x", 1) + `"`
	for _, in := range []string{
		`{"epoch":"-1","root":` + root + `}`,
		`{"epoch":"18446744073709551616","root":` + root + `}`,
		`{"epoch":1,"root":` + root + `}`,
		`{"epoch":"1","root":"0x01"}`,
		`{"epoch":"1","root":"01"}`,
		`[]`,
	} {
		var c beacon.Checkpoint
		assert.Error(t, json.Unmarshal([]byte(in), &c), in)
	}
	var c beacon.Checkpoint
	require.NoError(t, json.Unmarshal([]byte(`{"x":[1,{}],"epoch":"5","root":`+root+`}`), &c))
	assert.Equal(t, beacon.Checkpoint{Epoch: 5, Root: beacon.Root{31: 1}}, c)

	var v beacon.Validator
	err := json.Unmarshal([]byte(`{"pubkey":"0x01"}`), &v)
	var ie *nodeaccess.InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, `BLS public key: "0x01" has 2 hex digits, want 96 (48 bytes)`, ie.Error()[len("invalid input: "):])
}

// The execution payload header and the bid decode as strictly as the
// state decoder: a missing or repeated field, a bad value or trailing data
// is a *DecodeError naming the field, and the target is left as it was.
func TestHeaderJSONStrict(t *testing.T) {
	raw, err := json.Marshal(beacontest.NewState(beacon.Deneb, beacon.MainnetPreset(), 4, 3).LatestExecutionPayloadHeader)
	require.NoError(t, err)
	good := string(raw)
	for _, tc := range []struct{ in, path string }{
		{good[:len(good)-1] + `,"gas_used":"1"}`, "gas_used"},
		{strings.Replace(good, `"gas_limit":"`, `"gas_limit":"-`, 1), "gas_limit"},
		{strings.Replace(good, `"fee_recipient":"0x`, `"fee_recipient":"0x1`, 1), "fee_recipient"},
		{`{"parent_hash":"0x` + strings.Repeat("00", 32) + `"}`, "fee_recipient"},
	} {
		h := beacon.ExecutionPayloadHeader{GasLimit: 9}
		err := json.Unmarshal([]byte(tc.in), &h)
		var de *beacon.DecodeError
		require.True(t, errors.As(err, &de), "%.60s: %T %v", tc.in, err, err)
		assert.Equal(t, tc.path, de.Path, tc.in)
		assert.Equal(t, beacon.ExecutionPayloadHeader{GasLimit: 9}, h, "target changed")
	}
	var h beacon.ExecutionPayloadHeader
	require.NoError(t, json.Unmarshal([]byte(`null`), &h), "null leaves the value alone")
}

// The execution payload header marshals in deneb's to fulu's form (every
// field of the type) and reads back any fork's form from bellatrix on;
// the fields a fork does not have are left zero.
func TestPayloadHeaderJSONForks(t *testing.T) {
	for _, v := range []beacon.Version{beacon.Bellatrix, beacon.Capella, beacon.Deneb} {
		st := beacontest.NewState(v, beacon.MainnetPreset(), 4, 3)
		raw := stateMembers(t, st)["latest_execution_payload_header"]
		var back beacon.ExecutionPayloadHeader
		require.NoError(t, json.Unmarshal(raw, &back), v.String())
		assert.Equal(t, st.LatestExecutionPayloadHeader, back, v.String())
		assert.Equal(t, v >= beacon.Capella, strings.Contains(string(raw), "withdrawals_root"), v.String())
		assert.Equal(t, v >= beacon.Deneb, strings.Contains(string(raw), "blob_gas_used"), v.String())
		out, err := json.Marshal(back)
		require.NoError(t, err)
		assert.Contains(t, string(out), `"excess_blob_gas":`)
	}
}

// A header whose extra_data its SSZ type cannot hold is not marshalled:
// what is written always reads back. (The other containers are plain
// values for encoding/json; HashTreeRoot and WriteState check their
// limits.)
func TestHeaderJSONRefusesInvalid(t *testing.T) {
	_, err := json.Marshal(beacon.ExecutionPayloadHeader{ExtraData: make([]byte, 33)})
	assert.ErrorContains(t, err, "extra_data: 33 bytes, over the limit of 32")
	var h beacon.ExecutionPayloadHeader
	raw, err := json.Marshal(beacon.ExecutionPayloadHeader{ExtraData: make([]byte, 32)})
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &h))
	_, err = beacon.HashTreeRoot(beacon.SyncCommittee{PublicKeys: make([]beacon.BLSPubKey, 3)})
	assert.ErrorContains(t, err, "3 public keys, want 512 (mainnet) or 32 (minimal)")
	_, err = beacon.HashTreeRoot(beacon.PendingAttestation{})
	assert.ErrorContains(t, err, "aggregation_bits: empty bitlist")
}
