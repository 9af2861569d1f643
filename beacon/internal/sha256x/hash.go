// Package sha256x hashes many independent 64-byte blocks (SSZ merkle pairs:
// two 32-byte chunks) into 32-byte SHA-256 digests.
//
// On amd64 CPUs with AVX-512 (F and BW) it hashes 16 blocks at a time with a
// 16-lane kernel, one 32-bit lane per block; the remainder of fewer than 16
// blocks, every block on other CPUs, and every block when built with the
// purego tag go through gohashtree (SHA-NI, AVX2 or NEON) on amd64 and
// arm64, and through crypto/sha256 on other architectures, where gohashtree
// does not build.
//
// Hash is safe for concurrent use: it keeps no state between calls and reads
// only constant tables.
package sha256x

import "strconv"

// accel is whether Hash uses the AVX-512 kernel; tests clear it to exercise
// the fallback.
var accel = hasAVX512

// Accelerated reports whether the AVX-512 path is in use.
func Accelerated() bool { return accel }

// Hash writes the SHA-256 digest of each 64-byte block of src into the matching 32 bytes of dst.
// len(src) must be a multiple of 64 and len(dst) >= len(src)/2; it panics otherwise.
// dst and src must not overlap. Bytes of dst past len(src)/2 are left untouched.
func Hash(dst, src []byte) {
	if len(src)%64 != 0 {
		panic("sha256x: len(src) = " + strconv.Itoa(len(src)) + " is not a multiple of 64")
	}
	n := len(src) / 64
	if len(dst) < 32*n {
		panic("sha256x: len(dst) = " + strconv.Itoa(len(dst)) + " is less than " + strconv.Itoa(32*n))
	}
	done := 0
	if accel && n >= 16 {
		done = n &^ 15
		hashBlocks16(&dst[0], &src[0], done/16)
	}
	if done < n {
		fallback(dst[32*done:32*n], src[64*done:])
	}
}
