package beacon

import (
	"strings"
	"testing"
)

// The generalized-index arithmetic of ssz/merkle-proofs.md: depth,
// subtree index and concatenation, with the bounds of a 64-bit index.
func TestGIndexArithmetic(t *testing.T) {
	if GIndex(1).depth() != 0 || GIndex(11).depth() != 3 || GIndex(11).index() != 3 {
		t.Fatal("depth or index of 1 and 11")
	}
	g, err := concatGIndices(11, 43, 2)
	if err != nil || g != GIndex(11<<6|(43-32)<<1) { // 43, then its left child
		t.Fatalf("concat(11, 43, 2) = %d, %v", g, err)
	}
	if g, err = concatGIndices(); err != nil || g != 1 {
		t.Fatalf("concat() = %d, %v", g, err)
	}
	if _, err = concatGIndices(1<<40, 1<<30); err == nil || !strings.Contains(err.Error(), "too deep: 70 levels") {
		t.Fatalf("70 levels: %v", err)
	}
	if _, err = concatGIndices(3, 0); err == nil {
		t.Fatal("a zero gindex concatenated")
	}
	if (Proof{}).Verify(Root{}) {
		t.Fatal("the zero proof proves nothing")
	}
}
