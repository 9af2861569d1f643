package beacon

import (
	"fmt"
	"io"
	"runtime"
	"sync"
)

// A streaming Prover's lists: each list of the state with fixed-size
// elements is hashed as its bytes stream by, and only the levels of its
// tree from keepLevel up are kept (as NewProver keeps them); a proof that
// goes below a kept node reads the 16 chunks' elements back from the saved
// state, rebuilds them, and checks that they hash to the kept node, so a
// saved file that changed since is an error, never a wrong proof.

// listCodec turns a list's SSZ bytes into its leaf chunks.
type listCodec interface {
	// size is an element's SSZ size.
	size() int
	// packed reports whether the elements are basic values packed into
	// chunks (roots, uint64s, uint8s): their SSZ bytes are the chunks.
	packed() bool
	// leaves writes the leaf chunks of the m elements in raw to dst,
	// using *scratch for decoded elements; a bad element's index and what
	// is wrong with it, or -1 and "".
	leaves(ws *workspace, dst, raw []byte, m int, scratch *any) (int, string)
	// nodes returns the m elements in raw as leaf nodes whose trees a
	// proof can descend (a validator's fields).
	nodes(raw []byte, m int) ([]tnode, int, string)
}

// packedCodec is the codec of a list of basic values or roots.
type packedCodec int

func (c packedCodec) size() int  { return int(c) }
func (packedCodec) packed() bool { return true }
func (packedCodec) leaves(_ *workspace, dst, raw []byte, _ int, _ *any) (int, string) {
	n := copy(dst, raw)
	clear(dst[n:])
	return -1, ""
}
func (packedCodec) nodes([]byte, int) ([]tnode, int, string) { return nil, -1, "" }

// elemCodec is the codec of a list of containers of type T.
type elemCodec[T any] struct {
	sz   int
	dec  elemDecoder[T]
	fill func([]T) leafFiller
	node func(*T) tnode
}

func (c elemCodec[T]) size() int  { return c.sz }
func (elemCodec[T]) packed() bool { return false }

func (c elemCodec[T]) leaves(ws *workspace, dst, raw []byte, m int, scratch *any) (int, string) {
	s, _ := (*scratch).([]T)
	if cap(s) < m {
		s = make([]T, m)
		*scratch = s
	}
	s = s[:m]
	if j, why := c.dec(raw[:m*c.sz], s); why != "" {
		return j, why
	}
	c.fill(s)(ws, dst, 0, m)
	return -1, ""
}

func (c elemCodec[T]) nodes(raw []byte, m int) ([]tnode, int, string) {
	s := make([]T, m)
	if j, why := c.dec(raw[:m*c.sz], s); why != "" {
		return nil, j, why
	}
	var buf [32]byte
	out := make([]tnode, m)
	ws := &workspace{}
	for i := range s {
		c.fill(s[i:i+1])(ws, buf[:], 0, 1)
		e := &s[i]
		out[i] = subNode{r: Root(buf), tree: func() tnode { return c.node(e) }}
	}
	return out, -1, ""
}

// codecOf returns the codec of a list field with fixed-size elements, or
// nil for a field of another kind.
func codecOf(f *field) listCodec {
	switch f.ptr.(type) {
	case *[]Root:
		return packedCodec(32)
	case *[]Gwei, *[]uint64, *[]ValidatorIndex:
		return packedCodec(8)
	case *[]uint8:
		return packedCodec(1)
	case *[]Validator:
		return elemCodec[Validator]{sizeValidator, decValidatorElem, fillValidators, validatorNode}
	case *[]Eth1Data:
		return elemCodec[Eth1Data]{sizeEth1Data, decEth1DataElem, elems(eth1DataRoot), eth1DataNode}
	case *[]HistoricalSummary:
		return elemCodec[HistoricalSummary]{sizeHistoricalSum, decHistoricalSummaryElem, elems(historicalSummaryRoot), func(h *HistoricalSummary) tnode {
			return container(leafNode(h.BlockSummaryRoot), leafNode(h.StateSummaryRoot))
		}}
	case *[]PendingDeposit:
		return elemCodec[PendingDeposit]{sizePendingDeposit, decPendingDepositElem, elems(pendingDepositRoot), func(d *PendingDeposit) tnode {
			return container(pubKeyNode(&d.PublicKey), leafNode(d.WithdrawalCredentials), u64Leaf(uint64(d.Amount)), signatureNode(&d.Signature), u64Leaf(uint64(d.Slot)))
		}}
	case *[]PendingPartialWithdrawal:
		return elemCodec[PendingPartialWithdrawal]{sizePendingPartialWd, decPendingPartialWithdrawalElem, elems(pendingPartialWithdrawalRoot), func(w *PendingPartialWithdrawal) tnode {
			return container(u64Leaf(uint64(w.ValidatorIndex)), u64Leaf(uint64(w.Amount)), u64Leaf(uint64(w.WithdrawableEpoch)))
		}}
	case *[]PendingConsolidation:
		return elemCodec[PendingConsolidation]{sizePendingConsol, decPendingConsolidationElem, elems(pendingConsolidationRoot), func(c *PendingConsolidation) tnode {
			return container(u64Leaf(uint64(c.SourceIndex)), u64Leaf(uint64(c.TargetIndex)))
		}}
	case *[]Builder:
		return elemCodec[Builder]{sizeBuilder, decBuilderElem, elems(builderRoot), builderNode}
	case *[]BuilderPendingWithdrawal:
		return elemCodec[BuilderPendingWithdrawal]{sizeBuilderWd, decBuilderWdElem, elems(builderPendingWithdrawalRoot), builderPendingWithdrawalNode}
	case *[]Withdrawal:
		return elemCodec[Withdrawal]{sizeWithdrawal, decWithdrawalElem, elems(withdrawalRoot), func(w *Withdrawal) tnode {
			return container(u64Leaf(w.Index), u64Leaf(uint64(w.ValidatorIndex)), leafNode(addressChunk((*[20]byte)(&w.Address))), u64Leaf(uint64(w.Amount)))
		}}
	}
	return nil
}

func elems[T any](root func(*T) Root) func([]T) leafFiller {
	return func(s []T) leafFiller { return fillElems(s, root) }
}

// savedTree is a tree of n leaf chunks in a depth-depth tree whose levels
// from keep up are kept, as a chunkTree's; its leaves are read back from
// the saved state: leaf 0 is at byte off (element 0, or chunk 0 of packed
// values), and the list's bytes end at end.
type savedTree struct {
	n, depth, keep int
	levels         [][]byte
	src            *savedList
	first          int // the list's leaf of this tree's leaf 0 (progressive subtrees)
}

// savedList is a list whose bytes are in the saved state.
type savedList struct {
	at       io.ReaderAt
	name     string
	off, end int64 // the list's bytes in the saved state
	codec    listCodec
}

// newSavedTree returns an empty tree with room for n leaves (-1: as
// they come).
func newSavedTree(n, depth int, src *savedList, first int) *savedTree {
	t := &savedTree{depth: depth, keep: min(keepLevel, depth), src: src, first: first}
	t.levels = make([][]byte, depth-t.keep+1)
	for h := t.keep; h <= depth && n >= 0; h++ {
		t.levels[h-t.keep] = make([]byte, 0, 32*((n+1<<h-1)>>h))
	}
	return t
}

// grow makes room for n leaves in every kept level.
func (t *savedTree) grow(n int) {
	t.n = n
	for h := t.keep; h <= t.depth; h++ {
		lv := &t.levels[h-t.keep]
		if need := 32 * ((n + 1<<h - 1) >> h); need > len(*lv) {
			*lv = append(*lv, make([]byte, need-len(*lv))...)
		}
	}
}

// absorb hashes the leaf chunks l of leaves [from, from+len(l)/32) (from a
// multiple of 2^top, the run whole unless it ends the tree) up to height
// top, keeping the levels from keep up. Runs of different leaves may be
// absorbed concurrently.
func (t *savedTree) absorb(ws *workspace, l []byte, from, top int) {
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

// finish computes the levels above top once every leaf is absorbed.
func (t *savedTree) finish(top int) {
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

func (t *savedTree) node(h, j int) tnode {
	if j<<h >= t.n {
		return zeroNode(h)
	}
	return savedNode{t: t, h: h, j: j}
}

func (t *savedTree) rootNode() tnode { return t.node(t.depth, 0) }

// savedNode is a kept node of a savedTree.
type savedNode struct {
	t    *savedTree
	h, j int
}

func (n savedNode) root() Root { return Root(n.t.levels[n.h-n.t.keep][32*n.j:]) }

func (n savedNode) children() (l, r tnode, ok bool) {
	l, r, ok, err := n.readChildren()
	return l, r, ok && err == nil
}

// readChildren returns the node's children: kept nodes above the kept
// level, and below it the leaves read back from the saved state, which
// must hash to the kept node.
func (n savedNode) readChildren() (l, r tnode, ok bool, err error) {
	t := n.t
	if n.h > t.keep {
		return t.node(n.h-1, 2*n.j), t.node(n.h-1, 2*n.j+1), true, nil
	}
	from := n.j << n.h
	to := min(t.n, from+1<<n.h)
	leaves, err := t.src.readLeaves(t.first+from, t.first+to)
	if err != nil {
		return nil, nil, false, err
	}
	sub := dense(leaves, n.h)
	if got, want := sub.root(), n.root(); got != want {
		return nil, nil, false, fmt.Errorf("%w: the saved state changed since the Prover hashed it: %s chunks %d to %d hash to %s, not %s", ErrIntegrity, t.src.name, t.first+from, t.first+to-1, got, want)
	}
	l, r, ok = sub.children()
	return l, r, ok, nil
}

// readLeaves reads leaves [from, to) of the list back from the saved
// state, as nodes.
func (s *savedList) readLeaves(from, to int) ([]tnode, error) {
	sz := s.codec.size()
	var lo, hi int64
	if s.codec.packed() {
		lo, hi = s.off+32*int64(from), min(s.end, s.off+32*int64(to))
	} else {
		lo, hi = s.off+int64(sz)*int64(from), s.off+int64(sz)*int64(to)
	}
	raw := make([]byte, hi-lo)
	if k, err := s.at.ReadAt(raw, lo); k < len(raw) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF // the saved state is shorter than the one hashed
		}
		return nil, fmt.Errorf("beacon: reading %s back from the saved state at byte %d: %w", s.name, lo+int64(k), err)
	}
	if !s.codec.packed() {
		out, j, why := s.codec.nodes(raw, to-from)
		if why != "" {
			return nil, fmt.Errorf("%w: the saved state changed since the Prover hashed it: %s[%d]: %s", ErrIntegrity, s.name, from+j, why)
		}
		return out, nil
	}
	out := make([]tnode, to-from)
	for i := range out {
		var c Root
		copy(c[:], raw[min(len(raw), 32*i):])
		out[i] = leafNode(c)
	}
	return out, nil
}

// childrenOf returns n's children; a node read back from a saved state
// may fail to produce them.
func childrenOf(n tnode) (l, r tnode, ok bool, err error) {
	if s, isSaved := n.(savedNode); isSaved {
		return s.readChildren()
	}
	l, r, ok = n.children()
	return l, r, ok, nil
}

// streamTaskDepth sets the runs of leaves a streaming hash gives each
// goroutine: 2^10, so that a run of validators (124 KiB of SSZ and the
// hasher's buffers) costs under a MiB per core.
const streamTaskDepth = 10

// hashRuns hashes runs of leaves of t in parallel: raw[k] holds the SSZ
// bytes of run k, whose first leaf is firsts[k]. It returns the index (in
// the list) and the reason of the first bad element, or -1 and "".
func (t *savedTree) hashRuns(raw [][]byte, firsts []int, top int, ws []*workspace, scratch []any, bufs [][]byte) (int, string) {
	bad := make([]int, len(raw))
	why := make([]string, len(raw))
	var wg sync.WaitGroup
	for k := range raw {
		run := func() {
			c := t.src.codec
			m := len(raw[k]) / c.size()
			leaves := m
			if c.packed() {
				leaves = (len(raw[k]) + 31) / 32
			}
			l := get(&bufs[k], 32*leaves)
			j, w := c.leaves(ws[k], l, raw[k], m, &scratch[k])
			if w != "" {
				bad[k], why[k] = t.first+firsts[k]+j, w
				return
			}
			bad[k] = -1
			t.absorb(ws[k], l, firsts[k], top)
		}
		if k == len(raw)-1 {
			run()
		} else {
			wg.Go(run)
		}
	}
	wg.Wait()
	for k := range raw {
		if why[k] != "" {
			return bad[k], why[k]
		}
	}
	return -1, ""
}

// streamWorkers is how many runs are hashed at once.
func streamWorkers() int { return max(1, runtime.GOMAXPROCS(0)) }
