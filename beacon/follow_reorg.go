package beacon

import (
	"context"
	"errors"
	"fmt"

	"github.com/nodeaccess/nodeaccess"
)

// reconcile makes tip's chain the walk's: tip is a block the node calls
// canonical, newer than the blocks yielded or replacing some of them. It
// reads tip's ancestors by root until they meet the blocks yielded (the
// ring, then the ancestors of the ring's oldest block when those were
// yielded too), and yields the yielded blocks that are not among them as
// removed, newest first, then tip's ancestors after the meeting point and
// tip, oldest first. Nothing is yielded before every read is done, so that
// a failed read is asked again whole.
//
// In the usual case, tip's parent is the newest block yielded and nothing
// is read.
func (f *follower) reconcile(ctx context.Context, tip block) error {
	branch := []block{tip}          // the new chain, newest first
	at := map[Root]int{tip.root: 0} // branch index by root
	var gone []block                // the blocks yielded that left the chain, newest first
	ri := len(f.ring)               // f.ring[:ri] is what is left of the ring
	var anc *block                  // the old chain's block past the ring, when read
	var join FollowCursor           // the position after the oldest removal

	// old returns the newest block of the old chain not yet removed; ok
	// is false when nothing older was yielded.
	old := func() (o block, ok bool, err error) {
		switch {
		case ri > 0:
			return f.ring[ri-1], true, nil
		case anc != nil:
			return *anc, true, nil
		case len(gone) == 0 || !f.base:
			return block{}, false, nil
		}
		last := &gone[len(gone)-1]
		p := last.h.ParentRoot
		if p == (Root{}) {
			return block{}, false, f.invalid(headersOp(last.root.Hex()), "the genesis block %s left the canonical chain", last.root.Hex())
		}
		if i, ok := at[p]; ok {
			return branch[i], true, nil
		}
		b, err := f.gone(ctx, p, last.h.Slot)
		if err != nil {
			return block{}, false, err
		}
		anc = &b
		return b, true, nil
	}

	for {
		o, ok, err := old()
		if err != nil {
			return err
		}
		if !ok {
			// Nothing older was yielded: the new chain down to the floor.
			if branch, err = f.extend(ctx, branch); err != nil {
				return err
			}
			join = FollowCursor{Slot: f.floor}
			break
		}
		if i, ok := at[o.root]; ok {
			branch, join = branch[:i], o.cursor()
			break
		}
		n := &branch[len(branch)-1]
		if n.h.ParentRoot == o.root {
			join = o.cursor()
			break
		}
		if o.h.Slot >= n.h.Slot {
			// The new chain has no block at o's slot or after it but
			// those read: o left it.
			if o.walk && f.q.Finality == Finalized {
				return f.invalid(finalityPath, "the finalized block %d %s left the canonical chain", o.h.Slot, o.root.Hex())
			}
			if len(gone) == reorgBound {
				return f.invalid(headersOp(string(Head)), "the chain reorganised deeper than the %d blocks Follow follows: block %d %s is not canonical any more",
					reorgBound, o.h.Slot, o.root.Hex())
			}
			read := ri == 0 // an ancestor read by root in this step
			if !o.known {
				// The cursor's block: its header, and its parent.
				slot := o.h.Slot
				if o, err = f.gone(ctx, o.root, 0); err != nil {
					return err
				}
				if o.h.Slot != slot {
					return f.c.t.Wrap("follow", &nodeaccess.InputError{Arg: "cursor",
						Reason: fmt.Sprintf("%s: block %s is at slot %d", f.q.From, o.root.Hex(), o.h.Slot)})
				}
				read = true
			}
			if read && o.canonical {
				// The node's head does not descend from a block it
				// calls canonical (a head that went back): ask again.
				return f.changed(headersOp(o.root.Hex()), "block %d %s is canonical, yet not an ancestor of the head %d %s",
					o.h.Slot, o.root.Hex(), tip.h.Slot, tip.root.Hex())
			}
			gone = append(gone, o)
			if ri > 0 {
				ri--
			} else {
				anc = nil
			}
			continue
		}
		// o is older than the new chain's oldest block read: read its
		// parent.
		p, err := f.parent(ctx, n, len(branch))
		if err != nil {
			return err
		}
		at[p.root] = len(branch)
		branch = append(branch, p)
	}

	for i := range gone {
		cur := join
		if i+1 < len(gone) {
			cur = gone[i+1].cursor()
		}
		if err := f.show(&gone[i], true, cur); err != nil {
			return err
		}
	}
	f.ring = f.ring[:ri]
	for i := len(branch) - 1; i >= 0; i-- {
		b := branch[i]
		b.walk = true
		if err := f.show(&b, false, b.cursor()); err != nil {
			return err
		}
		f.ring = append(f.ring, b)
		if len(f.ring) > reorgBound {
			f.ring = append(f.ring[:0], f.ring[1:]...)
			f.base = true
		}
	}
	f.next = tip.h.Slot + 1
	return nil
}

// parent reads the parent of n, the oldest of the k blocks of a new branch
// read so far.
func (f *follower) parent(ctx context.Context, n *block, k int) (block, error) {
	id := n.h.ParentRoot.Hex()
	if k >= maxBranch {
		return block{}, f.invalid(headersOp(id), "the new branch is longer than %d blocks before it meets the blocks Follow yielded", maxBranch)
	}
	if n.h.ParentRoot == (Root{}) {
		return block{}, f.invalid(headersOp(n.root.Hex()), "block %d %s has no parent and is not the oldest", n.h.Slot, n.root.Hex())
	}
	p, err := f.header(ctx, id, n.h.ParentRoot)
	if err != nil {
		return block{}, err
	}
	if p.h.Slot >= n.h.Slot {
		return block{}, f.invalid(headersOp(id), "block %s at slot %d is the parent of block %s at slot %d", p.root.Hex(), p.h.Slot, n.root.Hex(), n.h.Slot)
	}
	return p, nil
}

// extend reads the ancestors of the new branch's oldest block down to the
// floor, and returns the branch without those below it.
func (f *follower) extend(ctx context.Context, branch []block) ([]block, error) {
	for {
		n := &branch[len(branch)-1]
		if n.h.Slot <= f.floor || n.h.ParentRoot == (Root{}) {
			break
		}
		p, err := f.parent(ctx, n, len(branch))
		if err != nil {
			return nil, err
		}
		branch = append(branch, p)
	}
	for len(branch) > 0 && branch[len(branch)-1].h.Slot < f.floor {
		branch = branch[:len(branch)-1]
	}
	return branch, nil
}

// gone reads by root a block of the old chain, which may have left the
// canonical chain, below slot below (0: any slot).
func (f *follower) gone(ctx context.Context, r Root, below Slot) (block, error) {
	id := r.Hex()
	b, err := f.header(ctx, id, r)
	if errors.Is(err, nodeaccess.ErrNotFound) {
		return block{}, f.c.t.Wrap(headersOp(id), fmt.Errorf("%w: block %s left the canonical chain and the node no longer has it: its header to remove is unknown",
			nodeaccess.ErrNotFound, id))
	}
	if err != nil {
		return block{}, err
	}
	if below > 0 && b.h.Slot >= below {
		return block{}, f.invalid(headersOp(id), "block %s at slot %d is the parent of a block at slot %d", id, b.h.Slot, below)
	}
	return b, nil
}
