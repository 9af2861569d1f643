package beacon

import (
	"math/bits"
	"reflect"
	"runtime"

	"github.com/nodeaccess/nodeaccess/beacon/internal/swar"
)

// The decoders of the state's fields: one per type, and one generic list
// decoder with a tight loop that the large lists go through.

// field decodes the value of one of the state's fields.
func (d *jsonDecoder) field(s *State, f field) error {
	var err error
	// The per-validator lists are as long as the validator list when it
	// came first (it does in the spec's order): sized once.
	perValidator := len(s.Validators)
	switch p := f.ptr.(type) {
	case *uint64:
		*p, err = d.uint64v()
	case *Root:
		err = d.hexInto(p[:])
	case *Fork:
		err = d.fork(p)
	case *BeaconBlockHeader:
		err = d.blockHeader(p)
	case *Eth1Data:
		err = d.eth1Data(p)
	case *Checkpoint:
		err = d.checkpoint(p)
	case *uint8:
		err = d.justificationBits(p)
	case *SyncCommittee:
		err = d.syncCommittee(p, f.n)
	case *ExecutionPayloadHeader:
		err = d.payloadHeader(p, s.Version, f.n)
	case *[]Root:
		*p, err = decodeList(d, f, 0, (*jsonDecoder).root)
	case *[]Gwei:
		*p, err = decodeList(d, f, perValidator, (*jsonDecoder).gwei)
	case *[]ValidatorIndex:
		*p, err = decodeList(d, f, 0, (*jsonDecoder).validatorIndex)
	case *[]Eth1Data:
		*p, err = decodeList(d, f, 0, (*jsonDecoder).eth1Data)
	case *[]Validator:
		*p, err = decodeList(d, f, d.validatorCap(f.n), (*jsonDecoder).validator)
	case *[]PendingAttestation:
		*p, err = decodeList(d, f, 0, func(d *jsonDecoder, a *PendingAttestation) error {
			return d.pendingAttestation(a, f.bits)
		})
	case *[]uint8:
		*p, err = decodeList(d, f, perValidator, (*jsonDecoder).participation)
	case *[]uint64:
		*p, err = decodeList(d, f, perValidator, (*jsonDecoder).u64)
	case *[]HistoricalSummary:
		*p, err = decodeList(d, f, 0, (*jsonDecoder).historicalSummary)
	case *[]PendingDeposit:
		*p, err = decodeList(d, f, 0, (*jsonDecoder).pendingDeposit)
	case *[]PendingPartialWithdrawal:
		*p, err = decodeList(d, f, 0, (*jsonDecoder).pendingPartialWithdrawal)
	case *[]PendingConsolidation:
		*p, err = decodeList(d, f, 0, (*jsonDecoder).pendingConsolidation)
	default:
		err = d.gloasField(f)
	}
	return err
}

// minValidatorJSON is the fewest bytes a validator can take in JSON: every
// key is required, the keys and the hex values have fixed lengths, and
// each element is followed by a comma or the list's closing bracket.
var minValidatorJSON = int64(len(`{"pubkey":"0x","withdrawal_credentials":"0x","effective_balance":0,"slashed":true,`+
	`"activation_eligibility_epoch":0,"activation_epoch":0,"exit_epoch":0,"withdrawable_epoch":0},`) + 2*48 + 2*32)

// maxValidatorPrealloc caps the capacity the input's size can reserve for
// the validator list: 2^23 validators, 1 GiB (mainnet has ~2.2M), as the
// SSZ decoder's maxPreallocBytes (a quarter of that on 32-bit platforms).
// Only a size the reader told reserves anything (a Content-Length is a
// claim that sizes nothing), and the capacity takes at most 128 bytes for
// each of minValidatorJSON's (~335) that are left of it. A list longer
// than that still decodes, the rest in chunks.
const maxValidatorPrealloc = maxPreallocBytes / 128

// validatorCap is the capacity to give the validator list: when the input's
// size is known, an upper bound of the validators the rest of it can hold
// (so the list is allocated once); otherwise 0 (it grows in chunks).
func (d *jsonDecoder) validatorCap(limit uint64) int {
	if d.size < 0 {
		return 0
	}
	n := (d.size - d.offset()) / minValidatorJSON
	if n <= 0 {
		return 0
	}
	return int(min(uint64(n), limit, maxValidatorPrealloc))
}

// bigList collects a list's elements without copying large lists: it grows
// by doubling while small (up to minChunk elements, trimmed to its length
// at the end), then in chunks that double up to maxChunk elements, which
// finish copies once into one slice of the exact length. Given a capacity
// up front (init), it fills that first.
type bigList[T any] struct {
	cur    []T
	chunks [][]T
	n      int
	sized  bool // cur was allocated by init
}

const (
	minChunk = 1 << 10
	maxChunk = 1 << 16
)

// reclaimChunks is the size of an assembled list (in bytes) above which
// its chunks are collected at once (see finish).
const reclaimChunks = 8 << 20

func (b *bigList[T]) init(capacity int) {
	b.cur = make([]T, 0, capacity)
	b.sized = true
}

// next returns the next element, zero.
func (b *bigList[T]) next() *T {
	if len(b.cur) == cap(b.cur) {
		b.grow()
	}
	b.cur = b.cur[:len(b.cur)+1]
	b.n++
	return &b.cur[len(b.cur)-1]
}

func (b *bigList[T]) grow() {
	c := cap(b.cur)
	switch {
	case c == 0:
		b.cur = make([]T, 0, 16)
	case c < minChunk && !b.sized:
		nc := make([]T, len(b.cur), 2*c)
		copy(nc, b.cur)
		b.cur = nc
	default:
		b.chunks = append(b.chunks, b.cur)
		b.cur = make([]T, 0, min(max(2*c, minChunk), maxChunk))
	}
}

// finish returns the list (never nil).
func (b *bigList[T]) finish() []T {
	switch {
	case len(b.chunks) > 0:
		out := make([]T, b.n)
		k := 0
		for i, c := range b.chunks {
			k += copy(out[k:], c)
			b.chunks[i] = nil
		}
		copy(out[k:], b.cur)
		b.cur, b.chunks = nil, nil
		if uint64(b.n)*uint64(reflect.TypeFor[T]().Size()) >= reclaimChunks {
			// The chunks are as large as the list and now garbage; the
			// next GC would come only after the heap doubled again, so
			// the lists decoded next would pile on top of them. One
			// collection here keeps the peak near list + chunks. (It is
			// cheap: the lists hold no pointers, nothing to mark.)
			runtime.GC()
		}
		return out
	case b.cur == nil:
		return []T{}
	case !b.sized && len(b.cur) < cap(b.cur):
		return append([]T(nil), b.cur...)[:len(b.cur):len(b.cur)]
	case b.sized && uint64(cap(b.cur)) > 2*uint64(len(b.cur)):
		// The capacity given up front was more than twice what came:
		// the rest of the input held more than validators (long
		// unknown members, indentation). Keep an exact copy so the
		// State does not hold the excess.
		out := make([]T, len(b.cur))
		copy(out, b.cur)
		b.cur = nil
		return out
	}
	return b.cur
}

// decodeList decodes a JSON array into the vector or list f, giving it
// capacity capHint up front when positive.
func decodeList[T any](d *jsonDecoder, f field, capHint int, elem func(*jsonDecoder, *T) error) ([]T, error) {
	if err := d.expect('[', "'[' (a list)"); err != nil {
		return nil, err
	}
	var b bigList[T]
	switch {
	case f.vector:
		b.init(int(f.n))
	case capHint > 0:
		// Compared as uint64: f.n (a list limit, up to 2^40) does not
		// fit an int on 32-bit platforms.
		if uint64(capHint) > f.n {
			capHint = int(f.n)
		}
		b.init(capHint)
	}
	for first := true; ; first = false {
		more, err := d.more(first, ']')
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
		if uint64(b.n) >= f.n {
			if f.vector {
				return nil, d.errorf("more than the %d elements of the preset's vector", f.n)
			}
			return nil, d.errorf("more than the %d elements the preset allows", f.n)
		}
		if err := elem(d, b.next()); err != nil {
			return nil, atIndex(err, b.n-1)
		}
	}
	if f.vector && uint64(b.n) != f.n {
		return nil, d.errorf("%d elements, the preset's vector has %d", b.n, f.n)
	}
	return b.finish(), nil
}

// object decodes an object whose members are named in names (at most 64):
// fn decodes the value of names[i]. Only the names in allowed belong to
// this object (another is "not a field of" what, which names the object
// for that error), and each of them is required. Other keys are skipped.
func (d *jsonDecoder) object(what string, names []string, allowed uint64, fn func(i int) error) error {
	_, err := d.objectOf(what, names, allowed, allowed, nil, fn)
	return err
}

// objectOf is object with the required members apart from the allowed
// ones; it returns the members that came (a bit per name), and records
// the offset of each one's key in at when at is not nil.
func (d *jsonDecoder) objectOf(what string, names []string, allowed, required uint64, at []int64, fn func(i int) error) (uint64, error) {
	if err := d.expect('{', "'{' (an object)"); err != nil {
		return 0, err
	}
	var seen uint64
	for first := true; ; first = false {
		more, err := d.more(first, '}')
		if err != nil {
			return 0, err
		}
		if !more {
			break
		}
		off := d.offset()
		k, err := d.key()
		if err != nil {
			return 0, err
		}
		i := -1
		for j, n := range names {
			if string(k) == n {
				i = j
				break
			}
		}
		switch {
		case i < 0:
			err = d.skipValue(0)
		case allowed&(1<<i) == 0:
			return 0, &DecodeError{Format: "json", Path: names[i], Offset: off, Reason: "not a field of " + what + ": the version is wrong"}
		case seen&(1<<i) != 0:
			return 0, &DecodeError{Format: "json", Path: names[i], Offset: off, Reason: "given twice (a field may come once in " + what + ")"}
		default:
			if at != nil {
				at[i] = off
			}
			err = fn(i)
			seen |= 1 << i
		}
		if err != nil {
			if i >= 0 {
				return 0, inField(err, names[i])
			}
			return 0, err
		}
	}
	if missing := required &^ seen; missing != 0 {
		return 0, &DecodeError{Format: "json", Path: names[bits.TrailingZeros64(missing)], Offset: d.offset(), Reason: "missing field"}
	}
	return seen, nil
}

func (d *jsonDecoder) u64(p *uint64) (err error) {
	*p, err = d.uint64v()
	return err
}

func (d *jsonDecoder) root(r *Root) error                     { return d.hexInto(r[:]) }
func (d *jsonDecoder) pubkey(k *BLSPubKey) error              { return d.hexInto(k[:]) }
func (d *jsonDecoder) gwei(g *Gwei) error                     { return d.u64((*uint64)(g)) }
func (d *jsonDecoder) validatorIndex(i *ValidatorIndex) error { return d.u64((*uint64)(i)) }

func (d *jsonDecoder) participation(p *uint8) error {
	v, err := d.uint8v()
	*p = uint8(v)
	return err
}

var validatorNames = [8]string{"pubkey", "withdrawal_credentials", "effective_balance", "slashed",
	"activation_eligibility_epoch", "activation_epoch", "exit_epoch", "withdrawable_epoch"}

// validator decodes one validator: the hot loop of a state, with its keys
// matched in a switch rather than through object.
func (d *jsonDecoder) validator(v *Validator) error {
	d.fill(1024) // a compact validator is ~400 bytes: keep it contiguous
	if d.end-d.pos >= 512 && d.validatorFast(v) {
		return nil
	}
	if err := d.expect('{', "'{' (a validator)"); err != nil {
		return err
	}
	var seen uint8
	for first := true; ; first = false {
		more, err := d.more(first, '}')
		if err != nil {
			return err
		}
		if !more {
			break
		}
		keyOff := d.offset()
		k, err := d.key()
		if err != nil {
			return err
		}
		var bit uint8
		switch string(k) {
		case "pubkey":
			bit, err = 1<<0, d.hexInto(v.PublicKey[:])
		case "withdrawal_credentials":
			bit, err = 1<<1, d.hexInto(v.WithdrawalCredentials[:])
		case "effective_balance":
			bit, err = 1<<2, d.u64((*uint64)(&v.EffectiveBalance))
		case "slashed":
			bit = 1 << 3
			v.Slashed, err = d.boolv()
		case "activation_eligibility_epoch":
			bit, err = 1<<4, d.u64((*uint64)(&v.ActivationEligibilityEpoch))
		case "activation_epoch":
			bit, err = 1<<5, d.u64((*uint64)(&v.ActivationEpoch))
		case "exit_epoch":
			bit, err = 1<<6, d.u64((*uint64)(&v.ExitEpoch))
		case "withdrawable_epoch":
			bit, err = 1<<7, d.u64((*uint64)(&v.WithdrawableEpoch))
		default:
			err = d.skipValue(0)
		}
		if err != nil {
			if bit != 0 {
				return inField(err, validatorNames[bits.TrailingZeros8(bit)])
			}
			return err
		}
		if seen&bit != 0 {
			return &DecodeError{Format: "json", Path: validatorNames[bits.TrailingZeros8(bit)], Offset: keyOff, Reason: "given twice (a field may come once in a validator)"}
		}
		seen |= bit
	}
	if seen != 0xff {
		return &DecodeError{Format: "json", Path: validatorNames[bits.TrailingZeros8(^seen)], Offset: d.offset(), Reason: "missing field"}
	}
	return nil
}

// validatorFast decodes a validator written as beacon nodes write it:
// compact, its keys in the specs' order, integers quoted. It needs 512
// bytes in the buffer (more than such a validator can take) and consumes
// nothing when the input differs in any way: the general path then
// decodes it or reports the error.
func (d *jsonDecoder) validatorFast(v *Validator) bool {
	b := d.buf[d.pos:d.end]
	_ = b[511]
	const (
		k0 = `{"pubkey":"0x`
		k1 = `","withdrawal_credentials":"0x`
		k2 = `","effective_balance":`
		k3 = `,"slashed":`
		k4 = `,"activation_eligibility_epoch":`
		k5 = `,"activation_epoch":`
		k6 = `,"exit_epoch":`
		k7 = `,"withdrawable_epoch":`
	)
	i := len(k0)
	if string(b[:i]) != k0 || !swar.Hex(v.PublicKey[:], b[i:i+96]) {
		return false
	}
	i += 96
	if string(b[i:i+len(k1)]) != k1 {
		return false
	}
	i += len(k1)
	if !swar.Hex(v.WithdrawalCredentials[:], b[i:i+64]) {
		return false
	}
	i += 64
	if string(b[i:i+len(k2)]) != k2 {
		return false
	}
	i += len(k2)
	x, n, ok := swar.QuotedUint(b[i : i+32])
	if !ok {
		return false
	}
	v.EffectiveBalance = Gwei(x)
	i += n
	if string(b[i:i+len(k3)]) != k3 {
		return false
	}
	i += len(k3)
	switch {
	case string(b[i:i+5]) == "false":
		v.Slashed = false
		i += 5
	case string(b[i:i+4]) == "true":
		v.Slashed = true
		i += 4
	default:
		return false
	}
	for _, f := range [4]struct {
		k string
		p *Epoch
	}{{k4, &v.ActivationEligibilityEpoch}, {k5, &v.ActivationEpoch}, {k6, &v.ExitEpoch}, {k7, &v.WithdrawableEpoch}} {
		if string(b[i:i+len(f.k)]) != f.k {
			return false
		}
		i += len(f.k)
		x, n, ok := swar.QuotedUint(b[i : i+32])
		if !ok {
			return false
		}
		*f.p = Epoch(x)
		i += n
	}
	if b[i] != '}' {
		return false
	}
	d.pos += i + 1
	return true
}
