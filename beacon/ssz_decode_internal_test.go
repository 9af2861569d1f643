package beacon

import (
	"bytes"
	"os"
	"reflect"
	"testing"
)

// A list longer than what may be reserved before its bytes arrive grows as
// they arrive and ends at its exact length (the cap lowered to 4 KiB here;
// it is 1 GiB).
func TestSSZPreallocCapGrowsExactly(t *testing.T) {
	b, err := os.ReadFile("testdata/sepolia-genesis.ssz")
	if err != nil {
		t.Fatal(err)
	}
	want, err := unmarshalSSZ(b, Phase0, MainnetPreset())
	if err != nil {
		t.Fatal(err)
	}
	src := struct{ *bytes.Reader }{bytes.NewReader(b)} // hides Len: a stream
	d := &decoder{r: sszReader{src: src, buf: make([]byte, readBufSize), size: int64(len(b))}, sized: true, maxPrealloc: 4 << 10}
	got, err := d.decode(Phase0, MainnetPreset())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("decoded with a low preallocation cap: a different state")
	}
	for name, lc := range map[string][2]int{
		"validators": {len(got.Validators), cap(got.Validators)},
		"balances":   {len(got.Balances), cap(got.Balances)},
		"randao":     {len(got.RandaoMixes), cap(got.RandaoMixes)},
	} {
		if lc[0] != lc[1] || lc[0] == 0 {
			t.Errorf("%s: len %d cap %d, want an exact non-empty slice", name, lc[0], lc[1])
		}
	}
	if len(got.Validators)*int(goSize[Validator]()) <= 4<<10 {
		t.Fatal("the validator list is within the lowered cap: the test shows nothing")
	}
}
