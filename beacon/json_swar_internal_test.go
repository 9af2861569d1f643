package beacon

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func refHex(dst, src []byte) bool {
	for i := range dst {
		hi, lo := unhex[src[2*i]], unhex[src[2*i+1]]
		if hi > 15 || lo > 15 {
			return false
		}
		dst[i] = hi<<4 | lo
	}
	return true
}

func TestHexFastMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const digits = "0123456789abcdefABCDEF"
	for _, n := range []int{1, 4, 7, 8, 9, 20, 32, 48, 96, 256} {
		for trial := 0; trial < 50; trial++ {
			src := make([]byte, 2*n)
			for i := range src {
				src[i] = digits[r.IntN(len(digits))]
			}
			// Every byte value at one position.
			pos := r.IntN(len(src))
			for c := 0; c < 256; c++ {
				src[pos] = byte(c)
				got, want := make([]byte, n), make([]byte, n)
				okGot, okWant := hexFast(got, src), refHex(want, src)
				if okGot != okWant {
					t.Fatalf("n=%d byte %#x at %d: hexFast ok=%v, reference ok=%v", n, c, pos, okGot, okWant)
				}
				if okGot && string(got) != string(want) {
					t.Fatalf("n=%d %q: %x, want %x", n, src, got, want)
				}
			}
		}
	}
}

func TestDigits8MatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20000; trial++ {
		b := make([]byte, 8)
		for i := range b {
			if r.IntN(4) == 0 {
				b[i] = byte(r.IntN(256))
			} else {
				b[i] = '0' + byte(r.IntN(10))
			}
		}
		n := 0
		var v uint64
		for n < 8 && b[n] >= '0' && b[n] <= '9' {
			v = v*10 + uint64(b[n]-'0')
			n++
		}
		gv, gn := digits8(b)
		if gn != n || gv != v {
			t.Fatalf("%q: digits8 = %d, %d; want %d, %d", b, gv, gn, v, n)
		}
	}
}

func TestQuotedUintMatchesStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cases := []string{`"0"`, `"1"`, `"00"`, `"01"`, `""`, `"12345678"`, `"123456789"`, `"1234567890123456"`,
		`"12345678901234567"`, `"18446744073709551615"`, `"18446744073709551616"`, `"99999999999999999999"`,
		`"100000000000000000000"`, `"9"x`, `"1 "`, `"-1"`, `"+1"`, `"10000000000000000000"`}
	for i := 0; i < 5000; i++ {
		cases = append(cases, `"`+strconv.FormatUint(r.Uint64()>>r.IntN(64), 10)+`"`)
	}
	for _, c := range cases {
		b := make([]byte, 40)
		copy(b, c)
		for i := len(c); i < len(b); i++ {
			b[i] = '7' // digits after the input must not be taken
		}
		v, n, ok := quotedUint(b)
		body := c[1:]
		end := len(body)
		for j := 0; j < len(body); j++ {
			if body[j] == '"' {
				end = j
				break
			}
		}
		digits := body[:end]
		want, err := strconv.ParseUint(digits, 10, 64)
		wantOK := err == nil && end < len(body) && digits != "" && (digits[0] != '0' || len(digits) == 1) && digits[0] != '+'
		if ok != wantOK || (ok && (v != want || n != len(digits)+2)) {
			t.Fatalf("%s: quotedUint = %d, %d, %v; want %d, %v", c, v, n, ok, want, wantOK)
		}
	}
}

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
