package beacon

import (
	"encoding/binary"
	"fmt"
)

// The SSZ sizes of the state's fixed-size types, in bytes.
const (
	offsetSize           = 4   // BYTES_PER_LENGTH_OFFSET
	sizeFork             = 16  // 4 + 4 + 8
	sizeBlockHeader      = 112 // 8 + 8 + 3*32
	sizeEth1Data         = 72  // 32 + 8 + 32
	sizeCheckpoint       = 40  // 8 + 32
	sizeValidator        = 121 // 48 + 32 + 8 + 1 + 4*8
	sizeAttestationData  = 128 // 8 + 8 + 32 + 2*40
	sizePendingAttFixed  = 148 // offset + AttestationData + 8 + 8
	sizeHistoricalSum    = 64  // 2*32
	sizePendingDeposit   = 192 // 48 + 32 + 8 + 96 + 8
	sizePendingPartialWd = 24  // 3*8
	sizePendingConsol    = 16  // 2*8
	sizePubKey           = 48
)

// maxSSZSize is the largest SSZ encoding whose offsets fit in 32 bits.
const maxSSZSize = 1<<32 - 1

// headerFixedSize returns the fixed part's size of the execution payload
// header of fork v (bellatrix to fulu): 536 bytes in bellatrix, 568 with
// capella's withdrawals_root, 584 with deneb's blob gas fields.
func headerFixedSize(v Version) int {
	switch {
	case v >= Deneb:
		return 584
	case v >= Capella:
		return 568
	default:
		return 536
	}
}

// variable reports whether f is a variable-size field, which the fixed
// part holds as a 4-byte offset: every list, and the execution payload
// header (for its extra_data).
func (f *field) variable() bool {
	switch f.ptr.(type) {
	case *ExecutionPayloadHeader:
		return true
	case *[]Root, *[]Gwei, *[]ValidatorIndex, *[]Eth1Data, *[]Validator, *[]PendingAttestation,
		*[]uint8, *[]uint64, *[]HistoricalSummary, *[]PendingDeposit,
		*[]PendingPartialWithdrawal, *[]PendingConsolidation:
		return !f.vector
	}
	return gloasVariable(f)
}

// elemSize returns the SSZ size of one element of a collection field, or 0
// for PendingAttestation (variable size) and non-collections.
func elemSize(ptr any) int {
	switch ptr.(type) {
	case *[]Root:
		return 32
	case *[]Gwei, *[]ValidatorIndex, *[]uint64:
		return 8
	case *[]Eth1Data:
		return sizeEth1Data
	case *[]Validator:
		return sizeValidator
	case *[]uint8:
		return 1
	case *[]HistoricalSummary:
		return sizeHistoricalSum
	case *[]PendingDeposit:
		return sizePendingDeposit
	case *[]PendingPartialWithdrawal:
		return sizePendingPartialWd
	case *[]PendingConsolidation:
		return sizePendingConsol
	}
	return gloasElemSize(ptr)
}

// fixedSize returns the number of bytes f takes in the state's fixed part:
// the offset size for a variable field.
func (f *field) fixedSize() int {
	if f.variable() {
		return offsetSize
	}
	switch f.ptr.(type) {
	case *uint64:
		return 8
	case *Root:
		return 32
	case *Fork:
		return sizeFork
	case *BeaconBlockHeader:
		return sizeBlockHeader
	case *Eth1Data:
		return sizeEth1Data
	case *Checkpoint:
		return sizeCheckpoint
	case *uint8:
		return 1
	case *SyncCommittee:
		return sizePubKey * int(f.n+1)
	}
	if n, ok := gloasFixedSize(f); ok {
		return n
	}
	return elemSize(f.ptr) * int(f.n) // a vector
}

// stateFixedSize returns the size of the fixed part of a state with the
// given schema.
func stateFixedSize(fields []field) int64 {
	var n int64
	for i := range fields {
		n += int64(fields[i].fixedSize())
	}
	return n
}

// varSize returns the SSZ size of variable field f's contents.
func (f *field) varSize(v Version) int64 {
	switch p := f.ptr.(type) {
	case *ExecutionPayloadHeader:
		return int64(headerFixedSize(v) + len(p.ExtraData))
	case *ExecutionPayloadBid:
		return sizeBidFixed + sizeKZG*int64(len(p.BlobKZGCommitments))
	case *[]PendingAttestation:
		n := int64(0)
		for i := range *p {
			n += offsetSize + sizePendingAttFixed + int64(len((*p)[i].AggregationBits))
		}
		return n
	}
	return int64(elemSize(f.ptr)) * int64(sliceLen(f.ptr))
}

// sliceLen returns the length of a collection field.
func sliceLen(ptr any) int {
	switch p := ptr.(type) {
	case *[]Root:
		return len(*p)
	case *[]Gwei:
		return len(*p)
	case *[]ValidatorIndex:
		return len(*p)
	case *[]uint64:
		return len(*p)
	case *[]Eth1Data:
		return len(*p)
	case *[]Validator:
		return len(*p)
	case *[]uint8:
		return len(*p)
	case *[]HistoricalSummary:
		return len(*p)
	case *[]PendingDeposit:
		return len(*p)
	case *[]PendingPartialWithdrawal:
		return len(*p)
	case *[]PendingConsolidation:
		return len(*p)
	case *[]PendingAttestation:
		return len(*p)
	}
	return gloasSliceLen(ptr)
}

// sszSize returns the SSZ size of s, whose schema is fields, and an error
// when it does not fit SSZ's 32-bit offsets.
func (s *State) sszSize(fields []field) (int64, error) {
	n := stateFixedSize(fields)
	for i := range fields {
		if fields[i].variable() {
			n += fields[i].varSize(s.Version)
		}
	}
	if n > maxSSZSize {
		return n, fmt.Errorf("beacon: ssz: the state's encoding (%d bytes) exceeds the 4 GiB that SSZ offsets address", n)
	}
	return n, nil
}

// The fixed-size types' SSZ forms: dec* reads one from b, enc* writes one
// to b; b has at least the type's size.

func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

func put64(b []byte, v uint64) { binary.LittleEndian.PutUint64(b, v) }

func decFork(b []byte, f *Fork) {
	copy(f.PreviousVersion[:], b[0:4])
	copy(f.CurrentVersion[:], b[4:8])
	f.Epoch = Epoch(le64(b[8:]))
}

func encFork(b []byte, f *Fork) {
	copy(b[0:4], f.PreviousVersion[:])
	copy(b[4:8], f.CurrentVersion[:])
	put64(b[8:], uint64(f.Epoch))
}

func decBlockHeader(b []byte, h *BeaconBlockHeader) {
	h.Slot = Slot(le64(b[0:]))
	h.ProposerIndex = ValidatorIndex(le64(b[8:]))
	copy(h.ParentRoot[:], b[16:48])
	copy(h.StateRoot[:], b[48:80])
	copy(h.BodyRoot[:], b[80:112])
}

func encBlockHeader(b []byte, h *BeaconBlockHeader) {
	put64(b[0:], uint64(h.Slot))
	put64(b[8:], uint64(h.ProposerIndex))
	copy(b[16:48], h.ParentRoot[:])
	copy(b[48:80], h.StateRoot[:])
	copy(b[80:112], h.BodyRoot[:])
}

func decEth1Data(b []byte, e *Eth1Data) {
	copy(e.DepositRoot[:], b[0:32])
	e.DepositCount = le64(b[32:])
	copy(e.BlockHash[:], b[40:72])
}

func encEth1Data(b []byte, e *Eth1Data) {
	copy(b[0:32], e.DepositRoot[:])
	put64(b[32:], e.DepositCount)
	copy(b[40:72], e.BlockHash[:])
}

func decCheckpoint(b []byte, c *Checkpoint) {
	c.Epoch = Epoch(le64(b))
	copy(c.Root[:], b[8:40])
}

func encCheckpoint(b []byte, c *Checkpoint) {
	put64(b, uint64(c.Epoch))
	copy(b[8:40], c.Root[:])
}

// decValidator does not check the slashed byte; the caller does.
func decValidator(b []byte, v *Validator) {
	_ = b[120]
	v.PublicKey = BLSPubKey(b[0:48])
	v.WithdrawalCredentials = Root(b[48:80])
	v.EffectiveBalance = Gwei(le64(b[80:]))
	v.Slashed = b[88] == 1
	v.ActivationEligibilityEpoch = Epoch(le64(b[89:]))
	v.ActivationEpoch = Epoch(le64(b[97:]))
	v.ExitEpoch = Epoch(le64(b[105:]))
	v.WithdrawableEpoch = Epoch(le64(b[113:]))
}

func encValidator(b []byte, v *Validator) {
	_ = b[120]
	copy(b[0:48], v.PublicKey[:])
	copy(b[48:80], v.WithdrawalCredentials[:])
	put64(b[80:], uint64(v.EffectiveBalance))
	b[88] = 0
	if v.Slashed {
		b[88] = 1
	}
	put64(b[89:], uint64(v.ActivationEligibilityEpoch))
	put64(b[97:], uint64(v.ActivationEpoch))
	put64(b[105:], uint64(v.ExitEpoch))
	put64(b[113:], uint64(v.WithdrawableEpoch))
}

func decAttestationData(b []byte, a *AttestationData) {
	a.Slot = Slot(le64(b[0:]))
	a.Index = le64(b[8:])
	copy(a.BeaconBlockRoot[:], b[16:48])
	decCheckpoint(b[48:], &a.Source)
	decCheckpoint(b[88:], &a.Target)
}

func encAttestationData(b []byte, a *AttestationData) {
	put64(b[0:], uint64(a.Slot))
	put64(b[8:], a.Index)
	copy(b[16:48], a.BeaconBlockRoot[:])
	encCheckpoint(b[48:], &a.Source)
	encCheckpoint(b[88:], &a.Target)
}

func decHistoricalSummary(b []byte, h *HistoricalSummary) {
	copy(h.BlockSummaryRoot[:], b[0:32])
	copy(h.StateSummaryRoot[:], b[32:64])
}

func encHistoricalSummary(b []byte, h *HistoricalSummary) {
	copy(b[0:32], h.BlockSummaryRoot[:])
	copy(b[32:64], h.StateSummaryRoot[:])
}

func decPendingDeposit(b []byte, d *PendingDeposit) {
	copy(d.PublicKey[:], b[0:48])
	copy(d.WithdrawalCredentials[:], b[48:80])
	d.Amount = Gwei(le64(b[80:]))
	copy(d.Signature[:], b[88:184])
	d.Slot = Slot(le64(b[184:]))
}

func encPendingDeposit(b []byte, d *PendingDeposit) {
	copy(b[0:48], d.PublicKey[:])
	copy(b[48:80], d.WithdrawalCredentials[:])
	put64(b[80:], uint64(d.Amount))
	copy(b[88:184], d.Signature[:])
	put64(b[184:], uint64(d.Slot))
}

func decPendingPartialWithdrawal(b []byte, w *PendingPartialWithdrawal) {
	w.ValidatorIndex = ValidatorIndex(le64(b[0:]))
	w.Amount = Gwei(le64(b[8:]))
	w.WithdrawableEpoch = Epoch(le64(b[16:]))
}

func encPendingPartialWithdrawal(b []byte, w *PendingPartialWithdrawal) {
	put64(b[0:], uint64(w.ValidatorIndex))
	put64(b[8:], uint64(w.Amount))
	put64(b[16:], uint64(w.WithdrawableEpoch))
}

func decPendingConsolidation(b []byte, c *PendingConsolidation) {
	c.SourceIndex = ValidatorIndex(le64(b[0:]))
	c.TargetIndex = ValidatorIndex(le64(b[8:]))
}

func encPendingConsolidation(b []byte, c *PendingConsolidation) {
	put64(b[0:], uint64(c.SourceIndex))
	put64(b[8:], uint64(c.TargetIndex))
}
