package beacon

import "github.com/nodeaccess/nodeaccess/beacon/internal/merkle"

// The merkleization of ssz/simple-serialize.md lives in internal/merkle,
// which knows chunks and trees but no consensus type; these are its
// operations over Root, as the hashing and the prover use them. Bulk
// hashing goes through internal/sha256x, 16 blocks at a time with AVX-512
// where the CPU has it.

type (
	// workspace is one hashing goroutine's scratch memory.
	workspace = merkle.Workspace
	// leafFiller writes the leaf chunks [from, to) of a tree.
	leafFiller = merkle.Filler
)

// zeroHashes[i] is the root of a depth-i tree of zero chunks.
var zeroHashes = func() (z [merkle.MaxDepth + 1]Root) {
	for i := range z {
		z[i] = Root(merkle.Zero[i])
	}
	return z
}()

// hashPair returns SHA-256(a || b).
func hashPair(a, b *Root) Root { return merkle.HashPair(a, b) }

// hashChunks hashes each 64-byte block of src into the 32 bytes of dst.
func hashChunks(dst, src []byte) { merkle.HashChunks(dst, src) }

// depthFor returns the depth of a tree with room for n chunks.
func depthFor(n uint64) int { return merkle.Depth(n) }

// mixInLength returns the root of a list: SHA-256(root || uint256(n)).
func mixInLength(root Root, n uint64) Root { return merkle.MixInLength(root, n) }

// get returns (*p)[:n], growing *p when it is too small.
func get(p *[]byte, n int) []byte { return merkle.Grow(p, n) }

// merkleSmall returns the root of a depth-depth tree of chunks, which it
// overwrites, hashed pair by pair.
func merkleSmall(chunks []Root, depth int) Root { return merkle.Small(chunks, depth) }

// treeRoot returns the root of a depth-depth tree whose first n leaves
// come from fill, hashed in parallel.
func treeRoot(n, depth int, fill leafFiller) Root { return Root(merkle.TreeRoot(n, depth, fill)) }

// The leaf fillers of the state's collections.
func fillBytes(data []byte) leafFiller                      { return merkle.Bytes(data) }
func fillUint8s[T ~uint8](s []T) leafFiller                 { return merkle.Uint8s(s) }
func fillUint64s[T ~uint64](s []T) leafFiller               { return merkle.Uint64s(s) }
func fillRoots(s []Root) leafFiller                         { return merkle.Chunks(s) }
func fillElems[T any](s []T, root func(*T) Root) leafFiller { return merkle.Elems(s, root) }

// progressiveListRoot returns the root of a progressive list of n elements
// in leaves chunks.
func progressiveListRoot(n, leaves int, fill leafFiller) Root {
	return Root(merkle.ProgressiveList(n, leaves, fill))
}

// progressiveContainerRoot returns the root of a progressive container
// (EIP-7495) whose active_fields are all ones, as in every progressive
// container of Gloas, given its fields' roots.
func progressiveContainerRoot(roots []Root) Root {
	active := make([]bool, len(roots))
	for i := range active {
		active[i] = true
	}
	return merkle.ProgressiveContainer(roots, active)
}

// progressiveContainerRootActive is progressiveContainerRoot for any
// active_fields.
func progressiveContainerRootActive(roots []Root, active []bool) Root {
	return merkle.ProgressiveContainer(roots, active)
}
