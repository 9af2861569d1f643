package beacon

import (
	"reflect"
	"strings"
	"testing"
)

func TestBigList(t *testing.T) {
	for _, n := range []int{0, 1, 15, 16, 17, 1023, 1024, 1025, 3*1024 + 1, 66560, 66561, 200_000} {
		for _, capacity := range []int{0, 1, n / 2, n, n + 10} {
			var b bigList[uint64]
			if capacity > 0 {
				b.init(capacity)
			}
			for i := 0; i < n; i++ {
				*b.next() = uint64(i) * 7
			}
			out := b.finish()
			if out == nil || len(out) != n {
				t.Fatalf("n=%d cap=%d: len %d (nil %v)", n, capacity, len(out), out == nil)
			}
			for i, v := range out {
				if v != uint64(i)*7 {
					t.Fatalf("n=%d cap=%d: out[%d] = %d", n, capacity, i, v)
				}
			}
			if capacity == 0 && cap(out) != n {
				t.Fatalf("n=%d: capacity %d, want exact", n, cap(out))
			}
		}
	}
}

func TestMinValidatorJSONIsTheMinimum(t *testing.T) {
	// The shortest validator: every key, one-digit numbers, true.
	min := `{"pubkey":"0x` + strings.Repeat("0", 96) + `","withdrawal_credentials":"0x` + strings.Repeat("0", 64) +
		`","effective_balance":0,"slashed":true,"activation_eligibility_epoch":0,"activation_epoch":0,"exit_epoch":0,"withdrawable_epoch":0}`
	if int64(len(min))+1 != minValidatorJSON {
		t.Fatalf("minValidatorJSON = %d, the shortest validator takes %d bytes and a separator", minValidatorJSON, len(min))
	}
	d := newJSONDecoder(strings.NewReader(min), -1)
	var v Validator
	if err := d.validator(&v); err != nil || !v.Slashed {
		t.Fatalf("the shortest validator does not decode: %v", err)
	}
	// Dropping any byte makes it invalid (so nothing shorter decodes).
	for i := range min {
		short := min[:i] + min[i+1:]
		d := newJSONDecoder(strings.NewReader(short), -1)
		if err := d.validator(&v); err == nil {
			if err := d.trailing(); err == nil {
				t.Fatalf("a validator of %d bytes decodes: %s", len(short), short)
			}
		}
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
