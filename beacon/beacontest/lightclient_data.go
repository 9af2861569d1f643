package beacontest

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// The light-client containers of electra (capella's LightClientHeader
// with electra's branch lengths), as the server builds them. Each has the
// beacon API's JSON form (the json tags) and its SSZ form (ssz).

type lcHeaderData struct {
	Beacon          beacon.BeaconBlockHeader      `json:"beacon"`
	Execution       beacon.ExecutionPayloadHeader `json:"execution"`
	ExecutionBranch []beacon.Root                 `json:"execution_branch"`
}

type syncAggregateData struct {
	BitsHex      string `json:"sync_committee_bits"`
	SignatureHex string `json:"sync_committee_signature"`
	bits, sig    []byte
}

func newSyncAggregate(a syncAggregate) syncAggregateData {
	return syncAggregateData{BitsHex: "0x" + hex.EncodeToString(a.bits), SignatureHex: "0x" + hex.EncodeToString(a.sig), bits: a.bits, sig: a.sig}
}

type bootstrapData struct {
	Header                     lcHeaderData         `json:"header"`
	CurrentSyncCommittee       beacon.SyncCommittee `json:"current_sync_committee"`
	CurrentSyncCommitteeBranch []beacon.Root        `json:"current_sync_committee_branch"`
}

type updateData struct {
	AttestedHeader          lcHeaderData         `json:"attested_header"`
	NextSyncCommittee       beacon.SyncCommittee `json:"next_sync_committee"`
	NextSyncCommitteeBranch []beacon.Root        `json:"next_sync_committee_branch"`
	FinalizedHeader         lcHeaderData         `json:"finalized_header"`
	FinalityBranch          []beacon.Root        `json:"finality_branch"`
	SyncAggregate           syncAggregateData    `json:"sync_aggregate"`
	SignatureSlot           beacon.Slot          `json:"signature_slot,string"`
}

type finalityUpdateData struct {
	AttestedHeader  lcHeaderData      `json:"attested_header"`
	FinalizedHeader lcHeaderData      `json:"finalized_header"`
	FinalityBranch  []beacon.Root     `json:"finality_branch"`
	SyncAggregate   syncAggregateData `json:"sync_aggregate"`
	SignatureSlot   beacon.Slot       `json:"signature_slot,string"`
}

type optimisticUpdateData struct {
	AttestedHeader lcHeaderData      `json:"attested_header"`
	SyncAggregate  syncAggregateData `json:"sync_aggregate"`
	SignatureSlot  beacon.Slot       `json:"signature_slot,string"`
}

// sszBuf writes an SSZ container: its fixed part, then its variable
// fields, with their offsets.
type sszBuf struct {
	fixed, vars []byte
	fixedLen    int
}

func newSSZ(fixedLen int) *sszBuf { return &sszBuf{fixedLen: fixedLen} }

func (s *sszBuf) put(b ...byte) { s.fixed = append(s.fixed, b...) }
func (s *sszBuf) u64(v uint64)  { s.fixed = binary.LittleEndian.AppendUint64(s.fixed, v) }
func (s *sszBuf) roots(rs []beacon.Root) {
	for _, r := range rs {
		s.put(r[:]...)
	}
}

// variable appends a variable-size field: its offset in the fixed part,
// its bytes after it.
func (s *sszBuf) variable(b []byte) {
	s.fixed = binary.LittleEndian.AppendUint32(s.fixed, uint32(s.fixedLen+len(s.vars)))
	s.vars = append(s.vars, b...)
}

func (s *sszBuf) bytes() ([]byte, error) {
	if len(s.fixed) != s.fixedLen {
		return nil, fmt.Errorf("ssz: fixed part of %d bytes, want %d", len(s.fixed), s.fixedLen)
	}
	return append(s.fixed, s.vars...), nil
}

// lcHeaderFixed is the fixed part of a LightClientHeader: the beacon
// header (112), the execution header's offset (4) and the branch (4*32).
const lcHeaderFixed = 112 + 4 + 4*32

func (h *lcHeaderData) ssz() ([]byte, error) {
	s := newSSZ(lcHeaderFixed)
	b := &h.Beacon
	s.u64(uint64(b.Slot))
	s.u64(uint64(b.ProposerIndex))
	s.put(b.ParentRoot[:]...)
	s.put(b.StateRoot[:]...)
	s.put(b.BodyRoot[:]...)
	s.variable(execSSZ(&h.Execution))
	if len(h.ExecutionBranch) != 4 {
		return nil, errors.New("ssz: execution branch is not 4 roots")
	}
	s.roots(h.ExecutionBranch)
	return s.bytes()
}

// execSSZ is deneb's ExecutionPayloadHeader in SSZ.
func execSSZ(e *beacon.ExecutionPayloadHeader) []byte {
	var b []byte
	b = append(b, e.ParentHash[:]...)
	b = append(b, e.FeeRecipient[:]...)
	b = append(b, e.StateRoot[:]...)
	b = append(b, e.ReceiptsRoot[:]...)
	b = append(b, e.LogsBloom[:]...)
	b = append(b, e.PrevRandao[:]...)
	for _, v := range []uint64{e.BlockNumber, e.GasLimit, e.GasUsed, e.Timestamp} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	const fixed = 32 + 20 + 32 + 32 + 256 + 32 + 4*8 + 4 + 32 + 32 + 32 + 32 + 2*8
	b = binary.LittleEndian.AppendUint32(b, fixed)
	fee := e.BaseFeePerGas.Bytes32() // big-endian
	for i := 31; i >= 0; i-- {
		b = append(b, fee[i])
	}
	b = append(b, e.BlockHash[:]...)
	b = append(b, e.TransactionsRoot[:]...)
	b = append(b, e.WithdrawalsRoot[:]...)
	b = binary.LittleEndian.AppendUint64(b, e.BlobGasUsed)
	b = binary.LittleEndian.AppendUint64(b, e.ExcessBlobGas)
	return append(b, e.ExtraData...)
}

func committeeSSZ(s *sszBuf, sc *beacon.SyncCommittee) {
	for _, k := range sc.PublicKeys {
		s.put(k[:]...)
	}
	s.put(sc.AggregatePublicKey[:]...)
}

func committeeLen(size int) int { return 48*size + 48 }

// size is the size of a SyncAggregate in SSZ (less when lying about
// the signature's length).
func (a *syncAggregateData) size() int { return len(a.bits) + len(a.sig) }

func (a *syncAggregateData) put(s *sszBuf) {
	s.put(a.bits...)
	s.put(a.sig...)
}

func (d *bootstrapData) ssz() ([]byte, error) {
	h, err := d.Header.ssz()
	if err != nil {
		return nil, err
	}
	s := newSSZ(4 + committeeLen(len(d.CurrentSyncCommittee.PublicKeys)) + 32*len(d.CurrentSyncCommitteeBranch))
	s.variable(h)
	committeeSSZ(s, &d.CurrentSyncCommittee)
	s.roots(d.CurrentSyncCommitteeBranch)
	return s.bytes()
}

func (d *updateData) ssz() ([]byte, error) {
	ah, err := d.AttestedHeader.ssz()
	if err != nil {
		return nil, err
	}
	fh, err := d.FinalizedHeader.ssz()
	if err != nil {
		return nil, err
	}
	s := newSSZ(4 + committeeLen(len(d.NextSyncCommittee.PublicKeys)) + 32*len(d.NextSyncCommitteeBranch) +
		4 + 32*len(d.FinalityBranch) + d.SyncAggregate.size() + 8)
	s.variable(ah)
	committeeSSZ(s, &d.NextSyncCommittee)
	s.roots(d.NextSyncCommitteeBranch)
	s.variable(fh)
	s.roots(d.FinalityBranch)
	d.SyncAggregate.put(s)
	s.u64(uint64(d.SignatureSlot))
	return s.bytes()
}

func (d *finalityUpdateData) ssz() ([]byte, error) {
	ah, err := d.AttestedHeader.ssz()
	if err != nil {
		return nil, err
	}
	fh, err := d.FinalizedHeader.ssz()
	if err != nil {
		return nil, err
	}
	s := newSSZ(4 + 4 + 32*len(d.FinalityBranch) + d.SyncAggregate.size() + 8)
	s.variable(ah)
	s.variable(fh)
	s.roots(d.FinalityBranch)
	d.SyncAggregate.put(s)
	s.u64(uint64(d.SignatureSlot))
	return s.bytes()
}

func (d *optimisticUpdateData) ssz() ([]byte, error) {
	ah, err := d.AttestedHeader.ssz()
	if err != nil {
		return nil, err
	}
	s := newSSZ(4 + d.SyncAggregate.size() + 8)
	s.variable(ah)
	d.SyncAggregate.put(s)
	s.u64(uint64(d.SignatureSlot))
	return s.bytes()
}
