package beacon

import (
	"fmt"
	"strconv"

	"github.com/nodeaccess/nodeaccess"
)

// Prover makes merkle proofs of a state's fields against its root, and
// through the latest block header's state_root against the block root.
// NewProver hashes the state once, as HashTreeRoot does (same hasher, same
// parallelism, about the same time), and keeps the upper levels of each
// list's and vector's tree: one node per 16 chunks and the levels above,
// about 4 bytes per validator for the registry (~9 MB for 2.15 million
// validators, under 5% of the state). A proof then rebuilds at most the 16
// chunks under one kept node and the small containers on its path: well
// under a millisecond.
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
//
// The tree follows s.fields(), the schema every codec uses, through
// fieldNode (one tree node kind per field type; progressive lists and
// containers in prover_progressive.go), and the named helpers compute
// gindices from the field's position (FieldGIndex) and the list rules
// (listElemGIndex), binary or progressive (progressiveGIndex).
func NewProver(s *State) (*Prover, error) {
	if err := s.Validate(); err != nil {
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

func (p *Prover) prove(g GIndex) (Proof, error) {
	if g == 0 {
		return Proof{}, badGIndex(g, "names no node (the root is 1)")
	}
	d := g.Depth()
	branch := make([]Root, d)
	n := p.top
	for i := d - 1; i >= 0; i-- {
		l, r, ok := n.children()
		if !ok {
			return Proof{}, badGIndex(g, fmt.Sprintf("goes below a leaf of the state's tree at depth %d", d-1-i))
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
	return &nodeaccess.InputError{Arg: "gindex", Reason: g.String() + " " + why}
}

// FieldGIndex returns the generalized index of the state's top-level field
// name (as the specs and the JSON spell it: "latest_block_header") in the
// state of p's fork.
func (p *Prover) FieldGIndex(name string) (GIndex, error) {
	if err := p.check(); err != nil {
		return 0, err
	}
	return p.fieldGIndex(name)
}

func (p *Prover) fieldGIndex(name string) (GIndex, error) {
	for i := range p.fields {
		if p.fields[i].name == name {
			if p.version >= Gloas {
				// The fields are the left child of the progressive
				// container's node.
				rel, err := progressiveGIndex(uint64(i))
				if err != nil {
					return 0, err
				}
				return ConcatGIndices(2, rel)
			}
			return GIndex(1)<<p.depth | GIndex(i), nil
		}
	}
	return 0, &nodeaccess.InputError{Arg: "field", Reason: strconv.Quote(cutName(name)) + " is not a field of a " + p.version.String() + " state"}
}

func cutName(s string) string {
	if len(s) > maxQuoted {
		return s[:maxQuoted]
	}
	return s
}

// ProveField proves the root of the top-level field name (its
// hash_tree_root; for a uint64 field, its chunk).
func (p *Prover) ProveField(name string) (Proof, error) {
	if err := p.check(); err != nil {
		return Proof{}, err
	}
	g, err := p.fieldGIndex(name)
	if err != nil {
		return Proof{}, err
	}
	return p.prove(g)
}

// ProveLatestBlockHeader proves the root of latest_block_header, as it is
// in the state (its state_root zero when the state is the post-state of
// that block).
func (p *Prover) ProveLatestBlockHeader() (Proof, error) { return p.ProveField("latest_block_header") }

// listElemGIndex returns the generalized index of element (chunk) i of the
// list field name, whose limit is limitChunks chunks.
func (p *Prover) listElemGIndex(name string, i uint64, limitChunks uint64) (GIndex, error) {
	g, err := p.fieldGIndex(name)
	if err != nil {
		return 0, err
	}
	// The contents are the left child; their tree is deep enough for the
	// limit, or grows progressively.
	for k := range p.fields {
		if p.fields[k].name == name && p.fields[k].progressive {
			rel, err := progressiveGIndex(i)
			if err != nil {
				return 0, err
			}
			return ConcatGIndices(g, 2, rel)
		}
	}
	return ConcatGIndices(g, 2, GIndex(1)<<depthFor(limitChunks)|GIndex(i))
}

// ValidatorGIndex returns the generalized index of validator i's root in
// the state's tree: validators is a List[Validator,
// VALIDATOR_REGISTRY_LIMIT], so it is
// (validators' gindex * 2) * 2^40 + i on mainnet; from gloas it is a
// progressive list, and i's place follows progressiveGIndex.
func (p *Prover) ValidatorGIndex(i ValidatorIndex) (GIndex, error) {
	if err := p.check(); err != nil {
		return 0, err
	}
	return p.validatorGIndex(i)
}

func (p *Prover) validatorGIndex(i ValidatorIndex) (GIndex, error) {
	return p.listElemGIndex("validators", uint64(i), p.preset.ValidatorRegistryLimit)
}

// ProveValidator proves validator i's hash_tree_root (Leaf equals
// s.Validators[i].HashTreeRoot()). An index past the registry is an error.
func (p *Prover) ProveValidator(i ValidatorIndex) (Proof, error) {
	if err := p.checkValidator(i); err != nil {
		return Proof{}, err
	}
	g, err := p.validatorGIndex(i)
	if err != nil {
		return Proof{}, err
	}
	return p.prove(g)
}

// checkValidator checks p (see check) and that validator i is in the
// registry.
func (p *Prover) checkValidator(i ValidatorIndex) error {
	if err := p.check(); err != nil {
		return err
	}
	if n := len(p.st.Validators); uint64(i) >= uint64(n) {
		return &nodeaccess.InputError{Arg: "validator", Reason: fmt.Sprintf("index %d is past the registry of %d validators", uint64(i), n)}
	}
	return nil
}

// ProveValidatorField proves one field of validator i: its leaf is the
// field's chunk (the root of the public key for ValidatorPubkey). Its
// generalized index is the validator's times 8 plus the field's position.
func (p *Prover) ProveValidatorField(i ValidatorIndex, f ValidatorField) (Proof, error) {
	if err := p.checkValidator(i); err != nil {
		return Proof{}, err
	}
	if !f.IsKnown() {
		return Proof{}, &nodeaccess.InputError{Arg: "field", Reason: f.String() + " is not a validator field"}
	}
	g, err := p.validatorGIndex(i)
	if err != nil {
		return Proof{}, err
	}
	if g, err = ConcatGIndices(g, 8+GIndex(f)); err != nil {
		return Proof{}, err
	}
	return p.prove(g)
}

// BalanceGIndex returns the generalized index of the chunk that holds
// validator i's balance: balances is a List[Gwei,
// VALIDATOR_REGISTRY_LIMIT] packed four to a chunk, so the chunk is
// i / 4 in a tree deep enough for VALIDATOR_REGISTRY_LIMIT / 4 chunks
// (from gloas, in a progressive list's tree).
func (p *Prover) BalanceGIndex(i ValidatorIndex) (GIndex, error) {
	if err := p.check(); err != nil {
		return 0, err
	}
	return p.balanceGIndex(i)
}

func (p *Prover) balanceGIndex(i ValidatorIndex) (GIndex, error) {
	limit := (p.preset.ValidatorRegistryLimit*8 + 31) / 32
	return p.listElemGIndex("balances", uint64(i)/4, limit)
}

// ProveBalance proves validator i's balance: the chunk of four balances
// that holds it and its position in the chunk.
func (p *Prover) ProveBalance(i ValidatorIndex) (BalanceProof, error) {
	if err := p.check(); err != nil {
		return BalanceProof{}, err
	}
	if n := len(p.st.Balances); uint64(i) >= uint64(n) {
		return BalanceProof{}, &nodeaccess.InputError{Arg: "validator", Reason: fmt.Sprintf("index %d is past the %d balances", uint64(i), n)}
	}
	g, err := p.balanceGIndex(i)
	if err != nil {
		return BalanceProof{}, err
	}
	pr, err := p.prove(g)
	return BalanceProof{Proof: pr, Position: int(i % 4)}, err
}

// headerStateRootGIndex is the generalized index of state_root in a
// BeaconBlockHeader's tree: the fourth field (index 3) of five, in a tree
// of 8 leaves, so 8 + 3.
const headerStateRootGIndex GIndex = 8 + 3

// BlockRoot returns the root of the block whose post-state this is: the
// latest block header's root with its state_root filled in with the
// state's root, as State.LatestBlockRoot computes it, from the header as
// NewProver saw it.
func (p *Prover) BlockRoot() (Root, error) {
	h, err := p.blockHeader()
	if err != nil {
		return Root{}, err
	}
	return h.HashTreeRoot(), nil
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
	if pr.GIndex == 0 || len(pr.Branch) != pr.GIndex.Depth() {
		return Proof{}, &nodeaccess.InputError{Arg: "proof", Reason: fmt.Sprintf("a branch of %d roots for generalized index %d, of depth %d", len(pr.Branch), uint64(pr.GIndex), pr.GIndex.Depth())}
	}
	g, err := ConcatGIndices(headerStateRootGIndex, pr.GIndex)
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
