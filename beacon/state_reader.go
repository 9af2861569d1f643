package beacon

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/nodeaccess/nodeaccess"
)

// StateReader reads parts of an SSZ state that stays where it is (a file
// that DownloadState saved, a memory map, an object store read by range):
// a validator, a balance, a range of them, the length of a list or any
// top-level field, each read and decoded from its own bytes only. A
// mainnet state is a few hundred megabytes; a validator is 121 of them.
//
// OpenState reads and checks the offsets of the state's variable-size
// fields (a few dozen bytes, read from where the fork's layout puts them)
// and nothing else, so opening costs the same whatever the state's size,
// and every later read goes straight to its bytes: validator i sits at
// the validators' offset plus 121·i. What a read decodes is checked as
// ReadState checks it (booleans, bitlists, offsets inside a field, the
// preset's limits), and a bad byte is a *DecodeError that names the field
// and the byte offset in the whole state.
//
// The state must not change while it is read: a StateReader keeps the
// offsets it read when it was opened. (A read of more than 64 KiB first
// reads its last byte, so that a file cut short since costs an error, not
// an allocation for bytes that are gone.) It holds no buffer between calls
// and is safe for concurrent use (io.ReaderAt allows parallel calls).
type StateReader struct {
	r    io.ReaderAt
	size int64
	v    Version
	p    Preset
	// fields is the state's schema (its pointers into an empty State,
	// used for their types only); start and end bound each field's bytes.
	fields     []field
	start, end []int64
}

// OpenState opens the SSZ state that r holds for reading in place. b says
// what r holds as it does for ReadState: Encoding EncodingSSZ, its Fork
// and its Bytes (the state's size), which is all DownloadState returns;
// without Bytes the size is asked from r (an *os.File, a *bytes.Reader or
// an *io.SectionReader can tell). A Preset among opts reads a state of
// that preset (MinimalPreset()); the mainnet preset otherwise.
//
// The state's size is checked before anything else: against the size a
// file, a *bytes.Reader or a *strings.Reader tells, and over any other
// reader (an *io.SectionReader's size is only the one it was given) by
// reading the state's last byte. OpenState then reads only the offsets of
// the variable-size fields and checks them as the decoder does: the first
// one is the size of the fork's fixed part, they never decrease, none is
// beyond the state's size, and the lists of fixed-size elements (the
// validator registry, the balances, …) hold a whole number of elements, no
// more than the preset's limit. A state that fails is a *DecodeError
// (matching ErrInvalidState; one that holds fewer bytes than its size
// says also matches io.ErrUnexpectedEOF, and names both sizes when r tells
// its own); a bad b is a *nodeaccess.InputError; a fork this package does
// not decode an error matching ErrUnsupportedVersion; a failure of r is
// returned wrapped.
func OpenState(r io.ReaderAt, b Body, opts ...ReadOption) (*StateReader, error) {
	if r == nil {
		return nil, &nodeaccess.InputError{Arg: "r", Reason: "nil io.ReaderAt"}
	}
	v, err := sszBody(b)
	if err != nil {
		return nil, err
	}
	cfg := newReadConfig(opts)
	if err := cfg.preset.validate(); err != nil {
		return nil, err
	}
	held, exact := readerAtSize(r)
	size, what := b.Bytes, "Body.Bytes gives the state"
	switch {
	case size <= 0 && held < 0:
		return nil, &nodeaccess.InputError{Arg: "Body.Bytes", Reason: "unknown: give the state's size (the io.ReaderAt cannot tell it)"}
	case size <= 0:
		size, what = held, "its Size gives the state"
	case exact && size > held:
		return nil, shortInput("ssz", held, size, "Body.Bytes")
	}
	sr := &StateReader{r: r, size: size, v: v, p: cfg.preset}
	sr.fields = (&State{Version: v, Preset: cfg.preset}).fields()
	if err := sr.layout(!exact, what); err != nil {
		return nil, err
	}
	return sr, nil
}

// sszBody returns the fork of an SSZ body b, or the error of a b that
// does not describe one.
func sszBody(b Body) (Version, error) {
	if b.Encoding != EncodingSSZ {
		return 0, &nodeaccess.InputError{Arg: "Body.Encoding", Reason: fmt.Sprintf("%s: only an SSZ state is read in place (want EncodingSSZ)", b.Encoding)}
	}
	if b.Fork == "" {
		return 0, &nodeaccess.InputError{Arg: "Body.Fork", Reason: "empty: an SSZ body names no fork of its own"}
	}
	return ParseVersion(b.Fork)
}

// offsetWindow is how close offsets must lie to be read in one ReadAt.
const offsetWindow = 4 << 10

// layout reads the variable fields' offsets and sets start and end; with
// probe, it first checks that the input holds its size, which what says
// where it comes from.
func (sr *StateReader) layout(probe bool, what string) error {
	n := len(sr.fields)
	sr.start, sr.end = make([]int64, n), make([]int64, n)
	fixed := stateFixedSize(sr.fields)
	if sr.size > maxSSZSize {
		return &DecodeError{Format: "ssz", Offset: -1, Reason: fmt.Sprintf("a state of %d bytes is over the 4 GiB that SSZ offsets address", sr.size)}
	}
	if sr.size < fixed {
		return &DecodeError{Format: "ssz", Offset: sr.size,
			Reason: fmt.Sprintf("the input is truncated: its %d bytes end inside the fixed part of %s %s state with the %s preset, which is %d bytes (or it is a state of another fork or preset)",
				sr.size, article(sr.v), sr.v, presetName(sr.p), fixed)}
	}
	var vars []int // indices of the variable fields
	at := int64(0)
	for i := range sr.fields {
		sr.start[i] = at
		at += int64(sr.fields[i].fixedSize())
		sr.end[i] = at
		if sr.fields[i].variable() {
			vars = append(vars, i)
		}
	}
	// Read the offsets, those close together in one read.
	offs := make([]int64, len(vars))
	for k := 0; k < len(vars); {
		from := sr.start[vars[k]]
		j := k + 1
		for j < len(vars) && sr.start[vars[j]]+offsetSize-from <= offsetWindow {
			j++
		}
		buf := make([]byte, sr.start[vars[j-1]]+offsetSize-from)
		if probe {
			// First, that the input holds the size it was given.
			if err := holdsAt(sr.r, buf, sr.size, "ssz", "", what); err != nil {
				return err
			}
			probe = false
		}
		if err := sr.readAt(buf, from, sr.fields[vars[k]].name); err != nil {
			return err
		}
		for ; k < j; k++ {
			offs[k] = int64(le32(buf[sr.start[vars[k]]-from:]))
		}
	}
	for k, i := range vars {
		f, off, pos := &sr.fields[i], offs[k], sr.start[i]
		switch {
		case k == 0 && off != fixed:
			return ssz(f.name, pos, "offset %d: the first offset must be %d, the size of %s %s state's fixed part", off, fixed, article(sr.v), sr.v)
		case k > 0 && off < offs[k-1]:
			return ssz(f.name, pos, "offset %d is before the previous field's offset %d", off, offs[k-1])
		case off > sr.size:
			return ssz(f.name, pos, "offset %d is beyond the end of the input (%d bytes)", off, sr.size)
		}
	}
	for k, i := range vars {
		f := &sr.fields[i]
		sr.start[i], sr.end[i] = offs[k], sr.size
		if k+1 < len(vars) {
			sr.end[i] = offs[k+1]
		}
		if size := elemSize(f.ptr); size > 0 {
			scope := sr.end[i] - sr.start[i]
			if scope%int64(size) != 0 {
				return ssz(f.name, sr.start[i], "%d bytes is not a whole number of %d-byte elements", scope, size)
			}
			if uint64(scope/int64(size)) > f.n {
				return ssz(f.name, sr.start[i], "%d elements, over the list's limit of %d", scope/int64(size), f.n)
			}
		}
	}
	return nil
}

// ssz returns a *DecodeError of the SSZ state at byte off of field path.
func ssz(path string, off int64, format string, args ...any) error {
	return &DecodeError{Format: "ssz", Path: path, Offset: off, Reason: fmt.Sprintf(format, args...)}
}

// readAt fills b from the state's byte off, reading for field path. An
// input that ends before is a *DecodeError matching io.ErrUnexpectedEOF.
func (sr *StateReader) readAt(b []byte, off int64, path string) error {
	n, err := sr.r.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return &DecodeError{Format: "ssz", Path: path, Offset: off + int64(n), Reason: fmt.Sprintf("the input ends early (truncated): %d bytes, the state's size is %d", off+int64(n), sr.size), Err: io.ErrUnexpectedEOF}
	}
	return fmt.Errorf("beacon: ssz: reading the input at byte %d: %w", off+int64(n), err)
}

// field returns the index of the field named name.
func (sr *StateReader) field(name string) (int, error) {
	for i := range sr.fields {
		if sr.fields[i].name == name {
			return i, nil
		}
	}
	return 0, &nodeaccess.InputError{Arg: "name", Reason: fmt.Sprintf("%s is not a field of %s %s state", strconv.Quote(cutName(name)), article(sr.v), sr.v)}
}

// Len returns the number of elements of the list or vector field named
// name, as the consensus specs spell it ("validators",
// "pending_deposits", "block_roots"; a bitvector's bits), reading at most
// one offset. A name that is not a list or vector of the state's fork is
// a *nodeaccess.InputError.
func (sr *StateReader) Len(name string) (uint64, error) {
	i, err := sr.field(name)
	if err != nil {
		return 0, err
	}
	f := &sr.fields[i]
	if _, _, ok := fieldLen(f.ptr); !ok || !isCollection(f) {
		return 0, &nodeaccess.InputError{Arg: "name", Reason: strconv.Quote(name) + " is not a list or vector"}
	}
	if f.vector || !f.variable() {
		return f.n, nil
	}
	if size := elemSize(f.ptr); size > 0 {
		return uint64(sr.end[i]-sr.start[i]) / uint64(size), nil
	}
	// A list of variable-size elements (phase0's pending attestations):
	// its first offset says how many.
	scope := sr.end[i] - sr.start[i]
	if scope == 0 {
		return 0, nil
	}
	if scope < offsetSize {
		return 0, ssz(name, sr.start[i], "%d bytes, fewer than the first element's %d-byte offset", scope, offsetSize)
	}
	var b [offsetSize]byte
	if err := sr.readAt(b[:], sr.start[i], name); err != nil {
		return 0, err
	}
	first := int64(le32(b[:]))
	switch {
	case first%offsetSize != 0 || first == 0:
		return 0, ssz(name, sr.start[i], "first offset %d is not a positive multiple of %d", first, offsetSize)
	case first > scope:
		return 0, ssz(name, sr.start[i], "first offset %d is beyond the list's %d bytes", first, scope)
	case uint64(first/offsetSize) > f.n:
		return 0, ssz(name, sr.start[i], "%d elements, over the list's limit of %d", first/offsetSize, f.n)
	}
	return uint64(first / offsetSize), nil
}

// isCollection reports whether f is a list or a vector (not a container
// with one inside).
func isCollection(f *field) bool {
	switch f.ptr.(type) {
	case *SyncCommittee, *ExecutionPayloadHeader, *ExecutionPayloadBid:
		return false
	}
	return true
}

// Validators returns the validators from index from up to, not
// including, to, reading their 121 bytes each and nothing else (one
// validator: Validators(i, i+1)). A range beyond the registry's length
// (Len("validators")) or with from > to is a *nodeaccess.InputError; a
// validator whose slashed byte is not a boolean a *DecodeError.
func (sr *StateReader) Validators(from, to ValidatorIndex) ([]Validator, error) {
	return readRange(sr, "validators", from, to, sizeValidator, decValidatorElem)
}

// Balances returns the balances from validator index from up to, not
// including, to, reading their 8 bytes each and nothing else (one
// balance: Balances(i, i+1)). A range beyond the balances' length or with
// from > to is a *nodeaccess.InputError.
func (sr *StateReader) Balances(from, to ValidatorIndex) ([]Gwei, error) {
	return readRange(sr, "balances", from, to, 8, decU64s[Gwei])
}

// readRange reads elements [from, to) of the list field name, of size
// bytes each, through one bounded buffer.
func readRange[T any](sr *StateReader, name string, from, to ValidatorIndex, size int, dec elemDecoder[T]) ([]T, error) {
	i, err := sr.field(name)
	if err != nil {
		return nil, err
	}
	n := uint64(sr.end[i]-sr.start[i]) / uint64(size)
	if from > to || uint64(to) > n {
		return nil, &nodeaccess.InputError{Arg: "from, to", Reason: fmt.Sprintf("[%d, %d) is not a range of the %d %s", from, to, n, name)}
	}
	block := max(1, readBufSize/size)
	buf := make([]byte, min(uint64(to-from), uint64(block))*uint64(size))
	if uint64(to-from) > uint64(block) {
		// More than one read: the last byte is there (the input may have
		// been cut since it was opened) before the elements are allocated.
		end := sr.start[i] + int64(uint64(to)*uint64(size))
		if err := holdsAt(sr.r, buf, end, "ssz", fmt.Sprintf("%s[%d]", name, uint64(to)-1), "up to its end"); err != nil {
			return nil, err
		}
	}
	out := make([]T, to-from)
	for k := 0; k < len(out); k += block {
		m := min(block, len(out)-k)
		at := sr.start[i] + int64(uint64(from)+uint64(k))*int64(size)
		if err := sr.readAt(buf[:m*size], at, fmt.Sprintf("%s[%d]", name, uint64(from)+uint64(k))); err != nil {
			return nil, err
		}
		if j, why := dec(buf[:m*size], out[k:k+m]); why != "" {
			return nil, ssz(fmt.Sprintf("%s[%d]", name, uint64(from)+uint64(k+j)), at+int64(j*size), "%s", why)
		}
	}
	return out, nil
}

// Fields returns a State of the reader's fork and preset in which the
// fields named (as the consensus specs spell them: "slot",
// "finalized_checkpoint", "latest_execution_payload_header",
// "pending_deposits", …) are decoded, each from its own bytes only, and
// every other field is left empty: a view for reading, which WriteState
// and HashTreeRoot refuse unless every field is named. A name that is not
// a field of the fork is a *nodeaccess.InputError; bytes that are not a
// valid field a *DecodeError naming it, at its byte in the whole state.
func (sr *StateReader) Fields(names ...string) (*State, error) {
	s := &State{Version: sr.v, Preset: sr.p}
	fields := s.fields()
	for _, name := range names {
		i, err := sr.field(name)
		if err != nil {
			return nil, err
		}
		if err := sr.decodeField(&fields[i], sr.start[i], sr.end[i]); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// decodeField decodes f from the state's bytes [start, end) with the
// decoder of ReadState.
func (sr *StateReader) decodeField(f *field, start, end int64) error {
	if end-start > readBufSize {
		if err := holdsAt(sr.r, make([]byte, 1), end, "ssz", f.name, "up to its end"); err != nil {
			return err
		}
	}
	b := make([]byte, end-start)
	if err := sr.readAt(b, start, f.name); err != nil {
		return err
	}
	d := &decoder{r: sszReader{all: b, size: int64(len(b))}, sized: true, v: sr.v, p: sr.p}
	var err error
	if f.variable() {
		err = d.decodeVariable(f, int64(len(b)))
	} else {
		err = d.decodeFixed(f)
	}
	var de *DecodeError
	if errors.As(err, &de) && de.Offset >= 0 {
		de.Offset += start // the decoder counts from the field's first byte
	}
	if err == nil && d.r.pos != int64(len(b)) {
		err = ssz(f.name, start+d.r.pos, "the field ends at byte %d, its scope at %d", start+d.r.pos, end)
	}
	return err
}
