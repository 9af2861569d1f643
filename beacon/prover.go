package beacon

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/nodeaccess/nodeaccess"
)

// Prover makes merkle proofs of a state's fields against its root, and
// through the latest block header's state_root against the block root.
// NewProver hashes the state once, as HashTreeRoot does (same hasher, same
// parallelism, about the same time), and keeps the upper levels of each
// list's and vector's tree: one node per 16 chunks and the levels above,
// about 4 bytes per validator for the registry, a few percent of the
// state. A proof then rebuilds at most the 16 chunks under one kept node and
// the small containers on its path.
//
// Prove proves any node by its generalized index, and GIndexOf computes
// that index from a path of field names and indices; ProveBalance proves a
// validator's balance and returns it; ToBlockRoot carries a proof on to the
// block root, which BlockRoot returns. A path into a list
// may go past the list's length (up to its limit): the node is then a zero
// chunk, and its proof proves that absence.
//
// A Prover reads the State it was made from when it proves: the state must
// not change while the Prover is in use. Every method first checks,
// cheaply, that the state still has the Version, the Preset and the
// lengths of lists and vectors (the sync committees' keys, the payload
// header's extra data and the bid's commitments included) that NewProver
// prepared, and otherwise returns a *nodeaccess.InputError that names the
// change ("state: changed since NewProver: version fulu, prepared for
// gloas"). A value changed in place (a validator's exit epoch) it cannot
// see: a proof through it does not verify. The latest block header is kept
// as NewProver saw it. A nil or zero Prover (not made by NewProver)
// returns an InputError from every method, and the zero root from
// StateRoot. A Prover is safe for concurrent use.
//
// A Prover made by ReadProver (or by DownloadState with
// DownloadOptions.Prover) holds no State that a caller could change: it
// reads the elements under a kept node back from the saved state when a
// proof needs them, and refuses (ErrIntegrity) elements that no longer hash
// to it.
type Prover struct {
	st      *State
	version Version
	preset  Preset
	header  BeaconBlockHeader // the latest block header, as prepared
	fields  []field           // the schema, as prepared (pointing into st)
	lens    []preparedLen     // the lengths of its lists and vectors, as prepared
	typ     *sszType          // the state's type, as GIndexOf walks it
	root    Root
	depth   int // of the state container's tree (binary, before gloas)
	top     tnode
}

// NewProver prepares proofs for s, which it checks as HashTreeRoot does.
// States of every fork this package decodes are supported, gloas's
// progressive state container and lists included.
func NewProver(s *State) (*Prover, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	fields := s.fields()
	nodes := make([]tnode, len(fields))
	for i := range fields {
		nodes[i] = s.fieldNode(&fields[i])
	}
	var top tnode
	if s.Version >= Gloas {
		top = progressiveContainerNode(nodes...)
	} else {
		top = container(nodes...)
	}
	return &Prover{st: s, version: s.Version, preset: s.preset(), header: s.LatestBlockHeader,
		fields: fields, lens: prepareLens(fields), typ: s.stateType(fields),
		root: top.root(), depth: depthFor(uint64(len(fields))), top: top}, nil
}

// StateRoot returns the state's hash tree root as NewProver computed it,
// the root every proof of p verifies against (and the one HashTreeRoot
// returns); the zero root for a nil or zero Prover.
func (p *Prover) StateRoot() Root {
	if p == nil {
		return Root{}
	}
	return p.root
}

// Prove returns the proof of the node at generalized index g of the
// state's tree: any field, element, chunk or inner node. An index that goes
// below a chunk (past the tree's leaves) is an error.
func (p *Prover) Prove(g GIndex) (Proof, error) {
	if err := p.check(); err != nil {
		return Proof{}, err
	}
	return p.prove(g)
}

// ProveBalance proves the balance of validator i against the state root
// and returns it. Balances are packed four to a 32-byte chunk, so the
// proof is the chunk's, at GIndexOf("balances", i), and its Leaf holds the
// balances of validators i-i%4 to i-i%4+3 as little-endian uint64s:
// validator i's is the (i%4)th, which is what a verifier (a contract)
// reads from the leaf it checks. ToBlockRoot carries the proof on to the
// block root. A validator the state has no balance for (i at or past the
// number of balances) is a *nodeaccess.InputError; GIndexOf and Prove
// still prove that its place in the list is empty.
func (p *Prover) ProveBalance(i ValidatorIndex) (Proof, Gwei, error) {
	n, err := p.listLen("balances")
	if err != nil {
		return Proof{}, 0, err
	}
	if uint64(i) >= n {
		return Proof{}, 0, &nodeaccess.InputError{Arg: "i", Reason: fmt.Sprintf("validator %d: the state has %d balances", uint64(i), n)}
	}
	pr, err := p.prepared("balances", uint64(i))
	if err != nil {
		return Proof{}, 0, err
	}
	return pr, Gwei(binary.LittleEndian.Uint64(pr.Leaf[8*(i%4):])), nil
}

func (p *Prover) prove(g GIndex) (Proof, error) {
	return proveNode(p.top, g, "the state's tree")
}

// proveNode proves the node at generalized index g of the tree below n
// (named by what, for errors).
func proveNode(n tnode, g GIndex, what string) (Proof, error) {
	if g == 0 {
		return Proof{}, badGIndex(g, "names no node (the root is 1)")
	}
	d := g.depth()
	branch := make([]Root, d)
	for i := d - 1; i >= 0; i-- {
		l, r, ok, err := childrenOf(n)
		if err != nil {
			return Proof{}, err
		}
		if !ok {
			return Proof{}, badGIndex(g, fmt.Sprintf("goes below a leaf of %s at depth %d", what, d-1-i))
		}
		if g>>i&1 == 1 {
			branch[i], n = l.root(), r
		} else {
			branch[i], n = r.root(), l
		}
	}
	return Proof{Leaf: n.root(), Branch: branch, GIndex: g}, nil
}

func badGIndex(g GIndex, why string) error {
	return &nodeaccess.InputError{Arg: "gindex", Reason: strconv.FormatUint(uint64(g), 10) + " " + why}
}

func cutName(s string) string {
	if len(s) > maxQuoted {
		return s[:maxQuoted]
	}
	return s
}

// headerStateRootGIndex is the generalized index of state_root in a
// BeaconBlockHeader's tree: the fourth field (index 3) of five, in a tree
// of 8 leaves, so 8 + 3.
const headerStateRootGIndex GIndex = 8 + 3

// BlockRoot returns the root of the block whose post-state this is: the
// latest block header's root with its state_root filled in with the
// state's root when it is still zero, as the specs' process_slot does, from
// the header as NewProver saw it. This is the root a child block names as
// its parent_root, and the one EIP-4788's beacon roots contract exposes on
// the execution layer for the next slot. A header whose state_root is
// another root (a state advanced through empty slots) is an error: that
// block commits to an earlier state.
func (p *Prover) BlockRoot() (Root, error) {
	h, err := p.blockHeader()
	if err != nil {
		return Root{}, err
	}
	return blockHeaderRoot(&h), nil
}

// blockHeader returns the latest block header with its state_root filled
// in. A header whose state_root is set to another root means the state was
// advanced through empty slots after that block: the block commits to an
// earlier state, so no proof from this state reaches it.
func (p *Prover) blockHeader() (BeaconBlockHeader, error) {
	if err := p.check(); err != nil {
		return BeaconBlockHeader{}, err
	}
	h := p.header
	switch h.StateRoot {
	case Root{}:
		h.StateRoot = p.root
	case p.root:
	default:
		return h, fmt.Errorf("beacon: the latest block header's state_root is %s, not the state's root %s: the state was advanced past its block (empty slots), which commits to an earlier state", h.StateRoot, p.root)
	}
	return h, nil
}

// ToBlockRoot extends a proof against the state root (one that p made, or
// any proof whose root is p.StateRoot()) to the block root: the branch
// continues through the latest block header, whose state_root is the
// state's root, and the generalized index is the header's state_root
// index (11) concatenated with the proof's. The result verifies against
// BlockRoot, the root EIP-4788 exposes for the block. A proof whose branch
// is not as long as its generalized index is deep (or whose index is 0)
// is an InputError.
func (p *Prover) ToBlockRoot(pr Proof) (Proof, error) {
	h, err := p.blockHeader()
	if err != nil {
		return Proof{}, err
	}
	if pr.GIndex == 0 || len(pr.Branch) != pr.GIndex.depth() {
		return Proof{}, &nodeaccess.InputError{Arg: "proof", Reason: fmt.Sprintf("a branch of %d roots for generalized index %d, of depth %d", len(pr.Branch), uint64(pr.GIndex), pr.GIndex.depth())}
	}
	g, err := concatGIndices(headerStateRootGIndex, pr.GIndex)
	if err != nil {
		return Proof{}, err
	}
	slot, proposer := u64Chunk(uint64(h.Slot)), u64Chunk(uint64(h.ProposerIndex))
	var zero Root
	branch := make([]Root, 0, len(pr.Branch)+3)
	branch = append(branch, pr.Branch...)
	branch = append(branch,
		h.ParentRoot,                 // state_root's sibling
		hashPair(&slot, &proposer),   // the pair (slot, proposer_index)
		hashPair(&h.BodyRoot, &zero), // then (body_root, 0) ...
	)
	last := &branch[len(branch)-1]
	*last = hashPair(last, &zeroHashes[1]) // ... with (0, 0): the right half
	return Proof{Leaf: pr.Leaf, Branch: branch, GIndex: g}, nil
}
