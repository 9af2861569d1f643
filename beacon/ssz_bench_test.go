package beacon_test

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// benchStates caches the generated fulu mainnet states (and their SSZ) by
// validator count, so each size is generated once per test binary run.
var benchStates sync.Map // int -> *benchState

type benchState struct {
	once sync.Once
	s    *beacon.State
	b    []byte
}

func benchFixture(b *testing.B, validators int) (*beacon.State, []byte) {
	b.Helper()
	v, _ := benchStates.LoadOrStore(validators, &benchState{})
	bs := v.(*benchState)
	bs.once.Do(func() {
		bs.s = beacontest.NewState(beacon.Fulu, beacon.MainnetPreset(), validators, 1)
		var err error
		if bs.b, err = marshalSSZ(bs.s); err != nil {
			b.Fatal(err)
		}
	})
	return bs.s, bs.b
}

var benchSizes = []int{100_000, 1_000_000}

// BenchmarkDecodeSSZ decodes from a reader that tells its size (as a file
// does; a bytes.Reader, not the in-place *bytes.Buffer): allocations do
// not grow with the validator count, and the bytes allocated stay near the
// state's Go size.
func BenchmarkDecodeSSZ(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("validators=%d", n), func(b *testing.B) {
			_, data := benchFixture(b, n)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeSSZ(bytes.NewReader(data), beacon.Fulu, sizeHint(int64(len(data)))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecodeSSZClaimedSize decodes a stream whose size is only
// claimed (a Content-Length, a Body's size over a pipe): the size checks
// the offsets, and the lists grow as their bytes arrive, as without one.
func BenchmarkDecodeSSZClaimedSize(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("validators=%d", n), func(b *testing.B) {
			_, data := benchFixture(b, n)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				// onlyReader hides bytes.Reader's Len: a stream.
				r := onlyReader{bytes.NewReader(data)}
				if _, err := decodeSSZ(r, beacon.Fulu, sizeHint(int64(len(data)))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecodeSSZNoHint decodes a stream of unknown size: lists grow
// in bounded steps, so allocations grow with the logarithm of the size.
func BenchmarkDecodeSSZNoHint(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("validators=%d", n), func(b *testing.B) {
			_, data := benchFixture(b, n)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeSSZ(onlyReader{bytes.NewReader(data)}, beacon.Fulu); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncodeSSZ(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("validators=%d", n), func(b *testing.B) {
			s, data := benchFixture(b, n)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if err := beacon.WriteState(io.Discard, s, beacon.EncodingSSZ, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkHashTreeRoot(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("validators=%d", n), func(b *testing.B) {
			s, data := benchFixture(b, n)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := beacon.HashTreeRoot(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// onlyReader hides every method but Read.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }
