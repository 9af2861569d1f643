package beacon_test

// The reference's progressive types (EIP-7916, EIP-7495), written from
// ssz/simple-serialize.md's merkleize_progressive, recursively as the spec
// states it, and the Gloas BeaconState from the consensus specs
// (v1.7.0-beta.0; see testdata/SOURCES.md).

import (
	"crypto/sha256"

	"github.com/nodeaccess/nodeaccess/beacon"
)

type (
	// progListT is ProgressiveList[elem]; limit only bounds decoding.
	progListT struct{ elem sszType }
	// progressiveMarkT, as the last element of a containerT, makes it a
	// progressive container with every field active; it takes no bytes.
	progressiveMarkT struct{}
)

func (progListT) size() int                     { return -1 }
func (progressiveMarkT) size() int              { return 0 }
func (progressiveMarkT) root(_ []byte) [32]byte { return [32]byte{} }

// members returns t's fields without the progressive container's mark,
// which is no field: one entry per field the state's JSON and SSZ have.
func (t containerT) members() containerT {
	if len(t) > 0 {
		if _, ok := t[len(t)-1].(progressiveMarkT); ok {
			return t[:len(t)-1]
		}
	}
	return t
}

// refMerkleizeProgressive is merkleize_progressive(chunks, numLeaves).
func refMerkleizeProgressive(chunks [][32]byte, numLeaves int) [32]byte {
	if len(chunks) == 0 {
		return [32]byte{}
	}
	k := min(numLeaves, len(chunks))
	a := refMerkleize(chunks[:k], int64(numLeaves))
	b := refMerkleizeProgressive(chunks[k:], numLeaves*4)
	return sha256.Sum256(append(a[:], b[:]...))
}

func (t progListT) root(b []byte) [32]byte {
	if isBasic(t.elem) {
		return refMixIn(refMerkleizeProgressive(pack(b), 1), len(b)/t.elem.size())
	}
	roots := elemRoots(t.elem, b)
	return refMixIn(refMerkleizeProgressive(roots, 1), len(roots))
}

// refProgressiveContainer mixes an all-ones active_fields bitvector into
// merkleize_progressive of the fields' roots.
func refProgressiveContainer(roots [][32]byte) [32]byte {
	r := refMerkleizeProgressive(roots, 1)
	var bits [32]byte
	for i := range roots {
		bits[i/8] |= 1 << (i % 8)
	}
	return sha256.Sum256(append(r[:], bits[:]...))
}

// refGloasState is the Gloas BeaconState, given the fields up to
// next_sync_committee as t has them (with the registry lists binary):
// those lists become progressive, and gloas's fields follow.
func refGloasState(t containerT, p beacon.Preset) containerT {
	n := func(x uint64) int { return int(x) }
	l := func(x uint64) int64 { return int64(x) }
	t = append(containerT{}, t...)
	for _, i := range []int{11, 12, 15, 16, 21} { // validators, balances, participation, inactivity scores
		t[i] = progListT{t[i].(listT).elem}
	}
	withdrawal := containerT{b20, u64, u64}
	t = append(t,
		b32, // latest_block_hash
		u64, u64, listT{containerT{b32, b32}, l(p.HistoricalRootsLimit)},
		u64, u64, u64, u64, u64, u64,
		progListT{containerT{b48, b32, u64, b96, u64}},
		progListT{containerT{u64, u64, u64}},
		progListT{containerT{u64, u64}},
		vectorT{u64, n((p.MinSeedLookahead + 1) * p.SlotsPerEpoch)},
		progListT{containerT{b48, u8, b20, u64, u64, u64}}, // builders
		u64, // next_withdrawal_builder_index
		bitvectorT{n(p.SlotsPerHistoricalRoot)},
		vectorT{containerT{u64, withdrawal, u64}, n(2 * p.SlotsPerEpoch)},
		progListT{withdrawal},
		containerT{b32, b32, b32, b32, b20, u64, u64, u64, u64, u64, progListT{b48}, b32, progressiveMarkT{}}, // the bid
		progListT{containerT{u64, u64, b20, u64}},
		vectorT{vectorT{u64, n(p.PTCSize)}, n((2 + p.MinSeedLookahead) * p.SlotsPerEpoch)},
		progressiveMarkT{},
	)
	return t
}
