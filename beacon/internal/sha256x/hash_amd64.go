//go:build amd64 && !purego

package sha256x

import (
	"math/bits"

	"golang.org/x/sys/cpu"
)

// hasAVX512 reports whether the CPU and OS support the instructions of the
// kernel: AVX-512 F (ZMM arithmetic, rotates, ternary logic, shuffles) and
// BW (VPSHUFB on ZMM). x/sys/cpu also checks that the OS saves ZMM state.
var hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW

// hashBlocks16 hashes 16*groups 64-byte blocks at src into 32-byte digests,
// 16 blocks at a time; the digest of block i goes to dst + i*stride. groups
// must be at least 1, stride at least 32, src must hold 1024*groups bytes
// and dst (16*groups-1)*stride+32, and the buffers must not overlap.
//
//go:noescape
func hashBlocks16(dst, src *byte, groups, stride int)

// The tables below are read by hash_amd64.s (the lint directives tell
// staticcheck, which does not read assembly, that they are used).

// roundK is K[0..63] of FIPS 180-4 section 4.2.2: the first 32 bits of the
// fractional parts of the cube roots of the first 64 primes.
var roundK = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

// initState is H(0) of FIPS 180-4 section 5.3.3: the first 32 bits of the
// fractional parts of the square roots of the first 8 primes.
var initState = [8]uint32{
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
}

// dataRound1 is the state entering round 1 of the first block, less the
// message word W[0] that lanes add to a and e: round 0 starts from the
// constant initState, so everything else in it is constant. The h entry
// already includes K[1].
//
//lint:ignore U1000 read by hash_amd64.s
var dataRound1 = func() [8]uint32 {
	h := initState
	t1 := h[7] + bigSigma1(h[4]) + (h[4]&h[5] ^ ^h[4]&h[6]) + roundK[0]
	t2 := bigSigma0(h[0]) + (h[0]&h[1] ^ h[0]&h[2] ^ h[1]&h[2])
	return [8]uint32{t1 + t2, h[0], h[1], h[2], h[3] + t1, h[4], h[5], h[6] + roundK[1]}
}()

// padRoundKW is K[t] + W[t] for the second block of a 64-byte message: the
// padding 0x80, 55 zero bytes and the 64-bit big-endian bit length 512
// (FIPS 180-4 section 5.1.1). That block is the same for every message, so
// its message schedule is computed once here.
//
//lint:ignore U1000 read by hash_amd64.s
var padRoundKW = padSchedule()

// bswapMask is the VPSHUFB control that reverses the bytes of every 32-bit
// word (indexes are relative to each 16-byte lane).
var bswapMask = func() (m [64]byte) {
	for i := range m {
		m[i] = byte(i&12 | (3 - i&3))
	}
	return m
}()

// padSchedule returns K[t] + W[t] for the padding block.
func padSchedule() (kw [64]uint32) {
	var w [64]uint32
	w[0] = 0x80000000
	w[15] = 512
	for t := 16; t < 64; t++ {
		w[t] = sigma1(w[t-2]) + w[t-7] + sigma0(w[t-15]) + w[t-16]
	}
	for t := range kw {
		kw[t] = roundK[t] + w[t]
	}
	return kw
}

// bigSigma0, bigSigma1, sigma0 and sigma1 are the functions of FIPS 180-4
// section 4.1.2 (4.4 to 4.7).
func bigSigma0(x uint32) uint32 {
	return bits.RotateLeft32(x, -2) ^ bits.RotateLeft32(x, -13) ^ bits.RotateLeft32(x, -22)
}

func bigSigma1(x uint32) uint32 {
	return bits.RotateLeft32(x, -6) ^ bits.RotateLeft32(x, -11) ^ bits.RotateLeft32(x, -25)
}

func sigma0(x uint32) uint32 { return bits.RotateLeft32(x, -7) ^ bits.RotateLeft32(x, -18) ^ x>>3 }

func sigma1(x uint32) uint32 { return bits.RotateLeft32(x, -17) ^ bits.RotateLeft32(x, -19) ^ x>>10 }
