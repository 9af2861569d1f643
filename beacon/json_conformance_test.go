package beacon_test

import (
	"bytes"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// TestJSONConformanceSSZJSONSSZ is the conformance check: for every
// fork (and both jsonPresets), a generated state with every list non-empty
// goes SSZ → State → JSON → State → SSZ and comes back byte for byte, with
// the same hash tree root.
func TestJSONConformanceSSZJSONSSZ(t *testing.T) {
	for _, p := range jsonPresets() {
		for _, v := range allForks() {
			t.Run(p.Name+"/"+v.String(), func(t *testing.T) {
				orig := beacontest.NewState(v, p, 64, 100+uint64(v))
				ssz, err := marshalSSZ(orig)
				if err != nil {
					t.Fatalf("MarshalSSZ: %v", err)
				}
				fromSSZ, err := unmarshalSSZ(ssz, v, p)
				if err != nil {
					t.Fatalf("UnmarshalSSZ: %v", err)
				}
				var js bytes.Buffer
				if err := beacon.WriteState(&js, fromSSZ, beacon.EncodingJSON, &beacon.Flags{Finalized: true}); err != nil {
					t.Fatalf("EncodeJSONResponse: %v", err)
				}
				fromJSON, flags, err := decodeJSON(&jsonSmallReader{r: bytes.NewReader(js.Bytes())}, p)
				if err != nil {
					t.Fatalf("DecodeJSON: %v", err)
				}
				if !flags.Finalized || flags.ExecutionOptimistic {
					t.Fatalf("flags = %+v", *flags)
				}
				back, err := marshalSSZ(fromJSON)
				if err != nil {
					t.Fatalf("MarshalSSZ after JSON: %v", err)
				}
				if !bytes.Equal(back, ssz) {
					t.Fatalf("SSZ → JSON → SSZ changed the bytes (%d vs %d bytes)", len(back), len(ssz))
				}
				r1, err := beacon.HashTreeRoot(orig)
				if err != nil {
					t.Fatal(err)
				}
				r2, err := beacon.HashTreeRoot(fromJSON)
				if err != nil {
					t.Fatal(err)
				}
				if r1 != r2 {
					t.Fatalf("hash tree root changed: %x vs %x", r1, r2)
				}
			})
		}
	}
}
