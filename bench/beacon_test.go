package bench_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/attestantio/go-eth2-client/spec/altair"
	"github.com/attestantio/go-eth2-client/spec/bellatrix"
	"github.com/attestantio/go-eth2-client/spec/capella"
	"github.com/attestantio/go-eth2-client/spec/deneb"
	"github.com/attestantio/go-eth2-client/spec/electra"
	"github.com/attestantio/go-eth2-client/spec/fulu"
	"github.com/attestantio/go-eth2-client/spec/gloas"
	"github.com/attestantio/go-eth2-client/spec/phase0"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// peerState is what go-eth2-client's BeaconState types of every fork have.
type peerState interface {
	UnmarshalSSZ([]byte) error
	MarshalSSZ() ([]byte, error)
	HashTreeRoot() ([32]byte, error)
	json.Marshaler
	json.Unmarshaler
}

// newPeerState returns an empty go-eth2-client state of fork v.
func newPeerState(v beacon.Version) peerState {
	switch v {
	case beacon.Phase0:
		return new(phase0.BeaconState)
	case beacon.Altair:
		return new(altair.BeaconState)
	case beacon.Bellatrix:
		return new(bellatrix.BeaconState)
	case beacon.Capella:
		return new(capella.BeaconState)
	case beacon.Deneb:
		return new(deneb.BeaconState)
	case beacon.Electra:
		return new(electra.BeaconState)
	case beacon.Fulu:
		return new(fulu.BeaconState)
	case beacon.Gloas:
		return new(gloas.BeaconState)
	}
	panic(fmt.Sprintf("no go-eth2-client type for %v", v))
}

// TestDifferentialBeacon checks both implementations against each other on
// the same generated states (mainnet preset, the one go-eth2-client's types
// are generated for), for every fork (phase0 to gloas; go-eth2-client
// v0.30.1 is, next to Lodestar, the second independent implementation of
// gloas the bench checks against): go-eth2-client decodes our SSZ and our
// JSON and gets our hash tree root and our bytes back; states encoded by
// go-eth2-client decode in ours to the same root and the same bytes.
func TestDifferentialBeacon(t *testing.T) {
	for _, v := range allForks() {
		for _, seed := range []uint64{1, 2} {
			t.Run(fmt.Sprintf("%s/seed%d", v, seed), func(t *testing.T) {
				st := beacontest.NewState(v, beacon.MainnetPreset(), 300, seed)
				root, err := beacon.HashTreeRoot(st)
				if err != nil {
					t.Fatal(err)
				}
				ssz, err := marshalSSZ(st)
				if err != nil {
					t.Fatal(err)
				}
				var js bytes.Buffer
				if err := encodeJSONData(&js, st); err != nil {
					t.Fatal(err)
				}

				// go-eth2-client reads our SSZ.
				peer := newPeerState(v)
				if err := peer.UnmarshalSSZ(ssz); err != nil {
					t.Fatalf("go-eth2-client cannot decode our SSZ: %v", err)
				}
				if got := mustPeerRoot(t, peer); got != root {
					t.Fatalf("root of our SSZ in go-eth2-client %x, ours %x", got, root)
				}
				peerSSZ, err := peer.MarshalSSZ()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(peerSSZ, ssz) {
					t.Fatalf("go-eth2-client re-encodes our SSZ differently (%d vs %d bytes)", len(peerSSZ), len(ssz))
				}

				// go-eth2-client reads our JSON.
				peerJ := newPeerState(v)
				if err := peerJ.UnmarshalJSON(builderVersion(v, js.Bytes(), true)); err != nil {
					t.Fatalf("go-eth2-client cannot decode our JSON: %v", err)
				}
				if got := mustPeerRoot(t, peerJ); got != root {
					t.Fatalf("root of our JSON in go-eth2-client %x, ours %x", got, root)
				}

				// We read go-eth2-client's SSZ (from the state it decoded
				// from our JSON, so its own encoder made these bytes).
				peerJSSZ, err := peerJ.MarshalSSZ()
				if err != nil {
					t.Fatal(err)
				}
				back, err := unmarshalSSZ(peerJSSZ, v)
				if err != nil {
					t.Fatalf("we cannot decode go-eth2-client's SSZ: %v", err)
				}
				if got := mustRoot(t, back); got != root {
					t.Fatalf("root of go-eth2-client's SSZ in ours %x, want %x", got, root)
				}

				// We read go-eth2-client's JSON.
				peerJS, err := peer.MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				backJ, _, err := decodeJSON(bytes.NewReader(builderVersion(v, peerJS, false)), v.String(), 0)
				if err != nil {
					t.Fatalf("we cannot decode go-eth2-client's JSON: %v", err)
				}
				if got := mustRoot(t, backJ); got != root {
					t.Fatalf("root of go-eth2-client's JSON in ours %x, want %x", got, root)
				}
			})
		}
	}
}

// builderVersion respells a gloas state's builder versions (a uint8) for
// go-eth2-client v0.30.1, which writes and reads them as JSON numbers
// ("version":0), where the specs' canonical JSON mapping (ssz/simple-serialize.md,
// "JSON mapping": UintN as a string), Lodestar and nodeaccess write a
// string ("version":"0"): toNumber for go-eth2-client's input, otherwise
// for ours. No other member of a state is spelt "version".
func builderVersion(v beacon.Version, js []byte, toNumber bool) []byte {
	if v < beacon.Gloas {
		return js
	}
	if toNumber {
		return builderVersionString.ReplaceAll(js, []byte(`"version":$1`))
	}
	return builderVersionNumber.ReplaceAll(js, []byte(`"version":"$1"`))
}

var (
	builderVersionString = regexp.MustCompile(`"version":"([0-9]+)"`)
	builderVersionNumber = regexp.MustCompile(`"version":([0-9]+)`)
)

func mustPeerRoot(t *testing.T, s peerState) beacon.Root {
	t.Helper()
	r, err := s.HashTreeRoot()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustRoot(t *testing.T, s *beacon.State) beacon.Root {
	t.Helper()
	r, err := beacon.HashTreeRoot(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// mainnetValidators is the validator count of the performance benchmarks:
// the size of mainnet in 2026.
const mainnetValidators = 2_150_000

// bigState is a generated fulu state of mainnetValidators validators and
// its SSZ encoding, made once per process for the benchmarks.
var bigState = sync.OnceValue(func() (f struct {
	st  *beacon.State
	ssz []byte
}) {
	f.st = beacontest.NewState(beacon.Fulu, beacon.MainnetPreset(), mainnetValidators, 42)
	var err error
	if f.ssz, err = marshalSSZ(f.st); err != nil {
		panic(err)
	}
	runtime.GC()
	return f
})

// bigJSON is bigState's JSON "data" object, made once per process.
var bigJSON = sync.OnceValue(func() []byte {
	var js bytes.Buffer
	if err := encodeJSONData(&js, bigState().st); err != nil {
		panic(err)
	}
	runtime.GC()
	return js.Bytes()
})

// peakHeap samples the heap's live objects while fn runs and returns the
// highest value above the level before fn, in bytes. It reads
// runtime/metrics every millisecond (no stop-the-world), so it may miss a
// peak shorter than that; the heap of a decoder grows over seconds.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	fn()
	close(done)
	<-stopped
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

// settle collects the previous iteration's garbage outside the timer, so
// that every iteration of either library starts from the same heap (the
// decoded state of the last iteration is otherwise still being collected
// and swept, and large allocations land in fresh, unfaulted memory or not
// depending on the GC's timing).
func settle(b *testing.B) {
	b.StopTimer()
	runtime.GC()
	b.StartTimer()
}

// BenchmarkBeaconSSZDecode decodes the same SSZ bytes of a mainnet-size fulu
// state with both libraries, from a byte slice (go-eth2-client's only way);
// "nodeaccess-reader" decodes the same bytes through an io.Reader that hides
// its size (a stream: lists grow as their bytes arrive), the way an HTTP
// body without Content-Length arrives.
func BenchmarkBeaconSSZDecode(b *testing.B) {
	f := bigState()
	b.Run("nodeaccess", func(b *testing.B) {
		b.SetBytes(int64(len(f.ssz)))
		b.ReportAllocs()
		for b.Loop() {
			settle(b)
			st, err := unmarshalSSZ(f.ssz, beacon.Fulu)
			if err != nil || len(st.Validators) != mainnetValidators {
				b.Fatal(err)
			}
		}
	})
	b.Run("nodeaccess-reader", func(b *testing.B) {
		b.SetBytes(int64(len(f.ssz)))
		b.ReportAllocs()
		for b.Loop() {
			settle(b)
			st, err := decodeSSZ(struct{ io.Reader }{bytes.NewReader(f.ssz)}, beacon.Fulu, 0)
			if err != nil || len(st.Validators) != mainnetValidators {
				b.Fatal(err)
			}
		}
	})
	b.Run("go-eth2-client", func(b *testing.B) {
		b.SetBytes(int64(len(f.ssz)))
		b.ReportAllocs()
		for b.Loop() {
			settle(b)
			st := new(fulu.BeaconState)
			if err := st.UnmarshalSSZ(f.ssz); err != nil || len(st.Validators) != mainnetValidators {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkBeaconJSONDecode decodes the same JSON bytes (the state's "data"
// object) with both libraries and reports the peak live heap above the
// level before the decode ("peak-heap-B"). nodeaccess decodes from a stream
// whose size it is not told (lists are collected in chunks and copied once
// into exact slices); "nodeaccess-sized" is told the size (SizeHint, as the
// client does from Content-Length) and sizes the validator list up front.
// go-eth2-client needs the whole body in memory (its json.Unmarshaler),
// which is what its HTTP client does; the body itself is not counted for
// either.
func BenchmarkBeaconJSONDecode(b *testing.B) {
	js := bigJSON()
	for _, sized := range []bool{false, true} {
		name := "nodeaccess"
		if sized {
			name = "nodeaccess-sized"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			var peak uint64
			for b.Loop() {
				settle(b)
				peak = max(peak, peakHeap(func() {
					var n int64 // unknown
					if sized {
						n = int64(len(js))
					}
					st, _, err := decodeJSON(struct{ io.Reader }{bytes.NewReader(js)}, "fulu", n)
					if err != nil || len(st.Validators) != mainnetValidators {
						b.Fatal(err)
					}
				}))
			}
			b.ReportMetric(float64(peak), "peak-heap-B")
		})
	}
	b.Run("go-eth2-client", func(b *testing.B) {
		b.SetBytes(int64(len(js)))
		b.ReportAllocs()
		var peak uint64
		for b.Loop() {
			settle(b)
			peak = max(peak, peakHeap(func() {
				st := new(fulu.BeaconState)
				if err := json.Unmarshal(js, st); err != nil || len(st.Validators) != mainnetValidators {
					b.Fatal(err)
				}
			}))
		}
		b.ReportMetric(float64(peak), "peak-heap-B")
	})
}

// BenchmarkBeaconHashTreeRoot hashes the same state with both libraries,
// reporting cpu-ns/B too (see BenchmarkBeaconGloas).
func BenchmarkBeaconHashTreeRoot(b *testing.B) {
	f := bigState()
	want, err := beacon.HashTreeRoot(f.st)
	if err != nil {
		b.Fatal(err)
	}
	peer := new(fulu.BeaconState)
	if err := peer.UnmarshalSSZ(f.ssz); err != nil {
		b.Fatal(err)
	}
	b.Run("nodeaccess", func(b *testing.B) {
		b.ReportAllocs()
		var cpu int64
		for b.Loop() {
			settle(b)
			c := cpuTime()
			r, err := beacon.HashTreeRoot(f.st)
			cpu += cpuTime() - c
			if err != nil || r != want {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu, len(f.ssz))
	})
	b.Run("go-eth2-client", func(b *testing.B) {
		b.ReportAllocs()
		var cpu int64
		for b.Loop() {
			settle(b)
			c := cpuTime()
			r, err := peer.HashTreeRoot()
			cpu += cpuTime() - c
			if err != nil || beacon.Root(r) != want {
				b.Fatal("root differs", err)
			}
		}
		reportCPU(b, cpu, len(f.ssz))
	})
}

// BenchmarkBeaconHashTreeRootDistinct is BenchmarkBeaconHashTreeRoot on a
// variant of the state in which no two validators share an
// (effective_balance, slashed) or an (exit_epoch, withdrawable_epoch) leaf
// pair, so nodeaccess's per-goroutine cache of repeated pairs never hits:
// the worst case for it. (On mainnet most validators share a few balance
// pairs and, while not exited, the far-future epoch pair.)
func BenchmarkBeaconHashTreeRootDistinct(b *testing.B) {
	st := beacontest.NewState(beacon.Fulu, beacon.MainnetPreset(), mainnetValidators, 42)
	for i := range st.Validators {
		v := &st.Validators[i]
		v.EffectiveBalance = beacon.Gwei(16_000_000_000 + uint64(i))
		v.ExitEpoch = beacon.Epoch(300_000 + uint64(i))
		v.WithdrawableEpoch = v.ExitEpoch + 256
	}
	want, err := beacon.HashTreeRoot(st)
	if err != nil {
		b.Fatal(err)
	}
	ssz, err := marshalSSZ(st)
	if err != nil {
		b.Fatal(err)
	}
	peer := new(fulu.BeaconState)
	if err := peer.UnmarshalSSZ(ssz); err != nil {
		b.Fatal(err)
	}
	ssz = nil
	b.Run("nodeaccess", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			settle(b)
			if r, err := beacon.HashTreeRoot(st); err != nil || r != want {
				b.Fatal(err)
			}
		}
	})
	b.Run("go-eth2-client", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			settle(b)
			if r, err := peer.HashTreeRoot(); err != nil || beacon.Root(r) != want {
				b.Fatal("root differs", err)
			}
		}
	})
}
