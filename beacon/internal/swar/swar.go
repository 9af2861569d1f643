// Package swar holds the JSON decoder's digit parsers: decimal digits
// eight at a time as one 64-bit word (SIMD within a register), hex digits
// through a table. They know no JSON and no consensus type.
package swar

import (
	"encoding/binary"
	"math/bits"
)

// Digits8 parses the leading decimal digits of the 8 bytes in b (up to 8)
// and returns their value and count.
func Digits8(b []byte) (v uint64, n int) {
	u := binary.LittleEndian.Uint64(b)
	// A byte is a digit when its high nibble is 3 and adding 6 keeps it 3.
	// A carry out of a non-digit byte only disturbs the bytes after it.
	m := (u & 0xF0F0F0F0F0F0F0F0) | ((u + 0x0606060606060606) & 0xF0F0F0F0F0F0F0F0 >> 4)
	n = bits.TrailingZeros64(m^0x3333333333333333) / 8
	if n == 0 {
		return 0, 0
	}
	// Keep the n digits as the high bytes (zeros before them are leading
	// zero digits), then combine pairs, quads and octets.
	x := (u - 0x3030303030303030) << (64 - 8*uint(n))
	x = (x & 0x0F0F0F0F0F0F0F0F) * 2561 >> 8
	x = (x & 0x00FF00FF00FF00FF) * 6553601 >> 16
	x = (x & 0x0000FFFF0000FFFF) * 42949672960001 >> 32
	return x, n
}

// pow10 holds 10^0 … 10^8.
var pow10 = [9]uint64{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000}

// QuotedUint parses the common form of an integer, a quoted canonical
// decimal ("0", "123"), at the start of b (at least 32 bytes), and returns
// it with the bytes it took; ok is false for anything else, which the
// careful path then decodes or explains.
func QuotedUint(b []byte) (v uint64, n int, ok bool) {
	_ = b[31]
	v, k := Digits8(b[1:9])
	i := 1 + k
	if k == 8 {
		w, k := Digits8(b[9:17])
		v = v*pow10[k] + w
		i += k
		if k == 8 {
			w, k := Digits8(b[17:25])
			if k > 4 {
				return 0, 0, false // more than 20 digits
			}
			hi, lo := bits.Mul64(v, pow10[k])
			lo, carry := bits.Add64(lo, w, 0)
			if hi != 0 || carry != 0 {
				return 0, 0, false // over 2^64-1: the careful path says so
			}
			v = lo
			i += k
		}
	}
	if b[i] != '"' || i == 1 || (b[1] == '0' && i > 2) {
		return 0, 0, false
	}
	return v, i + 1, true
}

// Hex decodes the hex digits src into dst (len(src) >= 2*len(dst)),
// reporting false for a byte that is not a hex digit. (A table lookup per
// digit measured faster here than a 64-bit SWAR version.)
func Hex(dst, src []byte) bool {
	src = src[:2*len(dst)]
	var acc byte
	for i := range dst {
		hi, lo := Unhex[src[2*i]], Unhex[src[2*i+1]]
		acc |= hi | lo
		dst[i] = hi<<4 | lo
	}
	return acc <= 15
}

// Unhex maps an ASCII hex digit (either case) to its value, anything else
// to 0xff.
var Unhex = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c-'a') + 10
		t[c-'a'+'A'] = byte(c-'a') + 10
	}
	return t
}()
