// Package sha256x hashes many independent 64-byte blocks (SSZ merkle pairs:
// two 32-byte chunks) into 32-byte SHA-256 digests.
//
// On amd64 CPUs with AVX-512 (F and BW) it hashes 16 blocks at a time with a
// 16-lane kernel, one 32-bit lane per block; a remainder of 8 to 15 blocks
// goes through the kernel too, in a group padded with zero blocks. A smaller
// remainder, every block on other CPUs, and every block when built with the
// purego tag go through gohashtree (SHA-NI, AVX2 or NEON) on amd64 and
// arm64, and through crypto/sha256 on other architectures, where gohashtree
// does not build.
//
// Hash writes the digests contiguously; HashStrided writes them a fixed
// distance apart, straight into the layout of the next tree layer.
//
// Hash and HashStrided are safe for concurrent use: they keep no state
// between calls and read only constant tables.
package sha256x

import "strconv"

// accel is whether Hash uses the AVX-512 kernel; tests clear it to exercise
// the fallback.
var accel = hasAVX512

// Accelerated reports whether the AVX-512 path is in use.
func Accelerated() bool { return accel }

// padMin is the fewest blocks left over after the groups of 16 that Hash
// still hashes with the kernel, in a zero-padded group of 16 on the stack:
// one group costs about as much as 8 blocks through the fallback.
const padMin = 8

// Hash writes the SHA-256 digest of each 64-byte block of src into the matching 32 bytes of dst.
// len(src) must be a multiple of 64 and len(dst) >= len(src)/2; it panics otherwise.
// dst and src must not overlap. Bytes of dst past len(src)/2 are left untouched.
func Hash(dst, src []byte) {
	n := blocks(src)
	if len(dst) < 32*n {
		panic("sha256x: len(dst) = " + strconv.Itoa(len(dst)) + " is less than " + strconv.Itoa(32*n))
	}
	hash(dst, 32, src, n)
}

// HashStrided writes the SHA-256 digest of block i of src (64 bytes each)
// into dst[i*stride : i*stride+32]: the digests land in place in a larger
// layout, such as the left or right halves of the next layer's blocks.
// len(src) must be a multiple of 64, stride at least 32 and dst long enough
// for the last digest; it panics otherwise. dst and src must not overlap.
// The bytes of dst between and after the digests are left untouched.
func HashStrided(dst []byte, stride int, src []byte) {
	n := blocks(src)
	if stride < 32 {
		panic("sha256x: stride " + strconv.Itoa(stride) + " is less than 32")
	}
	if n == 0 {
		return
	}
	if len(dst) < 32 || (len(dst)-32)/stride < n-1 {
		panic("sha256x: len(dst) = " + strconv.Itoa(len(dst)) + " is too short for " + strconv.Itoa(n) + " digests " + strconv.Itoa(stride) + " bytes apart")
	}
	hash(dst, stride, src, n)
}

// blocks returns the number of 64-byte blocks of src, and panics if src is
// not made of whole blocks.
func blocks(src []byte) int {
	if len(src)%64 != 0 {
		panic("sha256x: len(src) = " + strconv.Itoa(len(src)) + " is not a multiple of 64")
	}
	return len(src) / 64
}

// hash writes the digest of block i of the n blocks of src to
// dst[i*stride:]; the callers have checked the lengths.
func hash(dst []byte, stride int, src []byte, n int) {
	done := 0
	if accel && n >= 16 {
		done = n &^ 15
		hashBlocks16(&dst[0], &src[0], done/16, stride)
	}
	if done == n {
		return
	}
	dst, src = dst[stride*done:], src[64*done:64*n]
	n -= done
	switch {
	case accel && n >= padMin:
		hashPadded(dst, stride, src)
	case stride == 32:
		fallback(dst[:32*n], src)
	default:
		fallbackStrided(dst, stride, src)
	}
}

// hashPadded hashes the fewer than 16 blocks of src with the kernel, in a
// group padded with zero blocks, and writes their digests to dst[i*stride:].
func hashPadded(dst []byte, stride int, src []byte) {
	var in [1024]byte
	var out [512]byte
	copy(in[:], src)
	hashBlocks16(&out[0], &in[0], 1, 32)
	scatter(dst, stride, out[:len(src)/2])
}

// fallbackStrided is the fallback for digests stride bytes apart: 64 blocks
// at a time through a buffer.
func fallbackStrided(dst []byte, stride int, src []byte) {
	var out [32 * 64]byte
	for len(src) > 0 {
		m := min(len(src)/64, 64)
		fallback(out[:32*m], src[:64*m])
		scatter(dst, stride, out[:32*m])
		dst, src = dst[min(len(dst), stride*m):], src[64*m:]
	}
}

// scatter copies the digests in out to dst[i*stride:].
func scatter(dst []byte, stride int, out []byte) {
	for i := 0; i < len(out); i += 32 {
		copy(dst[i/32*stride:i/32*stride+32], out[i:i+32])
	}
}
