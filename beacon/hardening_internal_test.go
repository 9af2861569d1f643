package beacon

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
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

// The JSON list decoder gives a list its capacity hint even when the list's
// limit (2^40) does not fit an int (on 32-bit platforms the hint used to be
// dropped).
func TestJSONCapHintWithHugeLimit(t *testing.T) {
	d := newJSONDecoder(strings.NewReader(`[1,2,3]`), -1)
	got, err := decodeList(d, field{name: "l", n: 1 << 40}, 4, (*jsonDecoder).u64)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []uint64{1, 2, 3}) || cap(got) != 4 {
		t.Fatalf("got %v with cap %d, want [1 2 3] with the hinted cap 4", got, cap(got))
	}
}

// bigList.finish keeps a reserved capacity up to twice the length, and
// copies a list that came out shorter than half of it.
func TestBigListFinishExact(t *testing.T) {
	for _, tc := range []struct{ reserve, n, wantCap int }{{6, 3, 6}, {7, 3, 3}, {100, 3, 3}, {100, 0, 0}, {4, 4, 4}} {
		var b bigList[uint64]
		b.init(tc.reserve)
		for i := range tc.n {
			*b.next() = uint64(i)
		}
		out := b.finish()
		if out == nil || len(out) != tc.n || cap(out) != tc.wantCap {
			t.Errorf("reserve %d, %d elements: len %d cap %d (nil %v), want cap %d", tc.reserve, tc.n, len(out), cap(out), out == nil, tc.wantCap)
		}
		for i, v := range out {
			if v != uint64(i) {
				t.Fatalf("element %d = %d", i, v)
			}
		}
	}
}

// transport.Cut (quoteCap, badStateID) cuts at a rune boundary.
func TestCutAtRuneBoundary(t *testing.T) {
	s := "a" + strings.Repeat("é", 100) // é is 2 bytes: byte 80 is inside one
	got := quoteCap(s)
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > maxQuoted+len("…") || !strings.HasPrefix(s, strings.TrimSuffix(got, "…")) {
		t.Fatalf("quoteCap = %q", got)
	}
	if got := transport.Cut("short", 80); got != "short" {
		t.Fatalf("cutAt(short) = %q", got)
	}
	if got := transport.Cut(strings.Repeat("x", 81), 80); got != strings.Repeat("x", 80)+"…" {
		t.Fatalf("cutAt(81 x) = %q", got)
	}
}

// TestErrorMessageMasksBeforeCut: a node's message is masked before it is cut
// to maxMessage, so a key that the cut would split (here hidden from the
// transport by a JSON escape of its first letter) leaves no piece behind.
func TestErrorMessageMasksBeforeCut(t *testing.T) {
	const key = "k3y-SECRET-value"
	mask := func(s string) string { return strings.ReplaceAll(s, key, "REDACTED") }
	for pad := maxMessage - len(key); pad <= maxMessage; pad++ {
		body := `{"code":500,"message":"` + strings.Repeat("x", pad) + `\u006b3y-SECRET-value"}`
		he := &nodeaccess.HTTPError{StatusCode: 500, Body: []byte(body)}
		var got *nodeaccess.HTTPError
		if !errors.As(stateError(he, Head, mask, EncodingAuto), &got) {
			t.Fatal("not an HTTPError")
		}
		if strings.Contains(got.Message, "k3y") || strings.Contains(got.Message, "SECRET") {
			t.Fatalf("pad %d: a piece of the key is left: …%s", pad, got.Message[max(0, len(got.Message)-30):])
		}
	}
}
