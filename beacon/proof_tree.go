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

// keptTree is a collection's tree of n chunks in a depth-depth tree, of
// which the levels from keep up are kept. Both provers walk it: NewProver's
// rebuilds the chunks under a kept node from the state in memory
// (memChunks), ReadProver's reads them back from the saved state and checks
// them against the kept node (savedChunks).
type keptTree struct {
	n, depth, keep int
	// levels[h-keep] holds the nodes of height h that have a chunk below
	// them, 32 bytes each; the ones to their right are zero subtrees.
	levels [][]byte
	below  chunkSource
}

// chunkSource gives a keptTree the chunks under a kept node when a proof
// goes below it.
type chunkSource interface {
	// chunks returns chunks [from, to) of the tree as nodes.
	chunks(from, to int) ([]tnode, error)
	// check returns the error of chunks [from, to) whose subtree hashes to
	// got where the kept node holds want, or nil if that is not an error.
	check(from, to int, got, want Root) error
}

// newKeptTree returns an empty tree with room for n chunks (-1: as they
// come, see grow).
func newKeptTree(n, depth int, below chunkSource) *keptTree {
	t := &keptTree{depth: depth, keep: min(keepLevel, depth), below: below}
	t.levels = make([][]byte, depth-t.keep+1)
	for h := t.keep; h <= depth && n >= 0; h++ {
		t.levels[h-t.keep] = make([]byte, 0, 32*((n+1<<h-1)>>h))
	}
	return t
}

// grow makes room for n chunks in every kept level.
func (t *keptTree) grow(n int) {
	t.n = n
	for h := t.keep; h <= t.depth; h++ {
		lv := &t.levels[h-t.keep]
		if need := 32 * ((n + 1<<h - 1) >> h); need > len(*lv) {
			*lv = append(*lv, make([]byte, need-len(*lv))...)
		}
	}
}

// absorb hashes the chunks l of [from, from+len(l)/32) (from a multiple of
// 2^top, the run whole unless it ends the tree) up to height top, keeping
// the levels from keep up. Runs of different chunks may be absorbed
// concurrently.
func (t *keptTree) absorb(ws *workspace, l []byte, from, top int) {
	m := len(l) / 32
	for h := 0; ; h++ {
		if h >= t.keep {
			copy(t.levels[h-t.keep][32*(from>>h):], l[:32*m])
		}
		if h == top {
			return
		}
		pairs := m / 2
		if pairs > 0 {
			ws.HashLayer(l, pairs)
		}
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

// finish computes the levels above top once every chunk is absorbed.
func (t *keptTree) finish(top int) {
	ws := &workspace{}
	for h := max(top, t.keep); h < t.depth; h++ {
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
}

// node returns the node of height h at position j.
func (t *keptTree) node(h, j int) tnode {
	if j<<h >= t.n {
		return zeroNode(h)
	}
	return keptNode{t: t, h: h, j: j}
}

// rootNode returns the tree's root node.
func (t *keptTree) rootNode() tnode { return t.node(t.depth, 0) }

// keptNode is a kept node of a keptTree.
type keptNode struct {
	t    *keptTree
	h, j int
}

func (n keptNode) root() Root { return Root(n.t.levels[n.h-n.t.keep][32*n.j:]) }

func (n keptNode) children() (l, r tnode, ok bool) {
	l, r, ok, err := n.readChildren()
	return l, r, ok && err == nil
}

// readChildren returns the node's children: kept nodes above the kept
// level, and below it the chunks the tree's source gives, rebuilt.
func (n keptNode) readChildren() (l, r tnode, ok bool, err error) {
	t := n.t
	if n.h > t.keep {
		return t.node(n.h-1, 2*n.j), t.node(n.h-1, 2*n.j+1), true, nil
	}
	from := n.j << n.h
	to := min(t.n, from+1<<n.h)
	chunks, err := t.below.chunks(from, to)
	if err != nil {
		return nil, nil, false, err
	}
	sub := dense(chunks, n.h)
	if err := t.below.check(from, to, sub.root(), n.root()); err != nil {
		return nil, nil, false, err
	}
	l, r, ok = sub.children()
	return l, r, ok, nil
}

// childrenOf returns n's children; a kept node may fail to produce them
// (a saved state read back).
func childrenOf(n tnode) (l, r tnode, ok bool, err error) {
	if k, isKept := n.(keptNode); isKept {
		return k.readChildren()
	}
	l, r, ok = n.children()
	return l, r, ok, nil
}

// newChunkTree hashes the n chunks that fill writes into a depth-depth
// tree and keeps its levels from keepLevel up; elem gives the tree of a
// composite element (a validator), nil for packed values and roots. Like
// treeRoot it cuts the chunks into subtrees of 2^taskDepth, hashed by up
// to GOMAXPROCS goroutines with the bulk hasher, so it costs what hashing
// the collection costs.
func newChunkTree(n, depth int, fill leafFiller, elem func(int) tnode) *keptTree {
	t := newKeptTree(n, depth, memChunks{fill: fill, elem: elem})
	t.grow(n)
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
			l := buf[:32*(to-from)]
			fill(ws, l, from, to)
			t.absorb(ws, l, from, top)
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), tasks) - 1 {
		wg.Go(run)
	}
	run()
	wg.Wait()
	t.finish(top)
	return t
}

// memChunks are a collection's chunks in memory, which fill writes; elem
// returns the tree of element i when it is a composite element (a
// validator), nil for packed values and roots, whose chunks are leaves.
type memChunks struct {
	fill leafFiller
	elem func(i int) tnode
}

func (c memChunks) chunks(from, to int) ([]tnode, error) {
	buf := make([]byte, 32*(to-from))
	c.fill(&workspace{}, buf, from, to)
	out := make([]tnode, to-from)
	for k := range out {
		r := Root(buf[32*k:])
		if c.elem == nil {
			out[k] = leafNode(r)
			continue
		}
		i := from + k
		out[k] = subNode{r: r, tree: func() tnode { return c.elem(i) }}
	}
	return out, nil
}

// check accepts what the state in memory holds now: the Prover reads it
// as it is, and a value changed in place makes a proof that does not
// verify.
func (memChunks) check(int, int, Root, Root) error { return nil }
