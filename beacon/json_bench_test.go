package beacon_test

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// jsonBenchStates caches the generated fulu mainnet states and their JSON
// responses by validator count.
var jsonBenchStates sync.Map // int -> *jsonBenchState

type jsonBenchState struct {
	once sync.Once
	s    *beacon.State
	js   []byte
}

func jsonBenchFixture(b *testing.B, validators int) (*beacon.State, []byte) {
	b.Helper()
	v, _ := jsonBenchStates.LoadOrStore(validators, &jsonBenchState{})
	bs := v.(*jsonBenchState)
	bs.once.Do(func() {
		bs.s = beacontest.NewState(beacon.Fulu, beacon.MainnetPreset(), validators, 1)
		var buf bytes.Buffer
		if err := beacon.WriteState(&buf, bs.s, beacon.EncodingJSON, &beacon.Flags{Finalized: true}); err != nil {
			b.Fatal(err)
		}
		bs.js = buf.Bytes()
	})
	return bs.s, bs.js
}

var jsonBenchSizes = []int{100_000, 1_000_000}

// jsonPeakHeap runs fn once and returns the largest growth of the heap
// (live and not yet freed objects, runtime/metrics
// /memory/classes/heap/objects:bytes, sampled every 200µs) over its level
// before fn, after a GC. GOGC is left as it is.
func jsonPeakHeap(fn func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak atomic.Uint64
	peak.Store(base)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if v := read(); v > peak.Load() {
					peak.Store(v)
				}
			}
		}
	}()
	fn()
	close(stop)
	<-done
	if v := read(); v > peak.Load() {
		peak.Store(v)
	}
	return peak.Load() - base
}

// jsonDataFirst returns the envelope env with its members before "data"
// moved after it, as Lodestar orders them: {data, version, …}.
func jsonDataFirst(b *testing.B, env []byte) []byte {
	i := bytes.Index(env, []byte(`"data":`))
	if i < 0 || env[len(env)-1] != '}' {
		b.Fatal("not an envelope")
	}
	out := make([]byte, 0, len(env))
	out = append(out, '{')
	out = append(out, env[i:len(env)-1]...)
	out = append(out, ',')
	out = append(out, env[1:i-1]...)
	return append(out, '}')
}

func benchDecodeJSON(b *testing.B, hint, dataFirst bool) {
	for _, n := range jsonBenchSizes {
		b.Run(fmt.Sprintf("validators=%d", n), func(b *testing.B) {
			_, data := jsonBenchFixture(b, n)
			if dataFirst {
				data = jsonDataFirst(b, data)
			}
			decode := func() *beacon.State {
				opts := []any{}
				if hint {
					opts = append(opts, sizeHint(int64(len(data))))
				}
				// jsonOnlyReader hides bytes.Reader's Len: a stream. A
				// size is trusted only from a reader that tells it (a file).
				var r io.Reader = jsonOnlyReader{bytes.NewReader(data)}
				if hint {
					r = bytes.NewReader(data)
				}
				s, _, err := decodeJSON(r, opts...)
				if err != nil {
					b.Fatal(err)
				}
				return s
			}
			var sszSize int
			peak := jsonPeakHeap(func() {
				s := decode()
				sz, err := sizeSSZ(s)
				if err != nil {
					b.Fatal(err)
				}
				sszSize = sz
			})
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				decode()
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(peak)/float64(sszSize), "peak/ssz")
		})
	}
}

// BenchmarkDecodeJSON decodes a JSON response from a stream of unknown
// size: the validator list is assembled from chunks at the end.
func BenchmarkDecodeJSON(b *testing.B) { benchDecodeJSON(b, false, false) }

// BenchmarkDecodeJSONSizeHint decodes from a reader that tells its size
// (a file): the validator list is allocated once. (A size only claimed, a
// Content-Length, sizes nothing: BenchmarkDecodeJSON.)
func BenchmarkDecodeJSONSizeHint(b *testing.B) { benchDecodeJSON(b, true, false) }

// BenchmarkDecodeJSONDataFirst decodes a response whose "data" comes
// before "version" (Lodestar's order), from a stream of unknown size: the
// peak must be that of BenchmarkDecodeJSON.
func BenchmarkDecodeJSONDataFirst(b *testing.B) { benchDecodeJSON(b, false, true) }

// BenchmarkDecodeJSONDataFirstSizeHint is BenchmarkDecodeJSONDataFirst
// with the input's size given.
func BenchmarkDecodeJSONDataFirstSizeHint(b *testing.B) { benchDecodeJSON(b, true, true) }

func BenchmarkEncodeJSON(b *testing.B) {
	for _, n := range jsonBenchSizes {
		b.Run(fmt.Sprintf("validators=%d", n), func(b *testing.B) {
			s, data := jsonBenchFixture(b, n)
			peak := jsonPeakHeap(func() {
				if err := beacon.WriteState(io.Discard, s, beacon.EncodingJSON, &beacon.Flags{}); err != nil {
					b.Fatal(err)
				}
			})
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if err := beacon.WriteState(io.Discard, s, beacon.EncodingJSON, &beacon.Flags{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}
