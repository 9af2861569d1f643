package beacon_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// followPoll is the tests' poll: quick, so that they wait little.
const followPoll = 5 * time.Millisecond

// followServer starts a server with the chain of headers alone (no
// states: nothing to generate).
func followServer(t *testing.T) *beacontest.Server {
	t.Helper()
	return beacontest.NewT(t, beacontest.WithStates())
}

// followClient is a client of srv with quick retries.
func followClient(t *testing.T, srv *beacontest.Server, opts ...nodeaccess.Option) *beacon.Client {
	t.Helper()
	c, err := srv.Client(append([]nodeaccess.Option{nodeaccess.WithBackoff(time.Millisecond, 5*time.Millisecond)}, opts...)...)
	require.NoError(t, err)
	return c
}

// chainBlock is a canonical block as the tests read it, independently of
// Follow: through Get and encoding/json.
type chainBlock struct {
	Slot beacon.Slot
	Root beacon.Root
}

// canonical reads the canonical blocks at slots from to to, one request a
// slot.
func canonical(t *testing.T, c *beacon.Client, from, to beacon.Slot) []chainBlock {
	t.Helper()
	var out []chainBlock
	for s := from; s <= to; s++ {
		var a struct {
			Data struct {
				Root   beacon.Root `json:"root"`
				Header struct {
					Message beacon.BeaconBlockHeader `json:"message"`
				} `json:"header"`
			} `json:"data"`
		}
		err := c.Get(context.Background(), &a, "/eth/v1/beacon/headers/"+strconv.FormatUint(uint64(s), 10), nil)
		if errors.Is(err, nodeaccess.ErrNotFound) {
			continue
		}
		require.NoError(t, err)
		out = append(out, chainBlock{a.Data.Header.Message.Slot, a.Data.Root})
	}
	return out
}

// followed is one item Follow yielded.
type followed struct {
	h   beacon.FollowedHead
	err error
}

// startFollow ranges over Follow in a goroutine until the test ends, and
// hands the items over one by one.
func startFollow(t *testing.T, c *beacon.Client, q beacon.FollowQuery) <-chan followed {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan followed)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(out)
		for h, err := range c.Follow(ctx, q) {
			select {
			case out <- followed{h, err}:
			case <-ctx.Done():
				return
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return out
}

// take reads n items (errors included) from ch, failing after a while.
func take(t *testing.T, ch <-chan followed, n int) []followed {
	t.Helper()
	var got []followed
	deadline := time.After(60 * time.Second)
	for len(got) < n {
		select {
		case it, ok := <-ch:
			require.True(t, ok, "Follow ended after %d items of %d", len(got), n)
			got = append(got, it)
		case <-deadline:
			require.FailNow(t, "no item", "%d items of %d", len(got), n)
		}
	}
	return got
}

// quiet checks that ch yields nothing for a while.
func quiet(t *testing.T, ch <-chan followed) {
	t.Helper()
	select {
	case it := <-ch:
		require.FailNow(t, "an item too many", "%+v", it)
	case <-time.After(20 * followPoll):
	}
}

// heads returns the items' blocks, failing on an error.
func heads(t *testing.T, items []followed) []beacon.FollowedHead {
	t.Helper()
	out := make([]beacon.FollowedHead, len(items))
	for i, it := range items {
		require.NoError(t, it.err, "item %d", i)
		out[i] = it.h
	}
	return out
}

// blocksOf returns the slots and roots of hs.
func blocksOf(hs []beacon.FollowedHead) []chainBlock {
	out := make([]chainBlock, len(hs))
	for i, h := range hs {
		out[i] = chainBlock{h.Header.Slot, h.Root}
	}
	return out
}

// replay applies items to a consumer's view of the chain, as a user of
// Follow does: a block is pushed (its parent must be the view's newest
// block, when the view has one), a removed block popped (it must be the
// newest). It returns the view.
func replay(t *testing.T, view []beacon.FollowedHead, items []beacon.FollowedHead) []beacon.FollowedHead {
	t.Helper()
	for i, h := range items {
		root, err := beacon.HashTreeRoot(h.Header)
		require.NoError(t, err)
		require.Equal(t, root, h.Root, "item %d: the root is not its header's", i)
		if h.Removed {
			require.NotEmpty(t, view, "item %d removes block %d from an empty view", i, h.Header.Slot)
			require.Equal(t, view[len(view)-1].Root, h.Root, "item %d removes block %d, not the newest", i, h.Header.Slot)
			view = view[:len(view)-1]
			if len(view) > 0 {
				require.Equal(t, beacon.FollowCursor{Slot: view[len(view)-1].Header.Slot, Root: view[len(view)-1].Root}, h.Cursor, "item %d's cursor", i)
			}
			continue
		}
		if len(view) > 0 {
			require.Equal(t, view[len(view)-1].Root, h.Header.ParentRoot, "item %d: block %d does not follow the newest block", i, h.Header.Slot)
		}
		require.Equal(t, beacon.FollowCursor{Slot: h.Header.Slot, Root: h.Root}, h.Cursor, "item %d's cursor", i)
		view = append(view, h)
	}
	return view
}
