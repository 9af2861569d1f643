package beacon_test

// A slow, independent reference for the SSZ hash tree root, written from
// ssz/simple-serialize.md and the consensus specs' BeaconState definitions
// (not from this package's schema): it walks the serialized bytes with a
// type descriptor and merkleizes recursively with crypto/sha256, computing
// the zero subtrees by hashing zeros. The fast path must agree with it.

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// sszType is a type descriptor: fixed size (-1 if variable) and the hash
// tree root of a value given in its serialized form.
type sszType interface {
	size() int
	root(b []byte) [32]byte
}

type (
	uintT   struct{ n int } // uintN, boolean (n = 1)
	bytesT  struct{ n int } // ByteVector[n]
	vectorT struct {
		elem sszType
		n    int
	} // Vector[elem, n]
	listT struct {
		elem  sszType
		limit int64 // int64: limits reach 2^40, beyond a 32-bit int
	} // List[elem, limit]
	bitlistT   struct{ limit int64 } // Bitlist[limit]
	bitvectorT struct{ n int }       // Bitvector[n]
	containerT []sszType
)

func (t uintT) size() int      { return t.n }
func (t bytesT) size() int     { return t.n }
func (t bitvectorT) size() int { return (t.n + 7) / 8 }
func (t listT) size() int      { return -1 }
func (t bitlistT) size() int   { return -1 }
func (t vectorT) size() int {
	if t.elem.size() < 0 {
		return -1
	}
	return t.n * t.elem.size()
}
func (t containerT) size() int {
	n := 0
	for _, f := range t {
		if f.size() < 0 {
			return -1
		}
		n += f.size()
	}
	return n
}

func isBasic(t sszType) bool { _, ok := t.(uintT); return ok }

// pack splits bytes into zero-padded chunks.
func pack(b []byte) [][32]byte {
	out := make([][32]byte, (len(b)+31)/32)
	for i := range out {
		copy(out[i][:], b[32*i:])
	}
	return out
}

var refZeros = map[int][32]byte{}

// refZero returns the root of a depth-d tree of zero chunks, by hashing.
func refZero(d int) [32]byte {
	if d == 0 {
		return [32]byte{}
	}
	if z, ok := refZeros[d]; ok {
		return z
	}
	z := refZero(d - 1)
	r := sha256.Sum256(append(z[:], z[:]...))
	refZeros[d] = r
	return r
}

// refMerkleize is merkleize(chunks, limit) of the spec: the chunks padded
// with zero chunks to the next power of two of limit (at least 1).
func refMerkleize(chunks [][32]byte, limit int64) [32]byte {
	if int64(len(chunks)) > limit {
		panic(fmt.Sprintf("reference: %d chunks over limit %d", len(chunks), limit))
	}
	depth := 0
	for int64(1)<<depth < limit {
		depth++
	}
	return refNode(chunks, depth, 0)
}

func refNode(chunks [][32]byte, depth int, idx int64) [32]byte {
	if idx<<depth >= int64(len(chunks)) { // int64: depth reaches 40
		return refZero(depth)
	}
	if depth == 0 {
		return chunks[idx]
	}
	l, r := refNode(chunks, depth-1, 2*idx), refNode(chunks, depth-1, 2*idx+1)
	return sha256.Sum256(append(l[:], r[:]...))
}

func refMixIn(root [32]byte, n int) [32]byte {
	var l [32]byte
	binary.LittleEndian.PutUint64(l[:], uint64(n))
	return sha256.Sum256(append(root[:], l[:]...))
}

func (t uintT) root(b []byte) [32]byte  { return pack(b)[0] }
func (t bytesT) root(b []byte) [32]byte { return refMerkleize(pack(b), int64(t.n+31)/32) }
func (t bitvectorT) root(b []byte) [32]byte {
	return refMerkleize(pack(b), int64(t.n+255)/256)
}

func (t vectorT) root(b []byte) [32]byte {
	if isBasic(t.elem) {
		return refMerkleize(pack(b), int64(t.n*t.elem.size()+31)/32)
	}
	return refMerkleize(elemRoots(t.elem, b), int64(t.n))
}

func (t listT) root(b []byte) [32]byte {
	if isBasic(t.elem) {
		es := t.elem.size()
		return refMixIn(refMerkleize(pack(b), (t.limit*int64(es)+31)/32), len(b)/es)
	}
	roots := elemRoots(t.elem, b)
	return refMixIn(refMerkleize(roots, t.limit), len(roots))
}

func (t bitlistT) root(b []byte) [32]byte {
	last := b[len(b)-1]
	hi := 7
	for last>>hi == 0 {
		hi--
	}
	n := 8*(len(b)-1) + hi
	bits := append([]byte{}, b...)
	bits[len(bits)-1] &^= 1 << hi
	bits = bits[:(n+7)/8]
	return refMixIn(refMerkleize(pack(bits), (t.limit+255)/256), n)
}

func (t containerT) root(b []byte) [32]byte {
	parts := splitFields(t, b)
	roots := make([][32]byte, len(t))
	for i, f := range t {
		roots[i] = f.root(parts[i])
	}
	if len(t) > 0 {
		if _, ok := t[len(t)-1].(progressiveMarkT); ok {
			return refProgressiveContainer(roots[:len(t)-1])
		}
	}
	return refMerkleize(roots, int64(len(t)))
}

// splitFields cuts a container's serialization into its fields.
func splitFields(t containerT, b []byte) [][]byte {
	parts := make([][]byte, len(t))
	var offs []int
	var vars []int
	pos := 0
	for i, f := range t {
		if s := f.size(); s >= 0 {
			parts[i] = b[pos : pos+s]
			pos += s
			continue
		}
		offs = append(offs, int(binary.LittleEndian.Uint32(b[pos:])))
		vars = append(vars, i)
		pos += 4
	}
	for k, i := range vars {
		end := len(b)
		if k+1 < len(offs) {
			end = offs[k+1]
		}
		parts[i] = b[offs[k]:end]
	}
	return parts
}

// elemRoots returns the roots of the serialized composite elements in b.
func elemRoots(elem sszType, b []byte) [][32]byte {
	var out [][32]byte
	if s := elem.size(); s >= 0 {
		for i := 0; i+s <= len(b); i += s {
			out = append(out, elem.root(b[i:i+s]))
		}
		return out
	}
	if len(b) == 0 {
		return nil
	}
	n := int(binary.LittleEndian.Uint32(b)) / 4
	for i := range n {
		start := int(binary.LittleEndian.Uint32(b[4*i:]))
		end := len(b)
		if i+1 < n {
			end = int(binary.LittleEndian.Uint32(b[4*i+4:]))
		}
		out = append(out, elem.root(b[start:end]))
	}
	return out
}

var (
	u8, u64, u256          = uintT{1}, uintT{8}, uintT{32}
	b4, b20, b32, b48, b96 = bytesT{4}, bytesT{20}, bytesT{32}, bytesT{48}, bytesT{96}
	refCheckpoint          = containerT{u64, b32}
	refValidator           = containerT{b48, b32, u64, u8, u64, u64, u64, u64}
)

// refStateType is the BeaconState of fork v with preset p, from the specs.
func refStateType(v beacon.Version, p beacon.Preset) containerT {
	n := func(x uint64) int { return int(x) }     // vector lengths: at most 2^24
	l := func(x uint64) int64 { return int64(x) } // list limits: up to 2^40
	fork := containerT{b4, b4, u64}
	header := containerT{u64, u64, b32, b32, b32}
	eth1 := containerT{b32, u64, b32}
	attData := containerT{u64, u64, b32, refCheckpoint, refCheckpoint}
	pendingAtt := containerT{bitlistT{l(p.MaxValidatorsPerCommittee)}, attData, u64, u64}
	t := containerT{
		u64, b32, u64, fork, header,
		vectorT{b32, n(p.SlotsPerHistoricalRoot)}, vectorT{b32, n(p.SlotsPerHistoricalRoot)},
		listT{b32, l(p.HistoricalRootsLimit)},
		eth1, listT{eth1, l(p.EpochsPerEth1VotingPeriod * p.SlotsPerEpoch)}, u64,
		listT{refValidator, l(p.ValidatorRegistryLimit)}, listT{u64, l(p.ValidatorRegistryLimit)},
		vectorT{b32, n(p.EpochsPerHistoricalVector)}, vectorT{u64, n(p.EpochsPerSlashingsVector)},
	}
	if v == beacon.Phase0 {
		lim := l(p.MaxAttestations * p.SlotsPerEpoch)
		t = append(t, listT{pendingAtt, lim}, listT{pendingAtt, lim})
	} else {
		t = append(t, listT{u8, l(p.ValidatorRegistryLimit)}, listT{u8, l(p.ValidatorRegistryLimit)})
	}
	t = append(t, bitvectorT{4}, refCheckpoint, refCheckpoint, refCheckpoint)
	if v >= beacon.Altair {
		sync := containerT{vectorT{b48, n(p.SyncCommitteeSize)}, b48}
		t = append(t, listT{u64, l(p.ValidatorRegistryLimit)}, sync, sync)
	}
	if v >= beacon.Gloas {
		return refGloasState(t, p)
	}
	if v >= beacon.Bellatrix {
		h := containerT{b32, b20, b32, b32, bytesT{256}, b32, u64, u64, u64, u64, listT{u8, l(p.MaxExtraDataBytes)}, u256, b32, b32}
		if v >= beacon.Capella {
			h = append(h, b32)
		}
		if v >= beacon.Deneb {
			h = append(h, u64, u64)
		}
		t = append(t, h)
	}
	if v >= beacon.Capella {
		t = append(t, u64, u64, listT{containerT{b32, b32}, l(p.HistoricalRootsLimit)})
	}
	if v >= beacon.Electra {
		t = append(t, u64, u64, u64, u64, u64, u64,
			listT{containerT{b48, b32, u64, b96, u64}, l(p.PendingDepositsLimit)},
			listT{containerT{u64, u64, u64}, l(p.PendingPartialWithdrawalsLimit)},
			listT{containerT{u64, u64}, l(p.PendingConsolidationsLimit)})
	}
	if v >= beacon.Fulu {
		t = append(t, vectorT{u64, n((p.MinSeedLookahead + 1) * p.SlotsPerEpoch)})
	}
	return t
}
