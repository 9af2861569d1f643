package beacon

import (
	"fmt"
	"io"
	"strings"

	"github.com/nodeaccess/nodeaccess/beacon/internal/progress"
)

// The SSZ decoder reads a state as it streams from its input: nothing
// reads the input whole into memory. The fixed part is read first, the
// variable fields' offsets are checked against it, and each list is then
// decoded straight into its final slice; the only scratch memory is one
// 64 KiB read buffer.
//
// The input must be exactly one state, strictly as the SSZ specification
// defines it: offsets in order and in range, lists within the preset's
// limits, vectors of the preset's length, booleans 0 or 1, bitlists with
// their length bit, no trailing bytes. Anything else is a *DecodeError
// naming the field and the byte offset; an input that ends early is a
// *DecodeError that also matches io.ErrUnexpectedEOF. An input whose known
// size is smaller than the fork's fixed part is reported as truncated
// before any of it is read, with both sizes and the field it ends in. It
// does not match io.ErrUnexpectedEOF: the input is whole as far as its size
// says, so fetching it again would not help. A failure of the reader itself
// is returned wrapped, not as a DecodeError.
//
// With the size known (a file, an in-memory reader: one that tells its
// size, which a Body's size must not exceed), every list is allocated once
// with its exact length, so a state costs its Go size (about 1.05 × the
// SSZ size) plus the read buffer, whatever the validator count. A list
// whose Go size is over 1 GiB (2^23 validators; 256 MiB on 32-bit
// platforms) is given that much at first and grows as its bytes arrive. A
// size that is only claimed (a server's Content-Length, a Body's size over
// a stream) and a length an offset claims are checked but not trusted:
// lists grow by doubling as their bytes arrive, to their exact length, so
// an input that claims more than it holds cannot make the decoder allocate
// more than a small multiple of what it holds.

// readSSZ decodes an SSZ state of fork v from r, whose size is size (-1:
// unknown), reporting progress to fn when set. known says that r told the
// size (inputSize): lists are then allocated once from it; a size that is
// only claimed checks offsets, and lists grow as their bytes arrive.
func readSSZ(r io.Reader, v Version, preset Preset, size int64, known bool, fn func(read, total int64)) (*State, error) {
	if fn != nil {
		pr := progress.New(r, fn, size)
		st, err := decodeSSZ(pr, v, preset, size, known)
		if err == nil {
			pr.Finish()
		}
		return st, err
	}
	return decodeSSZ(r, v, preset, size, known)
}

// decodeSSZ is readSSZ without progress.
func decodeSSZ(r io.Reader, v Version, preset Preset, size int64, known bool) (*State, error) {
	n := readBufSize
	if size >= 0 && size < int64(n) {
		n = max(int(size)+1, 4096) // +1: room to see a trailing byte
	}
	d := &decoder{r: sszReader{src: r, buf: make([]byte, n), size: size}, sized: known}
	return d.decode(v, preset)
}

// unmarshalSSZ decodes an SSZ state of fork v from b, with the rules of
// readSSZ. Every list is allocated once with its exact length, and the
// validator registry is decoded on all cores; b is not retained and not
// copied (only the decoded values are).
func unmarshalSSZ(b []byte, v Version, preset Preset) (*State, error) {
	d := &decoder{r: sszReader{all: b, size: int64(len(b))}, sized: true}
	return d.decode(v, preset)
}

// decoder decodes one state from an sszReader.
type decoder struct {
	r sszReader
	v Version
	p Preset
	// sized is true when the input told its size (r.size holds): every
	// length has then been checked against it and can be allocated
	// exactly. A size that is only claimed (r.size without sized) checks
	// the offsets, and lists grow as their bytes arrive.
	sized bool
	// maxPrealloc is the most bytes a list is given before its bytes
	// arrive; 0 means maxPreallocBytes (tests set less).
	maxPrealloc uint64
	// list, when set, may take over a variable field: it reads the
	// field's scope bytes itself and reports whether it did (ReadProver
	// hashes the lists as they stream instead of decoding them).
	list func(d *decoder, f *field, scope int64) (bool, error)
}

// fail returns a *DecodeError for path at byte off.
func (d *decoder) fail(path string, off int64, format string, args ...any) error {
	return &DecodeError{Format: "ssz", Path: path, Offset: off, Reason: fmt.Sprintf(format, args...)}
}

// read returns the next n bytes (n <= readBufSize), naming path in a
// truncation error.
func (d *decoder) read(path string, n int) ([]byte, error) {
	b, err := d.r.next(n)
	if err != nil {
		return nil, d.readErr(path, err)
	}
	return b, nil
}

// readErr maps an sszReader error: truncation becomes a *DecodeError that
// wraps io.ErrUnexpectedEOF; a source failure is returned as it is.
func (d *decoder) readErr(path string, err error) error {
	if err == errTruncated {
		return &DecodeError{Format: "ssz", Path: path, Offset: d.r.pos, Reason: "the input ends early (truncated)", Err: io.ErrUnexpectedEOF}
	}
	return err
}

// varField is a variable-size field's offset, as read from the fixed part.
type varField struct {
	f   *field
	off int64 // the offset's value
	at  int64 // where the offset was read
}

func (d *decoder) decode(v Version, p Preset) (*State, error) {
	if !v.isKnown() {
		return nil, unsupportedVersion(v.String())
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	d.v, d.p = v, p
	s := &State{Version: v, Preset: p}
	fields := s.fields()
	fixed := stateFixedSize(fields)
	if d.r.size >= 0 && d.r.size < fixed {
		// The whole input is known to be this short: it ends inside
		// the fixed part, in the field named. (A state of another fork
		// or preset can look the same; the reason says so.) It does
		// not match io.ErrUnexpectedEOF, which says that the input broke
		// off before its known size and invites another attempt:
		// fetching this input again would bring the same bytes.
		path, at := "", int64(0)
		for i := range fields {
			if at += int64(fields[i].fixedSize()); at > d.r.size {
				path = fields[i].name
				break
			}
		}
		return nil, &DecodeError{Format: "ssz", Path: path, Offset: d.r.size,
			Reason: fmt.Sprintf("the input is truncated: its %d bytes (its whole size) end inside the fixed part of %s %s state with the %s preset, which is %d bytes (or it is a state of another fork or preset)",
				d.r.size, article(v), v, presetName(p), fixed)}
	}

	var vars [16]varField
	nv := 0
	for i := range fields {
		f := &fields[i]
		if !f.variable() {
			if err := d.decodeFixed(f); err != nil {
				return nil, err
			}
			continue
		}
		at := d.r.pos
		b, err := d.read(f.name, offsetSize)
		if err != nil {
			return nil, err
		}
		vars[nv] = varField{f: f, off: int64(le32(b)), at: at}
		nv++
	}

	for k := range nv {
		vf := &vars[k]
		switch {
		case k == 0 && vf.off != fixed:
			return nil, d.fail(vf.f.name, vf.at, "offset %d: the first offset must be %d, the size of %s %s state's fixed part", vf.off, fixed, article(v), v)
		case k > 0 && vf.off < vars[k-1].off:
			return nil, d.fail(vf.f.name, vf.at, "offset %d is before the previous field's offset %d", vf.off, vars[k-1].off)
		case d.r.size >= 0 && vf.off > d.r.size:
			return nil, d.fail(vf.f.name, vf.at, "offset %d is beyond the end of the input (%d bytes)", vf.off, d.r.size)
		}
	}

	for k := range nv {
		end := d.r.size
		if k+1 < nv {
			end = vars[k+1].off
		}
		scope := int64(-1)
		if end >= 0 {
			scope = end - d.r.pos
		}
		if err := d.variable(vars[k].f, scope); err != nil {
			return nil, err
		}
		if end >= 0 && d.r.pos != end {
			return nil, d.fail(vars[k].f.name, d.r.pos, "the field ends at byte %d, its scope at %d", d.r.pos, end)
		}
	}

	if d.r.size >= 0 {
		eof, err := d.r.atEOF()
		if err != nil {
			return nil, err
		}
		if !eof {
			return nil, d.fail("", d.r.pos, "trailing bytes after the state (the input is longer than its size hint of %d bytes)", d.r.size)
		}
	}
	if d.r.pos > maxSSZSize {
		return nil, d.fail("", d.r.pos, "the input exceeds the 4 GiB that SSZ offsets address")
	}
	return s, nil
}

// article is the indefinite article before v's name: "an altair state",
// "a fulu state".
func article(v Version) string { return articleFor(v.String()) }

// articleFor is the indefinite article before a fork's name. Every fork
// name so far (phase0 to fulu, gloas, heze) is read as it is spelt, so a
// name that starts with a vowel takes "an".
func articleFor(name string) string {
	if name != "" && strings.IndexByte("aeiouAEIOU", name[0]) >= 0 {
		return "an"
	}
	return "a"
}

// presetName names p in an error: its Name, or "custom" when it has none.
func presetName(p Preset) string {
	if p.Name == "" {
		return "custom"
	}
	return p.Name
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// decodeFixed decodes a fixed-size field of the state's fixed part.
func (d *decoder) decodeFixed(f *field) error {
	name := f.name
	var err error
	switch p := f.ptr.(type) {
	case *uint64:
		var b []byte
		if b, err = d.read(name, 8); err == nil {
			*p = le64(b)
		}
	case *Root:
		var b []byte
		if b, err = d.read(name, 32); err == nil {
			copy(p[:], b)
		}
	case *Fork:
		var b []byte
		if b, err = d.read(name, sizeFork); err == nil {
			decFork(b, p)
		}
	case *BeaconBlockHeader:
		var b []byte
		if b, err = d.read(name, sizeBlockHeader); err == nil {
			decBlockHeader(b, p)
		}
	case *Eth1Data:
		var b []byte
		if b, err = d.read(name, sizeEth1Data); err == nil {
			decEth1Data(b, p)
		}
	case *Checkpoint:
		var b []byte
		if b, err = d.read(name, sizeCheckpoint); err == nil {
			decCheckpoint(b, p)
		}
	case *uint8:
		var b []byte
		if b, err = d.read(name, 1); err == nil {
			if b[0] > 0x0f {
				return d.fail(name, d.r.pos-1, "%#x sets bits beyond the 4 of a Bitvector[4]", b[0])
			}
			*p = uint8(b[0])
		}
	case *SyncCommittee:
		p.PublicKeys, err = decodeElems(d, name+".pubkeys", int64(f.n), f.n, sizePubKey, decPubKey)
		if err == nil {
			var b []byte
			if b, err = d.read(name+".aggregate_pubkey", sizePubKey); err == nil {
				copy(p.AggregatePublicKey[:], b)
			}
		}
	case *[]Root:
		*p, err = decodeElems(d, name, int64(f.n), f.n, 32, decRoot)
	case *[]Gwei:
		*p, err = decodeElems(d, name, int64(f.n), f.n, 8, decU64s[Gwei])
	case *[]ValidatorIndex:
		*p, err = decodeElems(d, name, int64(f.n), f.n, 8, decU64s[ValidatorIndex])
	default:
		return d.decodeGloasFixed(f)
	}
	return err
}

// decodeVariable decodes a variable field whose bytes are the next scope
// bytes of the input (scope < 0: up to the end of the input).
func (d *decoder) decodeVariable(f *field, scope int64) error {
	name := f.name
	if p, ok := f.ptr.(*ExecutionPayloadHeader); ok {
		return d.decodeHeader(name, p, scope, f.n)
	}
	if p, ok := f.ptr.(*ExecutionPayloadBid); ok {
		return d.decodeBid(name, p, scope, f.n)
	}
	if p, ok := f.ptr.(*[]PendingAttestation); ok {
		var err error
		*p, err = d.decodeAttestations(name, scope, f.n, f.bits)
		return err
	}
	size := elemSize(f.ptr)
	count := int64(-1)
	if scope >= 0 {
		if scope%int64(size) != 0 {
			return d.fail(name, d.r.pos, "%d bytes is not a whole number of %d-byte elements", scope, size)
		}
		count = scope / int64(size)
		if uint64(count) > f.n {
			return d.fail(name, d.r.pos, "%d elements, over the list's limit of %d", count, f.n)
		}
	}
	var err error
	switch p := f.ptr.(type) {
	case *[]Root:
		*p, err = decodeElems(d, name, count, f.n, size, decRoot)
	case *[]Gwei:
		*p, err = decodeElems(d, name, count, f.n, size, decU64s[Gwei])
	case *[]ValidatorIndex:
		*p, err = decodeElems(d, name, count, f.n, size, decU64s[ValidatorIndex])
	case *[]uint64:
		*p, err = decodeElems(d, name, count, f.n, size, decU64s[uint64])
	case *[]Eth1Data:
		*p, err = decodeElems(d, name, count, f.n, size, decEth1DataElem)
	case *[]Validator:
		*p, err = decodeElems(d, name, count, f.n, size, decValidatorElem)
	case *[]uint8:
		*p, err = decodeElems(d, name, count, f.n, size, decParticipation)
	case *[]HistoricalSummary:
		*p, err = decodeElems(d, name, count, f.n, size, decHistoricalSummaryElem)
	case *[]PendingDeposit:
		*p, err = decodeElems(d, name, count, f.n, size, decPendingDepositElem)
	case *[]PendingPartialWithdrawal:
		*p, err = decodeElems(d, name, count, f.n, size, decPendingPartialWithdrawalElem)
	case *[]PendingConsolidation:
		*p, err = decodeElems(d, name, count, f.n, size, decPendingConsolidationElem)
	default:
		return d.decodeGloasList(f, count, size)
	}
	return err
}

// readToEnd returns the rest of the input (at most max bytes, else an
// error naming path), for the last field of an input of unknown size.
func (d *decoder) readToEnd(path string, max int) ([]byte, error) {
	out := []byte{}
	for {
		eof, err := d.r.atEOF()
		if err != nil {
			return nil, err
		}
		if eof {
			return out, nil
		}
		if len(out) == max {
			return nil, d.fail(path, d.r.pos, "more than %d bytes, over the limit", max)
		}
		k := min(d.r.buffered(), max-len(out))
		b, err := d.read(path, k)
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
}
