package beacon_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// FuzzDecodeJSON feeds DecodeJSON states of every fork (few validators) in
// envelope and bare form, and mutations of them. It must never panic; what
// decodes must encode, and decode again to an equal state, and the same
// through SSZ; it must hash. The low bits
// of mode choose the options: 0 none, 1+v the fork v in Body.Fork; mode&16 the
// minimal preset instead of a tiny one (which keeps inputs small, so the
// fuzzer mutates them quickly). Inputs over fuzzMaxInput are skipped: no
// recorded JSON state is in testdata, and a mainnet-preset one is
// megabytes.
func FuzzDecodeJSON(f *testing.F) {
	for _, v := range allForks() {
		for _, p := range []beacon.Preset{fuzzTinyPreset(), beacon.MinimalPreset()} {
			pm := uint8(0)
			if p.Name == "minimal" {
				pm = 16
			}
			s := beacontest.NewState(v, p, 1+int(v)%3, uint64(v))
			env := jsonEncodeResponse(f, s, beacon.Flags{Finalized: true})
			bare := jsonEncodeJSON(f, s)
			f.Add(env, pm)
			f.Add(bare, pm|uint8(1+v))
			if pm != 0 {
				continue
			}
			f.Add(env, uint8(1+v))
			f.Add(env[:len(env)/2], uint8(0))
			f.Add(bytes.Replace(env, []byte(v.String()), []byte("heze"), 1), uint8(0))
			f.Add(bytes.Replace(bare, []byte(`"0x`), []byte(`"0X`), 3), uint8(1+v))
			f.Add(bytes.ReplaceAll(env, []byte(`":"`), []byte(`": `)), uint8(0))
		}
	}
	// Lodestar's Gloas body (testdata/gloas, minimal preset).
	if b, err := os.ReadFile("testdata/gloas/minimal-1.json"); err == nil {
		f.Add(b, uint8(16))
	}
	f.Add([]byte(`{"data":{},"version":"fulu"}`), uint8(7))
	f.Add([]byte(`{"zz":[{"a":"\u00e9"},-1.5e3,true,null],"version":"phase0","data":{"genesis_time":1}}`), uint8(0))
	f.Add([]byte(` {} `), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		if len(data) > fuzzMaxInput {
			return
		}
		p := fuzzTinyPreset()
		if mode&16 != 0 {
			p = beacon.MinimalPreset()
		}
		opts := []any{p}
		if m := mode & 15; m > 0 {
			opts = append(opts, assumeVersion(beacon.Version((m-1)%8)))
		}
		s, flags, err := decodeJSON(bytes.NewReader(data), opts...)
		if err != nil {
			if s != nil || flags != nil {
				t.Fatalf("error %v with a state or flags", err)
			}
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("internal error: %v", err)
			}
			return
		}
		var b bytes.Buffer
		if err := encodeJSONData(&b, s); err != nil {
			t.Fatalf("a decoded state does not encode: %v", err)
		}
		again, _, err := decodeJSON(&b, p, assumeVersion(s.Version))
		if err != nil {
			t.Fatalf("re-decoding the encoded state: %v", err)
		}
		if !jsonSameState(again, s) {
			t.Fatalf("re-decoded state differs")
		}
		// The other codec agrees: the state encodes as SSZ, decodes back
		// the same, and hashes.
		ssz, err := marshalSSZ(s)
		if err != nil {
			t.Fatalf("a state decoded from JSON does not encode as SSZ: %v", err)
		}
		back, err := unmarshalSSZ(ssz, s.Version, p)
		if err != nil || !jsonSameState(back, s) {
			t.Fatalf("its SSZ does not decode to it: %v", err)
		}
		if _, err := beacon.HashTreeRoot(s); err != nil {
			t.Fatalf("a state decoded from JSON does not hash: %v", err)
		}
	})
}
