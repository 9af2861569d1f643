package beacon

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"
)

// Hand-computed roots, straight from the definition in
// ssz/simple-serialize.md with crypto/sha256, for the merkleization
// building blocks.

func h(parts ...[]byte) [32]byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return sha256.Sum256(b)
}

func chunk64(v uint64) []byte {
	c := make([]byte, 32)
	binary.LittleEndian.PutUint64(c, v)
	return c
}

func zero(d int) []byte {
	z := make([]byte, 32)
	for range d {
		r := h(z, z)
		z = r[:]
	}
	return z
}

func TestCheckpointRootByHand(t *testing.T) {
	cp := Checkpoint{Epoch: 0x0102030405, Root: Root{1, 2, 3, 31: 9}}
	want := h(chunk64(0x0102030405), cp.Root[:])
	if got := checkpointRoot(&cp); got != want {
		t.Fatalf("got %x want %x", got, want)
	}
}

func TestValidatorRootByHand(t *testing.T) {
	v := Validator{EffectiveBalance: 32e9, Slashed: true, ActivationEligibilityEpoch: 1, ActivationEpoch: 2, ExitEpoch: 3, WithdrawableEpoch: FarFutureEpoch}
	for i := range v.PublicKey {
		v.PublicKey[i] = byte(i + 1)
	}
	v.WithdrawalCredentials[0] = 1
	v.WithdrawalCredentials[31] = 0xaa
	pk := h(v.PublicKey[:32], append(append([]byte{}, v.PublicKey[32:]...), make([]byte, 16)...))
	slashed := make([]byte, 32)
	slashed[0] = 1
	l := [8][]byte{pk[:], v.WithdrawalCredentials[:], chunk64(32e9), slashed, chunk64(1), chunk64(2), chunk64(3), chunk64(1<<64 - 1)}
	a, b, c, d := h(l[0], l[1]), h(l[2], l[3]), h(l[4], l[5]), h(l[6], l[7])
	e, f := h(a[:], b[:]), h(c[:], d[:])
	want := h(e[:], f[:])

	vals := []Validator{v}
	if got := treeRoot(1, 0, fillValidators(vals)); got != want {
		t.Fatalf("small path: got %x want %x", got, want)
	}
	// The bulk path: 40 copies, so the leaves go through gohashtree.
	vals = make([]Validator, 40)
	for i := range vals {
		vals[i] = v
	}
	buf := make([]byte, 32*40)
	fillValidators(vals)(&workspace{}, buf, 0, 40)
	for i := range 40 {
		if Root(buf[32*i:32*i+32]) != want {
			t.Fatalf("bulk path: validator %d root %x want %x", i, buf[32*i:32*i+32], want)
		}
	}
}

func TestEmptyListRootByHand(t *testing.T) {
	f := field{n: 1 << 40}
	want := h(zero(40), chunk64(0))
	if got := collectionRoot(&f, 0, 0, fillValidators(nil)); got != want {
		t.Fatalf("empty List[Validator, 2^40]: got %x want %x", got, want)
	}
	// List[uint64, 2^40] packs 4 per chunk: depth 38.
	want = h(zero(38), chunk64(0))
	if got := collectionRoot(&f, 0, 8, fillUint64s([]Gwei(nil))); got != want {
		t.Fatalf("empty List[uint64, 2^40]: got %x want %x", got, want)
	}
}

func TestFullListRootByHand(t *testing.T) {
	roots := []Root{{1}, {2}, {3}, {4}}
	f := field{n: 4}
	ab, cd := h(roots[0][:], roots[1][:]), h(roots[2][:], roots[3][:])
	top := h(ab[:], cd[:])
	want := h(top[:], chunk64(4))
	if got := collectionRoot(&f, 4, 32, fillRoots(roots)); got != want {
		t.Fatalf("full List[Root, 4]: got %x want %x", got, want)
	}
	// The same as a vector: no length mixed in.
	f.vector = true
	if got := collectionRoot(&f, 4, 32, fillRoots(roots)); got != Root(top) {
		t.Fatalf("Vector[Root, 4]: got %x want %x", got, top)
	}
	// Five balances in a List[uint64, 8]: two chunks, depth 1.
	bal := []Gwei{1, 2, 3, 4, 5}
	c0 := append(append(append(chunk64(1)[:8], chunk64(2)[:8]...), chunk64(3)[:8]...), chunk64(4)[:8]...)
	root := h(c0, chunk64(5))
	want = h(root[:], chunk64(5))
	f = field{n: 8}
	if got := collectionRoot(&f, 5, 8, fillUint64s(bal)); got != want {
		t.Fatalf("List[uint64, 8]: got %x want %x", got, want)
	}
}

func TestBitlistRootByHand(t *testing.T) {
	// Bits 1,0,1 then the length bit: 0b1101. Bitlist[2048] has 8 chunks.
	c := make([]byte, 32)
	c[0] = 0b101
	l1 := h(c, zero(0))
	l2 := h(l1[:], zero(1))
	l3 := h(l2[:], zero(2))
	want := h(l3[:], chunk64(3))
	if got := bitlistRoot(Bitlist{0b1101}, 2048); got != want {
		t.Fatalf("3 bits: got %x want %x", got, want)
	}
	// Eight bits: the length bit sits alone in a second byte.
	c[0] = 0xff
	l1 = h(c, zero(0))
	l2 = h(l1[:], zero(1))
	l3 = h(l2[:], zero(2))
	want = h(l3[:], chunk64(8))
	if got := bitlistRoot(Bitlist{0xff, 0x01}, 2048); got != want {
		t.Fatalf("8 bits: got %x want %x", got, want)
	}
	// No bits.
	want = h(zero(3), chunk64(0))
	if got := bitlistRoot(Bitlist{0x01}, 2048); got != want {
		t.Fatalf("0 bits: got %x want %x", got, want)
	}
}
