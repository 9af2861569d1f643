package merkle

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
// Each subtree is hashed by TreeRoot, so a large one (the validator
// registry's last subtrees) is split over GOMAXPROCS goroutines exactly as a
// binary list is, and the total work is that of a binary tree of the same
// leaves.

// Progressive returns merkleize_progressive of the n leaves that fill
// writes.
func Progressive(n int, fill Filler) [32]byte {
	// The roots of the subtrees (21 for 2^40 leaves), chained from the
	// last one back.
	subs := make([][32]byte, 0, 24)
	for start, size, depth := 0, 1, 0; start < n; start, size, depth = start+size, size*4, depth+2 {
		m := min(size, n-start)
		subs = append(subs, TreeRoot(m, depth, OffsetFill(fill, start)))
	}
	var r [32]byte
	for i := len(subs) - 1; i >= 0; i-- {
		r = HashPair(&subs[i], &r)
	}
	return r
}

// OffsetFill returns fill shifted by off leaves: leaf i of the result is
// leaf off+i of fill.
func OffsetFill(fill Filler, off int) Filler {
	if off == 0 {
		return fill
	}
	return func(ws *Workspace, dst []byte, from, to int) { fill(ws, dst, from+off, to+off) }
}

// ProgressiveList returns the root of a progressive list of n elements in
// leaves chunks: merkleize_progressive with the length mixed in.
func ProgressiveList(n, leaves int, fill Filler) [32]byte {
	return MixInLength(Progressive(leaves, fill), uint64(n))
}

// ProgressiveContainer returns the root of a progressive container whose
// fields' roots are roots and whose active_fields has a one for each field
// present (at most 256 entries): the roots sit at the indexes of the ones,
// zero chunks at the zeros; merkleize_progressive of those, with the
// active_fields bitvector mixed in.
func ProgressiveContainer[T ~[32]byte](roots []T, active []bool) T {
	leaves := make([][32]byte, len(active))
	var bits [32]byte
	j := 0
	for i, a := range active {
		if a {
			leaves[i] = [32]byte(roots[j])
			j++
			bits[i/8] |= 1 << (i % 8)
		}
	}
	r := Progressive(len(leaves), Chunks(leaves))
	return T(HashPair(&r, &bits))
}
