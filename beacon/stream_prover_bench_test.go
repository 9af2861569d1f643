package beacon_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// mainnetValidators is the validator count of a mainnet-size state:
// about 2.2 million, about 300 MB of SSZ (fulu).
const mainnetValidators = 2_200_000

// savedStates caches the state files the benchmarks save, by validator
// count, for one run of the test binary; the states themselves are not
// kept, so that they are not in the heap a benchmark measures.
var savedStates sync.Map // int -> *savedState

type savedState struct {
	once sync.Once
	path string
	err  error
}

// savedFixture writes a generated fulu mainnet state of n validators to a
// file once, and returns its path.
func savedFixture(b *testing.B, n int) string {
	b.Helper()
	v, _ := savedStates.LoadOrStore(n, &savedState{})
	s := v.(*savedState)
	s.once.Do(func() {
		dir, err := os.MkdirTemp("", "beacon-bench-")
		if err != nil {
			s.err = err
			return
		}
		s.path = filepath.Join(dir, fmt.Sprintf("fulu-%d.ssz", n))
		f, err := os.Create(s.path)
		if err != nil {
			s.err = err
			return
		}
		defer f.Close()
		st := beacontest.NewState(beacon.Fulu, beacon.MainnetPreset(), n, 1)
		s.err = beacon.WriteState(f, st, beacon.EncodingSSZ, nil)
	})
	if s.err != nil {
		b.Fatal(s.err)
	}
	runtime.GC()
	debug.FreeOSMemory()
	return s.path
}

// peakHeap samples the heap's object bytes (runtime/metrics) every 200µs
// from start until stop, and returns the highest.
type peakHeap struct {
	stop chan struct{}
	done chan struct{}
	peak atomic.Uint64
}

func startPeakHeap() *peakHeap {
	p := &peakHeap{stop: make(chan struct{}), done: make(chan struct{})}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > p.peak.Load() {
			p.peak.Store(v)
		}
	}
	read()
	go func() {
		defer close(p.done)
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				read()
				return
			case <-t.C:
				read()
			}
		}
	}()
	return p
}

func (p *peakHeap) end() uint64 {
	close(p.stop)
	<-p.done
	return p.peak.Load()
}

// BenchmarkReadProver makes a Prover of a saved mainnet-size fulu state
// (2.2 million validators, about 300 MB) streaming from its file, and
// reports the heap's peak while it hashes (peak-heap-MB, sampled) and what
// the Prover keeps (retained-MB, after a collection). "decoded" does the
// same with ReadState and NewProver, which hold the whole state.
func BenchmarkReadProver(b *testing.B) {
	path := savedFixture(b, mainnetValidators)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	body := beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "fulu", Bytes: fi.Size()}
	for _, mode := range []string{"streamed", "decoded"} {
		b.Run(mode+"/validators="+fmt.Sprint(mainnetValidators), func(b *testing.B) {
			b.SetBytes(fi.Size())
			var peak, retained uint64
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				base := liveHeap()
				ph := startPeakHeap()
				var p *beacon.Prover
				if mode == "streamed" {
					p, err = beacon.ReadProver(f, body, f, beacon.ReadOptions{})
				} else {
					var st *beacon.State
					if st, _, err = beacon.ReadState(f, body, beacon.ReadOptions{}); err == nil {
						p, err = beacon.NewProver(st)
					}
				}
				if err != nil {
					b.Fatal(err)
				}
				top := ph.end()
				peak = max(peak, top-min(base, top))
				live := liveHeap()
				retained = live - min(base, live)
				runtime.KeepAlive(p)
				f.Close()
			}
			b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
			b.ReportMetric(float64(retained)/1e6, "retained-MB")
		})
	}
}

// BenchmarkReadProverProve makes proofs from a Prover that ReadProver made
// of a saved mainnet-size state: each one below the kept levels reads the
// 16 chunks it needs back from the file (a validator: 16 of them, 1,936
// bytes; a balance: 64 of them, 512 bytes).
func BenchmarkReadProverProve(b *testing.B) {
	path := savedFixture(b, mainnetValidators)
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	p, err := beacon.ReadProver(f, beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "fulu", Bytes: fi.Size()}, f, beacon.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	idx := func(i int) beacon.ValidatorIndex { return beacon.ValidatorIndex(i * 7919 % mainnetValidators) }
	for _, kind := range []string{"validator", "credentials", "balance"} {
		b.Run(kind+"/validators="+fmt.Sprint(mainnetValidators), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				var err error
				switch kind {
				case "validator":
					_, err = proveValidator(p, idx(i))
				case "credentials":
					_, err = proveValidatorField(p, idx(i), "withdrawal_credentials")
				default:
					_, err = proveBalance(p, idx(i)/4)
				}
				if err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkStateReader reads one validator and one balance of a saved
// mainnet-size state file through a counting io.ReaderAt: bytes-read/op
// is what each read takes from the file, whatever the validator count.
// "open" opens the file (the offsets only).
func BenchmarkStateReader(b *testing.B) {
	path := savedFixture(b, mainnetValidators)
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	body := beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "fulu", Bytes: fi.Size()}
	c := &countingReaderAt{r: f}
	idx := func(i int) beacon.ValidatorIndex { return beacon.ValidatorIndex(i * 7919 % mainnetValidators) }
	b.Run("open", func(b *testing.B) {
		c.bytes.Store(0)
		for b.Loop() {
			if _, err := beacon.OpenState(c, body, beacon.MainnetPreset()); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(c.bytes.Load())/float64(b.N), "bytes-read/op")
	})
	sr, err := beacon.OpenState(c, body, beacon.MainnetPreset())
	if err != nil {
		b.Fatal(err)
	}
	for _, kind := range []string{"validator", "balance"} {
		b.Run(kind+"/validators="+fmt.Sprint(mainnetValidators), func(b *testing.B) {
			b.ReportAllocs()
			c.bytes.Store(0)
			i := 0
			for b.Loop() {
				var err error
				if kind == "validator" {
					_, err = sr.Validators(idx(i), idx(i)+1)
				} else {
					_, err = sr.Balances(idx(i), idx(i)+1)
				}
				if err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(c.bytes.Load())/float64(b.N), "bytes-read/op")
		})
	}
}
