package bls

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

func TestParseSecretKeyBounds(t *testing.T) {
	r := fr.Modulus()
	be := func(n *big.Int) []byte { return n.FillBytes(make([]byte, 32)) }
	for _, c := range []struct {
		name string
		b    []byte
		ok   bool
	}{
		{"zero", make([]byte, 32), false},
		{"one", be(big.NewInt(1)), true},
		{"r-1", be(new(big.Int).Sub(r, big.NewInt(1))), true},
		{"r", be(r), false},
		{"r+1", be(new(big.Int).Add(r, big.NewInt(1))), false},
		{"all ones", bytes.Repeat([]byte{0xff}, 32), false},
		{"31 bytes", make([]byte, 31), false},
		{"33 bytes", append(be(big.NewInt(1)), 0), false},
	} {
		sk, err := ParseSecretKey(c.b)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if err != nil && !errors.Is(err, ErrSecretKey) {
			t.Errorf("%s: %v is not ErrSecretKey", c.name, err)
		}
		if err == nil {
			if got := sk.Bytes(); !bytes.Equal(got[:], c.b) {
				t.Errorf("%s: Bytes = %x", c.name, got)
			}
		}
	}
}

// committee makes n interop keys, their decoded Keys, and each key's
// signature of msg.
func committee(tb testing.TB, n int, msg []byte) (*Keys, []Signature, []SecretKey) {
	tb.Helper()
	raw := make([][PublicKeySize]byte, n)
	sigs := make([]Signature, n)
	sks := make([]SecretKey, n)
	for i := range n {
		sk, err := InteropSecretKey(uint64(i))
		if err != nil {
			tb.Fatal(err)
		}
		pk := sk.PublicKey()
		raw[i] = pk.Bytes()
		sigs[i] = sk.Sign(msg)
		sks[i] = sk
	}
	return NewKeys(raw), sigs, sks
}

func TestVerifyBitsParticipants(t *testing.T) {
	msg := []byte("signing root")
	k, sigs, _ := committee(t, 12, msg)
	bits := []byte{0b1010_0101, 0b0000_1001} // keys 0, 2, 5, 7, 8, 11
	var part []Signature
	for _, i := range []int{0, 2, 5, 7, 8, 11} {
		part = append(part, sigs[i])
	}
	agg := AggregateSignatures(part)
	if n, err := k.VerifyBits(bits, msg, &agg); err != nil || n != 6 {
		t.Fatalf("VerifyBits = %d, %v; want 6 participants", n, err)
	}
	// One bit more or less: the aggregate no longer verifies.
	for _, b := range [][]byte{{0b1010_0111, 0b0000_1001}, {0b1010_0101, 0b0000_0001}} {
		if n, err := k.VerifyBits(b, msg, &agg); !errors.Is(err, ErrSignature) || !strings.Contains(err.Error(), fmt.Sprintf("%d participants", n)) {
			t.Errorf("bits %08b: %d, %v; want ErrSignature naming the participants", b, n, err)
		}
	}
	for _, c := range []struct {
		bits []byte
		want string
	}{
		{[]byte{0xff}, "1 bytes of participation bits for 12 keys"},
		{[]byte{0xff, 0x0f, 0}, "3 bytes of participation bits for 12 keys"},
		{[]byte{0xa5, 0x19}, "participation bits set past the 12 keys"},
		{[]byte{0, 0}, "no participants"},
	} {
		if _, err := k.VerifyBits(c.bits, msg, &agg); !errors.Is(err, ErrSignature) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("bits %x: %v, want %q", c.bits, err, c.want)
		}
	}
}

func TestVerifyBitsInvalidKey(t *testing.T) {
	msg := []byte("m")
	k, sigs, _ := committee(t, 8, msg)
	raw := make([][PublicKeySize]byte, 8)
	for i := range raw {
		raw[i] = k.keys[i].Bytes()
	}
	raw[3] = [PublicKeySize]byte{0xc0} // infinity: KeyValidate fails
	raw[6][0] ^= 0x80                  // not compressed
	bad := NewKeys(raw)
	agg := AggregateSignatures([]Signature{sigs[0], sigs[1]})
	if n, err := bad.VerifyBits([]byte{0b11}, msg, &agg); err != nil || n != 2 {
		t.Fatalf("invalid keys that do not take part: %d, %v", n, err)
	}
	// Both invalid keys take part: the error names the lowest, every time.
	for range 20 {
		_, err := bad.VerifyBits([]byte{0b0100_1011}, msg, &agg)
		if !errors.Is(err, ErrPublicKey) || !strings.HasPrefix(err.Error(), "key 3: ") {
			t.Fatalf("invalid keys taking part: %v, want key 3's error", err)
		}
	}
}

func TestFastAggregateVerifyEmpty(t *testing.T) {
	var inf Signature // the point at infinity
	if FastAggregateVerify(nil, []byte("m"), &inf) {
		t.Fatal("no keys verified the infinity signature")
	}
}

func TestSignDeterministic(t *testing.T) {
	sk, _ := InteropSecretKey(7)
	a, b := sk.Sign([]byte("x")), sk.Sign([]byte("x"))
	if a != b {
		t.Fatal("two signatures of one message differ")
	}
	if c := sk.Sign([]byte("y")); c == a {
		t.Fatal("two messages, one signature")
	}
}

// FuzzParsePublicKey: any 48 bytes either fail with ErrPublicKey or are a
// key that re-encodes to the same bytes (the encoding is canonical).
func FuzzParsePublicKey(f *testing.F) {
	for _, e := range loadVectors(f).PublicKeyEncodings {
		f.Add([]byte(e.Bytes))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		pk, err := ParsePublicKey(b)
		if err != nil {
			if !errors.Is(err, ErrPublicKey) {
				t.Fatalf("%x: %v", b, err)
			}
			return
		}
		if got := pk.Bytes(); !bytes.Equal(got[:], b) {
			t.Fatalf("%x re-encodes as %x", b, got)
		}
		if pk.p.IsInfinity() || !pk.p.IsInSubGroup() {
			t.Fatalf("%x: accepted outside KeyValidate", b)
		}
	})
}

// FuzzParseSignature: the same for signatures.
func FuzzParseSignature(f *testing.F) {
	for _, e := range loadVectors(f).SignatureEncodings {
		f.Add([]byte(e.Bytes))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sig, err := ParseSignature(b)
		if err != nil {
			if !errors.Is(err, ErrSignature) {
				t.Fatalf("%x: %v", b, err)
			}
			return
		}
		if got := sig.Bytes(); !bytes.Equal(got[:], b) {
			t.Fatalf("%x re-encodes as %x", b, got)
		}
		if !sig.p.IsInSubGroup() {
			t.Fatalf("%x: accepted outside the subgroup", b)
		}
	})
}

// FuzzVerifyBits: any participation bits and signature bytes against a
// fixed committee never panic, a nil error means the signature verifies,
// and Committee answers as Keys does.
func FuzzVerifyBits(f *testing.F) {
	msg := []byte("fuzz")
	k, sigs, _ := committee(f, 10, msg)
	raw := make([][PublicKeySize]byte, 10)
	for i := range raw {
		raw[i] = k.keys[i].Bytes()
	}
	whole, _ := Aggregate(k.keys, allBits(10))
	comm := NewCommittee(raw, whole.Bytes())
	good := AggregateSignatures(sigs[:3])
	gb := good.Bytes()
	f.Add([]byte{0b111, 0}, gb[:])
	f.Add([]byte{0xff, 0x03}, gb[:])
	f.Add([]byte{0xff}, gb[:])
	f.Fuzz(func(t *testing.T, bits, sigB []byte) {
		sig, err := ParseSignature(sigB)
		if err != nil {
			return
		}
		n, err := k.VerifyBits(bits, msg, &sig)
		if err == nil && (n == 0 || !Verify(func() *PublicKey { a, _ := Aggregate(k.keys, bits); return &a }(), msg, &sig)) {
			t.Fatalf("bits %x sig %x: accepted with %d participants", bits, sigB, n)
		}
		if n2, err2 := comm.VerifyBits(bits, msg, &sig); n2 != n || (err2 == nil) != (err == nil) {
			t.Fatalf("bits %x sig %x: Keys %d, %v; Committee %d, %v", bits, sigB, n, err, n2, err2)
		}
	})
}

// BenchmarkFastAggregateVerify512 is one sync committee signature check: 512
// decoded keys, all participating (go test -bench FastAggregateVerify -cpu 1).
func BenchmarkFastAggregateVerify512(b *testing.B) {
	msg := bytes.Repeat([]byte{0xab}, 32)
	k, sigs, _ := committee(b, 512, msg)
	agg := AggregateSignatures(sigs)
	bits := allBits(512)
	b.ResetTimer()
	for range b.N {
		if _, err := k.VerifyBits(bits, msg, &agg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewKeys512 is decoding a sync committee's keys (once per period).
func BenchmarkNewKeys512(b *testing.B) {
	k, _, _ := committee(b, 512, nil)
	raw := make([][PublicKeySize]byte, 512)
	for i := range raw {
		raw[i] = k.keys[i].Bytes()
	}
	b.ResetTimer()
	for range b.N {
		NewKeys(raw)
	}
}
