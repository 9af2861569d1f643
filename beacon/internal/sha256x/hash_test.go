package sha256x

import (
	"bytes"
	"crypto/sha256"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// reference hashes every 64-byte block of src with crypto/sha256.
func reference(src []byte) []byte {
	out := make([]byte, 0, len(src)/2)
	for i := 0; i < len(src); i += 64 {
		h := sha256.Sum256(src[i : i+64])
		out = append(out, h[:]...)
	}
	return out
}

// randomBlocks returns n random 64-byte blocks from a seeded generator.
func randomBlocks(r *rand.Rand, n int) []byte {
	b := make([]byte, 64*n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// paths runs f once per implementation Hash can use on this machine.
func paths(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	t.Run("fallback", func(t *testing.T) {
		defer setAccel(false)()
		f(t)
	})
	if !hasAVX512 {
		t.Log("no AVX-512 kernel on this machine/build; only the fallback is tested")
		return
	}
	t.Run("avx512", func(t *testing.T) {
		defer setAccel(true)()
		f(t)
	})
}

// setAccel sets the test hook and returns a function restoring it.
func setAccel(v bool) func() {
	old := accel
	accel = v
	return func() { accel = old }
}

// check hashes src into a fresh dst and compares with crypto/sha256.
func check(t *testing.T, src []byte) {
	t.Helper()
	want := reference(src)
	got := make([]byte, len(src)/2)
	Hash(got, src)
	if !bytes.Equal(got, want) {
		for i := 0; i < len(want); i += 32 {
			if !bytes.Equal(got[i:i+32], want[i:i+32]) {
				t.Fatalf("%d blocks: block %d: got %x, want %x", len(src)/64, i/32, got[i:i+32], want[i:i+32])
			}
		}
	}
}

func TestAcceleratedMatchesCPU(t *testing.T) {
	if Accelerated() != hasAVX512 {
		t.Fatalf("Accelerated() = %v, want %v", Accelerated(), hasAVX512)
	}
	defer setAccel(false)()
	if Accelerated() {
		t.Fatal("Accelerated() = true with the kernel disabled")
	}
}

func TestKnownDigest(t *testing.T) {
	// SHA-256 of 64 zero bytes: the depth-1 zero hash of SSZ merkleization.
	const want = "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b"
	paths(t, func(t *testing.T) {
		src := make([]byte, 64*17)
		dst := make([]byte, 32*17)
		Hash(dst, src)
		for i := 0; i < 17; i++ {
			if got := bytesHex(dst[32*i : 32*i+32]); got != want {
				t.Fatalf("block %d: got %s, want %s", i, got, want)
			}
		}
	})
}

func bytesHex(b []byte) string {
	const digits = "0123456789abcdef"
	var sb strings.Builder
	for _, c := range b {
		sb.WriteByte(digits[c>>4])
		sb.WriteByte(digits[c&15])
	}
	return sb.String()
}

func TestEveryCount(t *testing.T) {
	paths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for n := 0; n <= 100; n++ {
			check(t, randomBlocks(r, n))
		}
	})
}

func TestRandomLengths(t *testing.T) {
	paths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		for _, n := range []int{1, 15, 16, 17, 31, 32, 33, 48, 255, 256, 257, 1023, 4096, 5000} {
			check(t, randomBlocks(r, n))
		}
		for range 20 {
			check(t, randomBlocks(r, 1+r.IntN(5000)))
		}
	})
}

// TestLanesIndependent changes one block at a time in a group of 16 so that
// a lane mix-up in the transposes shows up as a wrong digest.
func TestLanesIndependent(t *testing.T) {
	paths(t, func(t *testing.T) {
		src := make([]byte, 64*32)
		for lane := range 32 {
			for w := range 16 {
				clear(src)
				src[64*lane+4*w] = 1
				src[64*lane+4*w+3] = 0x80
				check(t, src)
			}
		}
	})
}

func TestAllByteValues(t *testing.T) {
	paths(t, func(t *testing.T) {
		// 256 blocks; block i is filled with byte i, then 64 blocks that
		// each walk through every byte value with a different stride.
		src := make([]byte, 64*(256+64))
		for i := range 256 {
			for j := range 64 {
				src[64*i+j] = byte(i)
			}
		}
		for i := range 64 {
			for j := range 64 {
				src[64*(256+i)+j] = byte((i*64 + j) * 37)
			}
		}
		check(t, src)
	})
}

func TestUnaligned(t *testing.T) {
	paths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		for _, n := range []int{1, 16, 17, 33, 100} {
			for off := range 9 {
				buf := randomBlocks(r, n+1)
				src := buf[off : off+64*n]
				dstBuf := make([]byte, 32*n+16)
				dst := dstBuf[off%16+1 : off%16+1+32*n]
				want := reference(src)
				Hash(dst, src)
				if !bytes.Equal(dst, want) {
					t.Fatalf("n=%d off=%d: digests differ", n, off)
				}
			}
		}
	})
}

func TestDstLongerUntouched(t *testing.T) {
	paths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 8))
		for _, n := range []int{0, 1, 16, 19, 48} {
			src := randomBlocks(r, n)
			srcCopy := bytes.Clone(src)
			dst := bytes.Repeat([]byte{0xA5}, 32*n+100)
			Hash(dst, src)
			if !bytes.Equal(dst[:32*n], reference(src)) {
				t.Fatalf("n=%d: digests differ", n)
			}
			if !bytes.Equal(dst[32*n:], bytes.Repeat([]byte{0xA5}, 100)) {
				t.Fatalf("n=%d: bytes past the digests were written", n)
			}
			if !bytes.Equal(src, srcCopy) {
				t.Fatalf("n=%d: src was modified", n)
			}
		}
	})
}

func TestPanics(t *testing.T) {
	cases := []struct {
		name     string
		dst, src int
		msg      string
	}{
		{"src not multiple of 64", 64, 65, "sha256x: len(src) = 65 is not a multiple of 64"},
		{"src of 1 byte", 32, 1, "sha256x: len(src) = 1 is not a multiple of 64"},
		{"dst too short", 31, 64, "sha256x: len(dst) = 31 is less than 32"},
		{"dst too short for many", 32*16 - 1, 64 * 16, "sha256x: len(dst) = 511 is less than 512"},
		{"nil dst", 0, 64 * 20, "sha256x: len(dst) = 0 is less than 640"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r != c.msg {
					t.Fatalf("panic value %v, want %q", r, c.msg)
				}
			}()
			var dst []byte
			if c.dst > 0 {
				dst = make([]byte, c.dst)
			}
			Hash(dst, make([]byte, c.src))
		})
	}
}

func TestEmpty(t *testing.T) {
	Hash(nil, nil)
	Hash(nil, []byte{})
	Hash(make([]byte, 5), nil)
}

func FuzzHash(f *testing.F) {
	f.Add([]byte{})
	f.Add(make([]byte, 64))
	f.Add(bytes.Repeat([]byte{0xff}, 64*17))
	f.Add(randomBlocks(rand.New(rand.NewPCG(9, 10)), 33))
	f.Fuzz(func(t *testing.T, data []byte) {
		src := data[:len(data)&^63]
		want := reference(src)
		for _, a := range []bool{false, hasAVX512} {
			restore := setAccel(a)
			got := make([]byte, len(src)/2+7)
			Hash(got, src)
			restore()
			if !bytes.Equal(got[:len(want)], want) || !bytes.Equal(got[len(want):], make([]byte, 7)) {
				t.Fatalf("accel=%v: %d blocks: digests differ", a, len(src)/64)
			}
		}
	})
}

const benchBlocks = 1 << 16

func BenchmarkHash(b *testing.B) {
	src := randomBlocks(rand.New(rand.NewPCG(11, 12)), benchBlocks)
	dst := make([]byte, 32*benchBlocks)
	b.Run("sha256x", func(b *testing.B) {
		b.SetBytes(64 * benchBlocks)
		for b.Loop() {
			Hash(dst, src)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchBlocks, "ns/hash")
	})
	// The fallback is gohashtree on amd64 and arm64.
	b.Run("fallback", func(b *testing.B) {
		b.SetBytes(64 * benchBlocks)
		for b.Loop() {
			fallback(dst, src)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchBlocks, "ns/hash")
	})
	b.Run("crypto-sha256", func(b *testing.B) {
		b.SetBytes(64 * benchBlocks)
		for b.Loop() {
			for i := range benchBlocks {
				h := sha256.Sum256(src[64*i : 64*i+64])
				copy(dst[32*i:], h[:])
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchBlocks, "ns/hash")
	})
}

// BenchmarkHashSmall measures the per-call cost for batches of one and two
// kernel groups and a group plus a fallback remainder.
func BenchmarkHashSmall(b *testing.B) {
	for _, n := range []int{16, 32, 24} {
		src := randomBlocks(rand.New(rand.NewPCG(13, 14)), n)
		dst := make([]byte, 32*n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(64 * n))
			for b.Loop() {
				Hash(dst, src)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/hash")
		})
	}
}
