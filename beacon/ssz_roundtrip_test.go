package beacon_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
	"runtime"
	"testing"
	"testing/iotest"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

var presets = []beacon.Preset{beacon.MinimalPreset(), beacon.MainnetPreset()}

// TestSSZRoundTripEveryFork: for every fork and both presets, a generated
// state with every list non-empty encodes, decodes back (from a slice and
// from streams that return a few bytes at a time) to a deep-equal state,
// re-encodes to the same bytes, and hashes to the reference root.
func TestSSZRoundTripEveryFork(t *testing.T) {
	for _, p := range presets {
		for _, v := range allForks() {
			t.Run(p.Name+"/"+v.String(), func(t *testing.T) {
				s := beacontest.NewState(v, p, 37, uint64(v)+1)
				b, err := marshalSSZ(s)
				if err != nil {
					t.Fatal(err)
				}
				if n, err := sizeSSZ(s); err != nil || n != len(b) {
					t.Fatalf("SizeSSZ = %d, %v; MarshalSSZ made %d bytes", n, err, len(b))
				}
				typ := refStateType(v, p)
				// historical_roots is the first variable field: its offset is
				// the size of the fixed part, as the specs' types give it.
				if off, want := binary.LittleEndian.Uint32(b[typ[:7].fixedPartSize():]), typ.fixedPartSize(); int(off) != want {
					t.Fatalf("first offset %d, the reference fixed part is %d", off, want)
				}
				var w bytes.Buffer
				if err := beacon.WriteState(&w, s, beacon.EncodingSSZ, nil); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(w.Bytes(), b) {
					t.Fatal("EncodeSSZ and MarshalSSZ differ")
				}
				opt := p
				decoders := map[string]func() (*beacon.State, error){
					"UnmarshalSSZ": func() (*beacon.State, error) { return unmarshalSSZ(b, v, opt) },
					"bytes.Reader": func() (*beacon.State, error) { return decodeSSZ(bytes.NewReader(b), v, opt) },
					"one-byte": func() (*beacon.State, error) {
						return decodeSSZ(iotest.OneByteReader(bytes.NewReader(b)), v, opt)
					},
					"choppy": func() (*beacon.State, error) { return decodeSSZ(&choppyReader{b: b}, v, opt) },
					"half+hint": func() (*beacon.State, error) {
						return decodeSSZ(iotest.HalfReader(bytes.NewReader(b)), v, opt, sizeHint(int64(len(b))))
					},
					"data-err-eof": func() (*beacon.State, error) {
						return decodeSSZ(iotest.DataErrReader(bytes.NewReader(b)), v, opt)
					},
					"one-byte+hint": func() (*beacon.State, error) {
						return decodeSSZ(iotest.OneByteReader(bytes.NewReader(b)), v, opt, sizeHint(int64(len(b))))
					},
				}
				for name, dec := range decoders {
					got, err := dec()
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if !reflect.DeepEqual(got, s) {
						t.Fatalf("%s: the decoded state differs from the original", name)
					}
					again, err := marshalSSZ(got)
					if err != nil || !bytes.Equal(again, b) {
						t.Fatalf("%s: re-encoding differs (%v)", name, err)
					}
				}
				root, err := beacon.HashTreeRoot(s)
				if err != nil {
					t.Fatal(err)
				}
				if want := typ.root(b); root != beacon.Root(want) {
					t.Fatalf("HashTreeRoot = %x, the reference gives %x", root, want)
				}
			})
		}
	}
}

// fixedPartSize is the size of the fixed part of a container.
func (t containerT) fixedPartSize() int {
	n := 0
	for _, f := range t {
		if s := f.size(); s >= 0 {
			n += s
		} else {
			n += 4
		}
	}
	return n
}

// TestHashTreeRootGOMAXPROCS: a state large enough to be hashed by several
// goroutines in several subtrees has the same root with 1 and 2 procs, and
// it is the reference root.
func TestHashTreeRootGOMAXPROCS(t *testing.T) {
	if testing.Short() {
		t.Skip("hashes 40,000 validators with the slow reference")
	}
	s := beacontest.NewState(beacon.Fulu, beacon.MinimalPreset(), 40_000, 7)
	b, err := marshalSSZ(s)
	if err != nil {
		t.Fatal(err)
	}
	want := beacon.Root(refStateType(beacon.Fulu, beacon.MinimalPreset()).root(b))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(procs)
		got, err := beacon.HashTreeRoot(s)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("GOMAXPROCS=%d: root %x, the reference gives %x", procs, got, want)
		}
	}
}

// TestHashTreeRootListSizes hashes validator lists and balances of sizes
// around the subtree and batch boundaries against the reference.
func TestHashTreeRootListSizes(t *testing.T) {
	p := beacon.MinimalPreset()
	for _, n := range []int{1, 2, 3, 15, 16, 17, 1023, 1024, 1025, 8191, 8192, 8193, 16385} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := beacontest.NewState(beacon.Altair, p, n, uint64(n))
			b, err := marshalSSZ(s)
			if err != nil {
				t.Fatal(err)
			}
			got, err := beacon.HashTreeRoot(s)
			if err != nil {
				t.Fatal(err)
			}
			if want := refStateType(beacon.Altair, p).root(b); got != beacon.Root(want) {
				t.Fatalf("root %x, reference %x", got, want)
			}
		})
	}
}
