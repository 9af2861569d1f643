package light

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
)

// maxHeld is the most blocks Follow holds back while no verified header
// reaches them.
const maxHeld = 1 << 16

// maxVerified is how many of the newest verified roots Follow remembers.
const maxVerified = 64

// Follow is beacon.Client.Follow (the same query, items, cursors and
// errors; see it) whose blocks stand on the sync committees' signatures
// instead of the node's word: a block is yielded only once it is an
// ancestor of, or is, a header the light client verified, its optimistic
// header at beacon.Head, its finalized header at beacon.Finalized.
//
// It runs the beacon client's Follow, which checks each block's root and
// parent root, and holds the blocks it yields. When the newest block held
// is newer than the verified header, Follow syncs the light client (at
// most once every q.Poll, 12 s when 0, waiting for the rest of it); the blocks held up to the one
// whose root a verified header has are then yielded, in order, and the
// newer ones stay held. Since each held block is the parent of the next,
// every block yielded is one the verified header descends from. So a
// block comes about one block late at the head (a header is signed in the
// next slot's block, and verified at the next sync), and a branch that no
// verified header extends is never yielded: a reorganisation before
// verification does not show.
//
// Removed: a block yielded before that the node's chain no longer holds
// is yielded again with Removed set, as beacon.Client.Follow yields it.
// The block was verified (an ancestor of a signed optimistic header, which
// the chain may still leave until it is finalized), but that it left the
// chain is the node's word: the blocks of the new branch are yielded only
// once a verified header reaches them. At Finalized nothing is removed.
//
// Safety, not liveness: a node that lies (a forged update, a chain that
// does not reach the verified root) can delay blocks but never have one
// yielded. An update that does not verify is yielded as its *VerifyError
// (matching nodeaccess.ErrUnverified) with a zero FollowedHead, and Follow
// goes on if the loop does, holding what it held; a sync that fails as the
// node does (nodeaccess.ErrUnavailable, ErrRateLimited) is tried again
// later without an error. More than 65536 blocks held without a verified
// header reaching them (a cursor far behind the chain, or a node whose
// chain never reaches it) end the walk with an error matching
// nodeaccess.ErrUnverified.
//
// Cursors are beacon.FollowCursor: a cursor from beacon.Client.Follow
// resumes here and the other way round. Cost: beacon.Client.Follow's, plus
// a light-client sync (a finality and an optimistic update, and the
// updates of a new period) at most every q.Poll, when a block waits for
// verification.
func (lc *Client) Follow(ctx context.Context, q beacon.FollowQuery) iter.Seq2[beacon.FollowedHead, error] {
	return func(yield func(beacon.FollowedHead, error) bool) {
		v := &vfollow{lc: lc, fin: q.Finality == beacon.Finalized, poll: q.Poll}
		if v.poll <= 0 {
			v.poll = 12 * time.Second
		}
		for h, err := range lc.bc.Follow(ctx, q) {
			if !v.take(ctx, h, err, yield) {
				return
			}
		}
	}
}

// vfollow is the state of one range over Follow.
type vfollow struct {
	lc   *Client
	fin  bool // follow the finalized header, not the optimistic one
	poll time.Duration
	// held is the blocks beacon's Follow yielded that no verified header
	// reached yet, oldest first, each the parent of the next.
	held []beacon.FollowedHead
	// verified is the newest roots of verified headers, and top the
	// newest verified slot.
	verified []beacon.Root
	top      beacon.Slot
	synced   time.Time // when the light client was last synced here
}

// take handles one item of beacon's Follow; false when the walk ends.
func (v *vfollow) take(ctx context.Context, h beacon.FollowedHead, err error, yield func(beacon.FollowedHead, error) bool) bool {
	if err != nil {
		return yield(h, err)
	}
	if h.Removed {
		// Removals come newest first: the held blocks go first, unseen.
		if n := len(v.held); n > 0 && v.held[n-1].Root == h.Root {
			v.held = v.held[:n-1]
			return true
		}
		return yield(h, nil)
	}
	if len(v.held) >= maxHeld {
		yield(beacon.FollowedHead{}, unverified("follow", "%d blocks from slot %d on reach no verified header (the newest verified is at slot %d)", len(v.held), v.held[0].Header.Slot, v.top))
		return false
	}
	v.held = append(v.held, h)
	if h.Header.Slot > v.top || len(v.verified) == 0 {
		if err := v.sync(ctx); err != nil && !yield(beacon.FollowedHead{}, err) {
			return false
		}
	}
	return v.release(yield)
}

// sync syncs the light client, at most once every poll (it waits for the
// rest of the poll after the last sync: beacon's Follow, which yields the
// block that asked for it, waits meanwhile), and notes its verified
// headers. Errors of an unavailable node are left for later.
func (v *vfollow) sync(ctx context.Context) error {
	if !v.synced.IsZero() {
		t := time.NewTimer(v.poll - time.Since(v.synced))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil // beacon's Follow ends with ctx's error
		case <-t.C:
		}
	}
	v.synced = time.Now()
	err := v.lc.Sync(ctx)
	// What verified before a failure is kept: note it either way.
	hs := make([]Header, 0, 2)
	if f, ok := v.lc.Finalized(); ok {
		hs = append(hs, f)
	}
	if o, ok := v.lc.Optimistic(); ok && !v.fin {
		hs = append(hs, o)
	}
	for _, h := range hs {
		r, herr := beacon.HashTreeRoot(h.Beacon)
		if herr != nil {
			return fmt.Errorf("light: follow: the root of the verified header at slot %d: %w", h.Beacon.Slot, herr)
		}
		v.note(r, h.Beacon.Slot)
	}
	if err == nil || ctx.Err() != nil || errors.Is(err, nodeaccess.ErrUnavailable) || errors.Is(err, nodeaccess.ErrRateLimited) {
		return nil
	}
	return err
}

// note remembers the verified root r of slot s.
func (v *vfollow) note(r beacon.Root, s beacon.Slot) {
	for _, k := range v.verified {
		if k == r {
			return
		}
	}
	if len(v.verified) == maxVerified {
		v.verified = append(v.verified[:0], v.verified[1:]...)
	}
	v.verified = append(v.verified, r)
	v.top = max(v.top, s)
}

// release yields the held blocks up to the newest one a verified header
// has, oldest first.
func (v *vfollow) release(yield func(beacon.FollowedHead, error) bool) bool {
	end := -1
	for i := len(v.held) - 1; i >= 0 && end < 0; i-- {
		for _, r := range v.verified {
			if v.held[i].Root == r {
				end = i
				break
			}
		}
	}
	for i := 0; i <= end; i++ {
		if !yield(v.held[i], nil) {
			return false
		}
	}
	v.held = append(v.held[:0], v.held[end+1:]...)
	return true
}
