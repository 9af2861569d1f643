package beacon

import (
	"crypto/sha256"
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
// an all-zero subtree of depth i is zeroHashes[i].
//
// Bulk hashing goes through internal/sha256x, which hashes 16 blocks at a
// time with AVX-512 where the CPU has it and with gohashtree (SHA-NI, AVX2,
// NEON) or crypto/sha256 otherwise; single pairs use crypto/sha256, which
// does not allocate.

// maxDepth is the deepest tree a state has: a list limit of 2^40
// validators is depth 40; 64 covers every limit a uint64 can express.
const maxDepth = 64

// zeroHashes[i] is the root of a depth-i tree of zero chunks.
var zeroHashes [maxDepth + 1]Root

func init() {
	for i := 1; i <= maxDepth; i++ {
		zeroHashes[i] = hashPair(&zeroHashes[i-1], &zeroHashes[i-1])
	}
}

// hashPair returns SHA-256(a || b).
func hashPair(a, b *Root) Root {
	var buf [64]byte
	copy(buf[:32], a[:])
	copy(buf[32:], b[:])
	return sha256.Sum256(buf[:])
}

// bulkMin is the number of pairs from which the bulk hasher beats a loop
// over crypto/sha256 (it does from one pair; the constant keeps tiny layers
// on the allocation-free path).
const bulkMin = 4

// hashChunks sets dst[32i:32i+32] = SHA-256(src[64i:64i+64]) for every
// 64-byte block of src. dst and src must not overlap.
func hashChunks(dst, src []byte) {
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

// depthFor returns the depth of a tree with room for n chunks:
// ceil(log2(n)), 0 for n <= 1.
func depthFor(n uint64) int {
	if n <= 1 {
		return 0
	}
	return bits.Len64(n - 1)
}

// mixInLength returns SHA-256(root || uint256(n)), the root of a list.
func mixInLength(root Root, n uint64) Root {
	var l Root
	put64(l[:], n)
	return hashPair(&root, &l)
}

// layerBlock is how many pairs hashLayer hashes per call.
const layerBlock = 1024

// workspace is the scratch memory of one hashing goroutine, reused across
// the subtrees it hashes.
type workspace struct {
	scratch []byte      // layerBlock chunks, for hashLayer
	val     *valScratch // for fillValidators, made on first use
	leaves  []byte      // treeRoot's leaf buffer
}

// workspaces recycles workspaces across treeRoot calls: a state hashes
// several lists in a row, and a progressive list one subtree after another,
// each of which would otherwise allocate its goroutines' buffers anew
// (about 2 MiB each for validators). A workspace holds no result between
// calls: its validator pair caches are keyed by the exact pair, so a reused
// entry is the digest hashing would give.
var workspaces = sync.Pool{New: func() any { return new(workspace) }}

// get returns (*p)[:n], growing *p when it is too small.
func get(p *[]byte, n int) []byte {
	if cap(*p) < n {
		*p = make([]byte, n)
	}
	return (*p)[:n]
}

// hashLayer hashes the pairs of src into dst in place: dst is src's first
// half. The first block goes through scratch (it overlaps its own input);
// after it, every block's output lies wholly before its input.
func (ws *workspace) hashLayer(buf []byte, pairs int) {
	k := min(pairs, layerBlock)
	scratch := get(&ws.scratch, 32*k)
	hashChunks(scratch, buf[:64*k])
	copy(buf, scratch)
	for i := k; i < pairs; i += layerBlock {
		j := min(pairs, i+layerBlock)
		hashChunks(buf[32*i:32*j], buf[64*i:64*j])
	}
}

// reduce returns the root of a depth-depth tree whose first leaves are the
// chunks in buf (at most 2^depth) and the rest zero. buf is overwritten.
func (ws *workspace) reduce(buf []byte, depth int) Root { return ws.reduceAt(buf, 0, depth) }

// reduceAt is reduce for leaves that are themselves roots of depth-base
// subtrees: the padding at level l is zeroHashes[base+l].
func (ws *workspace) reduceAt(buf []byte, base, depth int) Root {
	n := len(buf) / 32
	if n == 0 {
		return zeroHashes[base+depth]
	}
	for lvl := range depth {
		if n == 1 {
			r := Root(buf[:32])
			for ; lvl < depth; lvl++ {
				r = hashPair(&r, &zeroHashes[base+lvl])
			}
			return r
		}
		pairs := n / 2
		ws.hashLayer(buf, pairs)
		if n%2 == 1 {
			last := Root(buf[32*(n-1) : 32*n])
			h := hashPair(&last, &zeroHashes[base+lvl])
			copy(buf[32*pairs:], h[:])
			pairs++
		}
		n = pairs
	}
	return Root(buf[:32])
}

// merkleSmall returns the root of a depth-depth tree whose first leaves are
// chunks, hashing pair by pair with crypto/sha256 (no allocation). For the
// small containers; chunks is overwritten.
func merkleSmall(chunks []Root, depth int) Root {
	n := len(chunks)
	if n == 0 {
		return zeroHashes[depth]
	}
	for lvl := range depth {
		for i := 0; i < n/2; i++ {
			chunks[i] = hashPair(&chunks[2*i], &chunks[2*i+1])
		}
		if n%2 == 1 {
			chunks[n/2] = hashPair(&chunks[n-1], &zeroHashes[lvl])
		}
		n = (n + 1) / 2
	}
	return chunks[0]
}

// leafFiller writes the leaf chunks [from, to) of a tree into dst, which
// has (to-from)*32 bytes, using ws for scratch.
type leafFiller func(ws *workspace, dst []byte, from, to int)

// smallTree is the most leaves treeRoot hashes pair by pair with
// crypto/sha256 rather than in bulk.
const smallTree = 16

// taskDepth sets the subtree each goroutine hashes at a time: 2^12 leaves
// (128 KiB of chunks; 1.3 MiB of buffers for as many validators) stay in a
// core's L2 cache.
const taskDepth = 12

// treeRoot returns the root of a depth-depth tree whose first n leaves come
// from fill and the rest are zero. Large trees are cut into subtrees of
// 2^taskDepth leaves, hashed by up to GOMAXPROCS goroutines, whose roots
// are then reduced; the result does not depend on how the work is split.
// Memory: one subtree's leaves per goroutine, and one chunk per subtree.
func treeRoot(n int, depth int, fill leafFiller) Root {
	if n == 0 {
		return zeroHashes[depth]
	}
	const sub = 1 << taskDepth
	if n <= smallTree {
		var chunks [smallTree]Root
		leaves := make([]byte, 32*n)
		fill(&workspace{}, leaves, 0, n)
		for i := range n {
			chunks[i] = Root(leaves[32*i:])
		}
		return merkleSmall(chunks[:n], depth)
	}
	if n <= sub || depth <= taskDepth {
		ws := workspaces.Get().(*workspace)
		defer workspaces.Put(ws)
		leaves := get(&ws.leaves, 32*n)
		fill(ws, leaves, 0, n)
		return ws.reduce(leaves, depth)
	}
	tasks := (n + sub - 1) / sub
	roots := make([]byte, 32*tasks)
	var next atomic.Int64
	run := func() {
		ws := workspaces.Get().(*workspace)
		defer workspaces.Put(ws)
		leaves := get(&ws.leaves, 32*sub)
		for {
			t := int(next.Add(1) - 1)
			if t >= tasks {
				return
			}
			from, to := t*sub, min(n, (t+1)*sub)
			l := leaves[:32*(to-from)]
			fill(ws, l, from, to)
			r := ws.reduce(l, taskDepth)
			copy(roots[32*t:], r[:])
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), tasks) - 1 {
		wg.Go(run)
	}
	run()
	wg.Wait()
	return (&workspace{}).reduceAt(roots, taskDepth, depth-taskDepth)
}

// fillBytes returns a leafFiller for data packed into chunks (the last one
// zero-padded): a ByteList, a list of uint8, the chunks of a list of roots.
func fillBytes(data []byte) leafFiller {
	return func(_ *workspace, dst []byte, from, to int) {
		end := min(len(data), 32*to)
		m := copy(dst, data[32*from:end])
		clear(dst[m:])
	}
}

// fillUint8s returns a leafFiller for a packed list of uint8s.
func fillUint8s[T ~uint8](s []T) leafFiller {
	return func(_ *workspace, dst []byte, from, to int) {
		end := min(len(s), 32*to)
		j := 0
		for i := 32 * from; i < end; i++ {
			dst[j] = byte(s[i])
			j++
		}
		clear(dst[j:])
	}
}

// fillUint64s returns a leafFiller for a packed list or vector of uint64s:
// four little-endian values per chunk.
func fillUint64s[T ~uint64](s []T) leafFiller {
	return func(_ *workspace, dst []byte, from, to int) {
		end := min(len(s), 4*to)
		j := 0
		for i := 4 * from; i < end; i++ {
			put64(dst[8*j:], uint64(s[i]))
			j++
		}
		clear(dst[8*j:])
	}
}

// fillRoots returns a leafFiller whose leaves are roots.
func fillRoots(s []Root) leafFiller {
	return func(_ *workspace, dst []byte, from, to int) {
		for i := from; i < to; i++ {
			copy(dst[32*(i-from):], s[i][:])
		}
	}
}

// fillElems returns a leafFiller whose leaves are the roots of the
// elements of s, computed one at a time by root.
func fillElems[T any](s []T, root func(*T) Root) leafFiller {
	return func(_ *workspace, dst []byte, from, to int) {
		for i := from; i < to; i++ {
			r := root(&s[i])
			copy(dst[32*(i-from):], r[:])
		}
	}
}
