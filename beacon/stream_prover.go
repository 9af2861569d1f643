package beacon

import (
	"errors"
	"fmt"
	"io"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon/internal/progress"
)

// ReadProver makes a Prover of the SSZ state that streams from r (a
// download, a file, any reader), hashing it as it arrives, without
// keeping the decoded state: it keeps the fixed-size fields (block and
// state roots, RANDAO mixes, sync committees, …, about 3 MB on mainnet),
// the few small variable ones (the payload header, the bid, phase0's
// attestations) and, of every list of fixed-size elements (the validator
// registry, balances, participation, inactivity scores, pending lists,
// builders), only the upper levels of its tree that NewProver keeps too,
// about 4 bytes per validator. A proof that goes below those reads the
// elements under one kept node (16 chunks: 16 validators, 64 balances)
// back from saved, where the same bytes are stored: the file r is being
// saved to, or the file r reads. What it reads back must hash to the kept
// node, so a saved state that changed since is an error matching
// ErrIntegrity, never a wrong proof.
//
// b says what r holds as it does for ReadState (Encoding EncodingSSZ, the
// Fork, the Bytes when known); a Preset among opts reads a state of that
// preset, and WithProgress reports the bytes hashed. The state is checked
// as ReadState checks it, and the Prover's root is the one HashTreeRoot
// gives. The saved state must not change while the Prover is in use.
//
// Memory: for a mainnet state of 2.2 million validators (about 300 MB of
// SSZ) the Prover keeps about 17 MB, and hashing takes about 1 MB more per
// core, where ReadState and NewProver hold the 320 MB of the decoded
// state. Client.DownloadState makes the same Prover while it saves the
// body (WithProver), in one pass.
func ReadProver(r io.Reader, b Body, saved io.ReaderAt, opts ...ReadOption) (*Prover, error) {
	if r == nil {
		return nil, &nodeaccess.InputError{Arg: "r", Reason: "nil io.Reader"}
	}
	if saved == nil {
		return nil, &nodeaccess.InputError{Arg: "saved", Reason: "nil io.ReaderAt: a proof reads the lists back from it"}
	}
	v, err := sszBody(b)
	if err != nil {
		return nil, err
	}
	cfg := newReadConfig(opts)
	if err := cfg.preset.validate(); err != nil {
		return nil, err
	}
	size, known, err := inputSize(r, b.Bytes, "ssz")
	if err != nil {
		return nil, err
	}
	if cfg.progress != nil {
		pr := progress.New(r, cfg.progress, size)
		p, err := streamProver(pr, v, cfg.preset, size, known, saved)
		if err == nil {
			pr.Finish()
		}
		return p, err
	}
	return streamProver(r, v, cfg.preset, size, known, saved)
}

// streamProver is ReadProver once the arguments are checked (size -1:
// unknown; known: r told it, as for readSSZ).
func streamProver(r io.Reader, v Version, p Preset, size int64, known bool, saved io.ReaderAt) (*Prover, error) {
	lists := map[string]tnode{}
	d := &decoder{r: sszReader{src: r, buf: make([]byte, readBufSize), size: size}, sized: known,
		list: func(d *decoder, f *field, scope int64) (bool, error) {
			if codecOf(f) == nil {
				return false, nil
			}
			n, err := streamList(d, f, scope, saved)
			lists[f.name] = n
			return true, err
		}}
	st, err := d.decode(v, p)
	if err != nil {
		return nil, err
	}
	fields := st.fields()
	nodes := make([]tnode, len(fields))
	for i := range fields {
		if n, ok := lists[fields[i].name]; ok {
			nodes[i] = n
		} else {
			nodes[i] = st.fieldNode(&fields[i])
		}
	}
	return proverOf(st, fields, nodes), nil
}

// proverOf returns the Prover of st, whose schema is fields and whose
// fields' nodes are nodes.
func proverOf(st *State, fields []field, nodes []tnode) *Prover {
	var top tnode
	if st.Version >= Gloas {
		top = progressiveContainerNode(nodes...)
	} else {
		top = container(nodes...)
	}
	return &Prover{st: st, version: st.Version, preset: st.preset(), header: st.LatestBlockHeader,
		fields: fields, lens: prepareLens(fields), typ: st.stateType(fields),
		root: top.root(), depth: depthFor(uint64(len(fields))), top: top}
}

// variable decodes a variable field, or hands it to d.list.
func (d *decoder) variable(f *field, scope int64) error {
	if d.list != nil {
		if ok, err := d.list(d, f, scope); ok || err != nil {
			return err
		}
	}
	return d.decodeVariable(f, scope)
}

// streamList hashes the list f, whose bytes are the next scope bytes of d
// (scope < 0: up to the end of the input), into a node whose leaves are
// read back from saved. It checks the bytes as decodeVariable does.
func streamList(d *decoder, f *field, scope int64, saved io.ReaderAt) (tnode, error) {
	c := codecOf(f)
	sz := int64(c.size())
	start := d.r.pos
	if scope >= 0 {
		if scope%sz != 0 {
			return nil, d.fail(f.name, start, "%d bytes is not a whole number of %d-byte elements", scope, sz)
		}
		if uint64(scope/sz) > f.n {
			return nil, d.fail(f.name, start, "%d elements, over the list's limit of %d", scope/sz, f.n)
		}
	}
	src := &savedList{at: saved, name: f.name, off: start, codec: c}
	limit := f.n // in leaves
	leafBytes := sz
	if c.packed() {
		limit = (f.n*uint64(sz) + 31) / 32
		leafBytes = 32
	}
	s := &listStream{d: d, f: f, scope: scope, src: src, leafBytes: leafBytes, workers: streamWorkers()}
	s.raw, s.bufs = make([][]byte, s.workers), make([][]byte, s.workers)
	s.scratch, s.ws = make([]any, s.workers), make([]*workspace, s.workers)
	for k := range s.ws {
		s.ws[k] = &workspace{}
	}
	var node tnode
	if f.progressive {
		var subs []tnode
		for k, first := 0, 0; ; k, first = k+1, first+1<<(2*k) {
			t, more, err := s.tree(2*k, first, 1<<(2*k))
			if err != nil {
				return nil, err
			}
			if t.n > 0 {
				subs = append(subs, t.rootNode())
			}
			if !more {
				break
			}
		}
		node = zeroNode(0)
		for i := len(subs) - 1; i >= 0; i-- {
			node = pair(subs[i], node)
		}
	} else {
		t, _, err := s.tree(depthFor(limit), 0, -1)
		if err != nil {
			return nil, err
		}
		node = t.rootNode()
	}
	src.end = d.r.pos
	return mixin(node, uint64((src.end-start)/sz)), nil
}

// listStream is one list being hashed as it streams.
type listStream struct {
	d         *decoder
	f         *field
	scope     int64 // the list's bytes, -1: up to the end of the input
	src       *savedList
	leafBytes int64 // the SSZ bytes of a leaf (the last may have fewer)
	workers   int
	raw, bufs [][]byte
	scratch   []any
	ws        []*workspace
}

// left returns how many of the list's bytes are still to come (-1:
// unknown, up to the end of the input).
func (s *listStream) left() int64 {
	if s.scope < 0 {
		return -1
	}
	return s.src.off + s.scope - s.d.r.pos
}

// tree hashes the next leaves of the list, at most max of them (-1: the
// rest), into a depth-depth tree whose leaf 0 is the list's leaf first;
// more reports whether it took max leaves and the list may go on.
func (s *listStream) tree(depth, first, max int) (t *savedTree, more bool, err error) {
	want := max
	if l := s.left(); l >= 0 {
		n := int((l + s.leafBytes - 1) / s.leafBytes)
		if want < 0 || n < want {
			want = n
		}
	}
	if s.left() < 0 || !s.d.sized {
		want = -1 // room is made as the leaves come
	}
	t = newSavedTree(want, depth, s.src, first)
	top := min(streamTaskDepth, depth)
	run := 1 << top
	done := 0
	for max < 0 || done < max {
		firsts := make([]int, 0, s.workers)
		raws := make([][]byte, 0, s.workers)
		got := 0
		var readErr error
		for k := 0; k < s.workers && (max < 0 || done+got < max); k++ {
			leaves := run
			if max >= 0 {
				leaves = min(leaves, max-done-got)
			}
			b, err := s.read(k, int64(leaves)*s.leafBytes)
			n := int((int64(len(b)) + s.leafBytes - 1) / s.leafBytes)
			if len(b) > 0 {
				firsts = append(firsts, done+got)
				raws = append(raws, b)
				got += n
			}
			if err != nil {
				readErr = err
				break
			}
			if n < leaves {
				break
			}
		}
		if got == 0 {
			if readErr != nil {
				return nil, false, readErr
			}
			break
		}
		if n := uint64(s.d.r.pos-s.src.off) / uint64(s.src.codec.size()); n > s.f.n { // only a list of unknown size gets here
			return nil, false, s.d.fail(s.f.name, s.d.r.pos, "more than %d elements, over the list's limit", s.f.n)
		}
		t.grow(done + got)
		// The elements that did arrive are checked first, as the decoder
		// decodes them before it reads on.
		if j, why := t.hashRuns(raws, firsts, top, s.ws, s.scratch, s.bufs); why != "" {
			return nil, false, s.d.fail(fmt.Sprintf("%s[%d]", s.f.name, j), s.src.off+int64(j)*int64(s.src.codec.size()), "%s", why)
		}
		if readErr != nil {
			return nil, false, readErr
		}
		done += got
		if got < len(raws)*run || (max >= 0 && done == max) {
			break
		}
	}
	t.finish(top)
	return t, max >= 0 && done == max && s.left() != 0, nil
}

// read reads the next n bytes of the list (fewer at its end) into the
// k-th run buffer.
func (s *listStream) read(k int, n int64) ([]byte, error) {
	if l := s.left(); l >= 0 {
		n = min(n, l)
	}
	var buf []byte
	if s.d.sized {
		buf = get(&s.raw[k], int(n))
	} else {
		// n is only claimed: the buffer grows as the bytes arrive.
		buf = s.raw[k][:0]
		defer func() { s.raw[k] = buf[:0] }()
	}
	sz := int64(s.src.codec.size())
	block := readBufSize / sz * sz // read as the decoder reads a list, for the same errors
	got := 0
	for int64(got) < n {
		if s.scope < 0 {
			eof, err := s.d.r.atEOF()
			if err != nil {
				return nil, err
			}
			if eof {
				break
			}
		}
		in := s.d.r.pos - s.src.off // the list's bytes read so far
		m := min(n-int64(got), block-in%block)
		if s.scope < 0 {
			m = min(m, max(1, int64(s.d.r.buffered())))
		}
		b, err := s.d.r.next(int(m))
		if err != nil {
			// The decoder reads a list a block at a time and reports a
			// truncation at the start of the block it was reading.
			err = s.d.readErr(fmt.Sprintf("%s[%d]", s.f.name, in/block*block/sz), err)
			var de *DecodeError
			if errors.As(err, &de) {
				de.Offset = s.src.off + in/block*block
			}
			return buf[:got], err
		}
		if s.d.sized {
			got += copy(buf[got:], b)
		} else {
			buf = append(buf, b...)
			got = len(buf)
		}
	}
	if in := s.d.r.pos - s.src.off; in%sz != 0 { // an input of unknown size that ends inside an element
		return buf[:got-int(in%sz)], &DecodeError{Format: "ssz", Path: fmt.Sprintf("%s[%d]", s.f.name, in/sz), Offset: s.src.off + in/sz*sz, Reason: "the input ends early (truncated)", Err: io.ErrUnexpectedEOF}
	}
	return buf[:got], nil
}
