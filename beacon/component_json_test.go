package beacon_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
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
	require.NoError(t, st.EncodeJSON(&buf))
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
	for _, v := range beacon.Versions() {
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
				h := st.LatestExecutionPayloadHeader
				got, err := h.MarshalJSONVersion(v)
				require.NoError(t, err)
				require.Equal(t, string(m["latest_execution_payload_header"]), string(got))
				var back beacon.ExecutionPayloadHeader
				require.NoError(t, json.Unmarshal(got, &back))
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

// Component UnmarshalJSON is as strict as the state decoder: a missing or
// repeated field, a bad value or trailing data is a *DecodeError naming the
// field, and the target is left as it was.
func TestComponentJSONStrict(t *testing.T) {
	root := `"0x` + fmt.Sprintf("%064x", 1) + `"`
	bad := []struct{ in, path string }{
		{`{"epoch":"1"}`, "root"},
		{`{"epoch":"1","root":` + root + `,"epoch":"2"}`, "epoch"},
		{`{"epoch":"-1","root":` + root + `}`, "epoch"},
		{`{"epoch":"18446744073709551616","root":` + root + `}`, "epoch"},
		{`{"epoch":"1","root":"0x01"}`, "root"},
		{`{"epoch":"1","root":` + root + `} x`, ""},
		{`[]`, ""},
	}
	for _, b := range bad {
		c := beacon.Checkpoint{Epoch: 9}
		err := json.Unmarshal([]byte(b.in), &c)
		if b.in == `{"epoch":"1","root":`+root+`} x` {
			// encoding/json refuses the trailing data before calling us;
			// check our own rule directly.
			err = c.UnmarshalJSON([]byte(b.in))
		}
		require.Error(t, err, b.in)
		var de *beacon.DecodeError
		require.True(t, errors.As(err, &de), "%s: %T %v", b.in, err, err)
		assert.Equal(t, b.path, de.Path, b.in)
		assert.Equal(t, beacon.Checkpoint{Epoch: 9}, c, "%s: target changed", b.in)
	}
	// null leaves the value alone, as for encoding/json's own types.
	c := beacon.Checkpoint{Epoch: 9}
	require.NoError(t, json.Unmarshal([]byte(`null`), &c))
	assert.Equal(t, beacon.Epoch(9), c.Epoch)
	// Unknown keys are ignored; integers may come unquoted.
	require.NoError(t, json.Unmarshal([]byte(`{"x":[1,{}],"epoch":5,"root":`+root+`}`), &c))
	assert.Equal(t, beacon.Epoch(5), c.Epoch)
}

// The execution payload header's JSON follows the fork it is asked for,
// and reads back any fork's form.
func TestPayloadHeaderJSONForks(t *testing.T) {
	st := beacontest.NewState(beacon.Deneb, beacon.MainnetPreset(), 4, 3)
	h := st.LatestExecutionPayloadHeader
	latest, err := json.Marshal(h)
	require.NoError(t, err)
	deneb, err := h.MarshalJSONVersion(beacon.Deneb)
	require.NoError(t, err)
	assert.Equal(t, string(deneb), string(latest))
	assert.Contains(t, string(latest), `"excess_blob_gas":`)

	bella, err := h.MarshalJSONVersion(beacon.Bellatrix)
	require.NoError(t, err)
	assert.NotContains(t, string(bella), "withdrawals_root")
	assert.NotContains(t, string(bella), "blob_gas")
	var back beacon.ExecutionPayloadHeader
	require.NoError(t, json.Unmarshal(bella, &back))
	want := h
	want.WithdrawalsRoot, want.BlobGasUsed, want.ExcessBlobGas = beacon.Root{}, 0, 0
	assert.Equal(t, want, back)

	capella, err := h.MarshalJSONVersion(beacon.Capella)
	require.NoError(t, err)
	assert.Contains(t, string(capella), "withdrawals_root")
	assert.NotContains(t, string(capella), "blob_gas")

	_, err = h.MarshalJSONVersion(beacon.Altair)
	assert.ErrorContains(t, err, "altair has no execution payload header")
	_, err = h.MarshalJSONVersion(beacon.Version(99))
	assert.ErrorIs(t, err, beacon.ErrUnsupportedVersion)
}

// The header's JSON and root exist for exactly the forks whose state
// object has latest_execution_payload_header (as EncodeJSON writes it):
// every other fork, gloas included, is refused naming the forks that have
// one, and MarshalJSON writes the newest of those forks' form.
func TestComponentHeaderForks(t *testing.T) {
	h := beacontest.NewState(beacon.Fulu, beacon.MinimalPreset(), 3, 9).LatestExecutionPayloadHeader
	newest := beacon.Phase0
	for _, v := range beacon.Versions() {
		st := beacontest.NewState(v, beacon.MinimalPreset(), 3, 9)
		has := stateMembers(t, st)["latest_execution_payload_header"] != nil
		_, jerr := h.MarshalJSONVersion(v)
		_, herr := h.HashTreeRoot(v)
		if has {
			newest = v
			assert.NoError(t, jerr, v.String())
			assert.NoError(t, herr, v.String())
			continue
		}
		for _, err := range []error{jerr, herr} {
			assert.ErrorContains(t, err, v.String()+" has no execution payload header (bellatrix to fulu have)")
			var ie *nodeaccess.InputError
			assert.ErrorAs(t, err, &ie, v.String())
		}
	}
	require.Equal(t, beacon.Fulu, newest)
	got, err := json.Marshal(h)
	require.NoError(t, err)
	want, err := h.MarshalJSONVersion(newest)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}

// A container that its SSZ type cannot hold is not marshalled: what is
// written always reads back.
func TestComponentJSONRefusesInvalid(t *testing.T) {
	_, err := json.Marshal(beacon.PendingAttestation{})
	assert.ErrorContains(t, err, "aggregation_bits: empty bitlist")
	_, err = json.Marshal(beacon.SyncCommittee{PublicKeys: make([]beacon.BLSPubKey, 3)})
	assert.ErrorContains(t, err, "3 public keys, want 512 (mainnet) or 32 (minimal)")
	_, err = json.Marshal(beacon.ExecutionPayloadHeader{ExtraData: make([]byte, 33)})
	assert.ErrorContains(t, err, "extra_data: 33 bytes, over the limit of 32")
	var sc beacon.SyncCommittee
	err = json.Unmarshal([]byte(`{"pubkeys":["0x`+fmt.Sprintf("%096x", 1)+`"],"aggregate_pubkey":"0x`+fmt.Sprintf("%096x", 1)+`"}`), &sc)
	assert.ErrorContains(t, err, "1 public keys, want 512 (mainnet) or 32 (minimal)")
}
