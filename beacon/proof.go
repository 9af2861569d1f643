package beacon

import (
	"crypto/sha256"
	"fmt"
	"math/bits"
)

// GIndex is a generalized index (ssz/merkle-proofs.md): the position of a
// node in a binary merkle tree, numbered from the root as 1, the children
// of node g being 2g (left) and 2g+1 (right). Its depth is the number of
// bits after the leading one, and those bits, from the top, are the path
// from the root (0 left, 1 right).
//
// In the state's tree, field i of a container of n fields is
// 2^ceil(log2(n)) + i below the container's node; a List's elements hang
// below its left child (the right one is the length), element i being
// 2^ceil(log2(limit in chunks)) + i below it; the specs'
// concat_generalized_indices composes them. A progressive list or
// container (gloas's state, bid and registry lists) has its chunks in
// subtrees of 1, 4, 16, … leaves chained to the right below its left child
// instead. Prover.GIndexOf computes both layouts from a path.
type GIndex uint64

// Depth returns the depth of g below the root (the root, 1, is depth 0):
// floor(log2(g)), as the specs' get_generalized_index_length.
func (g GIndex) depth() int {
	if g == 0 {
		return 0
	}
	return bits.Len64(uint64(g)) - 1
}

// Index returns g's position among the nodes of its depth, counted from
// the left from 0 (the specs' get_subtree_index, the index argument of
// is_valid_merkle_branch).
func (g GIndex) index() uint64 { return uint64(g) - 1<<g.depth() }

// concatGIndices returns the generalized index of the node that gs reach
// one after the other: gs[0] in the tree of the root, gs[1] in the
// subtree below that node, and so on (the specs'
// concat_generalized_indices). It fails when the result does not fit in
// 64 bits, or for a zero index.
func concatGIndices(gs ...GIndex) (GIndex, error) {
	o := GIndex(1)
	for _, g := range gs {
		if g == 0 {
			return 0, fmt.Errorf("beacon: generalized index 0 names no node")
		}
		d := g.depth()
		if o.depth()+d > 63 {
			return 0, fmt.Errorf("beacon: generalized index too deep: %d levels, over 63", o.depth()+d)
		}
		o = o<<d | GIndex(g.index())
	}
	return o, nil
}

// Proof is a merkle branch from a leaf up to a root: Branch holds the
// sibling of each node on the path from the leaf to the root, bottom-up
// (Branch[0] is the leaf's sibling), so len(Branch) is the number of bits
// of GIndex after its leading 1.
// Verify checks it with the specs' is_valid_merkle_branch; nothing else
// (no state, no tree) is needed.
type Proof struct {
	// Leaf is the 32-byte node proven: a field's hash tree root, or the
	// chunk that holds a packed value (a balance shares its chunk with
	// three others: validator i's balance is the (i%4)th little-endian
	// uint64 of the Leaf proven at Prover.GIndexOf("balances", i)).
	Leaf Root
	// Branch is the siblings of the path, bottom-up.
	Branch []Root
	// GIndex is the generalized index of Leaf in the tree of the root.
	GIndex GIndex
}

// Verify reports whether p proves p.Leaf at p.GIndex under root: the
// specs' is_valid_merkle_branch(leaf, branch, depth, index, root) with
// depth and index from the generalized index. A branch whose length is
// not the index's depth does not verify.
func (p Proof) Verify(root Root) bool {
	if p.GIndex == 0 || len(p.Branch) != p.GIndex.depth() {
		return false
	}
	return isValidMerkleBranch(p.Leaf, p.Branch, p.GIndex.depth(), p.GIndex.index(), root)
}

// isValidMerkleBranch is the consensus specs' is_valid_merkle_branch:
// whether hashing leaf up with branch (bottom-up) through depth levels, at
// position index among the nodes of that depth, gives root. Branch must
// hold at least depth roots (extra ones are ignored, as in the specs).
func isValidMerkleBranch(leaf Root, branch []Root, depth int, index uint64, root Root) bool {
	if depth < 0 || depth > 64 || len(branch) < depth {
		return false
	}
	value := leaf
	var buf [64]byte
	for i := range depth {
		if index>>i&1 == 1 {
			copy(buf[:32], branch[i][:])
			copy(buf[32:], value[:])
		} else {
			copy(buf[:32], value[:])
			copy(buf[32:], branch[i][:])
		}
		value = sha256.Sum256(buf[:])
	}
	return value == root
}
