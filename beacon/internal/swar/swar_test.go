package swar

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

func refHex(dst, src []byte) bool {
	for i := range dst {
		hi, lo := Unhex[src[2*i]], Unhex[src[2*i+1]]
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
				okGot, okWant := Hex(got, src), refHex(want, src)
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
		gv, gn := Digits8(b)
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
		v, n, ok := QuotedUint(b)
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
