package beacon

import (
	"encoding/binary"

	"github.com/nodeaccess/nodeaccess/beacon/internal/sha256x"
)

// The validator registry is most of a state's hashing: a validator is a
// container of 8 leaves (ssz: pubkey, withdrawal_credentials,
// effective_balance, slashed, activation_eligibility_epoch,
// activation_epoch, exit_epoch, withdrawable_epoch), 8 SHA-256 blocks with
// the padded public key, plus one block per validator in the list's tree.
//
// Two of the four pairs of leaves repeat across validators: (exit_epoch,
// withdrawable_epoch) is (FAR_FUTURE_EPOCH, FAR_FUTURE_EPOCH) for every
// validator that has not exited, and (effective_balance, slashed) takes few
// values (effective balances are whole ether). fillValidators hashes each
// distinct value of those pairs once per goroutine and block, through a
// small cache of exact keys, so a hit yields the very digest hashing would:
// the result never depends on the cache, only the work does.

// pairCacheBits sets the size of a pairCache: 64 entries.
const pairCacheBits = 6

// pairEntry states.
const (
	pairEmpty   = iota
	pairPending // hashed in the current block: miss index idx
	pairReady   // root holds the digest
)

// pairEntry is one cached digest of two uint64 leaves, SHA-256(chunk(x) ||
// chunk(y)), or a reference to the block that will compute it.
type pairEntry struct {
	x, y  uint64
	state uint32
	idx   int32
	root  Root
}

// pairCache is a direct-mapped cache of pair digests, keyed exactly by
// (x, y).
type pairCache [1 << pairCacheBits]pairEntry

// slot returns the entry for (x, y).
func (c *pairCache) slot(x, y uint64) *pairEntry {
	h := (x*0x9e3779b97f4a7c15 ^ y*0xc2b2ae3d27d4eb4f) >> (64 - pairCacheBits)
	return &c[h]
}

// valScratch is the per-goroutine state of fillValidators.
type valScratch struct {
	keys, l1, l2  []byte // the layers of one block of validators
	miss          []byte // pair blocks not found in the caches: room for 2 per validator
	misses        int    // blocks in miss
	fix           []pairFix
	balance, exit pairCache
}

// pairFix says that the digest of miss block idx goes to l2[off:off+32].
type pairFix struct{ off, idx int32 }

// pairLeaf writes the digest of the pair (x, y) into l2[off:off+32] if c
// knows it, and otherwise leaves that to pairMiss.
func (s *valScratch) pairLeaf(c *pairCache, x, y uint64, l2 []byte, off int) {
	e := c.slot(x, y)
	if e.state == pairReady && e.x == x && e.y == y {
		*(*Root)(l2[off:]) = e.root
		return
	}
	s.pairMiss(e, x, y, off)
}

// pairMiss handles a pair whose digest is not ready in entry e, its slot:
// if e is the same pair, pending in this block, it queues a fix that copies
// that block's digest to l2[off:]; otherwise it queues the pair's block in
// s.miss, the fix, and makes e the pending entry of the pair.
func (s *valScratch) pairMiss(e *pairEntry, x, y uint64, off int) {
	if e.state == pairPending && e.x == x && e.y == y {
		s.fix = append(s.fix, pairFix{int32(off), e.idx})
		return
	}
	idx := s.misses
	s.misses++
	var b [64]byte
	binary.LittleEndian.PutUint64(b[0:], x)
	binary.LittleEndian.PutUint64(b[32:], y)
	*(*[64]byte)(s.miss[64*idx:]) = b
	s.fix = append(s.fix, pairFix{int32(off), int32(idx)})
	*e = pairEntry{x: x, y: y, state: pairPending, idx: int32(idx)}
}

// resolve marks the pending entries of c ready with their digests in out.
func (c *pairCache) resolve(out []byte) {
	for i := range c {
		if e := &c[i]; e.state == pairPending {
			e.root = *(*Root)(out[32*e.idx:])
			e.state = pairReady
		}
	}
}

// fillValidators returns a leafFiller whose leaves are validator roots.
// For a block of validators it builds the padded public keys and the first
// layer of each validator's tree in contiguous buffers and hashes them
// layer by layer in bulk calls; the (effective_balance, slashed) and
// (exit_epoch, withdrawable_epoch) pairs come from the caches when their
// digest is known.
func fillValidators(vals []Validator) leafFiller {
	return func(ws *workspace, dst []byte, from, to int) {
		s, _ := ws.Ext.(*valScratch)
		if s == nil {
			s = new(valScratch)
			ws.Ext = s
		}
		k := to - from
		keys := get(&s.keys, 64*k)
		l1 := get(&s.l1, 128*k) // per validator: pubkey root | credentials, activation epochs
		l2 := get(&s.l2, 128*k) // per validator: the 4 roots of the first layer
		s.miss, s.misses, s.fix = get(&s.miss, 128*k), 0, s.fix[:0]
		for i := range k {
			v := &vals[from+i]
			kb := (*[64]byte)(keys[64*i:])
			*(*[48]byte)(kb[:48]) = v.PublicKey
			*(*[16]byte)(kb[48:]) = [16]byte{}
			b := (*[128]byte)(l1[128*i:])
			*(*Root)(b[32:64]) = v.WithdrawalCredentials
			putChunk64(b[64:96], uint64(v.ActivationEligibilityEpoch))
			putChunk64(b[96:128], uint64(v.ActivationEpoch))
			var slashed uint64
			if v.Slashed {
				slashed = 1
			}
			s.pairLeaf(&s.balance, uint64(v.EffectiveBalance), slashed, l2, 128*i+32)
			s.pairLeaf(&s.exit, uint64(v.ExitEpoch), uint64(v.WithdrawableEpoch), l2, 128*i+96)
		}
		sha256x.HashStrided(l1, 128, keys) // each key's root next to its credentials
		sha256x.HashStrided(l2, 64, l1)    // the first and third roots of each validator
		if s.misses > 0 {
			missOut := get(&s.keys, 32*s.misses) // the keys are hashed
			hashChunks(missOut, s.miss[:64*s.misses])
			for _, f := range s.fix {
				copyRoot(l2[f.off:], missOut[32*f.idx:])
			}
			s.balance.resolve(missOut)
			s.exit.resolve(missOut)
		}
		l3 := get(&s.keys, 64*k) // the misses are placed
		hashChunks(l3, l2)
		hashChunks(dst, l3)
	}
}

// copyRoot copies the 32 bytes at src to dst through a register-sized
// temporary (a direct array copy between slices that may overlap calls
// memmove).
func copyRoot(dst, src []byte) {
	r := *(*Root)(src)
	*(*Root)(dst) = r
}
