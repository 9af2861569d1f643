package beacon_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// TestStateThroughEncodingJSON: encoding/json writes and reads a State as a
// beacon node serves it (WriteState's bytes exactly, every fork, both
// presets), never by Go's field names, and reads back what it wrote, also
// inside a struct of the user's.
func TestStateThroughEncodingJSON(t *testing.T) {
	for _, p := range jsonPresets() {
		for _, v := range allForks() {
			t.Run(p.Name+"/"+v.String(), func(t *testing.T) {
				want := beacontest.NewState(v, p, 5, uint64(v)+3)
				var node bytes.Buffer
				if err := beacon.WriteState(&node, want, beacon.EncodingJSON, nil); err != nil {
					t.Fatal(err)
				}
				got, err := json.Marshal(want)
				if err != nil {
					t.Fatalf("json.Marshal: %v", err)
				}
				if !bytes.Equal(got, node.Bytes()) {
					t.Fatalf("json.Marshal wrote %.120q, WriteState %.120q", got, node.Bytes())
				}
				if bytes.Contains(got, []byte(`"GenesisTime"`)) || !bytes.Contains(got, []byte(`"genesis_time":"`)) {
					t.Fatalf("json.Marshal used Go's field names: %.120q", got)
				}

				back := beacon.State{Preset: p}
				if err := json.Unmarshal(got, &back); err != nil {
					t.Fatalf("json.Unmarshal: %v", err)
				}
				if !jsonSameState(&back, want) {
					t.Fatal("json.Unmarshal read another state than was written")
				}

				type snapshot struct {
					Label string        `json:"label"`
					State *beacon.State `json:"state"`
				}
				wrapped, err := json.Marshal(snapshot{Label: "x", State: want})
				if err != nil {
					t.Fatal(err)
				}
				if want := `{"label":"x","state":` + node.String() + `}`; string(wrapped) != want {
					t.Fatalf("a struct holding the state wrote %.160q", wrapped)
				}
				out := snapshot{State: &beacon.State{Preset: p}}
				if err := json.Unmarshal(wrapped, &out); err != nil || !jsonSameState(out.State, want) {
					t.Fatalf("a struct holding the state read back: err %v", err)
				}
			})
		}
	}
}

// TestStateThroughEncodingJSONRefuses: what WriteState refuses, json.Marshal
// refuses (nothing written), and json.Unmarshal refuses what ReadState
// refuses, Go-named JSON included.
func TestStateThroughEncodingJSONRefuses(t *testing.T) {
	bad := beacontest.NewState(beacon.Phase0, beacon.MinimalPreset(), 3, 1)
	bad.InactivityScores = []uint64{1, 2, 3} // an altair field in a phase0 state
	if out, err := json.Marshal(bad); err == nil || out != nil {
		t.Fatalf("json.Marshal of a state with another fork's field: %q, %v", out, err)
	} else if !strings.Contains(err.Error(), "inactivity_scores") && !strings.Contains(err.Error(), "InactivityScores") {
		t.Fatalf("the error does not name the field: %v", err)
	}

	goNamed, err := json.Marshal(struct{ Version, Slot uint64 }{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	var s beacon.State
	err = json.Unmarshal(goNamed, &s)
	if !errors.Is(err, beacon.ErrInvalidState) {
		t.Fatalf("json.Unmarshal of Go-named JSON: %v, want ErrInvalidState", err)
	}
}
