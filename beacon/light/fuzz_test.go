package light

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// The decoders take any bytes without a panic, allocate no more than the
// bytes that came, and what they accept encodes back to the same bytes
// (SSZ) or to JSON that decodes to the same value.
//
// Seeds: the test chain's bodies of every fork (no real node's
// light-client body is among the project's fixtures).

func fuzzSeeds(f *testing.F) (*testChain, [][]byte, [][]byte) {
	c := newTestChain(f, true)
	var ssz, js [][]byte
	for p := range uint64(7) {
		base := beacon.Slot(p * 64)
		b := c.bootstrap(base + 8)
		u := c.update(base+50, base+40, true, 32)
		ssz = append(ssz, []byte{byte(c.cfg.slotFork(base)), 0}, bootstrapSSZ(b))
		js = append(js, mustJSON(f, bootstrapWire(b)))
		for _, k := range []kind{kindUpdate, kindFinality, kindOptimistic} {
			ssz = append(ssz, append([]byte{byte(c.cfg.slotFork(base)), byte(k) + 1}, updateSSZ(u, k)...))
			js = append(js, mustJSON(f, updateWire(u, k)))
		}
	}
	return c, ssz, js
}

func FuzzDecodeSSZ(f *testing.F) {
	c, seeds, _ := fuzzSeeds(f)
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) < 2 {
			return
		}
		v, k, body := beacon.Version(in[0]%9), in[1]%4, in[2:]
		if k == 0 {
			b, err := c.cfg.decodeBootstrapSSZ(body, v)
			if err == nil && !bytes.Equal(bootstrapSSZ(b), body) {
				t.Fatalf("bootstrap %s: re-encoded differently", v)
			}
			return
		}
		u, err := c.cfg.decodeUpdateSSZ(body, v, kind(k-1))
		if err == nil && !bytes.Equal(updateSSZ(u, kind(k-1)), body) {
			t.Fatalf("%s %s: re-encoded differently", kind(k-1).name(), v)
		}
	})
}

func FuzzDecodeJSON(f *testing.F) {
	c, _, seeds := fuzzSeeds(f)
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if b, err := c.cfg.decodeBootstrapJSON(in, ""); err == nil {
			b2, err := c.cfg.decodeBootstrapJSON(mustJSON(t, bootstrapWire(b)), "")
			if err != nil || !equalJSON(t, bootstrapWire(b), bootstrapWire(b2)) {
				t.Fatalf("bootstrap does not round-trip: %v", err)
			}
		}
		for _, k := range []kind{kindUpdate, kindFinality, kindOptimistic} {
			u, err := c.cfg.decodeUpdateJSON(in, "", k)
			if err != nil {
				continue
			}
			u2, err := c.cfg.decodeUpdateJSON(mustJSON(t, updateWire(u, k)), "", k)
			if err != nil || !equalJSON(t, updateWire(u, k), updateWire(u2, k)) {
				t.Fatalf("%s does not round-trip: %v", k.name(), err)
			}
		}
	})
}

func equalJSON(t *testing.T, a, b any) bool { return bytes.Equal(mustJSON(t, a), mustJSON(t, b)) }

// FuzzDecodeUpdates: the updates endpoint's SSZ chunks and JSON array.
func FuzzDecodeUpdates(f *testing.F) {
	c := newTestChain(f, true)
	for p := range uint64(7) {
		base := beacon.Slot(p * 64)
		u := c.update(base+50, base+40, true, 32)
		b := updateSSZ(u, kindUpdate)
		d := c.cfg.forkDigest(beacon.Epoch(uint64(base) / 8))
		chunk := append(binary.LittleEndian.AppendUint64(nil, uint64(len(b)+4)), append(d[:], b...)...)
		f.Add(append(chunk, chunk...))
		f.Add(append([]byte("["), append(mustJSON(f, updateWire(u, kindUpdate)), ']')...))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if us, err := c.cfg.decodeUpdatesSSZ(in, 4); err == nil && len(us) > 4 {
			t.Fatalf("%d updates, asked for 4", len(us))
		}
		if us, err := c.cfg.decodeUpdatesJSON(in, 4); err == nil && len(us) > 4 {
			t.Fatalf("%d updates, asked for 4", len(us))
		}
	})
}
