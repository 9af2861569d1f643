// Package merkle is the SSZ merkleization of ssz/simple-serialize.md over
// 32-byte chunks: zero subtrees, pairs, whole trees hashed in parallel in
// contiguous buffers, and progressive merkleization (EIP-7916, EIP-7495).
// It knows no consensus type: the beacon package fills the leaves.
package merkle

import (
	"crypto/sha256"
	"encoding/binary"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/nodeaccess/nodeaccess/beacon/internal/sha256x"
)

// The merkleization primitives of the SSZ hash tree root
// (ssz/simple-serialize.md, "Merkleization"): 32-byte chunks, hashed two
// at a time with SHA-256, trees padded with zero chunks up to a depth set
// by the type's length or limit. The padding is never built: the root of
// an all-zero subtree of depth i is Zero[i].
//
// Bulk hashing goes through internal/sha256x, which hashes 16 blocks at a
// time with AVX-512 where the CPU has it and with gohashtree (SHA-NI, AVX2,
// NEON) or crypto/sha256 otherwise; single pairs use crypto/sha256, which
// does not allocate.

// MaxDepth is the deepest tree a state has: a list limit of 2^40
// validators is depth 40; 64 covers every limit a uint64 can express.
const MaxDepth = 64

// Zero[i] is the root of a depth-i tree of zero chunks.
var Zero [MaxDepth + 1][32]byte

func init() {
	for i := 1; i <= MaxDepth; i++ {
		Zero[i] = HashPair(&Zero[i-1], &Zero[i-1])
	}
}

// HashPair returns SHA-256(a || b).
func HashPair[T ~[32]byte](a, b *T) T {
	var buf [64]byte
	*(*[32]byte)(buf[:32]) = [32]byte(*a)
	*(*[32]byte)(buf[32:]) = [32]byte(*b)
	return sha256.Sum256(buf[:])
}

// zero returns Zero[i] as a T.
func zero[T ~[32]byte](i int) *T {
	z := T(Zero[i])
	return &z
}

// bulkMin is the number of pairs from which the bulk hasher beats a loop
// over crypto/sha256 (it does from one pair; the constant keeps tiny layers
// on the allocation-free path).
const bulkMin = 4

// HashChunks sets dst[32i:32i+32] = SHA-256(src[64i:64i+64]) for every
// 64-byte block of src. dst and src must not overlap.
func HashChunks(dst, src []byte) {
	n := len(src) / 64
	if n >= bulkMin {
		sha256x.Hash(dst[:32*n], src[:64*n])
		return
	}
	for i := range n {
		h := sha256.Sum256(src[64*i : 64*i+64])
		copy(dst[32*i:], h[:])
	}
}

// Depth returns the depth of a tree with room for n chunks:
// ceil(log2(n)), 0 for n <= 1.
func Depth(n uint64) int {
	if n <= 1 {
		return 0
	}
	return bits.Len64(n - 1)
}

// MixInLength returns SHA-256(root || uint256(n)), the root of a list.
func MixInLength[T ~[32]byte](root T, n uint64) T {
	var l [32]byte
	binary.LittleEndian.PutUint64(l[:], n)
	r := [32]byte(root)
	return T(HashPair(&r, &l))
}

// layerBlock is how many pairs hashLayer hashes per call.
const layerBlock = 1024

// Workspace is the scratch memory of one hashing goroutine, reused across
// the subtrees it hashes.
type Workspace struct {
	scratch []byte // layerBlock chunks, for HashLayer
	leaves  []byte // TreeRoot's leaf buffer
	// Ext is a Filler's own scratch, made by the Filler on first use and
	// kept with the workspace (the beacon package's validator caches).
	Ext any
}

// workspaces recycles workspaces across TreeRoot calls: a state hashes
// several lists in a row, and a progressive list one subtree after another,
// each of which would otherwise allocate its goroutines' buffers anew
// (about 2 MiB each for validators). A workspace holds no result between
// calls: its validator pair caches are keyed by the exact pair, so a reused
// entry is the digest hashing would give.
var workspaces = sync.Pool{New: func() any { return new(Workspace) }}

// Grow returns (*p)[:n], growing *p when it is too small.
func Grow(p *[]byte, n int) []byte {
	if cap(*p) < n {
		*p = make([]byte, n)
	}
	return (*p)[:n]
}

// HashLayer hashes the pairs of src into dst in place: dst is src's first
// half. The first block goes through scratch (it overlaps its own input);
// after it, every block's output lies wholly before its input.
func (ws *Workspace) HashLayer(buf []byte, pairs int) {
	k := min(pairs, layerBlock)
	scratch := Grow(&ws.scratch, 32*k)
	HashChunks(scratch, buf[:64*k])
	copy(buf, scratch)
	for i := k; i < pairs; i += layerBlock {
		j := min(pairs, i+layerBlock)
		HashChunks(buf[32*i:32*j], buf[64*i:64*j])
	}
}

// reduce returns the root of a depth-depth tree whose first leaves are the
// chunks in buf (at most 2^depth) and the rest zero. buf is overwritten.
func (ws *Workspace) reduce(buf []byte, depth int) [32]byte { return ws.reduceAt(buf, 0, depth) }

// reduceAt is reduce for leaves that are themselves roots of depth-base
// subtrees: the padding at level l is Zero[base+l].
func (ws *Workspace) reduceAt(buf []byte, base, depth int) [32]byte {
	n := len(buf) / 32
	if n == 0 {
		return Zero[base+depth]
	}
	for lvl := range depth {
		if n == 1 {
			r := [32]byte(buf[:32])
			for ; lvl < depth; lvl++ {
				r = HashPair(&r, &Zero[base+lvl])
			}
			return r
		}
		pairs := n / 2
		ws.HashLayer(buf, pairs)
		if n%2 == 1 {
			last := [32]byte(buf[32*(n-1) : 32*n])
			h := HashPair(&last, &Zero[base+lvl])
			copy(buf[32*pairs:], h[:])
			pairs++
		}
		n = pairs
	}
	return [32]byte(buf[:32])
}

// Small returns the root of a depth-depth tree whose first leaves are
// chunks, hashing pair by pair with crypto/sha256 (no allocation). For the
// small containers; chunks is overwritten.
func Small[T ~[32]byte](chunks []T, depth int) T {
	n := len(chunks)
	if n == 0 {
		return T(Zero[depth])
	}
	for lvl := range depth {
		for i := 0; i < n/2; i++ {
			chunks[i] = HashPair(&chunks[2*i], &chunks[2*i+1])
		}
		if n%2 == 1 {
			chunks[n/2] = HashPair(&chunks[n-1], zero[T](lvl))
		}
		n = (n + 1) / 2
	}
	return chunks[0]
}

// Filler writes the leaf chunks [from, to) of a tree into dst, which has
// (to-from)*32 bytes, using ws for scratch.
type Filler func(ws *Workspace, dst []byte, from, to int)

// smallTree is the most leaves TreeRoot hashes pair by pair with
// crypto/sha256 rather than in bulk.
const smallTree = 16

// TaskDepth sets the subtree each goroutine hashes at a time: 2^12 leaves
// (128 KiB of chunks; 1.3 MiB of buffers for as many validators) stay in a
// core's L2 cache.
const TaskDepth = 12

// TreeRoot returns the root of a depth-depth tree whose first n leaves come
// from fill and the rest are zero. Large trees are cut into subtrees of
// 2^TaskDepth leaves, hashed by up to GOMAXPROCS goroutines, whose roots
// are then reduced; the result does not depend on how the work is split.
// Memory: one subtree's leaves per goroutine, and one chunk per subtree.
func TreeRoot(n int, depth int, fill Filler) [32]byte {
	if n == 0 {
		return Zero[depth]
	}
	const sub = 1 << TaskDepth
	if n <= smallTree {
		var chunks [smallTree][32]byte
		leaves := make([]byte, 32*n)
		fill(&Workspace{}, leaves, 0, n)
		for i := range n {
			chunks[i] = [32]byte(leaves[32*i:])
		}
		return Small(chunks[:n], depth)
	}
	if n <= sub || depth <= TaskDepth {
		ws := workspaces.Get().(*Workspace)
		defer workspaces.Put(ws)
		leaves := Grow(&ws.leaves, 32*n)
		fill(ws, leaves, 0, n)
		return ws.reduce(leaves, depth)
	}
	tasks := (n + sub - 1) / sub
	roots := make([]byte, 32*tasks)
	var next atomic.Int64
	run := func() {
		ws := workspaces.Get().(*Workspace)
		defer workspaces.Put(ws)
		leaves := Grow(&ws.leaves, 32*sub)
		for {
			t := int(next.Add(1) - 1)
			if t >= tasks {
				return
			}
			from, to := t*sub, min(n, (t+1)*sub)
			l := leaves[:32*(to-from)]
			fill(ws, l, from, to)
			r := ws.reduce(l, TaskDepth)
			copy(roots[32*t:], r[:])
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), tasks) - 1 {
		wg.Go(run)
	}
	run()
	wg.Wait()
	return (&Workspace{}).reduceAt(roots, TaskDepth, depth-TaskDepth)
}

// Bytes returns a Filler for data packed into chunks (the last one
// zero-padded): a ByteList, a list of uint8, the chunks of a list of roots.
func Bytes(data []byte) Filler {
	return func(_ *Workspace, dst []byte, from, to int) {
		end := min(len(data), 32*to)
		m := copy(dst, data[32*from:end])
		clear(dst[m:])
	}
}

// Uint8s returns a Filler for a packed list of uint8s.
func Uint8s[T ~uint8](s []T) Filler {
	return func(_ *Workspace, dst []byte, from, to int) {
		end := min(len(s), 32*to)
		j := 0
		for i := 32 * from; i < end; i++ {
			dst[j] = byte(s[i])
			j++
		}
		clear(dst[j:])
	}
}

// Uint64s returns a Filler for a packed list or vector of uint64s: four
// little-endian values per chunk.
func Uint64s[T ~uint64](s []T) Filler {
	return func(_ *Workspace, dst []byte, from, to int) {
		end := min(len(s), 4*to)
		j := 0
		for i := 4 * from; i < end; i++ {
			binary.LittleEndian.PutUint64(dst[8*j:], uint64(s[i]))
			j++
		}
		clear(dst[8*j:])
	}
}

// Chunks returns a Filler whose leaves are the chunks of s.
func Chunks[T ~[32]byte](s []T) Filler {
	return func(_ *Workspace, dst []byte, from, to int) {
		for i := from; i < to; i++ {
			copy(dst[32*(i-from):], s[i][:])
		}
	}
}

// Elems returns a Filler whose leaves are the roots of the elements of s,
// computed one at a time by root.
func Elems[T any, R ~[32]byte](s []T, root func(*T) R) Filler {
	return func(_ *Workspace, dst []byte, from, to int) {
		for i := from; i < to; i++ {
			r := root(&s[i])
			copy(dst[32*(i-from):], r[:])
		}
	}
}
