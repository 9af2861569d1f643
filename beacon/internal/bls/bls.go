// Package bls is the BLS12-381 signature scheme the beacon chain uses
// (consensus-specs phase0 "BLS signatures": the IETF draft's
// BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_ ciphersuite, public keys in
// G1, signatures in G2), as much of it as a light client and a test server
// need: public keys and signatures decoded from their 48- and 96-byte
// compressed forms with the checks the specs require (KeyValidate: a key is
// not the point at infinity and lies in the prime-order subgroup; a
// signature lies in the subgroup), FastAggregateVerify, and deterministic
// secret keys that sign (for local servers and tests, never for real
// funds).
//
// The curve arithmetic is gnark-crypto's (github.com/consensys/gnark-crypto,
// ecc/bls12-381): pure Go with assembly for amd64 and arm64, no cgo, the
// library go-ethereum itself uses for the EIP-2537 precompiles, so it is
// already in this module's dependency graph. Hashing to G2 is its RFC 9380
// hash_to_curve (expand_message_xmd with SHA-256, the simplified SWU map,
// the 3-isogeny and cofactor clearing).
//
// Why not go-ethereum's beacon/types (which verifies sync committee
// signatures with github.com/protolambda/bls12-381-util over
// kilic/bls12-381): importing it links attestantio/go-eth2-client, trie,
// rlp and core/types into every program that imports the light client, and
// pulls protolambda and kilic into this module besides gnark; its committee
// is a fixed [512] array (the mainnet preset only); and its key type
// decompresses each key on every verification unless the caller keeps the
// deserialized committee. Here a committee's keys are decompressed once
// (Keys) and each verification is one aggregation and one pairing check.
package bls

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// DST is the domain separation tag of the beacon chain's signatures: the
// proof-of-possession ciphersuite of the IETF BLS draft.
const DST = "BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_"

// The sizes of the compressed encodings.
const (
	PublicKeySize = 48
	SignatureSize = 96
)

// The errors of decoding; every one also says why in its text.
var (
	// ErrPublicKey: 48 bytes that are not a valid public key.
	ErrPublicKey = errors.New("bls: invalid public key")
	// ErrSignature: 96 bytes that are not a valid signature.
	ErrSignature = errors.New("bls: invalid signature")
	// ErrSecretKey: a secret key that is zero or not below the group order.
	ErrSecretKey = errors.New("bls: invalid secret key")
)

// PublicKey is a validated public key: a point of G1's prime-order
// subgroup other than the point at infinity (the specs' KeyValidate).
type PublicKey struct{ p bls12381.G1Affine }

// Signature is a validated signature: a point of G2's prime-order subgroup
// (the point at infinity included, as signature_to_point allows; it
// verifies for no valid key).
type Signature struct{ p bls12381.G2Affine }

// compressed reports whether the three flag bits of b's first byte are a
// compressed encoding (the compression bit set; the infinity bit with the
// sign bit clear).
func compressed(b0 byte) bool { return b0&0x80 != 0 && !(b0&0x40 != 0 && b0&0x20 != 0) }

// ParsePublicKey decodes a compressed public key and checks it as
// KeyValidate does: a canonical encoding (the compression flag set, the
// x-coordinate below the field modulus, the infinity flag only with zero
// bits after it), a point on the curve, not the point at infinity, in the
// prime-order subgroup.
func ParsePublicKey(b []byte) (PublicKey, error) {
	var pk PublicKey
	if len(b) != PublicKeySize {
		return pk, fmt.Errorf("%w: %d bytes, want %d", ErrPublicKey, len(b), PublicKeySize)
	}
	if !compressed(b[0]) {
		return pk, fmt.Errorf("%w: not a compressed point (flag bits %03b)", ErrPublicKey, b[0]>>5)
	}
	if _, err := pk.p.SetBytes(b); err != nil {
		return pk, fmt.Errorf("%w: %v", ErrPublicKey, err)
	}
	if pk.p.IsInfinity() {
		return pk, fmt.Errorf("%w: the point at infinity", ErrPublicKey)
	}
	return pk, nil
}

// ParseSignature decodes a compressed signature: a canonical encoding, a
// point on the twist, in the prime-order subgroup (signature_to_point and
// signature_subgroup_check).
func ParseSignature(b []byte) (Signature, error) {
	var sig Signature
	if len(b) != SignatureSize {
		return sig, fmt.Errorf("%w: %d bytes, want %d", ErrSignature, len(b), SignatureSize)
	}
	if !compressed(b[0]) {
		return sig, fmt.Errorf("%w: not a compressed point (flag bits %03b)", ErrSignature, b[0]>>5)
	}
	if _, err := sig.p.SetBytes(b); err != nil {
		return sig, fmt.Errorf("%w: %v", ErrSignature, err)
	}
	return sig, nil
}

// Bytes returns the compressed encoding of pk.
func (pk *PublicKey) Bytes() [PublicKeySize]byte { return pk.p.Bytes() }

// Bytes returns the compressed encoding of sig.
func (sig *Signature) Bytes() [SignatureSize]byte { return sig.p.Bytes() }

// hashToG2 is hash_to_point of the ciphersuite.
func hashToG2(msg []byte) bls12381.G2Affine {
	h, err := bls12381.HashToG2(msg, []byte(DST))
	if err != nil {
		// Only a DST over 255 bytes fails; DST is a constant.
		panic("bls: hash to G2: " + err.Error())
	}
	return h
}

// negG1 is the negated generator of G1, for the pairing check.
var negG1 = func() bls12381.G1Affine {
	_, _, g1, _ := bls12381.Generators()
	var n bls12381.G1Affine
	n.Neg(&g1)
	return n
}()

// Verify is the draft's CoreVerify of a signature by one public key (an
// aggregate one in FastAggregateVerify): e(pk, H(msg)) == e(g1, sig).
func Verify(pk *PublicKey, msg []byte, sig *Signature) bool {
	if pk.p.IsInfinity() {
		return false // KeyValidate of an aggregate that cancelled out
	}
	h := hashToG2(msg)
	ok, err := bls12381.PairingCheck([]bls12381.G1Affine{pk.p, negG1}, []bls12381.G2Affine{h, sig.p})
	return err == nil && ok
}

// Aggregate returns the sum of the keys of keys whose bit is set in bits
// (bit i of bits is bits[i/8]>>(i%8)&1, the SSZ Bitvector order), and how
// many they were. bits must have len(keys)/8 bytes at least; a key
// decoded wrongly (a zero PublicKey) is not looked at: Keys refuses those.
func Aggregate(keys []PublicKey, bits []byte) (agg PublicKey, n int) {
	var acc bls12381.G1Jac
	acc.X.SetOne()
	acc.Y.SetOne() // the point at infinity in Jacobian coordinates
	for i := range keys {
		if bits[i/8]>>(i%8)&1 == 1 {
			acc.AddMixed(&keys[i].p)
			n++
		}
	}
	agg.p.FromJacobian(&acc)
	return agg, n
}

// FastAggregateVerify is the draft's FastAggregateVerify: sig verifies msg
// under the sum of keys. No keys (or keys that sum to the point at
// infinity) verify nothing.
func FastAggregateVerify(keys []PublicKey, msg []byte, sig *Signature) bool {
	if len(keys) == 0 {
		return false
	}
	all := make([]byte, (len(keys)+7)/8)
	for i := range all {
		all[i] = 0xff
	}
	agg, _ := Aggregate(keys, all)
	return Verify(&agg, msg, sig)
}

// SecretKey is a BLS secret key: a scalar in [1, r) for the group order r.
// It exists for local servers and tests (a sync committee that signs the
// headers it serves); it is no key store.
type SecretKey struct{ s fr.Element }

// InteropSecretKey returns the secret key of validator i of the
// consensus clients' interop test networks: SHA-256 of i as 32
// little-endian bytes, read as a little-endian integer, modulo the group
// order (Lodestar's, Prysm's and Lighthouse's interop keys; zero never
// comes out of SHA-256 in practice and is refused).
func InteropSecretKey(i uint64) (SecretKey, error) {
	var in [32]byte
	for j := range 8 {
		in[j] = byte(i >> (8 * j))
	}
	h := sha256.Sum256(in[:])
	var be [32]byte
	for j := range h {
		be[j] = h[31-j]
	}
	var sk SecretKey
	sk.s.SetBytes(be[:]) // reduces modulo r
	if sk.s.IsZero() {
		return SecretKey{}, fmt.Errorf("%w: interop key %d is zero", ErrSecretKey, i)
	}
	return sk, nil
}

// ParseSecretKey reads a 32-byte big-endian scalar, which must be in
// [1, r).
func ParseSecretKey(b []byte) (SecretKey, error) {
	var sk SecretKey
	if len(b) != 32 {
		return sk, fmt.Errorf("%w: %d bytes, want 32", ErrSecretKey, len(b))
	}
	if err := sk.s.SetBytesCanonical(b); err != nil {
		return sk, fmt.Errorf("%w: not below the group order", ErrSecretKey)
	}
	if sk.s.IsZero() {
		return sk, fmt.Errorf("%w: zero", ErrSecretKey)
	}
	return sk, nil
}

// Bytes returns sk as 32 big-endian bytes.
func (sk *SecretKey) Bytes() [32]byte { return sk.s.Bytes() }

// PublicKey returns sk's public key, sk times the generator of G1.
func (sk *SecretKey) PublicKey() PublicKey {
	var pk PublicKey
	pk.p.ScalarMultiplicationBase(sk.s.BigInt(new(big.Int)))
	return pk
}

// Sign signs msg: sk times H(msg).
func (sk *SecretKey) Sign(msg []byte) Signature {
	h := hashToG2(msg)
	var sig Signature
	sig.p.ScalarMultiplication(&h, sk.s.BigInt(new(big.Int)))
	return sig
}

// SumSecretKeys returns the sum of sks modulo the group order: the key
// whose signature of a message is the sum of sks' signatures of it (one
// scalar multiplication where len(sks) would take as many). A local
// server signs a sync committee's aggregate with it. The sum of none, or
// of keys that cancel, is zero, whose signature is the point at infinity.
func SumSecretKeys(sks []SecretKey) SecretKey {
	var sum SecretKey
	for i := range sks {
		sum.s.Add(&sum.s, &sks[i].s)
	}
	return sum
}

// AggregateSignatures returns the sum of sigs (the point at infinity for
// none).
func AggregateSignatures(sigs []Signature) Signature {
	var acc bls12381.G2Jac
	acc.X.SetOne()
	acc.Y.SetOne()
	for i := range sigs {
		acc.AddMixed(&sigs[i].p)
	}
	var out Signature
	out.p.FromJacobian(&acc)
	return out
}

// Keys decodes a committee's compressed keys once, for many
// verifications. A key that fails ParsePublicKey is kept as its error: a
// verification in which it takes part fails with that error, as the
// specs' FastAggregateVerify does for an invalid participant; one that
// leaves it out is not affected.
type Keys struct {
	keys []PublicKey
	bad  []int // the indices of keys that failed to decode, ascending
	errs map[int]error
}

// NewKeys decodes raw, each of PublicKeySize bytes.
func NewKeys(raw [][PublicKeySize]byte) *Keys {
	k := &Keys{keys: make([]PublicKey, len(raw))}
	for i := range raw {
		pk, err := ParsePublicKey(raw[i][:])
		if err != nil {
			if k.errs == nil {
				k.errs = map[int]error{}
			}
			k.errs[i] = fmt.Errorf("key %d: %w", i, err)
			k.bad = append(k.bad, i)
			continue
		}
		k.keys[i] = pk
	}
	return k
}

// Len returns the number of keys.
func (k *Keys) Len() int { return len(k.keys) }

// VerifyBits checks sig over msg by the keys whose bit is set in bits (an
// SSZ Bitvector of Len bits): FastAggregateVerify of the participants. It
// returns the number of participants, and an error naming an invalid
// participant key, a wrong number of bits, or a signature that does not
// verify (ErrSignature). Bits past Len (in the last byte) must be clear,
// as in an SSZ Bitvector.
func (k *Keys) VerifyBits(bits []byte, msg []byte, sig *Signature) (int, error) {
	if len(bits) != (len(k.keys)+7)/8 {
		return 0, fmt.Errorf("%w: %d bytes of participation bits for %d keys", ErrSignature, len(bits), len(k.keys))
	}
	if r := len(k.keys) % 8; r != 0 && bits[len(bits)-1]>>r != 0 {
		return 0, fmt.Errorf("%w: participation bits set past the %d keys", ErrSignature, len(k.keys))
	}
	for _, i := range k.bad {
		if bits[i/8]>>(i%8)&1 == 1 {
			return 0, k.errs[i]
		}
	}
	agg, n := Aggregate(k.keys, bits)
	if n == 0 {
		return 0, fmt.Errorf("%w: no participants", ErrSignature)
	}
	if !Verify(&agg, msg, sig) {
		return n, fmt.Errorf("%w: the aggregate signature of %d participants does not verify", ErrSignature, n)
	}
	return n, nil
}
