package beacon

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/nodeaccess/nodeaccess/beacon/internal/merkle"
)

// The prover's view of a state's merkle tree: nodes that know their root
// and can produce their two children, so that a proof walks down from the
// state's root along a generalized index and collects the siblings. Small
// containers are built whole (a few nodes); a collection keeps only the
// levels of its tree from keepLevel up, built once with the same bulk
// hasher as HashTreeRoot, and rebuilds the 2^keepLevel leaves under a node
// of that level when a proof goes below it.

// tnode is a node of the tree.
type tnode interface {
	root() Root
	// children returns the node's two children; ok is false for a leaf
	// (a chunk, which has none).
	children() (l, r tnode, ok bool)
}

// leafNode is a chunk.
type leafNode Root

func (n leafNode) root() Root                    { return Root(n) }
func (leafNode) children() (l, r tnode, ok bool) { return nil, nil, false }

// subNode is a chunk that is the root of an object with its own tree (a
// validator in the validators list, a public key): its root is known, and
// its tree is built when a proof descends into it.
type subNode struct {
	r    Root
	tree func() tnode
}

func (n subNode) root() Root { return n.r }
func (n subNode) children() (l, r tnode, ok bool) {
	return n.tree().children()
}

// zeroNode is the root of a subtree of zero chunks of the given height.
type zeroNode int

func (n zeroNode) root() Root { return zeroHashes[n] }
func (n zeroNode) children() (l, r tnode, ok bool) {
	if n == 0 {
		return nil, nil, false
	}
	return n - 1, n - 1, true
}

// pairNode is an inner node with its root computed.
type pairNode struct {
	l, r tnode
	h    Root
}

func (n *pairNode) root() Root                      { return n.h }
func (n *pairNode) children() (l, r tnode, ok bool) { return n.l, n.r, true }

func pair(l, r tnode) *pairNode {
	a, b := l.root(), r.root()
	return &pairNode{l: l, r: r, h: hashPair(&a, &b)}
}

// container returns the tree of leaves padded with zero chunks to the
// next power of two: an SSZ container or vector of at most a few hundred
// elements.
func container(leaves ...tnode) tnode {
	return dense(leaves, depthFor(uint64(len(leaves))))
}

// dense returns the depth-depth tree whose first leaves are leaves.
func dense(leaves []tnode, depth int) tnode {
	level := leaves
	for h := range depth {
		next := make([]tnode, (len(level)+1)/2)
		for i := range next {
			var r tnode = zeroNode(h)
			if 2*i+1 < len(level) {
				r = level[2*i+1]
			}
			next[i] = pair(level[2*i], r)
		}
		if len(next) == 0 {
			return zeroNode(depth)
		}
		level = next
	}
	if len(level) == 0 {
		return zeroNode(depth)
	}
	return level[0]
}

// mixin returns a list's node: its contents' tree and its length.
func mixin(contents tnode, n uint64) tnode { return pair(contents, leafNode(u64Chunk(n))) }

// keepLevel is the lowest level of a collection's tree that the prover
// keeps: a node per 16 chunks (and the levels above it), 1/16 of the
// leaves' 32 bytes each and as much again for the levels above; a proof
// rebuilds the 16 leaves under one such node.
const keepLevel = 4

// chunkTree is a collection's tree of n chunks in a depth-depth tree, of
// which the levels from keep up are kept.
type chunkTree struct {
	n, depth, keep int
	// levels[h-keep] holds the nodes of height h that have a chunk below
	// them, 32 bytes each; the ones to their right are zero subtrees.
	levels [][]byte
	fill   leafFiller
	// elem returns the tree of element i when it is a composite element
	// (a validator); nil for packed values and roots, whose chunks are
	// leaves.
	elem func(i int) tnode
}

// newChunkTree hashes the n chunks that fill writes into a depth-depth
// tree and keeps its levels from keepLevel up. Like treeRoot it cuts the
// chunks into subtrees of 2^taskDepth, hashed by up to GOMAXPROCS
// goroutines with the bulk hasher, so it costs what hashing the
// collection costs.
func newChunkTree(n, depth int, fill leafFiller, elem func(int) tnode) *chunkTree {
	t := &chunkTree{n: n, depth: depth, keep: min(keepLevel, depth), fill: fill, elem: elem}
	t.levels = make([][]byte, depth-t.keep+1)
	for h := t.keep; h <= depth; h++ {
		t.levels[h-t.keep] = make([]byte, 32*((n+1<<h-1)>>h))
	}
	if n == 0 {
		return t
	}
	top := min(merkle.TaskDepth, depth)
	sub := 1 << top
	tasks := (n + sub - 1) / sub
	var next atomic.Int64
	run := func() {
		ws := &workspace{}
		buf := make([]byte, 32*sub)
		for {
			k := int(next.Add(1) - 1)
			if k >= tasks {
				return
			}
			from, to := k*sub, min(n, (k+1)*sub)
			m := to - from
			l := buf[:32*m]
			fill(ws, l, from, to)
			for h := 0; ; h++ {
				if h >= t.keep {
					copy(t.levels[h-t.keep][32*(from>>h):], l[:32*m])
				}
				if h == top {
					break
				}
				pairs := m / 2
				ws.HashLayer(l, pairs)
				if m%2 == 1 {
					last := Root(l[32*(m-1):])
					r := hashPair(&last, &zeroHashes[h])
					copy(l[32*pairs:], r[:])
					pairs++
				}
				m = pairs
				l = l[:32*m]
			}
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), tasks) - 1 {
		wg.Go(run)
	}
	run()
	wg.Wait()
	ws := &workspace{}
	for h := top; h < depth; h++ {
		below, cur := t.levels[h-t.keep], t.levels[h+1-t.keep]
		m := len(below) / 32
		tmp := append([]byte(nil), below...)
		pairs := m / 2
		if pairs > 0 {
			ws.HashLayer(tmp, pairs)
		}
		if m%2 == 1 {
			last := Root(tmp[32*(m-1):])
			r := hashPair(&last, &zeroHashes[h])
			copy(tmp[32*pairs:], r[:])
			pairs++
		}
		copy(cur, tmp[:32*pairs])
	}
	return t
}

// node returns the node of height h at position j.
func (t *chunkTree) node(h, j int) tnode {
	if j<<h >= t.n {
		return zeroNode(h)
	}
	return ctNode{t: t, h: h, j: j}
}

// rootNode returns the tree's root node.
func (t *chunkTree) rootNode() tnode { return t.node(t.depth, 0) }

// ctNode is a kept node of a chunkTree.
type ctNode struct {
	t    *chunkTree
	h, j int
}

func (n ctNode) root() Root { return Root(n.t.levels[n.h-n.t.keep][32*n.j:]) }

func (n ctNode) children() (l, r tnode, ok bool) {
	t := n.t
	if n.h > t.keep {
		return t.node(n.h-1, 2*n.j), t.node(n.h-1, 2*n.j+1), true
	}
	if n.h == 0 {
		return t.leaf(n.j).children()
	}
	// Rebuild the chunks under this node.
	from := n.j << n.h
	to := min(t.n, from+1<<n.h)
	buf := make([]byte, 32*(to-from))
	t.fill(&workspace{}, buf, from, to)
	leaves := make([]tnode, to-from)
	for i := range leaves {
		leaves[i] = t.leafFrom(from+i, Root(buf[32*i:]))
	}
	return dense(leaves, n.h).children()
}

// leaf returns chunk i as a node (for a tree kept down to its leaves).
func (t *chunkTree) leaf(i int) tnode {
	var buf [32]byte
	t.fill(&workspace{}, buf[:], i, i+1)
	return t.leafFrom(i, buf)
}

// leafFrom returns chunk i, whose root is r, as a node.
func (t *chunkTree) leafFrom(i int, r Root) tnode {
	if t.elem == nil {
		return leafNode(r)
	}
	return subNode{r: r, tree: func() tnode { return t.elem(i) }}
}
