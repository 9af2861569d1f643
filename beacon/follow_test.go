package beacon_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
)

// TestFollowEveryBlockOnce: from a slot, every canonical block once, in
// slot order, the empty slots passed (in the slots read one by one far
// from the head, and in those read back from it), then each new block.
func TestFollowEveryBlockOnce(t *testing.T) {
	srv := followServer(t)
	empty := []beacon.Slot{1, 5, 6, 13, 64, 100, 101, 150, 199}
	require.NoError(t, srv.Advance(200, empty...))
	c := followClient(t, srv)
	want := canonical(t, c, 1, 200)
	require.Len(t, want, 200-len(empty))

	ch := startFollow(t, c, beacon.FollowQuery{From: beacon.FollowCursor{Slot: 1}, Poll: followPoll})
	got := heads(t, take(t, ch, len(want)))
	require.Equal(t, want, blocksOf(got))
	for _, h := range got {
		require.False(t, h.Removed)
		require.Equal(t, beacon.Head, h.Finality)
		require.Equal(t, beacon.Checkpoint{}, h.Finalized, "nothing finalized yet")
	}
	replay(t, nil, got)
	quiet(t, ch)

	require.NoError(t, srv.Advance(3, 202))
	require.NoError(t, srv.Finalize(2))
	require.NoError(t, srv.Advance(1))
	more := heads(t, take(t, ch, 3))
	require.Equal(t, canonical(t, c, 201, 204), blocksOf(more))
	replay(t, got, more)
	quiet(t, ch)
}

// TestFollowFromNow: the zero cursor starts at the head block, then the
// new ones.
func TestFollowFromNow(t *testing.T) {
	srv := followServer(t)
	require.NoError(t, srv.Advance(70))
	c := followClient(t, srv)
	ch := startFollow(t, c, beacon.FollowQuery{Poll: followPoll})
	first := heads(t, take(t, ch, 1))
	require.Equal(t, canonical(t, c, 70, 70), blocksOf(first))
	quiet(t, ch)
	require.NoError(t, srv.Advance(2))
	require.Equal(t, canonical(t, c, 71, 72), blocksOf(heads(t, take(t, ch, 2))))
}

// TestFollowReorgDepths: a reorganisation of 1 to 64 blocks yields the
// blocks that left the chain, newest first, with Removed and the cursor of
// the block below each, then the new branch; one of 65 ends the walk with
// ErrInvalidResponse, nothing removed.
func TestFollowReorgDepths(t *testing.T) {
	for depth := 1; depth <= 65; depth++ {
		srv := followServer(t)
		require.NoError(t, srv.Advance(depth+5, 3))
		c := followClient(t, srv)
		old := canonical(t, c, 1, beacon.Slot(depth+5))
		ch := startFollow(t, c, beacon.FollowQuery{From: beacon.FollowCursor{Slot: 1}, Poll: followPoll})
		seen := heads(t, take(t, ch, len(old)))
		require.Equal(t, old, blocksOf(seen), "depth %d", depth)
		require.NoError(t, srv.Reorg(depth))
		if depth > 64 {
			it := take(t, ch, 1)[0]
			require.ErrorIs(t, it.err, nodeaccess.ErrInvalidResponse)
			require.Contains(t, it.err.Error(), "deeper than the 64 blocks")
			require.Equal(t, beacon.FollowedHead{}, it.h)
			continue
		}
		got := heads(t, take(t, ch, 2*depth))
		for i, h := range got[:depth] {
			w := seen[len(seen)-1-i]
			require.True(t, h.Removed, "depth %d item %d", depth, i)
			require.Equal(t, w.Header, h.Header, "depth %d item %d", depth, i)
			require.Equal(t, w.Root, h.Root)
		}
		now := canonical(t, c, 1, beacon.Slot(depth+5))
		require.Equal(t, now[len(now)-depth:], blocksOf(got[depth:]), "depth %d", depth)
		require.Equal(t, now, blocksOf(replay(t, seen, got)), "depth %d", depth)
		if depth%16 == 1 || depth == 64 {
			quiet(t, ch)
		}
		srv.Close()
	}
}

// TestFollowResumeEveryCursor: resuming from the cursor of every item of a
// walk that saw two reorganisations goes on with exactly what comes after
// it: the consumer's view ends as the canonical chain, nothing repeated or
// lost, the removals of blocks that left the chain while it was stopped
// included.
func TestFollowResumeEveryCursor(t *testing.T) {
	srv := followServer(t)
	require.NoError(t, srv.Advance(12, 4, 9))
	c := followClient(t, srv)
	ch := startFollow(t, c, beacon.FollowQuery{From: beacon.FollowCursor{Slot: 1}, Poll: followPoll})
	items := heads(t, take(t, ch, 10))
	require.NoError(t, srv.Reorg(3))
	items = append(items, heads(t, take(t, ch, 6))...)
	require.NoError(t, srv.Advance(4, 14))
	items = append(items, heads(t, take(t, ch, 3))...)
	require.NoError(t, srv.Reorg(2))
	items = append(items, heads(t, take(t, ch, 4))...)
	final := canonical(t, c, 1, 16)
	require.Equal(t, final, blocksOf(replay(t, nil, items)))

	// Then the chain moves on while the program is stopped: the cursors
	// of the last blocks name blocks that left it.
	require.NoError(t, srv.Reorg(2))
	require.NoError(t, srv.Advance(2))
	final = canonical(t, c, 1, 18)

	for i := range items {
		view := replay(t, nil, items[:i+1])
		cur := items[i].Cursor
		text, err := cur.MarshalText()
		require.NoError(t, err)
		var back beacon.FollowCursor
		require.NoError(t, back.UnmarshalText(text))
		rch := startFollow(t, c, beacon.FollowQuery{From: back, Poll: followPoll})
		for !sameBlocks(view, final) {
			view = replay(t, view, heads(t, take(t, rch, 1)))
		}
		quiet(t, rch)
	}
}

func sameBlocks(view []beacon.FollowedHead, want []chainBlock) bool {
	if len(view) != len(want) {
		return false
	}
	for i := range view {
		if view[i].Header.Slot != want[i].Slot || view[i].Root != want[i].Root {
			return false
		}
	}
	return true
}

// TestFollowFinalized: at Finalized, the blocks up to the finalized
// checkpoint's block, never one above it, never one removed, whatever the
// head does; the zero cursor starts at the finalized block.
func TestFollowFinalized(t *testing.T) {
	srv := followServer(t)
	require.NoError(t, srv.Advance(100, 32, 33))
	require.NoError(t, srv.Finalize(1)) // slot 32 is empty: its checkpoint is the block at 31
	c := followClient(t, srv)

	ch := startFollow(t, c, beacon.FollowQuery{From: beacon.FollowCursor{Slot: 1}, Finality: beacon.Finalized, Poll: followPoll})
	got := heads(t, take(t, ch, 31))
	require.Equal(t, canonical(t, c, 1, 31), blocksOf(got))
	fin := beacon.Checkpoint{Epoch: 1, Root: got[30].Root}
	for _, h := range got {
		require.Equal(t, beacon.Finalized, h.Finality)
		require.Equal(t, fin, h.Finalized)
	}
	now := startFollow(t, c, beacon.FollowQuery{Finality: beacon.Finalized, Poll: followPoll})
	require.Equal(t, got[30:], heads(t, take(t, now, 1)))
	quiet(t, ch)

	require.NoError(t, srv.Reorg(10)) // above the finalized block: not seen at Finalized
	require.NoError(t, srv.Advance(40))
	quiet(t, ch)
	require.NoError(t, srv.Finalize(4)) // slot 128
	more := heads(t, take(t, ch, 128-33))
	require.Equal(t, canonical(t, c, 34, 128), blocksOf(more))
	replay(t, got, more)
	for _, h := range more {
		require.False(t, h.Removed)
		require.Equal(t, beacon.Checkpoint{Epoch: 4, Root: more[len(more)-1].Root}, h.Finalized)
	}
	quiet(t, ch)
}

// TestFollowFinalizedCheckpointAtHead: at Head, each block carries the
// newest finalized checkpoint read (once an epoch of the head's).
func TestFollowFinalizedCheckpointAtHead(t *testing.T) {
	srv := followServer(t)
	require.NoError(t, srv.Advance(40))
	require.NoError(t, srv.Finalize(1))
	c := followClient(t, srv)
	ch := startFollow(t, c, beacon.FollowQuery{Poll: followPoll})
	fin1 := beacon.Checkpoint{Epoch: 1, Root: canonical(t, c, 32, 32)[0].Root}
	require.Equal(t, fin1, heads(t, take(t, ch, 1))[0].Finalized)
	// The follower may read the finality of epoch 2's head before
	// Finalize(2); it reads it again at epoch 3's.
	require.NoError(t, srv.Advance(30))
	require.NoError(t, srv.Finalize(2))
	require.NoError(t, srv.Advance(30))
	got := heads(t, take(t, ch, 60))
	fin2 := beacon.Checkpoint{Epoch: 2, Root: canonical(t, c, 64, 64)[0].Root}
	require.Equal(t, fin2, got[59].Finalized)
	for i, h := range got {
		require.Contains(t, []beacon.Checkpoint{fin1, fin2}, h.Finalized)
		if i > 0 {
			require.GreaterOrEqual(t, h.Finalized.Epoch, got[i-1].Finalized.Epoch)
		}
	}
}

// TestFollowFaults: 500s and 429s past the client's retries are asked
// again after Poll, never skipped; 30 in a row are yielded once, with a
// zero item, and the walk goes on.
func TestFollowFaults(t *testing.T) {
	srv := followServer(t)
	require.NoError(t, srv.Advance(80, 7))
	c := followClient(t, srv, nodeaccess.WithMaxAttempts(1))
	want := canonical(t, c, 1, 80)

	want70 := canonical(t, c, 70, 80)
	for _, fault := range []struct {
		name string
		f    nodeaccesstest.Fault
	}{{"500", nodeaccesstest.ServerError(500)}, {"429", nodeaccesstest.RateLimited(time.Millisecond)}} {
		t.Run(fault.name, func(t *testing.T) {
			srv.FailNext(5, fault.f)
			ch := startFollow(t, c, beacon.FollowQuery{From: beacon.FollowCursor{Slot: 1}, Poll: followPoll})
			require.Equal(t, want, blocksOf(heads(t, take(t, ch, len(want)))))
		})
	}

	srv.FailNext(31, nodeaccesstest.ServerError(503))
	ch := startFollow(t, c, beacon.FollowQuery{From: beacon.FollowCursor{Slot: 70}, Poll: followPoll})
	items := take(t, ch, 1+len(want70))
	require.ErrorIs(t, items[0].err, nodeaccess.ErrUnavailable)
	require.Equal(t, beacon.FollowedHead{}, items[0].h)
	require.Equal(t, want70, blocksOf(heads(t, items[1:])))
	quiet(t, ch)
}

// TestFollowCost: the requests Follow sends, counted on the server: one
// a slot catching up (empty slots included) until 64 slots from the head,
// then one a block read back from the head; at the head, one a poll and
// one finality_checkpoints an epoch.
func TestFollowCost(t *testing.T) {
	srv := followServer(t)
	empty := []beacon.Slot{10, 20, 150, 180}
	require.NoError(t, srv.Advance(200, empty...))
	// The polling cost: both followers' nodes serve no event stream (its
	// cost is TestFollowEvents'), so that neither asks when an event comes.
	c := followClient(t, srv, nodeaccess.WithRoundTripper(noEvents{}))
	before := srv.RequestCount()
	ch := startFollow(t, c, beacon.FollowQuery{From: beacon.FollowCursor{Slot: 1}, Poll: time.Hour})
	take(t, ch, 200-len(empty))
	// 1 head + 1 finality, slots 1 to 136 one by one (tip 200 - 64), 1
	// head, and blocks 137 to 199 by root but the 2 empty ones: the head's
	// answer is read, its ancestors back to block 136.
	require.Equal(t, 2+136+1+(199-137+1-2), srv.RequestCount()-before)

	// At the head, polling (a node without the event stream): one request
	// a poll, a new block included.
	c2 := followClient(t, srv, nodeaccess.WithRoundTripper(noEvents{}))
	ch2 := startFollow(t, c2, beacon.FollowQuery{Poll: 200 * time.Millisecond})
	take(t, ch2, 1)
	for range 5 {
		before := srv.RequestCount()
		require.NoError(t, srv.Advance(1))
		take(t, ch2, 1)
		n := srv.RequestCount() - before
		require.LessOrEqual(t, n, 2, "requests for one block at the head") // the poll that saw it, and at most one that came before
		require.GreaterOrEqual(t, n, 1)
	}
}

// TestFollowRefusesBadQueries: a finality other than head or finalized,
// a cursor at the last slot, and a nil context are input errors naming
// the value, and nothing is sent.
func TestFollowRefusesBadQueries(t *testing.T) {
	srv := followServer(t)
	c := followClient(t, srv)
	for _, q := range []beacon.FollowQuery{
		{Finality: beacon.Justified},
		{Finality: beacon.StateID("safe")},
		{From: beacon.FollowCursor{Slot: 1<<64 - 1}},
	} {
		var errs []error
		for h, err := range c.Follow(context.Background(), q) {
			require.Equal(t, beacon.FollowedHead{}, h)
			errs = append(errs, err)
		}
		require.Len(t, errs, 1)
		var ie *nodeaccess.InputError
		require.ErrorAs(t, errs[0], &ie, "%+v", q)
		if q.Finality != "" {
			require.Contains(t, errs[0].Error(), fmt.Sprintf("%q", string(q.Finality)))
		}
	}
	var nilCtx context.Context
	n := 0
	for _, err := range c.Follow(nilCtx, beacon.FollowQuery{}) {
		require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		n++
	}
	require.Equal(t, 1, n)
	require.Zero(t, srv.RequestCount())
}

// TestFollowStopsWhenTheLoopStops: a break ends the walk: no goroutine,
// no request after it.
func TestFollowStopsWhenTheLoopStops(t *testing.T) {
	srv := followServer(t)
	require.NoError(t, srv.Advance(10))
	c := followClient(t, srv)
	for h, err := range c.Follow(context.Background(), beacon.FollowQuery{From: beacon.FollowCursor{Slot: 1}, Poll: followPoll}) {
		require.NoError(t, err)
		if h.Header.Slot == 3 {
			break
		}
	}
	count := srv.RequestCount()
	time.Sleep(10 * followPoll)
	require.Equal(t, count, srv.RequestCount())

	ctx, cancel := context.WithTimeout(context.Background(), 20*followPoll)
	defer cancel()
	var last error
	for _, err := range c.Follow(ctx, beacon.FollowQuery{Poll: followPoll}) {
		last = err
	}
	require.True(t, errors.Is(last, context.DeadlineExceeded), "%v", last)
	require.False(t, strings.Contains(last.Error(), srv.Key()))
}

// TestFollowFinalizedFromAHeadCursor: a cursor a walk at Head made, past
// the finalized block, resumes at Finalized without removing its block:
// the walk waits for finality to pass it, then goes on after it.
func TestFollowFinalizedFromAHeadCursor(t *testing.T) {
	srv := followServer(t)
	require.NoError(t, srv.Advance(40))
	c := followClient(t, srv)
	at := heads(t, take(t, startFollow(t, c, beacon.FollowQuery{Poll: followPoll}), 1))[0] // block 40
	ch := startFollow(t, c, beacon.FollowQuery{From: at.Cursor, Finality: beacon.Finalized, Poll: followPoll})
	quiet(t, ch)
	require.NoError(t, srv.Advance(30))
	require.NoError(t, srv.Finalize(2)) // slot 64
	got := heads(t, take(t, ch, 24))
	require.Equal(t, canonical(t, c, 41, 64), blocksOf(got))
	replay(t, []beacon.FollowedHead{at}, got)
	quiet(t, ch)
}
