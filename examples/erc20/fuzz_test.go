package main

import (
	"math/big"
	"strings"
	"testing"
)

// formatUnits (shopspring/decimal's fixed-point rendering) agrees with the
// plain digit arithmetic below for every amount and decimals: the integer's
// digits, padded with zeros, with the point put decimals digits from the
// end.
func FuzzFormatUnits(f *testing.F) {
	f.Add([]byte{0x49, 0x96, 0x02, 0xd3}, uint8(6), false)
	f.Add([]byte{}, uint8(18), false)
	f.Add([]byte{1}, uint8(0), true)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, uint8(77), false)
	f.Fuzz(func(t *testing.T, b []byte, decimals uint8, neg bool) {
		amount := new(big.Int).SetBytes(b)
		if neg {
			amount.Neg(amount)
		}
		if got, want := formatUnits(amount, decimals), digitUnits(amount, decimals); got != want {
			t.Fatalf("formatUnits(%s, %d) = %q, want %q", amount, decimals, got, want)
		}
	})
}

// digitUnits is formatUnits done on the decimal digits by hand.
func digitUnits(amount *big.Int, decimals uint8) string {
	s := amount.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if d := int(decimals); d > 0 {
		if len(s) <= d {
			s = strings.Repeat("0", d-len(s)+1) + s
		}
		s = s[:len(s)-d] + "." + s[len(s)-d:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
