package main

import (
	"math/big"
	"testing"

	"github.com/shopspring/decimal"
)

// formatUnits agrees with shopspring/decimal's fixed-point rendering for
// every amount and decimals.
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
		want := decimal.NewFromBigInt(amount, -int32(decimals)).StringFixed(int32(decimals))
		if got := formatUnits(amount, decimals); got != want {
			t.Fatalf("formatUnits(%s, %d) = %q, want %q", amount, decimals, got, want)
		}
	})
}
