package beacon_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// fuzzRoundTrip unmarshals b into a fresh T; when that succeeds, the value
// marshals and reads back equal (and never panics either way).
func fuzzRoundTrip[T any](t *testing.T, b []byte) {
	var v T
	if json.Unmarshal(b, &v) != nil || strings.TrimSpace(string(b)) == "null" {
		return // null leaves the zero value, which need not be valid
	}
	out, err := json.Marshal(v)
	if err != nil {
		// encoding/json leaves a missing member zero, and the zero Bitlist
		// (no length bit) is no SSZ bitlist: that, and only that, is
		// refused rather than written as JSON that does not read back.
		if !strings.Contains(err.Error(), "bitlist") {
			t.Fatalf("%T: marshal of a decoded value: %v", v, err)
		}
		return
	}
	var back T
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("%T: %s does not read back: %v", v, out, err)
	}
	if !reflect.DeepEqual(v, back) {
		t.Fatalf("%T: %s reads back different", v, out)
	}
}

// FuzzComponentJSON feeds arbitrary input to the containers' UnmarshalJSON.
func FuzzComponentJSON(f *testing.F) {
	root := `"0x` + strings.Repeat("ab", 32) + `"`
	f.Add([]byte(`{"epoch":"1","root":` + root + `}`))
	f.Add([]byte(`{"slot":"1","proposer_index":"2","parent_root":` + root + `,"state_root":` + root + `,"body_root":` + root + `}`))
	f.Add([]byte(`{"pubkeys":[],"aggregate_pubkey":"0x00"}`))
	f.Add([]byte(`{"aggregation_bits":"0x01","data":{},"inclusion_delay":"1","proposer_index":"1"}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		fuzzRoundTrip[beacon.Checkpoint](t, b)
		fuzzRoundTrip[beacon.BeaconBlockHeader](t, b)
		fuzzRoundTrip[beacon.Validator](t, b)
		fuzzRoundTrip[beacon.PendingAttestation](t, b)
		fuzzRoundTrip[beacon.SyncCommittee](t, b)
		fuzzRoundTrip[beacon.ExecutionPayloadHeader](t, b)
		fuzzRoundTrip[beacon.PendingDeposit](t, b)
	})
}

// FuzzRootText: a root that parses prints back as its input in lower case.
func FuzzRootText(f *testing.F) {
	f.Add("0x" + strings.Repeat("Ab", 32))
	f.Add("0x12")
	f.Fuzz(func(t *testing.T, s string) {
		var r beacon.Root
		if err := r.UnmarshalText([]byte(s)); err != nil {
			return
		}
		if r.String() != "0x"+strings.ToLower(s[2:]) {
			t.Fatalf("%q parsed to %s", s, r)
		}
	})
}
