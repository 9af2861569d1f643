package beacon

// Progressive merkleization (ssz/simple-serialize.md, EIP-7916 and
// EIP-7495), a hashing rule of its own that any progressive list or
// progressive container goes through, whatever the fork:
//
//	merkleize_progressive(chunks, num_leaves=1):
//	    zero chunk                                          if no chunks
//	    hash(merkleize(chunks[:num_leaves], num_leaves),
//	         merkleize_progressive(chunks[num_leaves:], 4*num_leaves))
//
// so the leaves fill subtrees of 1, 4, 16, 64, … leaves (depths 0, 2, 4,
// 6, …) from left to right, and the root chains the subtree roots from the
// last one back. A progressive list mixes its length into that root; a
// progressive container mixes in its active_fields bitvector.
//
// Each subtree is hashed by treeRoot, so a large one (the validator
// registry's last subtrees) is split over GOMAXPROCS goroutines exactly as a
// binary list is, and the total work is that of a binary tree of the same
// leaves.

// progressiveRoot returns merkleize_progressive of the n leaves that fill
// writes.
func progressiveRoot(n int, fill leafFiller) Root {
	// The roots of the subtrees (21 for 2^40 leaves), chained from the
	// last one back.
	subs := make([]Root, 0, 24)
	for start, size, depth := 0, 1, 0; start < n; start, size, depth = start+size, size*4, depth+2 {
		m := min(size, n-start)
		subs = append(subs, treeRoot(m, depth, offsetFill(fill, start)))
	}
	r := Root{}
	for i := len(subs) - 1; i >= 0; i-- {
		r = hashPair(&subs[i], &r)
	}
	return r
}

// offsetFill returns fill shifted by off leaves: leaf i of the result is
// leaf off+i of fill.
func offsetFill(fill leafFiller, off int) leafFiller {
	if off == 0 {
		return fill
	}
	return func(ws *workspace, dst []byte, from, to int) { fill(ws, dst, from+off, to+off) }
}

// progressiveListRoot returns the root of a progressive list of n elements
// in leaves chunks: merkleize_progressive with the length mixed in.
func progressiveListRoot(n, leaves int, fill leafFiller) Root {
	return mixInLength(progressiveRoot(leaves, fill), uint64(n))
}

// progressiveContainerRoot returns the root of a progressive container
// whose active_fields are all ones (every field present, as in every
// progressive container of gloasSpec), given its fields' roots, which it
// overwrites: merkleize_progressive of the roots with the active_fields
// bitvector mixed in.
func progressiveContainerRoot(roots []Root) Root {
	active := make([]bool, len(roots))
	for i := range active {
		active[i] = true
	}
	return progressiveContainerRootActive(roots, active)
}

// progressiveContainerRootActive is progressiveContainerRoot for any
// active_fields (at most 256 entries): the fields' roots sit at the indexes
// of the ones in active, zero chunks at the zeros.
func progressiveContainerRootActive(roots []Root, active []bool) Root {
	leaves := make([]Root, len(active))
	var bits Root
	j := 0
	for i, a := range active {
		if a {
			leaves[i] = roots[j]
			j++
			bits[i/8] |= 1 << (i % 8)
		}
	}
	r := progressiveRoot(len(leaves), fillRoots(leaves))
	return hashPair(&r, &bits)
}
