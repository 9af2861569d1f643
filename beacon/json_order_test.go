package beacon_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// shuffledOrder writes the top-level members in the order top and every
// other object's members (the state object's, and those of the
// containers inside it) in an order drawn from rng, or in the order
// written when rng is nil.
func shuffledOrder(top []int, rng *rand.Rand) func(string, []string) []int {
	return func(path string, keys []string) []int {
		if path == "" {
			return top
		}
		idx := make([]int, len(keys))
		for i := range idx {
			idx[i] = i
		}
		if rng != nil {
			rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		}
		return idx
	}
}

// TestJSONAnyMemberOrder decodes every fork's state from envelopes with
// their four members in each of the 24 orders (Lodestar sends
// {data, version, execution_optimistic, finalized}), with the members of
// the state object and of every object inside it in the specs' order and
// shuffled: the same state and flags come out, with no Body.Fork,
// through DecodeJSON (from a sized input and from a stream) and ReadState.
func TestJSONAnyMemberOrder(t *testing.T) {
	p := beacon.MinimalPreset()
	for _, v := range allForks() {
		t.Run(v.String(), func(t *testing.T) {
			want := beacontest.NewState(v, p, 5, 100+uint64(v))
			flags := beacon.Flags{ExecutionOptimistic: v%2 == 1, Finalized: v%3 != 1}
			tree := parseJSONTree(t, jsonEncodeResponse(t, want, flags))
			if got := strings.Join(tree.keys, ","); got != "version,execution_optimistic,finalized,data" {
				t.Fatalf("envelope members %s", got)
			}
			for pi, perm := range permutations(len(tree.keys)) {
				for _, shuffle := range []bool{false, true} {
					var rng *rand.Rand
					if shuffle {
						rng = rand.New(rand.NewPCG(uint64(v), uint64(pi)))
					}
					body := tree.bytes(jsonStyle{order: shuffledOrder(perm, rng)})
					name := fmt.Sprintf("%v shuffled=%v", perm, shuffle)
					for rname, r := range map[string]io.Reader{
						"sized":  bytes.NewReader(body),
						"stream": jsonOnlyReader{bytes.NewReader(body)},
					} {
						got, gotFlags, err := decodeJSON(r, p)
						if err != nil {
							t.Fatalf("%s %s: %v", name, rname, err)
						}
						if gotFlags == nil || *gotFlags != flags {
							t.Fatalf("%s %s: flags %+v, want %+v", name, rname, gotFlags, flags)
						}
						if got.Version != v || !jsonSameState(got, want) {
							t.Fatalf("%s %s: decoded state differs (version %s)", name, rname, got.Version)
						}
					}
					for _, fork := range []string{"", v.String()} {
						got, gotFlags, err := readJSON(bytes.NewReader(body), fork, p)
						if err != nil {
							t.Fatalf("%s ReadState(%q): %v", name, fork, err)
						}
						if gotFlags == nil || *gotFlags != flags || !jsonSameState(got, beacontest.NewState(v, p, 5, 100+uint64(v))) {
							t.Fatalf("%s ReadState(%q): decoded state or flags differ", name, fork)
						}
					}
				}
			}
		})
	}
}

// TestJSONDataFirstWrongVersion gives every fork's state object, sent
// before "version", the version of every other fork: the decoder refuses
// each as it does with the version first, with an error naming a field
// that one fork has and the other has not (or that is missing).
func TestJSONDataFirstWrongVersion(t *testing.T) {
	p := beacon.MinimalPreset()
	lodestar := []int{3, 0, 1, 2} // data, version, execution_optimistic, finalized
	for _, v := range allForks() {
		tree := parseJSONTree(t, jsonEncodeResponse(t, beacontest.NewState(v, p, 3, 7), beacon.Flags{}))
		for _, w := range allForks() {
			if w == v {
				continue
			}
			tree.kids[0].str = w.String()
			for _, order := range [][]int{{0, 1, 2, 3}, lodestar} {
				body := tree.bytes(jsonStyle{order: shuffledOrder(order, nil)})
				_, _, err := decodeJSON(bytes.NewReader(body), p)
				var de *beacon.DecodeError
				if !errors.As(err, &de) || !errors.Is(err, beacon.ErrInvalidState) {
					t.Fatalf("%s data as %s, order %v: error %v, want a *DecodeError", v, w, order, err)
				}
				if de.Path == "" || !(strings.Contains(de.Reason, "the version is wrong") || strings.Contains(de.Reason, "missing field")) {
					t.Fatalf("%s data as %s, order %v: %v", v, w, order, err)
				}
			}
		}
	}
}

// TestJSONDataFirstErrors covers what can go wrong around a state object
// that comes before its version.
func TestJSONDataFirstErrors(t *testing.T) {
	p := beacon.MinimalPreset()
	env := func(v beacon.Version) string {
		return string(jsonEncodeResponse(t, beacontest.NewState(v, p, 3, 7), beacon.Flags{}))
	}
	// dataFirst moves the members before "data" to the end.
	dataFirst := func(s string) string {
		i := strings.Index(s, `"data":`)
		return "{" + s[i:len(s)-1] + "," + s[1:i-1] + "}"
	}
	deneb, capella, electra, gloas := dataFirst(env(beacon.Deneb)), dataFirst(env(beacon.Capella)), dataFirst(env(beacon.Electra)), dataFirst(env(beacon.Gloas))
	if !strings.HasPrefix(deneb, `{"data":{"genesis_time":`) || !strings.HasSuffix(deneb, `},"version":"deneb","execution_optimistic":false,"finalized":false}`) {
		t.Fatalf("dataFirst: %.60s … %s", deneb, deneb[len(deneb)-80:])
	}
	cases := []struct {
		name, in     string
		path, reason string
	}{
		{"no version", strings.Replace(deneb, `,"version":"deneb"`, "", 1), "version", `no "version"`},
		{"version twice", strings.Replace(deneb, `"finalized":false}`, `"finalized":false,"version":"deneb"}`, 1), "", "version given twice"},
		{"data twice", strings.Replace(deneb, `"finalized":false}`, `"finalized":false,"data":{}}`, 1), "", "data given twice"},
		// A name no fork has yet: "gloas" was unknown here until gloas was merged.
		{"unknown version", strings.Replace(deneb, `"version":"deneb"`, `"version":"nosuchfork"`, 1), "", ""},
		{"header member of a later fork", strings.Replace(capella, `"version":"capella"`, `"version":"bellatrix"`, 1), "next_withdrawal_index", "not a field of a bellatrix state (it is capella and later)"},
		{"header member missing", strings.Replace(deneb, `,"blob_gas_used":"`, `,"x":"`, 1), "latest_execution_payload_header.blob_gas_used", "missing field"},
		{"header member of another fork", strings.Replace(strings.Replace(deneb, `"version":"deneb"`, `"version":"capella"`, 1), `,"blob_gas_used":"`, `,"x":"`, 1),
			"latest_execution_payload_header.excess_blob_gas", "not a field of a capella execution payload header"},
		{"state field missing", strings.Replace(electra, `"earliest_exit_epoch":`, `"x":`, 1), "earliest_exit_epoch", "missing field"},
		{"field twice", strings.Replace(electra, `"earliest_exit_epoch":`, `"slot":"1","earliest_exit_epoch":`, 1), "slot", "given twice"},
		{"electra data as an altair state", strings.Replace(electra, `"version":"electra"`, `"version":"altair"`, 1), "latest_execution_payload_header", "not a field of an altair state (it is bellatrix to fulu)"},
		{"electra data as a gloas state", strings.Replace(electra, `"version":"electra"`, `"version":"gloas"`, 1), "latest_execution_payload_header", "not a field of a gloas state (it is bellatrix to fulu)"},
		{"gloas data as a fulu state", strings.Replace(gloas, `"version":"gloas"`, `"version":"fulu"`, 1), "latest_block_hash", "not a field of a fulu state (it is gloas and later)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := decodeJSON(strings.NewReader(c.in), p)
			if err == nil {
				t.Fatal("decoded")
			}
			if c.name == "unknown version" {
				if !errors.Is(err, beacon.ErrUnsupportedVersion) {
					t.Fatalf("%v does not match ErrUnsupportedVersion", err)
				}
				return
			}
			var de *beacon.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("%T %v is not a *DecodeError", err, err)
			}
			if de.Path != c.path || !strings.Contains(de.Reason, c.reason) {
				t.Fatalf("got %q: %q, want %q: …%s…", de.Path, de.Reason, c.path, c.reason)
			}
		})
	}
}
