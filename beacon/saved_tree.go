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
		return elemCodec[HistoricalSummary]{sizeHistoricalSum, decHistoricalSummaryElem, elems(historicalSummaryRoot), historicalSummaryNode}
	case *[]PendingDeposit:
		return elemCodec[PendingDeposit]{sizePendingDeposit, decPendingDepositElem, elems(pendingDepositRoot), pendingDepositNode}
	case *[]PendingPartialWithdrawal:
		return elemCodec[PendingPartialWithdrawal]{sizePendingPartialWd, decPendingPartialWithdrawalElem, elems(pendingPartialWithdrawalRoot), pendingPartialWithdrawalNode}
	case *[]PendingConsolidation:
		return elemCodec[PendingConsolidation]{sizePendingConsol, decPendingConsolidationElem, elems(pendingConsolidationRoot), pendingConsolidationNode}
	case *[]Builder:
		return elemCodec[Builder]{sizeBuilder, decBuilderElem, elems(builderRoot), builderNode}
	case *[]BuilderPendingWithdrawal:
		return elemCodec[BuilderPendingWithdrawal]{sizeBuilderWd, decBuilderWdElem, elems(builderPendingWithdrawalRoot), builderPendingWithdrawalNode}
	case *[]Withdrawal:
		return elemCodec[Withdrawal]{sizeWithdrawal, decWithdrawalElem, elems(withdrawalRoot), withdrawalNode}
	}
	return nil
}

func elems[T any](root func(*T) Root) func([]T) leafFiller {
	return func(s []T) leafFiller { return fillElems(s, root) }
}

// savedList is a list whose bytes are in the saved state.
type savedList struct {
	at       io.ReaderAt
	name     string
	off, end int64 // the list's bytes in the saved state
	codec    listCodec
}

// savedChunks are the chunks of a keptTree that ReadProver hashed from a
// list as it streamed by: they are read back from the saved state, the
// tree's chunk 0 being the list's chunk first (progressive subtrees start
// further on), and must hash to the kept node, so a saved state that
// changed since is an error, never a wrong proof.
type savedChunks struct {
	list  *savedList
	first int
}

func (s savedChunks) chunks(from, to int) ([]tnode, error) {
	return s.list.readLeaves(s.first+from, s.first+to)
}

func (s savedChunks) check(from, to int, got, want Root) error {
	if got != want {
		return fmt.Errorf("%w: the saved state changed since the Prover hashed it: %s chunks %d to %d hash to %s, not %s", ErrIntegrity, s.list.name, s.first+from, s.first+to-1, got, want)
	}
	return nil
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

// streamTaskDepth sets the runs of leaves a streaming hash gives each
// goroutine: 2^10, so that a run of validators (124 KiB of SSZ and the
// hasher's buffers) costs under a MiB per core.
const streamTaskDepth = 10

// hashRuns hashes runs of leaves of t, whose chunks are s, in parallel:
// raw[k] holds the SSZ bytes of run k, whose first leaf is firsts[k]. It
// returns the index (in the list) and the reason of the first bad element,
// or -1 and "".
func (s savedChunks) hashRuns(t *keptTree, raw [][]byte, firsts []int, top int, ws []*workspace, scratch []any, bufs [][]byte) (int, string) {
	bad := make([]int, len(raw))
	why := make([]string, len(raw))
	var wg sync.WaitGroup
	for k := range raw {
		run := func() {
			c := s.list.codec
			m := len(raw[k]) / c.size()
			leaves := m
			if c.packed() {
				leaves = (len(raw[k]) + 31) / 32
			}
			l := get(&bufs[k], 32*leaves)
			j, w := c.leaves(ws[k], l, raw[k], m, &scratch[k])
			if w != "" {
				bad[k], why[k] = s.first+firsts[k]+j, w
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
