package beacon

import (
	"encoding/binary"
	"fmt"

	"github.com/nodeaccess/nodeaccess"
)

// Proofs into the past: a state keeps the block and state roots of its last
// SLOTS_PER_HISTORICAL_ROOT slots in two ring vectors (block_roots,
// state_roots), and one root per earlier period of that many slots:
// historical_roots before Capella (the root of a HistoricalBatch of both
// vectors), historical_summaries from Capella on (the two vectors' roots,
// block_summary_root and state_summary_root). A proof of an older root
// goes through that period's entry, with the period's vector supplied by
// the caller, since the state no longer holds it.

// HistoricalBatch is one period's SLOTS_PER_HISTORICAL_ROOT block roots and
// state roots, the specs' HistoricalBatch: the root of both is the entry
// of historical_roots for the period (before Capella); from Capella on,
// the entry of historical_summaries holds each vector's root
// (block_summary_root, state_summary_root). For period P (slots
// P·SLOTS_PER_HISTORICAL_ROOT to (P+1)·SLOTS_PER_HISTORICAL_ROOT − 1), they
// are the BlockRoots and StateRoots of a state at slot
// (P+1)·SLOTS_PER_HISTORICAL_ROOT: the epoch processing that enters that
// slot stores the entry, and the processing of the next slot overwrites
// their first element. Era files carry them too.
type HistoricalBatch struct {
	// BlockRoots is the period's block_roots vector, indexed by slot
	// modulo SLOTS_PER_HISTORICAL_ROOT.
	BlockRoots []Root
	// StateRoots is the period's state_roots vector, indexed the same way.
	StateRoots []Root
}

// ProveBlockRoot proves the root of the block at slot against the state
// root: the root the specs' get_block_root_at_slot returns (for a slot
// without a block, the root of the latest block before it). The state's
// own block is not among them (see BlockRoot): slot must be before the
// state's slot, else the error is a *nodeaccess.InputError naming it.
//
// A slot of the last SLOTS_PER_HISTORICAL_ROOT slots (slot < state slot ≤
// slot + SLOTS_PER_HISTORICAL_ROOT, get_block_root_at_slot's window) is proven
// through the state's block_roots, and past is ignored. An older slot
// needs past, the HistoricalBatch of the slot's period (its BlockRoots is
// enough from Capella on): the proof goes through the period's vector
// (past.BlockRoots[slot % SLOTS_PER_HISTORICAL_ROOT]), then the period's
// entry of historical_summaries (block_summary_root; the entry for period
// P is counted back from the state's slot, the last one being the period
// just before it) or, for a period before Capella, of historical_roots
// (the root of past, entry P). past must hash to that entry: a batch of
// another period, of the wrong length, or missing is an InputError that
// says which period and which entry were expected.
//
// The proof's GIndex is the specs' concat_generalized_indices of the
// entry's generalized index in the state and the element's in the vector
// (and, through historical_roots, the batch's child: 2 for the block
// roots, 3 for the state roots), and the proof verifies against
// StateRoot; ToBlockRoot carries it on to the block root.
func (p *Prover) ProveBlockRoot(slot Slot, past *HistoricalBatch) (Proof, error) {
	return p.proveHistory(slot, past, false)
}

// ProveStateRoot proves the root of the state at slot (the state_roots
// entry the specs' process_slot stores: the state after the slot's block,
// or after the empty slot) against the state root, as ProveBlockRoot does
// for block roots: through state_roots for the last
// SLOTS_PER_HISTORICAL_ROOT slots, through past.StateRoots and the
// period's state_summary_root (or, before Capella, historical_roots) for an
// older slot.
func (p *Prover) ProveStateRoot(slot Slot, past *HistoricalBatch) (Proof, error) {
	return p.proveHistory(slot, past, true)
}

func (p *Prover) proveHistory(slot Slot, past *HistoricalBatch, states bool) (Proof, error) {
	if err := p.check(); err != nil {
		return Proof{}, err
	}
	field, summaryRoot, vec, child := "block_roots", "block_summary_root", "BlockRoots", GIndex(2)
	if states {
		field, summaryRoot, vec, child = "state_roots", "state_summary_root", "StateRoots", 3
	}
	per := p.preset.SlotsPerHistoricalRoot
	at, err := p.prepared("slot") // the state's slot, as NewProver hashed it
	if err != nil {
		return Proof{}, err
	}
	now := Slot(binary.LittleEndian.Uint64(at.Leaf[:8]))
	if slot >= now {
		return Proof{}, &nodeaccess.InputError{Arg: "slot", Reason: fmt.Sprintf("%d is not before the state's slot %d: a state holds the %s of earlier slots only", slot, now, field)}
	}
	if uint64(now-slot) <= per {
		return p.prepared(field, uint64(slot)%per)
	}

	period, current := uint64(slot)/per, uint64(now)/per
	if past == nil {
		return Proof{}, &nodeaccess.InputError{Arg: "past", Reason: fmt.Sprintf("nil, but slot %d is more than %d slots before the state's slot %d: give the HistoricalBatch of period %d (the %s of a state at slot %d)", slot, per, now, period, field, (period+1)*per)}
	}
	// The lists' lengths as the tree holds them: a Prover that ReadProver
	// made keeps the lists' upper levels, not their elements.
	hist, err := p.listLen("historical_roots")
	if err != nil {
		return Proof{}, err
	}
	var summaries uint64
	if p.version >= Capella {
		if summaries, err = p.listLen("historical_summaries"); err != nil {
			return Proof{}, err
		}
	}
	inner := GIndex(per) + GIndex(uint64(slot)%per) // the slot's element in the period's vector
	var (
		outer    Proof
		branch   []Root
		expected Root
		entry    string
	)
	j := uint64(slot) % per
	switch {
	case p.version >= Capella && summaries >= current-period:
		k := summaries - (current - period)
		roots := past.BlockRoots
		if states {
			roots = past.StateRoots
		}
		root, in, err := vectorBranch(roots, per, vec, j)
		if err != nil {
			return Proof{}, err
		}
		if outer, err = p.prepared("historical_summaries", k, summaryRoot); err != nil {
			return Proof{}, err
		}
		branch, expected, entry = in, root, fmt.Sprintf("historical_summaries[%d].%s", k, summaryRoot)
	case period < hist:
		b, bin, err := vectorBranch(past.BlockRoots, per, "BlockRoots", j)
		if err != nil {
			return Proof{}, err
		}
		s, sin, err := vectorBranch(past.StateRoots, per, "StateRoots", j)
		if err != nil {
			return Proof{}, err
		}
		branch = append(bin, s) // the block roots' sibling in the batch is the state roots' root
		if states {
			branch = append(sin, b)
		}
		if outer, err = p.prepared("historical_roots", period); err != nil {
			return Proof{}, err
		}
		expected, entry = hashPair(&b, &s), fmt.Sprintf("historical_roots[%d]", period)
		if inner, err = concatGIndices(child, inner); err != nil { // the vector is the batch's child 2 or 3
			return Proof{}, err
		}
	default:
		var covered string
		if hist > 0 {
			covered = fmt.Sprintf("historical_roots periods 0 to %d", hist-1)
		} else {
			covered = "no historical_roots"
		}
		if p.version >= Capella {
			if summaries > 0 {
				covered += fmt.Sprintf(", historical_summaries periods %d to %d", current-min(summaries, current), current-1)
			} else {
				covered += ", no historical_summaries"
			}
		}
		return Proof{}, &nodeaccess.InputError{Arg: "slot", Reason: fmt.Sprintf("%d is in period %d, which the state at slot %d does not hold (it has %s)", slot, period, now, covered)}
	}
	if outer.Leaf != expected {
		return Proof{}, &nodeaccess.InputError{Arg: "past", Reason: fmt.Sprintf("its roots hash to %s, but %s, the entry of slot %d's period %d, is %s: not that period's batch (take it from a state at slot %d)", expected, entry, slot, period, outer.Leaf, (period+1)*per)}
	}
	g, err := concatGIndices(outer.GIndex, inner)
	if err != nil {
		return Proof{}, err
	}
	return Proof{Leaf: pastLeaf(past, states, j), Branch: append(branch, outer.Branch...), GIndex: g}, nil
}

// listLen returns the length of the state's list field name, read from
// its length chunk in the tree.
func (p *Prover) listLen(name string) (uint64, error) {
	pr, err := p.prepared(name, "__len__")
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(pr.Leaf[:8]), nil
}

// prepared proves the node path names in the state's tree as NewProver
// prepared it.
func (p *Prover) prepared(path ...any) (Proof, error) {
	g, err := p.GIndexOf(path...)
	if err != nil {
		return Proof{}, err
	}
	return p.prove(g)
}

// vectorBranch returns the root of a vector of n roots (a HistoricalBatch
// field, named for errors) and the branch of its element j, bottom-up, or
// an InputError when it does not hold n.
func vectorBranch(roots []Root, n uint64, name string, j uint64) (Root, []Root, error) {
	if uint64(len(roots)) != n {
		return Root{}, nil, &nodeaccess.InputError{Arg: "past", Reason: fmt.Sprintf("%s has %d roots, want SLOTS_PER_HISTORICAL_ROOT, %d", name, len(roots), n)}
	}
	d := depthFor(n)
	level := make([]byte, 32<<d) // zero chunks pad it to a power of two
	next := make([]byte, 16<<d)
	for i := range roots {
		copy(level[32*i:], roots[i][:])
	}
	branch := make([]Root, d)
	for h := range d {
		copy(branch[h][:], level[32*(j^1):])
		half := next[:len(level)/2]
		hashChunks(half, level)
		level, next, j = half, level, j/2
	}
	return Root(level[:32]), branch, nil
}

func pastLeaf(past *HistoricalBatch, states bool, j uint64) Root {
	if states {
		return past.StateRoots[j]
	}
	return past.BlockRoots[j]
}
