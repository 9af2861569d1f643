package beacon_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"reflect"
	"runtime"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// FuzzDecodeSSZ: any input either fails with a DecodeError (from a slice,
// never a truncation: the slice is all there is), or decodes
// (identically from a slice and from a stream of unknown size) to a state
// that re-encodes to exactly the input, hashes without error, and goes
// through JSON and back unchanged. The
// preset byte picks mainnet, minimal or tiny (see fuzzPreset).
//
// The recorded Sepolia genesis (2.9 MB) and its cuts are seeds of every
// run; other inputs over fuzzMaxInput are skipped, so the fuzzer spends
// its time on states of a few KB instead of mutating megabytes.
func FuzzDecodeSSZ(f *testing.F) {
	rec := recordedGenesis(f)
	f.Add(rec, uint8(beacon.Phase0), fuzzMainnet)
	f.Add(rec[:len(rec)-7], uint8(beacon.Phase0), fuzzMainnet)
	f.Add(rec[:4096], uint8(beacon.Phase0), fuzzMainnet) // its fixed part's start
	// Lodestar's Gloas state (testdata/gloas, minimal preset).
	if b, err := os.ReadFile("testdata/gloas/minimal-1.ssz"); err == nil {
		f.Add(b, uint8(beacon.Gloas), fuzzMinimal)
	}
	for _, v := range allForks() {
		for _, sel := range []uint8{fuzzTiny, fuzzMinimal} {
			b, err := marshalSSZ(beacontest.NewState(v, fuzzPreset(sel), 1+int(v)%3, uint64(v)))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b, uint8(v), sel)
			if sel == fuzzMinimal {
				continue
			}
			f.Add(b[:len(b)/2], uint8(v), sel)
			f.Add(b[:len(b)-1], uint8(v), sel)
			m := bytes.Clone(b)
			m[len(m)/3] ^= 0xff
			f.Add(m, uint8(v), sel)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, fork uint8, sel uint8) {
		if fuzzSkip(data, rec) {
			return
		}
		v := beacon.Version(fork % uint8(len(allForks())))
		p := fuzzPreset(sel)
		s, err := unmarshalSSZ(data, v, p)
		s2, err2 := decodeSSZ(onlyReader{bytes.NewReader(data)}, v, p)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("slice err %v, stream err %v", err, err2)
		}
		if err != nil {
			var de *beacon.DecodeError
			if !errors.As(err, &de) || !errors.As(err2, &de) {
				t.Fatalf("not DecodeErrors: %v / %v", err, err2)
			}
			// A slice is the whole input: malformed, never truncated.
			if errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("a whole input reported as truncated: %v", err)
			}
			return
		}
		if !reflect.DeepEqual(s, s2) {
			t.Fatal("slice and stream decode differently")
		}
		out, err := marshalSSZ(s)
		if err != nil {
			t.Fatalf("a decoded state does not encode: %v", err)
		}
		if !bytes.Equal(out, data) {
			t.Fatal("the input is not canonical, yet it decoded")
		}
		if _, err := beacon.HashTreeRoot(s); err != nil {
			t.Fatal(err)
		}
		// The other codec agrees: the state encodes as JSON and decodes
		// back the same. (Not for the recording, whose 6 MB of JSON would
		// make every fuzzing run's first seconds: client_state_test.go takes
		// it through JSON.)
		if len(data) > fuzzMaxInput {
			return
		}
		var js bytes.Buffer
		if err := encodeJSONData(&js, s); err != nil {
			t.Fatalf("a state decoded from SSZ does not encode as JSON: %v", err)
		}
		back, _, err := decodeJSON(&js, p, assumeVersion(v))
		if err != nil || !jsonSameState(back, s) {
			t.Fatalf("its JSON does not decode to it: %v", err)
		}
	})
}

// allocated returns the bytes allocated while running fn.
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestSSZDecodeAllocationCap: inputs whose offsets claim tens of millions
// of validators (as many as 32-bit offsets can reach) but carry a few
// bytes of them make the decoder allocate no more than a small multiple of
// their length, from a slice or from a stream of unknown size.
func TestSSZDecodeAllocationCap(t *testing.T) {
	p := beacon.MinimalPreset()
	for _, v := range []beacon.Version{beacon.Phase0, beacon.Fulu} {
		typ := refStateType(v, p)
		b := mustMarshal(t, beacontest.NewState(v, p, 2, 1))
		const iValidators = 11
		start := offsetOf(b, typ, iValidators)
		claim := uint32(start) + 121*35_000_000 // 35M validators, ~4 GiB
		for i := iValidators + 1; i < len(typ); i++ {
			if typ[i].size() < 0 {
				binary.LittleEndian.PutUint32(b[fieldPos(typ, i):], claim)
			}
		}
		limit := uint64(4*len(b) + 256<<10)
		for name, decode := range map[string]func() error{
			"UnmarshalSSZ": func() error { _, err := unmarshalSSZ(b, v, p); return err },
			"DecodeSSZ": func() error {
				_, err := decodeSSZ(onlyReader{bytes.NewReader(b)}, v, p)
				return err
			},
			"DecodeSSZ+hint": func() error {
				_, err := decodeSSZ(onlyReader{bytes.NewReader(b)}, v, p, sizeHint(int64(len(b))))
				return err
			},
		} {
			var err error
			n := allocated(func() { err = decode() })
			if !errors.Is(err, beacon.ErrInvalidState) {
				t.Fatalf("%s %s: err = %v", v, name, err)
			}
			if n > limit {
				t.Fatalf("%s %s: allocated %d bytes for a %d-byte input (cap %d)", v, name, n, len(b), limit)
			}
			t.Logf("%s %s: %d bytes allocated for a %d-byte input: %v", v, name, n, len(b), err)
		}
	}
}

// TestSSZAllocsConstant: decoding (with the size known: told by the
// reader, as a file or an in-memory reader tells it), encoding and hashing
// allocate as many times for 20,000 validators as for 1,000.
func TestSSZAllocsConstant(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 20,000 validators")
	}
	p := beacon.MainnetPreset()
	counts := map[string][2]float64{}
	for i, n := range []int{1000, 20_000} {
		s := beacontest.NewState(beacon.Fulu, p, n, 1)
		b := mustMarshal(t, s)
		for name, fn := range map[string]func(){
			"DecodeSSZ": func() {
				if _, err := decodeSSZ(bytes.NewReader(b), beacon.Fulu, sizeHint(int64(len(b)))); err != nil {
					t.Fatal(err)
				}
			},
			"UnmarshalSSZ": func() {
				if _, err := unmarshalSSZ(b, beacon.Fulu); err != nil {
					t.Fatal(err)
				}
			},
			"EncodeSSZ": func() {
				if err := beacon.WriteState(io.Discard, s, beacon.EncodingSSZ, nil); err != nil {
					t.Fatal(err)
				}
			},
		} {
			c := counts[name]
			c[i] = testing.AllocsPerRun(3, fn)
			counts[name] = c
		}
	}
	for name, c := range counts {
		if c[0] != c[1] {
			t.Errorf("%s: %v allocations for 1,000 validators, %v for 20,000", name, c[0], c[1])
		}
	}
}

// TestSSZShortAttestationListNotTruncated: a phase0 attestation list whose
// bytes are fewer than one offset (1 to 3), in an input whose size is
// known, is a malformed state, not a truncated one: the error must not
// match io.ErrUnexpectedEOF (which invites a retry of a body that will
// never grow). FuzzDecodeSSZSizeHint found it (its seed f98b301f9cc007c0).
// Unknown size: the input may be cut inside an offset, and saying so is
// right.
func TestSSZShortAttestationListNotTruncated(t *testing.T) {
	p := beacon.MinimalPreset()
	s := beacontest.NewState(beacon.Phase0, p, 2, 1)
	s.PreviousEpochAttestations, s.CurrentEpochAttestations = nil, nil
	b := mustMarshal(t, s)
	typ := refStateType(beacon.Phase0, p)
	const iPrev, iCur = 15, 16
	if offsetOf(b, typ, iPrev) != len(b) || offsetOf(b, typ, iCur) != len(b) {
		t.Fatalf("the attestation lists are not the last fields: offsets %d, %d of %d", offsetOf(b, typ, iPrev), offsetOf(b, typ, iCur), len(b))
	}
	for k := 1; k < 4; k++ {
		last := append(bytes.Clone(b), make([]byte, k)...) // current_epoch_attestations: k bytes
		middle := bytes.Clone(last)                        // previous_epoch_attestations: k bytes
		put32(middle, fieldPos(typ, iCur), len(b)+k)
		for name, in := range map[string][]byte{"current": last, "previous": middle} {
			for how, decode := range map[string]func() error{
				"UnmarshalSSZ": func() error { _, err := unmarshalSSZ(in, beacon.Phase0, p); return err },
				"DecodeSSZ+hint": func() error {
					_, err := decodeSSZ(onlyReader{bytes.NewReader(in)}, beacon.Phase0, p, sizeHint(int64(len(in))))
					return err
				},
			} {
				err := decode()
				var de *beacon.DecodeError
				if !errors.As(err, &de) || errors.Is(err, io.ErrUnexpectedEOF) {
					t.Errorf("%s list of %d bytes, %s: err = %v, want a DecodeError that is no truncation", name, k, how, err)
				}
			}
		}
		_, err := decodeSSZ(onlyReader{bytes.NewReader(last)}, beacon.Phase0, p)
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("unknown size, %d bytes left: err = %v, want a truncation", k, err)
		}
	}
}

// FuzzDecodeSSZSizeHint decodes from a stream with a size hint that may lie
// (smaller or larger than the input, up to gigabytes): never a panic;
// success only when the hint is the input's size, with a state that
// re-encodes to the input; a failure that matches io.ErrUnexpectedEOF only
// when the input is shorter than the hint (a whole input shorter than the
// fixed part is not a truncation); and no more allocated than what may be
// reserved before bytes arrive (1 GiB) plus a small multiple of the input.
// The preset byte picks mainnet, minimal or tiny (see fuzzPreset); inputs
// over fuzzMaxInput other than the recorded genesis are skipped.
func FuzzDecodeSSZSizeHint(f *testing.F) {
	rec := recordedGenesis(f)
	f.Add(rec, uint8(beacon.Phase0), fuzzMainnet, int64(0))
	f.Add(rec, uint8(beacon.Phase0), fuzzMainnet, int64(-1))
	f.Add(rec[:4096], uint8(beacon.Phase0), fuzzMainnet, int64(len(rec)-4096))
	for _, v := range allForks() {
		b, err := marshalSSZ(beacontest.NewState(v, fuzzTinyPreset(), 1+int(v)%3, uint64(v)+11))
		if err != nil {
			f.Fatal(err)
		}
		n := int64(len(b))
		for _, delta := range []int64{0, -1, 1, -n, 100 - n, 3 << 30, -n - 1} {
			f.Add(b, uint8(v), fuzzTiny, delta)
		}
		f.Add(b[:len(b)/2], uint8(v), fuzzTiny, n-int64(len(b)/2))
		f.Add(b[:100], uint8(v), fuzzMainnet, int64(0)) // a mainnet state's fixed part is longer
		m, err := marshalSSZ(beacontest.NewState(v, beacon.MinimalPreset(), 2, uint64(v)+11))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(m, uint8(v), fuzzMinimal, int64(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, fork uint8, sel uint8, delta int64) {
		if fuzzSkip(data, rec) {
			return
		}
		v := beacon.Version(fork % uint8(len(allForks())))
		p := fuzzPreset(sel)
		n := int64(len(data))
		hint := n + delta
		if delta > 1<<33 || delta < -n-1 || hint == 0 {
			hint = -1 // beyond what SSZ offsets address, or "unknown" (Body.Bytes 0 is unknown too)
		}
		var (
			s   *beacon.State
			err error
			a   runtime.MemStats
			b   runtime.MemStats
		)
		runtime.ReadMemStats(&a)
		s, err = decodeSSZ(hardReader{bytes.NewReader(data)}, v, p, sizeHint(hint))
		runtime.ReadMemStats(&b)
		if alloc, limit := b.TotalAlloc-a.TotalAlloc, uint64(1<<30+16*len(data)+8<<20); alloc > limit {
			t.Fatalf("hint %d for %d bytes: allocated %d (limit %d)", hint, n, alloc, limit)
		}
		if err == nil {
			if hint >= 0 && hint != n {
				t.Fatalf("hint %d for %d bytes: decoded without an error", hint, n)
			}
			out, err := marshalSSZ(s)
			if err != nil || !bytes.Equal(out, data) {
				t.Fatalf("decoded, but does not re-encode to the input (%v)", err)
			}
			return
		}
		var de *beacon.DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("not a DecodeError: %v", err)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) && hint >= 0 && hint <= n {
			t.Fatalf("hint %d for %d bytes: a truncation error, though the input is whole: %v", hint, n, err)
		}
	})
}
