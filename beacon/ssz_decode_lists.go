package beacon

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"unsafe"
)

// stepBytes bounds what the decoder allocates for a collection before its
// bytes have arrived, when the input's size is unknown: a list starts with
// room for this many bytes' worth of elements and doubles as it fills.
const stepBytes = 64 << 10

// elemDecoder decodes len(dst) consecutive elements from b (each
// len(b)/len(dst) bytes) into dst. It returns -1 and "", or the index of the
// first bad element and what is wrong with it. Decoding a block per call,
// with the element decoded inline in the loop, keeps the big lists
// (validators, balances, participation, inactivity scores) at memory speed.
type elemDecoder[T any] func(b []byte, dst []T) (int, string)

func decRoot(b []byte, dst []Root) (int, string) {
	for j := range dst {
		dst[j] = Root(b[j*32 : j*32+32])
	}
	return -1, ""
}

func decPubKey(b []byte, dst []BLSPubKey) (int, string) {
	for j := range dst {
		dst[j] = BLSPubKey(b[j*48 : j*48+48])
	}
	return -1, ""
}

// decU64s decodes little-endian uint64s into any uint64-based type.
func decU64s[T ~uint64](b []byte, dst []T) (int, string) {
	b = b[:len(dst)*8]
	for j := range dst {
		dst[j] = T(le64(b[j*8:]))
	}
	return -1, ""
}

func decParticipation(b []byte, dst []uint8) (int, string) {
	b = b[:len(dst)]
	for j := range dst {
		dst[j] = uint8(b[j])
	}
	return -1, ""
}

func decEth1DataElem(b []byte, dst []Eth1Data) (int, string) {
	for j := range dst {
		decEth1Data(b[j*sizeEth1Data:], &dst[j])
	}
	return -1, ""
}

func decHistoricalSummaryElem(b []byte, dst []HistoricalSummary) (int, string) {
	for j := range dst {
		decHistoricalSummary(b[j*64:], &dst[j])
	}
	return -1, ""
}

func decPendingDepositElem(b []byte, dst []PendingDeposit) (int, string) {
	for j := range dst {
		decPendingDeposit(b[j*sizePendingDeposit:], &dst[j])
	}
	return -1, ""
}

func decPendingPartialWithdrawalElem(b []byte, dst []PendingPartialWithdrawal) (int, string) {
	for j := range dst {
		decPendingPartialWithdrawal(b[j*24:], &dst[j])
	}
	return -1, ""
}

func decPendingConsolidationElem(b []byte, dst []PendingConsolidation) (int, string) {
	for j := range dst {
		decPendingConsolidation(b[j*16:], &dst[j])
	}
	return -1, ""
}

func decValidatorElem(b []byte, dst []Validator) (int, string) {
	b = b[:len(dst)*sizeValidator]
	for j := range dst {
		e := b[j*sizeValidator : j*sizeValidator+sizeValidator]
		if e[88] > 1 {
			return j, fmt.Sprintf("slashed: %#x is not a boolean (0 or 1)", e[88])
		}
		decValidator(e, &dst[j])
	}
	return -1, ""
}

// maxPreallocBytes caps the Go memory a list is given before its bytes
// arrive, even with the input's size known: 1 GiB (2^23 validators, as the
// JSON decoder's maxValidatorPrealloc; mainnet's ~2.2M take ~275 MB), 256
// MiB on 32-bit platforms, so that one allocation stays within what a
// platform gives at once. A longer list still decodes: it grows by
// doubling as its bytes arrive, to its exact length. (A size that is only
// claimed is given nothing before its bytes arrive: see decodeElems.)
const maxPreallocBytes = min(1<<30, math.MaxInt/8+1)

// goSize is the size of a T in memory.
func goSize[T any]() uint64 {
	var z T
	return uint64(unsafe.Sizeof(z))
}

// decodeElems decodes count elements of size bytes each into a new slice
// (count < 0: elements up to the end of the input, at most limit). With
// the input's size known (d.sized) the slice is allocated once, exactly
// (up to maxPreallocBytes before the bytes arrive); otherwise count is only
// a claim, and the slice starts at stepBytes' worth and doubles as the
// bytes arrive. A list whose bytes, in
// the input or in memory, would not fit an int (on 32-bit platforms) is a
// *DecodeError.
func decodeElems[T any](d *decoder, path string, count int64, limit uint64, size int, dec elemDecoder[T]) ([]T, error) {
	esz := goSize[T]()
	// maxElems is the most elements whose bytes fit an int, in the
	// input and in memory.
	maxElems := uint64(math.MaxInt) / max(esz, uint64(size))
	if count >= 0 && uint64(count) > maxElems {
		return nil, d.fail(path, d.r.pos, "%d elements (%d bytes in memory) are more than this platform can hold (at most %d)", count, uint64(count)*esz, maxElems)
	}
	if d.r.src == nil && count >= 0 && count*int64(size) >= parallelMinBytes {
		return decodeInMemory(d, path, int(count), size, dec)
	}
	block := readBufSize / size
	maxPrealloc := uint64(maxPreallocBytes)
	if d.maxPrealloc > 0 {
		maxPrealloc = d.maxPrealloc
	}
	prealloc := int64(max(1, min(maxPrealloc/esz, maxElems)))
	var s []T
	switch {
	case count >= 0 && (d.sized || count*int64(size) <= stepBytes):
		s = make([]T, 0, min(count, prealloc))
	case count >= 0:
		s = make([]T, 0, stepBytes/size)
	default:
		s = make([]T, 0, min(uint64(stepBytes/size), limit))
	}
	// want is the number of elements to decode (count < 0: the most
	// there may be); count fits an int, as checked above.
	want := int(count)
	if count < 0 {
		want = int(min(limit, uint64(maxSSZSize)/uint64(size), maxElems))
	}
	for {
		var k int
		if count >= 0 {
			k = min(want-len(s), block)
			if k == 0 {
				return s, nil
			}
		} else {
			eof, err := d.r.atEOF()
			if err != nil {
				return nil, err
			}
			if eof {
				return s, nil
			}
			if len(s) >= want {
				if uint64(want) < limit {
					return nil, d.fail(path, d.r.pos, "more than %d elements, more than an SSZ input or this platform can hold", want)
				}
				return nil, d.fail(path, d.r.pos, "more than %d elements, over the list's limit", limit)
			}
			k = max(1, min(d.r.buffered()/size, block, want-len(s)))
		}
		start := d.r.pos
		b, err := d.r.next(k * size)
		if err != nil {
			return nil, d.readErr(fmt.Sprintf("%s[%d]", path, len(s)), err)
		}
		if len(s)+k > cap(s) {
			s = growSlice(s, want, len(s)+k)
		}
		base := len(s)
		s = s[:base+k]
		if j, why := dec(b[:k*size], s[base:base+k]); why != "" {
			return nil, d.fail(fmt.Sprintf("%s[%d]", path, base+j), start+int64(j*size), "%s", why)
		}
	}
}

// parallelMinBytes is the size from which a list held in memory
// (UnmarshalSSZ) is decoded by several goroutines.
const parallelMinBytes = 4 << 20

// decodeInMemory decodes count elements from the in-memory input at once,
// split across GOMAXPROCS goroutines: the validator registry is a quarter of
// a gigabyte whose pages are first touched here, and two cores fault and
// copy it faster than one. The first bad element (lowest index) is
// reported, as the sequential path would.
func decodeInMemory[T any](d *decoder, path string, count, size int, dec elemDecoder[T]) ([]T, error) {
	start := d.r.pos
	b, err := d.r.next(count * size)
	if err != nil {
		return nil, d.readErr(path, err)
	}
	s := make([]T, count)
	parts := min(runtime.GOMAXPROCS(0), max(1, count*size/parallelMinBytes))
	bad := make([]int, parts)
	why := make([]string, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := count*p/parts, count*(p+1)/parts
		run := func() {
			j, w := dec(b[lo*size:hi*size], s[lo:hi])
			bad[p], why[p] = lo+j, w
		}
		if p == parts-1 {
			run()
			continue
		}
		wg.Go(run)
	}
	wg.Wait()
	for p := range parts {
		if why[p] != "" {
			return nil, d.fail(fmt.Sprintf("%s[%d]", path, bad[p]), start+int64(bad[p]*size), "%s", why[p])
		}
	}
	return s, nil
}

// growSlice returns s with room for at least need elements: double its
// capacity, but never beyond want.
func growSlice[T any](s []T, want, need int) []T {
	c := min(max(2*cap(s), need), want)
	c = max(c, need)
	ns := make([]T, len(s), c)
	copy(ns, s)
	return ns
}

// decodeHeader decodes the latest execution payload header (scope bytes,
// or up to the end of the input when scope < 0).
func (d *decoder) decodeHeader(path string, h *ExecutionPayloadHeader, scope int64, maxExtra uint64) error {
	fixed := headerFixedSize(d.v)
	start := d.r.pos
	if scope >= 0 && scope < int64(fixed) {
		return d.fail(path, start, "%d bytes, fewer than the header's fixed %d", scope, fixed)
	}
	b, err := d.read(path, fixed)
	if err != nil {
		return err
	}
	copy(h.ParentHash[:], b[0:32])
	copy(h.FeeRecipient[:], b[32:52])
	copy(h.StateRoot[:], b[52:84])
	copy(h.ReceiptsRoot[:], b[84:116])
	copy(h.LogsBloom[:], b[116:372])
	copy(h.PrevRandao[:], b[372:404])
	h.BlockNumber = le64(b[404:])
	h.GasLimit = le64(b[412:])
	h.GasUsed = le64(b[420:])
	h.Timestamp = le64(b[428:])
	if off := le32(b[436:]); off != uint32(fixed) {
		return d.fail(path+".extra_data", start+436, "offset %d, want %d (the header's fixed size)", off, fixed)
	}
	h.BaseFeePerGas = [4]uint64{le64(b[440:]), le64(b[448:]), le64(b[456:]), le64(b[464:])}
	copy(h.BlockHash[:], b[472:504])
	copy(h.TransactionsRoot[:], b[504:536])
	if d.v >= Capella {
		copy(h.WithdrawalsRoot[:], b[536:568])
	}
	if d.v >= Deneb {
		h.BlobGasUsed = le64(b[568:])
		h.ExcessBlobGas = le64(b[576:])
	}
	if scope < 0 {
		h.ExtraData, err = d.readToEnd(path+".extra_data", int(maxExtra))
		return err
	}
	n := scope - int64(fixed)
	if uint64(n) > maxExtra {
		return d.fail(path+".extra_data", d.r.pos, "%d bytes, over MAX_EXTRA_DATA_BYTES (%d)", n, maxExtra)
	}
	if b, err = d.read(path+".extra_data", int(n)); err != nil {
		return err
	}
	h.ExtraData = append([]byte{}, b...)
	return nil
}

// decodeAttestations decodes a phase0 list of pending attestations: a
// list of variable-size elements, so it starts with their offsets.
func (d *decoder) decodeAttestations(path string, scope int64, limit, bitsLimit uint64) ([]PendingAttestation, error) {
	start := d.r.pos
	if scope < 0 {
		eof, err := d.r.atEOF()
		if err != nil {
			return nil, err
		}
		if eof {
			scope = 0
		}
	}
	if scope == 0 {
		return []PendingAttestation{}, nil
	}
	if scope > 0 && scope < offsetSize {
		// A whole input, malformed: not a truncation.
		return nil, d.fail(path, start, "%d bytes, fewer than the first element's %d-byte offset", scope, offsetSize)
	}
	b, err := d.read(path, offsetSize)
	if err != nil {
		return nil, err
	}
	first := int64(le32(b))
	switch {
	case first%offsetSize != 0 || first == 0:
		return nil, d.fail(path, start, "first offset %d is not a positive multiple of %d", first, offsetSize)
	case scope >= 0 && first > scope:
		return nil, d.fail(path, start, "first offset %d is beyond the list's %d bytes", first, scope)
	case uint64(first/offsetSize) > limit:
		return nil, d.fail(path, start, "%d elements, over the list's limit of %d", first/offsetSize, limit)
	}
	count := int(first / offsetSize) // at most 2^30: fits an int
	// The offsets grow as they are read: a first offset is only a claim.
	offs := make([]int64, 1, min(count, 1024)+1)
	offs[0] = first
	for j := 1; j < count; j++ {
		at := d.r.pos
		if b, err = d.read(path, offsetSize); err != nil {
			return nil, err
		}
		o := int64(le32(b))
		if o < offs[j-1] || (scope >= 0 && o > scope) {
			return nil, d.fail(fmt.Sprintf("%s[%d]", path, j), at, "offset %d is out of order or beyond the list's %d bytes", o, scope)
		}
		offs = append(offs, o)
	}
	offs = append(offs, scope)
	maxBits := int(bitsLimit/8) + 1 // the longest valid bitlist, in bytes
	out := make([]PendingAttestation, 0, min(count, 64))
	if d.sized {
		// All the offsets have arrived: count is backed by 4 bytes each.
		out = make([]PendingAttestation, 0, count)
	}
	for j := range count {
		ep := fmt.Sprintf("%s[%d]", path, j)
		es := d.r.pos
		n := int64(-1)
		if j+1 < count || scope >= 0 {
			n = offs[j+1] - offs[j]
			if n < sizePendingAttFixed+1 {
				return nil, d.fail(ep, es, "%d bytes, fewer than the %d of the smallest pending attestation", n, sizePendingAttFixed+1)
			}
		}
		if b, err = d.read(ep, sizePendingAttFixed); err != nil {
			return nil, err
		}
		if off := le32(b); off != sizePendingAttFixed {
			return nil, d.fail(ep+".aggregation_bits", es, "offset %d, want %d", off, sizePendingAttFixed)
		}
		var a PendingAttestation
		decAttestationData(b[4:], &a.Data)
		a.InclusionDelay = Slot(le64(b[132:]))
		a.ProposerIndex = ValidatorIndex(le64(b[140:]))
		bp := ep + ".aggregation_bits"
		if n < 0 {
			if a.AggregationBits, err = d.readToEnd(bp, maxBits); err != nil {
				return nil, err
			}
		} else {
			bn := n - sizePendingAttFixed
			if bn > int64(maxBits) {
				return nil, d.fail(bp, d.r.pos, "%d bytes, longer than a bitlist of at most %d bits", bn, bitsLimit)
			}
			if b, err = d.read(bp, int(bn)); err != nil {
				return nil, err
			}
			a.AggregationBits = append(Bitlist{}, b...)
		}
		if err := a.AggregationBits.check(bitsLimit); err != nil {
			return nil, d.fail(bp, es+sizePendingAttFixed, "%v", err)
		}
		out = append(out, a)
	}
	return out, nil
}
