package beacon_test

import (
	"bytes"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// jsonSmallReader returns 1 to 7 bytes per Read, in a fixed cycle.
type jsonSmallReader struct {
	r io.Reader
	n int
}

func (s *jsonSmallReader) Read(p []byte) (int, error) {
	s.n = s.n%7 + 1
	if len(p) > s.n {
		p = p[:s.n]
	}
	return s.r.Read(p)
}

// jsonOnlyReader hides the Len method of a *bytes.Reader, so the decoder sees
// a stream of unknown size.
type jsonOnlyReader struct{ r io.Reader }

func (o jsonOnlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

func jsonPresets() []beacon.Preset {
	return []beacon.Preset{beacon.MinimalPreset(), beacon.MainnetPreset()}
}

func jsonEncodeJSON(t testing.TB, s *beacon.State) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := encodeJSONData(&b, s); err != nil {
		t.Fatalf("EncodeJSON: %v", err)
	}
	return b.Bytes()
}

func jsonEncodeResponse(t testing.TB, s *beacon.State, f beacon.Flags) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := beacon.WriteState(&b, s, beacon.EncodingJSON, &f); err != nil {
		t.Fatalf("EncodeJSONResponse: %v", err)
	}
	return b.Bytes()
}

func TestJSONRoundTripEveryForkAndPreset(t *testing.T) {
	for _, p := range jsonPresets() {
		for _, v := range allForks() {
			t.Run(p.Name+"/"+v.String(), func(t *testing.T) {
				want := beacontest.NewState(v, p, 37, uint64(v)+11)
				bare := jsonEncodeJSON(t, want)
				flags := beacon.Flags{ExecutionOptimistic: v%2 == 0, Finalized: v%3 == 0}
				env := jsonEncodeResponse(t, want, flags)
				if !bytes.HasSuffix(env, append(append([]byte(nil), bare...), '}')) {
					t.Fatalf("the envelope does not end with the data object")
				}
				readers := map[string]func([]byte) io.Reader{
					"bytes":   func(b []byte) io.Reader { return bytes.NewReader(b) },
					"stream":  func(b []byte) io.Reader { return jsonOnlyReader{bytes.NewReader(b)} },
					"onebyte": func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) },
					"half":    func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) },
					"1to7":    func(b []byte) io.Reader { return &jsonSmallReader{r: bytes.NewReader(b)} },
					"dataerr": func(b []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(b)) },
				}
				for name, mk := range readers {
					if p.Name == "mainnet" && (name == "onebyte" || name == "1to7") {
						continue // 5 MB of vectors a byte at a time: the minimal preset covers it
					}
					got, gotFlags, err := decodeJSON(mk(env), p)
					if err != nil {
						t.Fatalf("%s: envelope: %v", name, err)
					}
					if gotFlags == nil || *gotFlags != flags {
						t.Fatalf("%s: flags = %+v, want %+v", name, gotFlags, flags)
					}
					if !jsonSameState(got, want) {
						t.Fatalf("%s: envelope: decoded state differs from the original", name)
					}
					got, gotFlags, err = decodeJSON(mk(bare), p, assumeVersion(v))
					if err != nil {
						t.Fatalf("%s: bare: %v", name, err)
					}
					if gotFlags != nil {
						t.Fatalf("%s: bare object returned flags %+v", name, gotFlags)
					}
					if !jsonSameState(got, want) {
						t.Fatalf("%s: bare: decoded state differs from the original", name)
					}
				}
				// JSON → State → JSON is byte-identical.
				got, _, err := decodeJSON(bytes.NewReader(env), p)
				if err != nil {
					t.Fatal(err)
				}
				if again := jsonEncodeResponse(t, got, flags); !bytes.Equal(again, env) {
					t.Fatalf("re-encoded JSON differs from the first encoding")
				}
			})
		}
	}
}

// TestJSONRoundTripManyValidators crosses the chunk boundaries of the list
// builder (65536 elements) with and without a known input size.
func TestJSONRoundTripManyValidators(t *testing.T) {
	if testing.Short() {
		t.Skip("large state")
	}
	want := beacontest.NewState(beacon.Fulu, beacon.MinimalPreset(), 150_001, 5)
	env := jsonEncodeResponse(t, want, beacon.Flags{})
	for _, r := range []io.Reader{bytes.NewReader(env), jsonOnlyReader{bytes.NewReader(env)}} {
		got, _, err := decodeJSON(r, beacon.MinimalPreset())
		if err != nil {
			t.Fatal(err)
		}
		if !jsonSameState(got, want) {
			t.Fatalf("%T: decoded state differs", r)
		}
	}
	got, _, err := decodeJSON(jsonOnlyReader{bytes.NewReader(env)}, beacon.MinimalPreset(), sizeHint(int64(len(env))))
	if err != nil {
		t.Fatal(err)
	}
	if !jsonSameState(got, want) {
		t.Fatalf("SizeHint: decoded state differs")
	}
}

// A bare data object is read as the fork the Body names; a fulu object
// read as phase0 is refused, naming a field phase0 does not have.
func TestJSONBareObjectFork(t *testing.T) {
	for _, v := range allForks() {
		want := beacontest.NewState(v, beacon.MinimalPreset(), 5, 3)
		got, flags, err := decodeJSON(bytes.NewReader(jsonEncodeJSON(t, want)), assumeVersion(v), beacon.MinimalPreset())
		if err != nil {
			t.Fatal(err)
		}
		if flags != nil || !jsonSameState(got, want) {
			t.Fatalf("%s: bare object: flags %v, same state %v", v, flags, jsonSameState(got, want))
		}
	}
	var b bytes.Buffer
	if err := encodeJSONData(&b, beacontest.NewState(beacon.Fulu, beacon.MainnetPreset(), 3, 1)); err != nil {
		t.Fatal(err)
	}
	_, _, err := decodeJSON(&b, assumeVersion(beacon.Phase0))
	if err == nil || !strings.Contains(err.Error(), "previous_epoch_participation") {
		t.Fatalf("fulu read as phase0: %v", err)
	}
}

// jsonSameState reports whether got and want are deeply equal, like
// reflect.DeepEqual, but compares the large vectors and lists with
// slices.Equal (reflect walks a 65536-root vector byte by byte, which is
// slow under the race detector).
func jsonSameState(got, want *beacon.State) bool {
	if got == nil || want == nil {
		return got == want
	}
	g, w := *got, *want
	same := jsonSameSlice(&g.BlockRoots, &w.BlockRoots)
	same = same && jsonSameSlice(&g.StateRoots, &w.StateRoots)
	same = same && jsonSameSlice(&g.RandaoMixes, &w.RandaoMixes)
	same = same && jsonSameSlice(&g.Slashings, &w.Slashings)
	same = same && jsonSameSlice(&g.Validators, &w.Validators)
	same = same && jsonSameSlice(&g.Balances, &w.Balances)
	same = same && jsonSameSlice(&g.PreviousEpochParticipation, &w.PreviousEpochParticipation)
	same = same && jsonSameSlice(&g.CurrentEpochParticipation, &w.CurrentEpochParticipation)
	same = same && jsonSameSlice(&g.InactivityScores, &w.InactivityScores)
	same = same && jsonSameSlice(&g.CurrentSyncCommittee.PublicKeys, &w.CurrentSyncCommittee.PublicKeys)
	same = same && jsonSameSlice(&g.NextSyncCommittee.PublicKeys, &w.NextSyncCommittee.PublicKeys)
	return same && reflect.DeepEqual(&g, &w)
}

// jsonSameSlice compares *a and *b (nil and empty differ, as for
// reflect.DeepEqual) and then clears both, so a DeepEqual of what holds
// them skips them.
func jsonSameSlice[T comparable](a, b *[]T) bool {
	same := (*a == nil) == (*b == nil) && slices.Equal(*a, *b)
	*a, *b = nil, nil
	return same
}

func TestJSONSameStateDetectsDifferences(t *testing.T) {
	base := func() *beacon.State { return beacontest.NewState(beacon.Fulu, beacon.MinimalPreset(), 3, 9) }
	if !jsonSameState(base(), base()) {
		t.Fatal("equal states reported different")
	}
	for name, mutate := range map[string]func(*beacon.State){
		"validator": func(s *beacon.State) { s.Validators[2].Slashed = !s.Validators[2].Slashed },
		"randao":    func(s *beacon.State) { s.RandaoMixes[63][31] ^= 1 },
		"base fee": func(s *beacon.State) {
			s.LatestExecutionPayloadHeader.BaseFeePerGas.AddUint64(&s.LatestExecutionPayloadHeader.BaseFeePerGas, 1)
		},
		"sync key": func(s *beacon.State) { s.NextSyncCommittee.PublicKeys[0][0] ^= 1 },
		"nil vs empty": func(s *beacon.State) {
			s.HistoricalSummaries = s.HistoricalSummaries[:0]
			s.PendingConsolidations = nil
		},
		"slot":      func(s *beacon.State) { s.Slot++ },
		"lookahead": func(s *beacon.State) { s.ProposerLookahead[15]++ },
	} {
		s := base()
		mutate(s)
		if jsonSameState(s, base()) {
			t.Errorf("%s: difference not detected", name)
		}
	}
}
