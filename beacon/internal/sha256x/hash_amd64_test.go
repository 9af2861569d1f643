//go:build amd64 && !purego

package sha256x

import (
	"math/big"
	"testing"
)

// iroot returns floor(x^(1/k)).
func iroot(x *big.Int, k int64) *big.Int {
	lo := big.NewInt(0)
	hi := new(big.Int).Lsh(big.NewInt(1), uint(x.BitLen()/int(k)+2))
	for new(big.Int).Sub(hi, lo).Cmp(big.NewInt(1)) > 0 {
		mid := new(big.Int).Rsh(new(big.Int).Add(lo, hi), 1)
		if new(big.Int).Exp(mid, big.NewInt(k), nil).Cmp(x) <= 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// fracBits returns the first 32 bits of the fractional part of p^(1/k).
func fracBits(p, k int64) uint32 {
	scaled := new(big.Int).Lsh(big.NewInt(p), uint(32*k)) // p * 2^(32k)
	return uint32(iroot(scaled, k).Uint64())
}

func TestConstantsFromPrimes(t *testing.T) {
	var primes []int64
	for c := int64(2); len(primes) < 64; c++ {
		prime := true
		for _, p := range primes {
			if c%p == 0 {
				prime = false
				break
			}
		}
		if prime {
			primes = append(primes, c)
		}
	}
	for i, p := range primes {
		if want := fracBits(p, 3); roundK[i] != want {
			t.Errorf("roundK[%d] = %#08x, want %#08x", i, roundK[i], want)
		}
	}
	for i, p := range primes[:8] {
		if want := fracBits(p, 2); initState[i] != want {
			t.Errorf("initState[%d] = %#08x, want %#08x", i, initState[i], want)
		}
	}
}

func TestBswapMask(t *testing.T) {
	for i, b := range bswapMask {
		lane, word, byteInWord := i/16, i%16/4, i%4
		if want := byte(4*word + 3 - byteInWord); b != want {
			t.Fatalf("bswapMask[%d] (lane %d) = %d, want %d", i, lane, b, want)
		}
	}
}
