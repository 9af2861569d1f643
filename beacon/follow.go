package beacon

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// defaultPoll is how often Follow asks for the newest block when it has
// caught up, and how long it waits after a failure: the slot time.
const defaultPoll = 12 * time.Second

// reorgBound is how many of the newest blocks Follow keeps, so how deep a
// reorganisation it follows.
const reorgBound = 64

// maxBranch is the most blocks Follow reads back from a new head to find
// where it joins the blocks it yielded.
const maxBranch = 4 * reorgBound

// FollowQuery says what Follow follows, from where, and how it paces itself.
type FollowQuery struct {
	// From is the position to start at: the zero FollowCursor starts at
	// the newest block (at Finality) when Follow starts;
	// FollowCursor{Slot: n} at the first block at or after slot n; a
	// cursor a FollowedHead carried right after that block.
	From FollowCursor
	// Finality is the newest block Follow reads: Head (or "") or
	// Finalized, the block of the newest finalized checkpoint. At Head
	// reorganisations are followed; at Finalized nothing yielded is ever
	// removed.
	Finality StateID
	// Poll is how often Follow asks for a new block once it has caught up,
	// and how long it waits after a failure; 0 means 12 s, the slot time.
	// At Finalized, which moves once an epoch (6.4 minutes), a longer one
	// costs less for the same blocks.
	Poll time.Duration
}

// FollowedHead is one block Follow yields: its header and root, whether it
// left the canonical chain, the finalized checkpoint known then, and the
// cursor to resume after it.
type FollowedHead struct {
	// Header is the block's header.
	Header BeaconBlockHeader `json:"header"`
	// Root is the block root, the hash tree root of Header (checked: an
	// answer whose root is not its header's is refused).
	Root Root `json:"root"`
	// Removed is true when the block left the canonical chain (a
	// reorganisation); it was yielded before without Removed.
	Removed bool `json:"removed"`
	// Finalized is the newest finalized checkpoint Follow knew when it
	// yielded the block.
	Finalized Checkpoint `json:"finalized"`
	// Finality is the query's Finality (Head or Finalized).
	Finality StateID `json:"finality"`
	// Cursor is the position right after this block (after its removal,
	// for a removed block).
	Cursor FollowCursor `json:"cursor"`
}

// Follow walks the chain from q.From: every block of the canonical chain
// once, in slot order (an empty slot has none), and then, caught up with
// the newest block at q.Finality, each new one as it comes (asking every
// q.Poll). It ends when ctx ends (yielding its error) or the loop stops, or
// after an error it cannot retry.
//
// At Head, Follow checks that each block's parent_root is the root of the
// block before it, and keeps the 64 newest blocks it yielded. When the
// chain reorganises, the blocks that left it are yielded again with Removed
// set, newest first, and then the new branch's blocks, oldest first. A
// reorganisation deeper than 64 blocks ends the walk with an error matching
// nodeaccess.ErrInvalidResponse that says so. At Finalized, Follow reads up
// to the block of the newest finalized checkpoint only, and removes
// nothing: a finalized block that leaves the chain ends the walk with an
// error matching nodeaccess.ErrInvalidResponse.
//
// Resuming: q.From = the cursor of the last block handled goes on with the
// next one. When that block is no longer canonical (the chain reorganised
// while the program was stopped), Follow first yields it, and those of its
// ancestors that left the chain too (at most 64 blocks), as removed,
// reading them by root, then goes on after the block the two branches
// share. A node that no longer has the old block ends the walk with an
// error matching nodeaccess.ErrNotFound.
//
// It reads GET /eth/v1/beacon/headers/{block_id} (head, a slot, a root;
// a 404 for a slot is an empty slot) and
// GET /eth/v1/beacon/states/head/finality_checkpoints, through the client's
// transport (its retries, hooks and budget; each call's operation is its
// path). Every header's root is computed and must be the root the node
// names; an answer that is not what was asked for (another slot, another
// root, a missing or malformed member) matches
// nodeaccess.ErrInvalidResponse and names the member.
//
// Events: once it has caught up, Follow also listens to the node's event
// stream (GET /eth/v1/events?topics=head,finalized_checkpoint,chain_reorg,
// server-sent events) and asks for the head as soon as an event comes
// instead of at its next poll (at most every half second, however many
// events come); q.Poll stays the most it waits. An event is
// a hint only: what Follow yields is read and checked as when it polls, so
// a stream that lies or stops changes when Follow asks, never what it
// yields. A node that does not serve the stream (a 400, 404, 405, 406 or
// 501) is not asked for it again, and Follow polls; a stream that ends is
// opened again after q.Poll (one request each time; a connection lasts at
// most 10 minutes, or the client's WithTimeout).
//
// Faults: a 5xx, a 429 or a network failure that outlasts the client's own
// retries is asked again after q.Poll, the same block, never skipped; so
// are answers that disagree (a head that does not descend from a block the
// node calls canonical, as a node behind another one answers), which
// match nodeaccess.ErrUnavailable. After 30 failures in a row Follow yields
// the error with a zero FollowedHead and goes on if the loop does. Other
// errors end the walk: resume from the last cursor once the cause is
// fixed.
//
// Cost: at the head, each poll is one request (headers/head), plus one
// finality_checkpoints an epoch: with q.Poll at the slot time, about one
// request a slot; a block that came between two polls costs one more
// (read by root). With the event stream, one request a new block (the
// head its event announced), whatever q.Poll, and the stream's connection. Catching up, one request a slot (empty slots included)
// up to 64 slots from the newest block, then one a block. At Finalized,
// each poll is one finality_checkpoints, and each finalized block one
// request when the checkpoint moves. A reorganisation costs one request
// per block of the new branch below its head.
func (c *Client) Follow(ctx context.Context, q FollowQuery) iter.Seq2[FollowedHead, error] {
	if err := transport.NilContext(ctx); err != nil {
		return func(yield func(FollowedHead, error) bool) {
			yield(FollowedHead{}, c.t.Wrap("follow", err))
		}
	}
	return func(yield func(FollowedHead, error) bool) {
		stopped := false
		f := &follower{c: c, q: q, poll: q.Poll, spe: c.preset.SlotsPerEpoch, yield: func(h FollowedHead, err error) bool {
			stopped = stopped || !yield(h, err)
			return !stopped
		}}
		if f.poll <= 0 {
			f.poll = defaultPoll
		}
		if f.spe == 0 {
			f.spe = MainnetPreset().SlotsPerEpoch
		}
		lctx, cancel := context.WithCancel(ctx)
		f.listenCtx = lctx
		defer func() {
			cancel()
			if f.events != nil {
				<-f.events.done
			}
		}()
		if err := f.run(ctx); err != nil && !stopped {
			yield(FollowedHead{}, err)
		}
	}
}

var (
	// errStopped ends a walk whose loop stopped.
	errStopped = transport.ErrFollowStopped
	// errChanged: two answers about the chain disagree (it changed between
	// the calls, or they came from nodes that see it differently): ask
	// again later, as for an unavailable node.
	errChanged = fmt.Errorf("%w: the chain changed between two calls", nodeaccess.ErrUnavailable)
)

// follower is the state of one range over Follow.
type follower struct {
	c     *Client
	q     FollowQuery
	poll  time.Duration
	spe   uint64 // slots per epoch
	yield func(FollowedHead, error) bool

	next Slot // the next slot to read
	// now: start at the tip when it is first read (the zero cursor).
	now bool
	// ring is the newest blocks yielded, oldest first, at most reorgBound
	// of them, each the parent of the next. base says that the ancestors
	// of ring[0] were yielded too (by this walk, or by the walk the cursor
	// came from); without it, nothing below floor was.
	ring  []block
	base  bool
	floor Slot
	// tip is the newest block at the query's finality known (haveTip);
	// tipFor is the checkpoint root it was read for, at Finalized.
	tip     block
	haveTip bool
	tipFor  Root
	// events is the node's event stream, which wakes wait; it is started
	// the first time Follow waits at the tip, with listenCtx (which ends
	// with the walk).
	events    *events
	listenCtx context.Context
	// fin is the newest finalized checkpoint known (finKnown), read when
	// the head was at slot finAt.
	fin      Checkpoint
	finKnown bool
	finAt    Slot
}

// block is a block Follow read or yielded.
type block struct {
	h    BeaconBlockHeader
	root Root
	// known: h is the block's header; else only h.Slot is, from a cursor.
	known bool
	// walk: this walk yielded the block.
	walk bool
	// canonical is what the node said of the block when it was read.
	canonical bool
}

// cursor returns the cursor right after b.
func (b *block) cursor() FollowCursor { return FollowCursor{Slot: b.h.Slot, Root: b.root} }

// run walks from q.From until an error or the loop stops.
func (f *follower) run(ctx context.Context) error {
	switch f.q.Finality {
	case "":
		f.q.Finality = Head
	case Head, Finalized:
	default:
		return f.c.t.Wrap("follow", &nodeaccess.InputError{Arg: "finality",
			Reason: fmt.Sprintf("%s: Follow follows head or finalized", transport.Quote(string(f.q.Finality)))})
	}
	switch from := f.q.From; {
	case from.Slot == math.MaxUint64:
		return f.c.t.Wrap("follow", &nodeaccess.InputError{Arg: "cursor", Reason: fmt.Sprintf("%s: no slot comes after it", from)})
	case from.Root != (Root{}):
		f.ring = []block{{h: BeaconBlockHeader{Slot: from.Slot}, root: from.Root}}
		f.base, f.next = true, from.Slot+1
	case from.Slot > 0:
		f.floor, f.next = from.Slot, from.Slot
	default:
		f.now = true
	}
	for {
		if err := f.retry(ctx, func() error { return f.step(ctx) }); err != nil {
			return err
		}
	}
}

// step reads what comes next: a slot while Follow is far behind the tip,
// else the tip and the blocks up to it, and yields them.
func (f *follower) step(ctx context.Context) error {
	if f.haveTip && f.behind() {
		return f.forward(ctx)
	}
	tip, err := f.pollTip(ctx)
	if err != nil {
		return err
	}
	f.tip, f.haveTip = tip, true
	if f.now {
		f.floor, f.next, f.now = tip.h.Slot, tip.h.Slot, false
	}
	switch {
	case f.holds(tip.root), len(f.ring) == 0 && tip.h.Slot < f.next:
		return f.wait(ctx) // nothing new
	case f.q.Finality == Finalized && len(f.ring) > 0 && tip.h.Slot <= f.ring[len(f.ring)-1].h.Slot:
		// A cursor past the finalized block (one a walk at Head made):
		// whether its block stays is known once finality passes it.
		return f.wait(ctx)
	case f.behind():
		return nil // catch up slot by slot
	}
	if err := f.reconcile(ctx, tip); err != nil {
		return err
	}
	return f.wait(ctx)
}

// behind reports whether the tip is more than reorgBound slots past the
// next slot to read.
func (f *follower) behind() bool { return f.tip.h.Slot >= f.next && f.tip.h.Slot-f.next >= reorgBound }

// holds reports whether the ring holds the block of root r.
func (f *follower) holds(r Root) bool {
	for i := range f.ring {
		if f.ring[i].root == r {
			return true
		}
	}
	return false
}

// forward reads slot f.next: an empty slot is passed, a block yielded
// (after the blocks it shows to have left the chain, if any).
func (f *follower) forward(ctx context.Context) error {
	b, err := f.header(ctx, slotText(f.next), Root{})
	if errors.Is(err, nodeaccess.ErrNotFound) {
		if len(f.ring) == 0 {
			f.floor = f.next + 1
		}
		f.next++
		return nil
	}
	if err != nil {
		return err
	}
	if b.h.Slot != f.next {
		return f.invalid(headersOp(slotText(f.next)), "asked for the block at slot %d, got slot %d", f.next, b.h.Slot)
	}
	if !b.canonical {
		return f.changed(headersOp(slotText(f.next)), "the node calls the block at slot %d not canonical", f.next)
	}
	return f.reconcile(ctx, b)
}

// show yields b.
func (f *follower) show(b *block, removed bool, cur FollowCursor) error {
	h := FollowedHead{Header: b.h, Root: b.root, Removed: removed, Finalized: f.fin, Finality: f.q.Finality, Cursor: cur}
	if !f.yield(h, nil) {
		return errStopped
	}
	return nil
}

// retry runs step by the followers' retry rule (transport.FollowRetry).
func (f *follower) retry(ctx context.Context, step func() error) error {
	return transport.FollowRetry(ctx, f.poll, step, transient, func(err error) bool { return f.yield(FollowedHead{}, err) })
}

// transient reports whether err says "ask again later": a 5xx or network
// failure, a 429, answers that disagree (errChanged matches
// nodeaccess.ErrUnavailable).
func transient(err error) bool {
	return errors.Is(err, nodeaccess.ErrUnavailable) || errors.Is(err, nodeaccess.ErrRateLimited)
}
