package beacon

import (
	"fmt"

	"github.com/nodeaccess/nodeaccess/beacon/internal/merkle"
)

// The prover's progressive trees (EIP-7916 lists, EIP-7495 containers) and
// their generalized indices. merkleize_progressive puts leaves 0, 1-4,
// 5-20, 21-84, … in subtrees k = 0, 1, 2, … of 4^k leaves (depth 2k), and
// chains them: the root is hash(subtree 0, hash(subtree 1, hash(…, zero))).
// So below the progressive root, subtree k is k right steps then one left
// step, and leaf j of it 2k more steps: the relative gindex of leaf pos is
// (2^(k+2) - 2) * 4^k + (pos - (4^k - 1)/3), of depth 3k + 1. A progressive
// list's contents (and a progressive container's fields) are the left
// child of its node; the right one is the length (the active_fields
// bitvector).

// progressiveGIndex returns the gindex of leaf pos below the root of
// merkleize_progressive (not of the list or container, whose node is one
// level up). A leaf whose gindex would not fit in 64 bits (pos of 4^20 and
// more, subtrees from k = 21, depth 3k + 1 over 63) is an error.
func progressiveGIndex(pos uint64) (GIndex, error) {
	k, start, size := 0, uint64(0), uint64(1)
	for pos-start >= size {
		start += size
		size *= 4
		k++
		if 3*k+1 > 63 {
			return 0, fmt.Errorf("beacon: leaf %d of a progressive tree: generalized index too deep (over 63 levels)", pos)
		}
	}
	g := GIndex(1)<<(k+2) - 2 // the leading one, k ones, a zero
	return g<<(2*k) | GIndex(pos-start), nil
}

// progressiveSubtrees calls sub for each subtree of a progressive tree of
// n leaves: its index k, its first leaf and its number of leaves.
func progressiveSubtrees(n int, sub func(k, start, m int) tnode) tnode {
	var subs []tnode
	for k, start, size := 0, 0, 1; start < n; k, start, size = k+1, start+size, size*4 {
		subs = append(subs, sub(k, start, min(size, n-start)))
	}
	var r tnode = zeroNode(0)
	for i := len(subs) - 1; i >= 0; i-- {
		r = pair(subs[i], r)
	}
	return r
}

// progressiveListNode is progressiveListRoot as a node: n elements in
// leaves chunks, kept as the binary collections are (newChunkTree).
func progressiveListNode(n, leaves int, fill leafFiller, elem func(int) tnode) tnode {
	t := progressiveSubtrees(leaves, func(k, start, m int) tnode {
		var e func(int) tnode
		if elem != nil {
			e = func(i int) tnode { return elem(start + i) }
		}
		return newChunkTree(m, 2*k, merkle.OffsetFill(fill, start), e).rootNode()
	})
	return mixin(t, uint64(n))
}

// progressiveContainerNode is progressiveContainerRoot as a node: the
// fields' nodes, all active.
func progressiveContainerNode(fields ...tnode) tnode {
	t := progressiveSubtrees(len(fields), func(k, start, m int) tnode {
		return dense(fields[start:start+m], 2*k)
	})
	var bits Root
	for i := range fields {
		bits[i/8] |= 1 << (i % 8)
	}
	return pair(t, leafNode(bits))
}
