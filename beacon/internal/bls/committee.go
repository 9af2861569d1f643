package bls

import (
	"fmt"
	"math/bits"
	"sync"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
)

// Committee is a sync committee's keys and its aggregate_pubkey, for many
// verifications, decoded as verifications need them rather than all at
// once: decoding a key (decompression and the subgroup check) costs about
// 80 µs, 40 ms for 512, while a verification costs about 1.6 ms.
//
// When more than half the members take part, VerifyBits starts from the
// committee's aggregate_pubkey and subtracts the keys of the members that
// do not, so that a committee new this period costs the decoding of its
// aggregate and of the absent members' keys only. That trusts
// aggregate_pubkey to be the sum of the keys, as the state transition
// makes it (eth_aggregate_pubkeys) and as a light client trusts the keys
// themselves: both come in one SyncCommittee, under one hash tree root
// that the client has verified (a bootstrap's trusted root, or a branch
// under a header signed by the committee before). The participants' keys
// are then not decoded one by one; the aggregate of them passes
// KeyValidate in Verify. Keys is the type that checks every participant.
type Committee struct {
	mu    sync.Mutex
	raw   [][PublicKeySize]byte
	keys  []PublicKey
	state []uint8 // per key: 0 not decoded yet, 1 valid, 2 invalid
	errs  map[int]error
	agg   PublicKey
	aggOK bool
}

// NewCommittee keeps raw and aggregate; nothing is decoded yet but the
// aggregate (an invalid one is not used: every verification then sums the
// participants' keys).
func NewCommittee(raw [][PublicKeySize]byte, aggregate [PublicKeySize]byte) *Committee {
	c := &Committee{raw: raw, keys: make([]PublicKey, len(raw)), state: make([]uint8, len(raw)), errs: map[int]error{}}
	if agg, err := ParsePublicKey(aggregate[:]); err == nil {
		c.agg, c.aggOK = agg, true
	}
	return c
}

// Len returns the number of keys.
func (c *Committee) Len() int { return len(c.raw) }

// key decodes key i once. c.mu is held.
func (c *Committee) key(i int) (*PublicKey, error) {
	switch c.state[i] {
	case 1:
		return &c.keys[i], nil
	case 2:
		return nil, c.errs[i]
	}
	pk, err := ParsePublicKey(c.raw[i][:])
	if err != nil {
		c.state[i] = 2
		c.errs[i] = fmt.Errorf("key %d: %w", i, err)
		return nil, c.errs[i]
	}
	c.keys[i], c.state[i] = pk, 1
	return &c.keys[i], nil
}

// VerifyBits checks sig over msg by the members whose bit is set in bits
// (an SSZ Bitvector of Len bits), as Keys.VerifyBits does, and returns the
// number of participants. An invalid key it decodes (a participant's, or an
// absent member's when it starts from the aggregate) is an error naming
// it.
func (c *Committee) VerifyBits(bits []byte, msg []byte, sig *Signature) (int, error) {
	n := len(c.raw)
	if len(bits) != (n+7)/8 {
		return 0, fmt.Errorf("%w: %d bytes of participation bits for %d keys", ErrSignature, len(bits), n)
	}
	if r := n % 8; r != 0 && bits[len(bits)-1]>>r != 0 {
		return 0, fmt.Errorf("%w: participation bits set past the %d keys", ErrSignature, n)
	}
	count := 0
	for _, b := range bits {
		count += bits8(b)
	}
	if count == 0 {
		return 0, fmt.Errorf("%w: no participants", ErrSignature)
	}
	c.mu.Lock()
	var acc bls12381.G1Jac
	var err error
	if c.aggOK && 2*count > n {
		acc.FromAffine(&c.agg.p)
		for i := range n {
			if bits[i/8]>>(i%8)&1 == 0 {
				var pk *PublicKey
				if pk, err = c.key(i); err != nil {
					break
				}
				var neg bls12381.G1Affine
				neg.Neg(&pk.p)
				acc.AddMixed(&neg)
			}
		}
	} else {
		acc.X.SetOne()
		acc.Y.SetOne() // the point at infinity
		for i := range n {
			if bits[i/8]>>(i%8)&1 == 1 {
				var pk *PublicKey
				if pk, err = c.key(i); err != nil {
					break
				}
				acc.AddMixed(&pk.p)
			}
		}
	}
	c.mu.Unlock()
	if err != nil {
		return 0, err
	}
	var agg PublicKey
	agg.p.FromJacobian(&acc)
	if !Verify(&agg, msg, sig) {
		return count, fmt.Errorf("%w: the aggregate signature of %d participants does not verify", ErrSignature, count)
	}
	return count, nil
}

func bits8(b byte) int { return bits.OnesCount8(b) }
