package merkle

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"
)

// zeroByHand is the root of a depth-d tree of zero chunks, from the
// definition with crypto/sha256.
func zeroByHand(d int) [32]byte {
	var z [32]byte
	for range d {
		z = sha256.Sum256(append(z[:], z[:]...))
	}
	return z
}

func TestZero(t *testing.T) {
	for _, d := range []int{0, 1, 2, 13, 40, 64} {
		if Zero[d] != zeroByHand(d) {
			t.Fatalf("Zero[%d] is wrong", d)
		}
	}
}

func TestHashLayerInPlace(t *testing.T) {
	// HashLayer overwrites its input; compare with a separate output for
	// sizes around its block size.
	for _, pairs := range []int{1, 3, 4, 5, layerBlock - 1, layerBlock, layerBlock + 1, 3*layerBlock + 7} {
		src := make([]byte, 64*pairs)
		for i := range src {
			src[i] = byte(i * 7)
		}
		want := make([]byte, 32*pairs)
		for i := range pairs {
			r := sha256.Sum256(src[64*i : 64*i+64])
			copy(want[32*i:], r[:])
		}
		(&Workspace{}).HashLayer(src, pairs)
		if string(src[:32*pairs]) != string(want) {
			t.Fatalf("%d pairs: wrong", pairs)
		}
	}
}

// TreeRoot gives the root of the tree by its definition, whatever the
// number of leaves and the depth, split over goroutines or not.
func TestTreeRootByDefinition(t *testing.T) {
	for _, tc := range []struct{ n, depth int }{{0, 3}, {1, 0}, {1, 5}, {16, 4}, {17, 10}, {4096, 12}, {4097, 13}, {10000, 20}} {
		leaves := make([][32]byte, tc.n)
		for i := range leaves {
			binary.LittleEndian.PutUint64(leaves[i][:], uint64(i)*2654435761+1)
		}
		if got, want := TreeRoot(tc.n, tc.depth, Chunks(leaves)), byDefinition(leaves, tc.depth); got != want {
			t.Fatalf("%d leaves, depth %d: %x, want %x", tc.n, tc.depth, got, want)
		}
	}
}

// byDefinition merkleizes leaves padded with zero chunks to 2^depth, pair
// by pair.
func byDefinition(leaves [][32]byte, depth int) [32]byte {
	layer := append([][32]byte(nil), leaves...)
	for d := range depth {
		if len(layer)%2 == 1 {
			layer = append(layer, Zero[d])
		}
		if len(layer) == 0 {
			return Zero[depth]
		}
		next := make([][32]byte, len(layer)/2)
		for i := range next {
			next[i] = sha256.Sum256(append(layer[2*i][:], layer[2*i+1][:]...))
		}
		layer = next
	}
	if len(layer) == 0 {
		return Zero[depth]
	}
	return layer[0]
}

// TestProgressiveRootParallel: a progressive list large enough for its
// subtrees to be split over goroutines (over 2^12 leaves each) hashes as
// the spec's recursive definition does, computed here leaf by leaf.
func TestProgressiveRootParallel(t *testing.T) {
	n := 30000 // subtrees of 1, 4, …, 4096, 16384 leaves; the last one partial
	leaves := make([][32]byte, n)
	for i := range leaves {
		binary.LittleEndian.PutUint64(leaves[i][:], uint64(i)*2654435761+1)
	}
	var spec func(chunks [][32]byte, num int) [32]byte
	spec = func(chunks [][32]byte, num int) [32]byte {
		if len(chunks) == 0 {
			return [32]byte{}
		}
		k := min(num, len(chunks))
		a := byDefinition(chunks[:k], Depth(uint64(num)))
		b := spec(chunks[k:], num*4)
		return sha256.Sum256(append(a[:], b[:]...))
	}
	if got, want := Progressive(n, Chunks(leaves)), spec(leaves, 1); got != want {
		t.Fatalf("Progressive = %x, the spec's recursion gives %x", got, want)
	}
}
