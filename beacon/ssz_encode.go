package beacon

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
)

// writeBufSize is encodeSSZ's output buffer: the only memory it uses,
// whatever the state's size.
const writeBufSize = 64 << 10

// encodeSSZ writes s in SSZ to w, through one 64 KiB buffer (never the
// whole encoding at once); a *bytes.Buffer is grown once to the size
// first. It first checks s with validate; an invalid state writes
// nothing. A failure of w is returned wrapped.
func (s *State) encodeSSZ(w io.Writer) error {
	if err := s.validate(); err != nil {
		return err
	}
	fields := s.fields()
	size, err := s.sszSize(fields)
	if err != nil {
		return err
	}
	if b, ok := w.(*bytes.Buffer); ok {
		b.Grow(int(size)) // one allocation, not a doubling to the size
	}
	e := &sszWriter{w: w, buf: make([]byte, 0, min(writeBufSize, size))}
	s.encode(e, fields)
	e.flush()
	if e.err != nil {
		return fmt.Errorf("beacon: ssz: writing the state: %w", e.err)
	}
	return nil
}

// sszWriter collects output in buf and, when w is set, writes it out
// whenever buf is full.
type sszWriter struct {
	w   io.Writer // nil: buf receives the whole output
	buf []byte
	err error // w's first error; later output is dropped
}

// grow extends the output by n bytes (n <= writeBufSize) and returns them
// for the caller to fill.
func (e *sszWriter) grow(n int) []byte {
	if len(e.buf)+n > cap(e.buf) {
		if e.w != nil {
			e.flush()
		}
		e.buf = slices.Grow(e.buf, n)
	}
	l := len(e.buf)
	e.buf = e.buf[:l+n]
	return e.buf[l : l+n]
}

func (e *sszWriter) flush() {
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}

func (e *sszWriter) put32(v uint32) { binary.LittleEndian.PutUint32(e.grow(4), v) }
func (e *sszWriter) put64(v uint64) { put64(e.grow(8), v) }
func (e *sszWriter) bytes(b []byte) { copy(e.grow(len(b)), b) }

// encode writes the fixed part (offsets interleaved), then the variable
// fields in order. fields is s's schema; s has been checked.
func (s *State) encode(e *sszWriter, fields []field) {
	off := stateFixedSize(fields)
	for i := range fields {
		f := &fields[i]
		if f.variable() {
			e.put32(uint32(off))
			off += f.varSize(s.Version)
			continue
		}
		s.encodeFixed(e, f)
	}
	for i := range fields {
		if fields[i].variable() {
			s.encodeVariable(e, &fields[i])
		}
	}
}

func (s *State) encodeFixed(e *sszWriter, f *field) {
	switch p := f.ptr.(type) {
	case *uint64:
		e.put64(*p)
	case *Root:
		e.bytes(p[:])
	case *Fork:
		encFork(e.grow(sizeFork), p)
	case *BeaconBlockHeader:
		encBlockHeader(e.grow(sizeBlockHeader), p)
	case *Eth1Data:
		encEth1Data(e.grow(sizeEth1Data), p)
	case *Checkpoint:
		encCheckpoint(e.grow(sizeCheckpoint), p)
	case *uint8:
		e.grow(1)[0] = byte(*p)
	case *SyncCommittee:
		encodeElems(e, p.PublicKeys, sizePubKey, encPubKey)
		e.bytes(p.AggregatePublicKey[:])
	case *[]Root:
		encodeElems(e, *p, 32, encRoot)
	case *[]Gwei:
		encodeElems(e, *p, 8, encGwei)
	case *[]ValidatorIndex:
		encodeElems(e, *p, 8, encValidatorIndex)
	default:
		encodeGloas(e, f)
	}
}

func (s *State) encodeVariable(e *sszWriter, f *field) {
	switch p := f.ptr.(type) {
	case *ExecutionPayloadHeader:
		encodeHeader(e, p, s.Version)
	case *[]PendingAttestation:
		encodeAttestations(e, *p)
	case *[]Root:
		encodeElems(e, *p, 32, encRoot)
	case *[]Gwei:
		encodeElems(e, *p, 8, encGwei)
	case *[]ValidatorIndex:
		encodeElems(e, *p, 8, encValidatorIndex)
	case *[]uint64:
		encodeElems(e, *p, 8, encUint64)
	case *[]Eth1Data:
		encodeElems(e, *p, sizeEth1Data, encEth1Data)
	case *[]Validator:
		encodeElems(e, *p, sizeValidator, encValidator)
	case *[]uint8:
		encodeElems(e, *p, 1, encParticipation)
	case *[]HistoricalSummary:
		encodeElems(e, *p, sizeHistoricalSum, encHistoricalSummary)
	case *[]PendingDeposit:
		encodeElems(e, *p, sizePendingDeposit, encPendingDeposit)
	case *[]PendingPartialWithdrawal:
		encodeElems(e, *p, sizePendingPartialWd, encPendingPartialWithdrawal)
	case *[]PendingConsolidation:
		encodeElems(e, *p, sizePendingConsol, encPendingConsolidation)
	default:
		encodeGloas(e, f)
	}
}

func encRoot(b []byte, v *Root)                     { copy(b, v[:]) }
func encPubKey(b []byte, v *BLSPubKey)              { copy(b, v[:]) }
func encGwei(b []byte, v *Gwei)                     { put64(b, uint64(*v)) }
func encValidatorIndex(b []byte, v *ValidatorIndex) { put64(b, uint64(*v)) }
func encUint64(b []byte, v *uint64)                 { put64(b, *v) }
func encParticipation(b []byte, v *uint8) {
	b[0] = byte(*v)
}

// encodeElems writes the fixed-size elements of s, a buffer's worth at a
// time.
func encodeElems[T any](e *sszWriter, s []T, size int, enc func([]byte, *T)) {
	block := writeBufSize / size
	for i := 0; i < len(s); i += block {
		k := min(block, len(s)-i)
		b := e.grow(k * size)
		for j := range k {
			enc(b[j*size:(j+1)*size], &s[i+j])
		}
		if e.err != nil {
			return
		}
	}
}

func encodeHeader(e *sszWriter, h *ExecutionPayloadHeader, v Version) {
	fixed := headerFixedSize(v)
	b := e.grow(fixed)
	copy(b[0:32], h.ParentHash[:])
	copy(b[32:52], h.FeeRecipient[:])
	copy(b[52:84], h.StateRoot[:])
	copy(b[84:116], h.ReceiptsRoot[:])
	copy(b[116:372], h.LogsBloom[:])
	copy(b[372:404], h.PrevRandao[:])
	put64(b[404:], h.BlockNumber)
	put64(b[412:], h.GasLimit)
	put64(b[420:], h.GasUsed)
	put64(b[428:], h.Timestamp)
	binary.LittleEndian.PutUint32(b[436:], uint32(fixed))
	for i, limb := range h.BaseFeePerGas {
		put64(b[440+8*i:], limb)
	}
	copy(b[472:504], h.BlockHash[:])
	copy(b[504:536], h.TransactionsRoot[:])
	if v >= Capella {
		copy(b[536:568], h.WithdrawalsRoot[:])
	}
	if v >= Deneb {
		put64(b[568:], h.BlobGasUsed)
		put64(b[576:], h.ExcessBlobGas)
	}
	e.bytes(h.ExtraData)
}

func encodeAttestations(e *sszWriter, list []PendingAttestation) {
	off := uint32(offsetSize * len(list))
	for i := range list {
		e.put32(off)
		off += sizePendingAttFixed + uint32(len(list[i].AggregationBits))
	}
	for i := range list {
		a := &list[i]
		b := e.grow(sizePendingAttFixed)
		binary.LittleEndian.PutUint32(b, sizePendingAttFixed)
		encAttestationData(b[4:], &a.Data)
		put64(b[132:], uint64(a.InclusionDelay))
		put64(b[140:], uint64(a.ProposerIndex))
		e.bytes(a.AggregationBits)
	}
}
