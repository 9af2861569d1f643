package beacon

import (
	"encoding/binary"
	"fmt"
)

// The SSZ forms of the gloas types (gloasSpec). A progressive container
// serializes as a container of its fields, so the bid's layout is a plain
// container's: its fixed part, with blob_kzg_commitments as an offset, then
// the commitments.

// The SSZ sizes of the gloas types, in bytes.
const (
	sizeBuilder       = 93  // 48 + 1 + 20 + 3*8
	sizeBuilderWd     = 36  // 20 + 8 + 8
	sizeBuilderPay    = 52  // 8 + 36 + 8
	sizeWithdrawal    = 44  // 8 + 8 + 20 + 8
	sizeBidFixed      = 224 // 4*32 + 20 + 5*8 + offset + 32
	sizeKZG           = 48
	bidCommitmentsOff = 188 // where the bid's blob_kzg_commitments offset sits
)

// gloasVariable reports whether a gloas field is variable-size.
func gloasVariable(f *field) bool {
	switch f.ptr.(type) {
	case *ExecutionPayloadBid:
		return true
	case *[]Builder, *[]BuilderPendingWithdrawal, *[]Withdrawal, *[]BuilderPendingPayment:
		return !f.vector
	}
	return false
}

// gloasElemSize is elemSize for the gloas collections.
func gloasElemSize(ptr any) int {
	switch ptr.(type) {
	case *[]Builder:
		return sizeBuilder
	case *[]BuilderPendingWithdrawal:
		return sizeBuilderWd
	case *[]BuilderPendingPayment:
		return sizeBuilderPay
	case *[]Withdrawal:
		return sizeWithdrawal
	}
	return 0
}

// gloasFixedSize is fixedSize for the gloas vectors whose size is not
// elemSize * n: the bitvector and the vector of vectors.
func gloasFixedSize(f *field) (int, bool) {
	switch f.ptr.(type) {
	case *bitvector:
		return int((f.n + 7) / 8), true
	case *[][]ValidatorIndex:
		return int(f.n * f.bits * 8), true
	}
	return 0, false
}

// gloasSliceLen is sliceLen for the gloas lists.
func gloasSliceLen(ptr any) int {
	switch p := ptr.(type) {
	case *[]Builder:
		return len(*p)
	case *[]BuilderPendingWithdrawal:
		return len(*p)
	case *[]BuilderPendingPayment:
		return len(*p)
	case *[]Withdrawal:
		return len(*p)
	}
	return 0
}

func decBuilderElem(b []byte, dst []Builder) (int, string) {
	for j := range dst {
		e := b[j*sizeBuilder : (j+1)*sizeBuilder]
		x := &dst[j]
		x.PublicKey = BLSPubKey(e[0:48])
		x.Version = e[48]
		copy(x.ExecutionAddress[:], e[49:69])
		x.Balance = Gwei(le64(e[69:]))
		x.DepositEpoch = Epoch(le64(e[77:]))
		x.WithdrawableEpoch = Epoch(le64(e[85:]))
	}
	return -1, ""
}

func encBuilder(e []byte, x *Builder) {
	copy(e[0:48], x.PublicKey[:])
	e[48] = x.Version
	copy(e[49:69], x.ExecutionAddress[:])
	put64(e[69:], uint64(x.Balance))
	put64(e[77:], uint64(x.DepositEpoch))
	put64(e[85:], uint64(x.WithdrawableEpoch))
}

func decBuilderWd(e []byte, w *BuilderPendingWithdrawal) {
	copy(w.FeeRecipient[:], e[0:20])
	w.Amount = Gwei(le64(e[20:]))
	w.BuilderIndex = BuilderIndex(le64(e[28:]))
}

func encBuilderWd(e []byte, w *BuilderPendingWithdrawal) {
	copy(e[0:20], w.FeeRecipient[:])
	put64(e[20:], uint64(w.Amount))
	put64(e[28:], uint64(w.BuilderIndex))
}

func decBuilderWdElem(b []byte, dst []BuilderPendingWithdrawal) (int, string) {
	for j := range dst {
		decBuilderWd(b[j*sizeBuilderWd:], &dst[j])
	}
	return -1, ""
}

func decBuilderPayElem(b []byte, dst []BuilderPendingPayment) (int, string) {
	for j := range dst {
		e := b[j*sizeBuilderPay:]
		dst[j].Weight = Gwei(le64(e))
		decBuilderWd(e[8:], &dst[j].Withdrawal)
		dst[j].ProposerIndex = ValidatorIndex(le64(e[44:]))
	}
	return -1, ""
}

func encBuilderPay(e []byte, p *BuilderPendingPayment) {
	put64(e, uint64(p.Weight))
	encBuilderWd(e[8:], &p.Withdrawal)
	put64(e[44:], uint64(p.ProposerIndex))
}

func decWithdrawalElem(b []byte, dst []Withdrawal) (int, string) {
	for j := range dst {
		e := b[j*sizeWithdrawal:]
		dst[j].Index = le64(e)
		dst[j].ValidatorIndex = ValidatorIndex(le64(e[8:]))
		copy(dst[j].Address[:], e[16:36])
		dst[j].Amount = Gwei(le64(e[36:]))
	}
	return -1, ""
}

func encWithdrawal(e []byte, w *Withdrawal) {
	put64(e, w.Index)
	put64(e[8:], uint64(w.ValidatorIndex))
	copy(e[16:36], w.Address[:])
	put64(e[36:], uint64(w.Amount))
}

func decKZG(b []byte, dst []KZGCommitment) (int, string) {
	for j := range dst {
		dst[j] = KZGCommitment(b[j*sizeKZG : (j+1)*sizeKZG])
	}
	return -1, ""
}

func encKZG(b []byte, k *KZGCommitment) { copy(b, k[:]) }

// decodeGloasFixed decodes a fixed-size gloas field.
func (d *decoder) decodeGloasFixed(f *field) error {
	name := f.name
	var err error
	switch p := f.ptr.(type) {
	case *bitvector:
		size, _ := gloasFixedSize(f)
		var b []byte
		if b, err = d.read(name, size); err != nil {
			return err
		}
		if r := f.n % 8; r != 0 && b[size-1]>>r != 0 {
			return d.fail(name, d.r.pos-1, "%#x sets bits beyond the %d of the Bitvector", b[size-1], f.n)
		}
		*p = append(bitvector{}, b...)
	case *[]BuilderPendingPayment:
		*p, err = decodeElems(d, name, int64(f.n), f.n, sizeBuilderPay, decBuilderPayElem)
	case *[][]ValidatorIndex:
		// One allocation for the window, cut into its committees.
		var flat []ValidatorIndex
		if flat, err = decodeElems(d, name, int64(f.n*f.bits), f.n*f.bits, 8, decU64s[ValidatorIndex]); err != nil {
			return err
		}
		out := make([][]ValidatorIndex, f.n)
		for i := range out {
			out[i] = flat[uint64(i)*f.bits : uint64(i+1)*f.bits : uint64(i+1)*f.bits]
		}
		*p = out
	default:
		return fmt.Errorf("beacon: ssz: %s: no fixed-size decoder for %T", name, f.ptr) // unreachable: the schema's types are all handled
	}
	return err
}

// decodeGloasList decodes a gloas list of count elements of size bytes
// (count < 0: up to the end of the input).
func (d *decoder) decodeGloasList(f *field, count int64, size int) error {
	var err error
	switch p := f.ptr.(type) {
	case *[]Builder:
		*p, err = decodeElems(d, f.name, count, f.n, size, decBuilderElem)
	case *[]BuilderPendingWithdrawal:
		*p, err = decodeElems(d, f.name, count, f.n, size, decBuilderWdElem)
	case *[]Withdrawal:
		*p, err = decodeElems(d, f.name, count, f.n, size, decWithdrawalElem)
	default:
		return fmt.Errorf("beacon: ssz: %s: no variable-size decoder for %T", f.name, f.ptr) // unreachable
	}
	return err
}

// decodeBid decodes the latest execution payload bid (scope bytes, or up
// to the end of the input when scope < 0); its commitments hold at most
// maxKZG elements.
func (d *decoder) decodeBid(path string, x *ExecutionPayloadBid, scope int64, maxKZG uint64) error {
	start := d.r.pos
	if scope >= 0 && scope < sizeBidFixed {
		return d.fail(path, start, "%d bytes, fewer than the bid's fixed %d", scope, sizeBidFixed)
	}
	b, err := d.read(path, sizeBidFixed)
	if err != nil {
		return err
	}
	copy(x.ParentBlockHash[:], b[0:32])
	copy(x.ParentBlockRoot[:], b[32:64])
	copy(x.BlockHash[:], b[64:96])
	copy(x.PrevRandao[:], b[96:128])
	copy(x.FeeRecipient[:], b[128:148])
	x.GasLimit = le64(b[148:])
	x.BuilderIndex = BuilderIndex(le64(b[156:]))
	x.Slot = Slot(le64(b[164:]))
	x.Value = Gwei(le64(b[172:]))
	x.ExecutionPayment = Gwei(le64(b[180:]))
	if off := le32(b[bidCommitmentsOff:]); off != sizeBidFixed {
		return d.fail(path+".blob_kzg_commitments", start+bidCommitmentsOff, "offset %d, want %d (the bid's fixed size)", off, sizeBidFixed)
	}
	copy(x.ExecutionRequestsRoot[:], b[192:224])
	name := path + ".blob_kzg_commitments"
	count := int64(-1)
	if scope >= 0 {
		n := scope - sizeBidFixed
		if n%sizeKZG != 0 {
			return d.fail(name, d.r.pos, "%d bytes is not a whole number of %d-byte commitments", n, sizeKZG)
		}
		count = n / sizeKZG
		if uint64(count) > maxKZG {
			return d.fail(name, d.r.pos, "%d commitments, over MAX_BLOB_COMMITMENTS_PER_BLOCK (%d)", count, maxKZG)
		}
	}
	x.BlobKZGCommitments, err = decodeElems(d, name, count, maxKZG, sizeKZG, decKZG)
	return err
}

// encodeGloas writes a gloas field (fixed or variable part).
func encodeGloas(e *sszWriter, f *field) {
	switch p := f.ptr.(type) {
	case *bitvector:
		e.bytes(*p)
	case *[]BuilderPendingPayment:
		encodeElems(e, *p, sizeBuilderPay, encBuilderPay)
	case *[][]ValidatorIndex:
		for _, v := range *p {
			encodeElems(e, v, 8, encValidatorIndex)
		}
	case *[]Builder:
		encodeElems(e, *p, sizeBuilder, encBuilder)
	case *[]BuilderPendingWithdrawal:
		encodeElems(e, *p, sizeBuilderWd, encBuilderWd)
	case *[]Withdrawal:
		encodeElems(e, *p, sizeWithdrawal, encWithdrawal)
	case *ExecutionPayloadBid:
		b := e.grow(sizeBidFixed)
		copy(b[0:32], p.ParentBlockHash[:])
		copy(b[32:64], p.ParentBlockRoot[:])
		copy(b[64:96], p.BlockHash[:])
		copy(b[96:128], p.PrevRandao[:])
		copy(b[128:148], p.FeeRecipient[:])
		put64(b[148:], p.GasLimit)
		put64(b[156:], uint64(p.BuilderIndex))
		put64(b[164:], uint64(p.Slot))
		put64(b[172:], uint64(p.Value))
		put64(b[180:], uint64(p.ExecutionPayment))
		binary.LittleEndian.PutUint32(b[bidCommitmentsOff:], sizeBidFixed)
		copy(b[192:224], p.ExecutionRequestsRoot[:])
		encodeElems(e, p.BlobKZGCommitments, sizeKZG, encKZG)
	}
}
