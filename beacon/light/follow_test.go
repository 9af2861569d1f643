package light_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/beacon/light"
)

// followSetup is a beacontest chain one period in (finalized at slot 48,
// head at 67), its client and a light client from its genesis root.
func followSetup(t *testing.T) (*beacontest.Server, *beacon.Client, *light.Client) {
	t.Helper()
	srv := minimalServer(t, 1)
	bc, err := srv.Client(nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	lc, err := light.New(bc, srv.LightConfig(), blockRoot(t, bc, "genesis"))
	require.NoError(t, err)
	return srv, bc, lc
}

// headHeader is the server's head block header.
func headHeader(t *testing.T, bc *beacon.Client) beacon.BeaconBlockHeader {
	t.Helper()
	var h struct {
		Data struct {
			Header struct {
				Message beacon.BeaconBlockHeader `json:"message"`
			} `json:"header"`
		} `json:"data"`
	}
	require.NoError(t, bc.Get(context.Background(), &h, "/eth/v1/beacon/headers/head", nil))
	return h.Data.Header.Message
}

// requireVerified fails unless h is the light client's verified header of
// want (optimistic or finalized) or one of its ancestors: its root is the
// canonical root of its slot, and its slot is not past the verified one.
func requireVerified(t *testing.T, bc *beacon.Client, h beacon.FollowedHead, verified light.Header) {
	t.Helper()
	require.LessOrEqual(t, h.Header.Slot, verified.Beacon.Slot, "block %d is past the verified header", h.Header.Slot)
	require.Equal(t, blockRoot(t, bc, slotID(h.Header.Slot)), h.Root, "slot %d", h.Header.Slot)
	r, err := beacon.HashTreeRoot(h.Header)
	require.NoError(t, err)
	require.Equal(t, r, h.Root)
}

func slotID(s beacon.Slot) string { return beacon.FollowCursor{Slot: s}.String() }

// TestFollowVerifiedHead: from slot 40, every block once, in order, each
// the parent of the next and none past the light client's verified
// optimistic header (the head's parent), until slot 80 as the chain grows
// a block at a time; the head itself waits for the block that signs it.
func TestFollowVerifiedHead(t *testing.T) {
	srv, bc, lc := followSetup(t)
	// The chain stands still: 40 to 66, the head's parent, and then
	// nothing, until the walk ends with its context.
	short, stop := context.WithTimeout(context.Background(), time.Second)
	defer stop()
	var prev beacon.FollowedHead
	var end error
	n := 0
	for h, err := range lc.Follow(short, beacon.FollowQuery{From: beacon.FollowCursor{Slot: 40}, Poll: 10 * time.Millisecond}) {
		if err != nil {
			end = err
			break
		}
		require.Equal(t, 40+beacon.Slot(n), h.Header.Slot, "every block once, in order")
		if n > 0 {
			require.Equal(t, prev.Root, h.Header.ParentRoot)
		}
		opt, _ := lc.Optimistic()
		requireVerified(t, bc, h, opt)
		n, prev = n+1, h
	}
	require.ErrorIs(t, end, context.DeadlineExceeded)
	require.Equal(t, beacon.Slot(66), prev.Header.Slot, "the head (67) waits for the block that signs it")

	// Resumed from the cursor, as the chain grows a block at a time (one
	// now, to sign the head that waits; then one each time the newest
	// verified block comes).
	require.NoError(t, srv.Advance(1))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for h, err := range lc.Follow(ctx, beacon.FollowQuery{From: prev.Cursor, Poll: 10 * time.Millisecond}) {
		require.NoError(t, err)
		require.False(t, h.Removed)
		opt, ok := lc.Optimistic()
		require.True(t, ok)
		requireVerified(t, bc, h, opt)
		require.Equal(t, prev.Root, h.Header.ParentRoot, "slot %d follows slot %d", h.Header.Slot, prev.Header.Slot)
		require.Equal(t, beacon.FollowCursor{Slot: h.Header.Slot, Root: h.Root}, h.Cursor)
		prev = h
		head := headHeader(t, bc)
		require.Less(t, h.Header.Slot, head.Slot, "the head is not verified before its child signs it")
		if h.Header.Slot == 80 {
			break
		}
		if h.Root == head.ParentRoot {
			require.NoError(t, srv.Advance(1))
		}
	}
	require.Equal(t, beacon.Slot(80), prev.Header.Slot)
}

// TestFollowVerifiedFinalized: at Finalized, only blocks up to the light
// client's verified finalized header, and more as the chain finalizes.
func TestFollowVerifiedFinalized(t *testing.T) {
	srv, bc, lc := followSetup(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var n int
	var prev beacon.FollowedHead
	for h, err := range lc.Follow(ctx, beacon.FollowQuery{From: beacon.FollowCursor{Slot: 30}, Finality: beacon.Finalized, Poll: 10 * time.Millisecond}) {
		require.NoError(t, err)
		fin, ok := lc.Finalized()
		require.True(t, ok)
		requireVerified(t, bc, h, fin)
		if n > 0 {
			require.Equal(t, prev.Root, h.Header.ParentRoot)
		}
		n, prev = n+1, h
		if h.Header.Slot == 48 {
			require.NoError(t, srv.Advance(8))
			require.NoError(t, srv.Finalize(7))
			require.NoError(t, srv.Advance(2), "a block whose state carries the new checkpoint, and one that signs it")
		}
		if h.Header.Slot == 56 {
			break
		}
	}
	require.Equal(t, 56-30+1, n, "every block from slot 30 to 56 (no empty slots)")
}

// TestFollowVerifiedReorg: a reorganisation of released blocks yields the
// released block that left as removed (the held one is never shown), then
// the new branch once verified.
func TestFollowVerifiedReorg(t *testing.T) {
	srv, bc, lc := followSetup(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var got []beacon.FollowedHead
	var oldHead, oldParent beacon.Root
	reorged := false
	for h, err := range lc.Follow(ctx, beacon.FollowQuery{From: beacon.FollowCursor{Slot: 60}, Poll: 10 * time.Millisecond}) {
		require.NoError(t, err)
		got = append(got, h)
		require.NotEqual(t, oldHead, h.Root, "the unverified head of the old branch is never yielded")
		head := headHeader(t, bc)
		if !reorged && h.Root == head.ParentRoot {
			oldParent = h.Root
			oldHead = blockRoot(t, bc, "head")
			require.NoError(t, srv.Reorg(2))
			require.NoError(t, srv.Advance(1))
			reorged = true
			continue
		}
		if reorged && !h.Removed {
			opt, _ := lc.Optimistic()
			requireVerified(t, bc, h, opt)
			break
		}
	}
	n := len(got)
	require.GreaterOrEqual(t, n, 3)
	require.Equal(t, oldParent, got[n-3].Root)
	require.True(t, got[n-2].Removed, "the released block that left the chain")
	require.Equal(t, oldParent, got[n-2].Root)
	require.False(t, got[n-1].Removed)
	require.Equal(t, got[n-3].Header.Slot, got[n-1].Header.Slot, "the new branch's block at the same slot")
	require.Equal(t, got[n-3].Header.ParentRoot, got[n-1].Header.ParentRoot)
}

// TestFollowVerifiedLie: a forged update is an error matching
// nodeaccess.ErrUnverified, and no block past the last verified one is
// yielded while the node lies; a Follow resumed from the last cursor once
// it stops goes on with the next block.
func TestFollowVerifiedLie(t *testing.T) {
	srv, bc, lc := followSetup(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	q := beacon.FollowQuery{From: beacon.FollowCursor{Slot: 60}, Poll: 10 * time.Millisecond}
	var last beacon.FollowedHead
	errs := 0
	for h, err := range lc.Follow(ctx, q) {
		if err != nil {
			require.ErrorIs(t, err, nodeaccess.ErrUnverified)
			if errs++; errs == 2 {
				break
			}
			continue
		}
		require.Zero(t, errs, "block %d yielded after a forged update", h.Header.Slot)
		last = h
		if h.Root == headHeader(t, bc).ParentRoot {
			srv.Lie(beacontest.Lie{Signature: true})
			require.NoError(t, srv.Advance(3))
		}
	}
	require.Equal(t, 2, errs)
	require.Equal(t, beacon.Slot(66), last.Header.Slot, "nothing past the head's parent when the lie began")
	srv.Lie(beacontest.Lie{})
	q.From = last.Cursor
	for h, err := range lc.Follow(ctx, q) {
		require.NoError(t, err)
		require.Equal(t, last.Root, h.Header.ParentRoot, "resumed right after the cursor")
		opt, _ := lc.Optimistic()
		requireVerified(t, bc, h, opt)
		break
	}
}

// splitRoutes sends the light-client requests meant for from to to, and
// the rest where they were going.
type splitRoutes struct{ from, to string }

func (s splitRoutes) RoundTrip(r *http.Request) (*http.Response, error) {
	u := r.URL.String()
	if strings.Contains(u, "/light_client/") {
		nu, err := url.Parse(strings.Replace(u, s.from, s.to, 1))
		if err != nil {
			return nil, err
		}
		r = r.Clone(r.Context())
		r.URL, r.Host = nu, nu.Host
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestFollowVerifiedForeignChain: a node whose headers do not reach the
// verified header (its two newest blocks are another branch than the one
// the sync committee signed) has none of them yielded, not even the blocks
// both branches share: nothing a verified header reaches is held.
func TestFollowVerifiedForeignChain(t *testing.T) {
	signed, liar := minimalServer(t, 1), minimalServer(t, 1)
	sbc, err := signed.Client()
	require.NoError(t, err)
	require.NoError(t, liar.Reorg(2))
	bc, err := liar.Client(nodeaccess.WithRoundTripper(splitRoutes{
		from: liar.URL + "/beacon/" + liar.Key(), to: signed.URL + "/beacon/" + signed.Key()}))
	require.NoError(t, err)
	require.Equal(t, blockRoot(t, sbc, "60"), blockRoot(t, bc, "60"), "the same chain up to the reorganisation")
	require.NotEqual(t, blockRoot(t, sbc, "66"), blockRoot(t, bc, "66"))
	lc, err := light.New(bc, signed.LightConfig(), blockRoot(t, sbc, "genesis"))
	require.NoError(t, err)
	require.NoError(t, liar.Advance(1))
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for h, err := range lc.Follow(ctx, beacon.FollowQuery{From: beacon.FollowCursor{Slot: 60}, Poll: 10 * time.Millisecond}) {
		require.ErrorIs(t, err, context.DeadlineExceeded, "slot %d yielded", h.Header.Slot)
	}
	opt, ok := lc.Optimistic()
	require.True(t, ok, "the light client synced: what it verified is the other branch")
	require.Equal(t, beacon.Slot(66), opt.Beacon.Slot)
}
