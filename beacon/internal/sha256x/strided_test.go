package sha256x

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"
)

// checkStrided hashes src with HashStrided into a buffer filled with a
// marker byte and checks every digest against crypto/sha256 and every other
// byte against the marker.
func checkStrided(t *testing.T, src []byte, stride, off int) {
	t.Helper()
	n := len(src) / 64
	want := reference(src)
	const marker = 0x5A
	size := off + 40
	if n > 0 {
		size += (n-1)*stride + 32
	}
	buf := bytes.Repeat([]byte{marker}, size)
	dst := buf[off : size-40]
	HashStrided(dst, stride, src)
	for i := range n {
		if got := dst[i*stride : i*stride+32]; !bytes.Equal(got, want[32*i:32*i+32]) {
			t.Fatalf("%d blocks, stride %d, offset %d: digest %d: got %x, want %x", n, stride, off, i, got, want[32*i:32*i+32])
		}
	}
	for j, c := range buf {
		in := j >= off && j < off+len(dst) && (j-off)%stride < 32 && (j-off)/stride < n
		if !in && c != marker {
			t.Fatalf("%d blocks, stride %d, offset %d: byte %d outside the digests was written", n, stride, off, j)
		}
	}
}

func TestStridedEveryCount(t *testing.T) {
	paths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(21, 22))
		for _, stride := range []int{32, 33, 40, 64, 96, 128, 200} {
			for n := 0; n <= 100; n++ {
				checkStrided(t, randomBlocks(r, n), stride, 0)
			}
		}
	})
}

func TestStridedRandom(t *testing.T) {
	paths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(23, 24))
		for range 40 {
			n := r.IntN(3000)
			stride := 32 + r.IntN(300)
			off := r.IntN(64)
			// An unaligned src: a random offset into a larger buffer.
			soff := r.IntN(64)
			buf := randomBlocks(r, n+1)
			checkStrided(t, buf[soff:soff+64*n], stride, off)
		}
	})
}

// TestStridedMatchesHash checks that a stride of 32 is Hash.
func TestStridedMatchesHash(t *testing.T) {
	paths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(25, 26))
		for _, n := range []int{1, 7, 8, 15, 16, 17, 24, 40, 1000} {
			src := randomBlocks(r, n)
			a, b := make([]byte, 32*n), make([]byte, 32*n)
			Hash(a, src)
			HashStrided(b, 32, src)
			if !bytes.Equal(a, b) {
				t.Fatalf("%d blocks: HashStrided(32) differs from Hash", n)
			}
		}
	})
}

// TestPaddedRemainder covers the remainders hashed in a zero-padded group
// (padMin to 15 blocks after whole groups) next to the ones that go through
// the fallback, with a src whose capacity ends right after its blocks and
// blocks that are all 0xff (a padding lane that leaked would show).
func TestPaddedRemainder(t *testing.T) {
	paths(t, func(t *testing.T) {
		for _, groups := range []int{0, 1, 3} {
			for rem := range 16 {
				n := 16*groups + rem
				src := bytes.Repeat([]byte{0xff}, 64*n)
				src = src[:len(src):len(src)]
				check(t, src)
				checkStrided(t, src, 96, 3)
			}
		}
	})
}

func TestStridedPanics(t *testing.T) {
	cases := []struct {
		dst, stride, src int
		msg              string
	}{
		{64, 32, 65, "sha256x: len(src) = 65 is not a multiple of 64"},
		{64, 31, 64, "sha256x: stride 31 is less than 32"},
		{64, 0, 64, "sha256x: stride 0 is less than 32"},
		{64, -5, 64, "sha256x: stride -5 is less than 32"},
		{31, 64, 64, "sha256x: len(dst) = 31 is too short for 1 digests 64 bytes apart"},
		{0, 64, 128, "sha256x: len(dst) = 0 is too short for 2 digests 64 bytes apart"},
		{64*15 + 31, 64, 64 * 16, "sha256x: len(dst) = 991 is too short for 16 digests 64 bytes apart"},
	}
	for _, c := range cases {
		t.Run(c.msg, func(t *testing.T) {
			defer func() {
				if r := recover(); r != c.msg {
					t.Fatalf("panic value %v, want %q", r, c.msg)
				}
			}()
			HashStrided(make([]byte, c.dst), c.stride, make([]byte, c.src))
		})
	}
	// The shortest dst that fits is accepted.
	HashStrided(make([]byte, 64*15+32), 64, make([]byte, 64*16))
	HashStrided(nil, 64, nil)
}

func FuzzHashStrided(f *testing.F) {
	f.Add([]byte{}, uint8(0))
	f.Add(make([]byte, 64*9), uint8(32))
	f.Add(randomBlocks(rand.New(rand.NewPCG(27, 28)), 33), uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, extra uint8) {
		src := data[:len(data)&^63]
		for _, a := range []bool{false, hasAVX512} {
			restore := setAccel(a)
			t.Run(strconv.FormatBool(a), func(t *testing.T) { checkStrided(t, src, 32+int(extra), int(extra%16)) })
			restore()
		}
	})
}

func BenchmarkHashStrided(b *testing.B) {
	src := randomBlocks(rand.New(rand.NewPCG(11, 12)), benchBlocks)
	dst := make([]byte, 64*benchBlocks)
	b.SetBytes(64 * benchBlocks)
	for b.Loop() {
		HashStrided(dst, 64, src)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchBlocks, "ns/hash")
}
