package light

import (
	"encoding/binary"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// The SSZ decoding of the light-client containers (the beacon API's
// application/octet-stream bodies): strict, every length checked against
// the form's layout before anything is allocated, so what a decoder holds
// is bounded by the bytes that arrived.

// kind is which of the update containers a body holds.
type kind uint8

const (
	kindUpdate     kind = iota // LightClientUpdate
	kindFinality               // LightClientFinalityUpdate
	kindOptimistic             // LightClientOptimisticUpdate
)

func (k kind) name() string {
	return [...]string{"update", "finality update", "optimistic update"}[k]
}

// part is one field of a container: its fixed size, or a variable field
// (a 4-byte offset in the fixed part) of at most max bytes.
type part struct {
	name     string
	size     int
	variable bool
	max      int
}

// split cuts b into the fields of a container of parts (ssz's offsets:
// the first must point just past the fixed part, none may go back or past
// the end).
func split(b []byte, what string, parts []part) ([][]byte, error) {
	fixed := 0
	for _, p := range parts {
		if p.variable {
			fixed += 4
		} else {
			fixed += p.size
		}
	}
	if len(b) < fixed {
		return nil, encodingError("%s: %d bytes, fewer than its fixed part's %d", what, len(b), fixed)
	}
	out := make([][]byte, len(parts))
	pos, prev, varIdx := 0, -1, -1
	for i, p := range parts {
		if !p.variable {
			out[i] = b[pos : pos+p.size]
			pos += p.size
			continue
		}
		off := int(binary.LittleEndian.Uint32(b[pos:]))
		switch {
		case varIdx < 0 && off != fixed:
			return nil, encodingError("%s: %s: offset %d, want %d (the fixed part's size)", what, p.name, off, fixed)
		case off < prev || off > len(b):
			return nil, encodingError("%s: %s: offset %d out of order or past the end (%d bytes)", what, p.name, off, len(b))
		}
		if varIdx >= 0 {
			out[varIdx] = b[prev:off]
		}
		prev, varIdx = off, i
		pos += 4
	}
	if varIdx < 0 {
		if len(b) != fixed {
			return nil, encodingError("%s: %d bytes, want %d", what, len(b), fixed)
		}
		return out, nil
	}
	out[varIdx] = b[prev:]
	for i, p := range parts {
		if p.variable && len(out[i]) > p.max {
			return nil, encodingError("%s: %s: %d bytes, more than its type's %d", what, p.name, len(out[i]), p.max)
		}
	}
	return out, nil
}

// headerPart is the part of a header of form v in a container.
func headerPart(name string, v beacon.Version) part {
	s, variable := headerFixedSize(v)
	return part{name: name, size: s, variable: variable, max: maxHeaderSize(v)}
}

// branch decodes a Vector[Bytes32, depth] (its size is checked by split).
func branch(b []byte) []beacon.Root {
	if len(b) == 0 {
		return nil
	}
	r := make([]beacon.Root, len(b)/32)
	for i := range r {
		copy(r[i][:], b[32*i:])
	}
	return r
}

// decodeBlockHeader decodes a 112-byte BeaconBlockHeader.
func decodeBlockHeader(b []byte) beacon.BeaconBlockHeader {
	var h beacon.BeaconBlockHeader
	h.Slot = beacon.Slot(binary.LittleEndian.Uint64(b))
	h.ProposerIndex = beacon.ValidatorIndex(binary.LittleEndian.Uint64(b[8:]))
	copy(h.ParentRoot[:], b[16:48])
	copy(h.StateRoot[:], b[48:80])
	copy(h.BodyRoot[:], b[80:112])
	return h
}

// decodeHeaderSSZ decodes a LightClientHeader of form v.
func decodeHeaderSSZ(b []byte, v beacon.Version, what string) (Header, error) {
	h := Header{form: v}
	d := executionDepth(v)
	switch f := headerForm(v); {
	case f == beacon.Gloas:
		p, err := split(b, what, []part{{name: "beacon", size: 112}, {name: "execution_block_hash", size: 32}, {name: "execution_branch", size: 32 * d}})
		if err != nil {
			return h, err
		}
		h.Beacon = decodeBlockHeader(p[0])
		copy(h.ExecutionBlockHash[:], p[1])
		h.ExecutionBranch = branch(p[2])
	case f >= beacon.Capella:
		p, err := split(b, what, []part{{name: "beacon", size: 112}, {name: "execution", variable: true, max: executionHeaderFixed(v) + 32}, {name: "execution_branch", size: 32 * d}})
		if err != nil {
			return h, err
		}
		h.Beacon = decodeBlockHeader(p[0])
		if h.Execution, err = decodeExecutionSSZ(p[1], v, what+".execution"); err != nil {
			return h, err
		}
		h.ExecutionBlockHash = h.Execution.BlockHash
		h.ExecutionBranch = branch(p[2])
	default:
		if len(b) != 112 {
			return h, encodingError("%s: %d bytes, want 112", what, len(b))
		}
		h.Beacon = decodeBlockHeader(b)
	}
	return h, nil
}

// decodeExecutionSSZ decodes an ExecutionPayloadHeader of form v (Capella
// or Deneb's layout).
func decodeExecutionSSZ(b []byte, v beacon.Version, what string) (*beacon.ExecutionPayloadHeader, error) {
	fixed := executionHeaderFixed(v)
	if len(b) < fixed {
		return nil, encodingError("%s: %d bytes, fewer than its fixed %d", what, len(b), fixed)
	}
	if off := binary.LittleEndian.Uint32(b[436:]); int(off) != fixed {
		return nil, encodingError("%s: extra_data offset %d, want %d", what, off, fixed)
	}
	if n := len(b) - fixed; n > 32 {
		return nil, encodingError("%s: extra_data: %d bytes, over MAX_EXTRA_DATA_BYTES (32)", what, n)
	}
	le := binary.LittleEndian.Uint64
	h := &beacon.ExecutionPayloadHeader{BlockNumber: le(b[404:]), GasLimit: le(b[412:]), GasUsed: le(b[420:]), Timestamp: le(b[428:])}
	copy(h.ParentHash[:], b[0:32])
	copy(h.FeeRecipient[:], b[32:52])
	copy(h.StateRoot[:], b[52:84])
	copy(h.ReceiptsRoot[:], b[84:116])
	copy(h.LogsBloom[:], b[116:372])
	copy(h.PrevRandao[:], b[372:404])
	h.BaseFeePerGas = [4]uint64{le(b[440:]), le(b[448:]), le(b[456:]), le(b[464:])}
	copy(h.BlockHash[:], b[472:504])
	copy(h.TransactionsRoot[:], b[504:536])
	copy(h.WithdrawalsRoot[:], b[536:568])
	if v >= beacon.Deneb {
		h.BlobGasUsed, h.ExcessBlobGas = le(b[568:]), le(b[576:])
	}
	h.ExtraData = append([]byte{}, b[fixed:]...)
	return h, nil
}

// decodeCommitteeSSZ decodes a SyncCommittee of cfg's size (its length is
// checked by split).
func decodeCommitteeSSZ(b []byte) beacon.SyncCommittee {
	n := len(b)/48 - 1
	c := beacon.SyncCommittee{PublicKeys: make([]beacon.BLSPubKey, n)}
	for i := range n {
		copy(c.PublicKeys[i][:], b[48*i:])
	}
	copy(c.AggregatePublicKey[:], b[48*n:])
	return c
}

// committeeSize is the SSZ size of a SyncCommittee.
func (c *Config) committeeSize() int { return 48*int(c.SyncCommitteeSize) + 48 }

// decodeBootstrapSSZ decodes a LightClientBootstrap of fork v.
func (c *Config) decodeBootstrapSSZ(b []byte, v beacon.Version) (*Bootstrap, error) {
	if err := lightFork(v); err != nil {
		return nil, err
	}
	p, err := split(b, "bootstrap", []part{headerPart("header", v), {name: "current_sync_committee", size: c.committeeSize()},
		{name: "current_sync_committee_branch", size: 32 * currentBranchDepth(v)}})
	if err != nil {
		return nil, err
	}
	bs := &Bootstrap{Version: v, CurrentSyncCommittee: decodeCommitteeSSZ(p[1]), CurrentSyncCommitteeBranch: branch(p[2])}
	if bs.Header, err = decodeHeaderSSZ(p[0], v, "bootstrap.header"); err != nil {
		return nil, err
	}
	return bs, nil
}

// decodeUpdateSSZ decodes an update container k of fork v.
func (c *Config) decodeUpdateSSZ(b []byte, v beacon.Version, k kind) (*Update, error) {
	if err := lightFork(v); err != nil {
		return nil, err
	}
	agg := part{name: "sync_aggregate", size: int(c.SyncCommitteeSize)/8 + 96}
	slot := part{name: "signature_slot", size: 8}
	var parts []part
	switch k {
	case kindUpdate:
		parts = []part{headerPart("attested_header", v), {name: "next_sync_committee", size: c.committeeSize()},
			{name: "next_sync_committee_branch", size: 32 * nextBranchDepth(v)}, headerPart("finalized_header", v),
			{name: "finality_branch", size: 32 * finalityDepth(v)}, agg, slot}
	case kindFinality:
		parts = []part{headerPart("attested_header", v), headerPart("finalized_header", v),
			{name: "finality_branch", size: 32 * finalityDepth(v)}, agg, slot}
	default:
		parts = []part{headerPart("attested_header", v), agg, slot}
	}
	what := k.name()
	p, err := split(b, what, parts)
	if err != nil {
		return nil, err
	}
	u := &Update{Version: v}
	if u.AttestedHeader, err = decodeHeaderSSZ(p[0], v, what+".attested_header"); err != nil {
		return nil, err
	}
	i := 1
	if k == kindUpdate {
		nc := decodeCommitteeSSZ(p[1])
		u.NextSyncCommittee, u.NextSyncCommitteeBranch = &nc, branch(p[2])
		i = 3
	} else {
		u.NextSyncCommitteeBranch = make([]beacon.Root, nextBranchDepth(v))
	}
	if k != kindOptimistic {
		if u.FinalizedHeader, err = decodeHeaderSSZ(p[i], v, what+".finalized_header"); err != nil {
			return nil, err
		}
		u.FinalityBranch = branch(p[i+1])
		i += 2
	} else {
		u.FinalizedHeader = zeroHeader(v)
		u.FinalityBranch = make([]beacon.Root, finalityDepth(v))
	}
	nb := int(c.SyncCommitteeSize) / 8
	u.SyncCommitteeBits = append([]byte{}, p[i][:nb]...)
	copy(u.SyncCommitteeSignature[:], p[i][nb:])
	u.SignatureSlot = beacon.Slot(binary.LittleEndian.Uint64(p[i+1]))
	return u, nil
}

// zeroHeader is LightClientHeader() of form v.
func zeroHeader(v beacon.Version) Header {
	h := Header{form: v, ExecutionBranch: zeroBranch(executionDepth(v))}
	if f := headerForm(v); f >= beacon.Capella && f < beacon.Gloas {
		h.Execution = &beacon.ExecutionPayloadHeader{}
	}
	return h
}

// lightFork refuses a fork without light-client data (phase0) or one this
// package does not know.
func lightFork(v beacon.Version) error {
	if v < beacon.Altair || v > beacon.Gloas {
		return encodingError("fork %s has no light-client data", v)
	}
	return nil
}

// decodeUpdatesSSZ decodes the updates endpoint's SSZ body: a sequence of
// response chunks, each [uint64 little-endian length of what follows][4
// bytes of fork digest][the LightClientUpdate], the length counting the
// digest and the update. At most max chunks are taken.
func (c *Config) decodeUpdatesSSZ(b []byte, max int) ([]*Update, error) {
	var out []*Update
	for len(b) > 0 {
		if len(out) == max {
			return nil, encodingError("updates: more than the %d asked for", max)
		}
		if len(b) < 12 {
			return nil, encodingError("updates: chunk %d: %d bytes, fewer than a length and a context", len(out), len(b))
		}
		n := binary.LittleEndian.Uint64(b)
		if n < 4 || n > uint64(len(b)-8) {
			return nil, encodingError("updates: chunk %d: length %d, with %d bytes left", len(out), n, len(b)-8)
		}
		v, err := c.digestFork([4]byte(b[8:12]))
		if err != nil {
			return nil, err
		}
		u, err := c.decodeUpdateSSZ(b[12:8+n], v, kindUpdate)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
		b = b[8+n:]
	}
	return out, nil
}

// zeroBranch is a branch of n zero roots (nil for none).
func zeroBranch(n int) []beacon.Root {
	if n == 0 {
		return nil
	}
	return make([]beacon.Root, n)
}
