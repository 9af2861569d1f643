package bls

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCommitteeMatchesKeys: for participation patterns from none to all,
// Committee.VerifyBits (which starts from the aggregate above half) gives
// Keys.VerifyBits's answer, for the right signature and a wrong one.
func TestCommitteeMatchesKeys(t *testing.T) {
	msg := []byte("signing root")
	k, sigs, _ := committee(t, 20, msg)
	raw := make([][PublicKeySize]byte, 20)
	for i := range raw {
		raw[i] = k.keys[i].Bytes()
	}
	all, _ := Aggregate(k.keys, allBits(20))
	c := NewCommittee(raw, all.Bytes())
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 60 {
		bits := make([]byte, 3)
		var part []Signature
		for i := range 20 {
			if trial == 1 || (trial > 1 && r.IntN(10) < trial%10) {
				bits[i/8] |= 1 << (i % 8)
				part = append(part, sigs[i])
			}
		}
		agg := AggregateSignatures(part)
		other := AggregateSignatures(append(part, sigs[0]))
		for _, s := range []*Signature{&agg, &other} {
			n1, err1 := k.VerifyBits(bits, msg, s)
			n2, err2 := c.VerifyBits(bits, msg, s)
			if n1 != n2 || (err1 == nil) != (err2 == nil) {
				t.Fatalf("bits %x: Keys %d, %v; Committee %d, %v", bits, n1, err1, n2, err2)
			}
		}
	}
}

// TestCommitteeUsesAggregate: above half participation the aggregate_pubkey
// is what is verified against (a wrong one fails), below it the keys are.
func TestCommitteeUsesAggregate(t *testing.T) {
	msg := []byte("m")
	k, sigs, _ := committee(t, 8, msg)
	raw := make([][PublicKeySize]byte, 8)
	for i := range raw {
		raw[i] = k.keys[i].Bytes()
	}
	wrong, _ := Aggregate(k.keys, []byte{0x7f})
	c := NewCommittee(raw, wrong.Bytes())
	most := AggregateSignatures(sigs[:7])
	if _, err := c.VerifyBits([]byte{0x7f}, msg, &most); !errors.Is(err, ErrSignature) {
		t.Fatalf("a wrong aggregate_pubkey verified: %v", err)
	}
	few := AggregateSignatures(sigs[:3])
	if n, err := c.VerifyBits([]byte{0x07}, msg, &few); err != nil || n != 3 {
		t.Fatalf("3 of 8: %d, %v", n, err)
	}
	// An invalid absent member's key is an error naming it.
	raw[7] = [PublicKeySize]byte{0xc0}
	right, _ := Aggregate(k.keys, allBits(8))
	c = NewCommittee(raw, right.Bytes())
	if _, err := c.VerifyBits([]byte{0x7f}, msg, &most); !errors.Is(err, ErrPublicKey) || !strings.HasPrefix(err.Error(), "key 7: ") {
		t.Fatalf("invalid absent key: %v", err)
	}
}

// BenchmarkCommitteeNew512 is the first verification by a committee new
// this period: 511 of 512 members, the aggregate and the one absent key
// decoded (go test -bench Committee -cpu 1).
func BenchmarkCommitteeNew512(b *testing.B) {
	msg := []byte("root")
	k, sigs, _ := committee(b, 512, msg)
	raw := make([][PublicKeySize]byte, 512)
	for i := range raw {
		raw[i] = k.keys[i].Bytes()
	}
	all, _ := Aggregate(k.keys, allBits(512))
	bits := allBits(512)
	bits[0] &^= 1
	sig := AggregateSignatures(sigs[1:])
	b.ResetTimer()
	for range b.N {
		c := NewCommittee(raw, all.Bytes())
		if n, err := c.VerifyBits(bits, msg, &sig); err != nil || n != 511 {
			b.Fatal(n, err)
		}
	}
}
