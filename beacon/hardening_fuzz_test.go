package beacon_test

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

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
