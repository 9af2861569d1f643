package light_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/light"
)

// TestHeaderAtSlot: Header walks back from the verified finalized header
// (a slot at or before it) or the optimistic one (after it) by parent
// roots, to the server's block at the slot, or the newest before an empty
// slot; the state of the header's root passes CheckState, another's does
// not; a slot after the optimistic header is refused before anything is
// sent.
func TestHeaderAtSlot(t *testing.T) {
	ctx := context.Background()
	srv := minimalServer(t, 2) // finalized 112, head 131
	require.NoError(t, srv.Advance(10, 134), "slot 134 empty")
	bc, err := srv.Client()
	require.NoError(t, err)
	lc, err := light.New(bc, srv.LightConfig(), blockRoot(t, bc, "genesis"))
	require.NoError(t, err)
	light.SetClock(lc, chainClock(t, srv))
	require.NoError(t, lc.Sync(ctx))
	fin, _ := lc.Finalized()
	opt, _ := lc.Optimistic()
	require.Equal(t, beacon.Slot(112), fin.Beacon.Slot)
	require.Equal(t, beacon.Slot(140), opt.Beacon.Slot)

	for _, slot := range []beacon.Slot{100, 112, 120, 133, 140} {
		h, err := lc.Header(ctx, slot)
		require.NoError(t, err, "slot %d", slot)
		require.Equal(t, slot, h.Beacon.Slot)
		require.Equal(t, blockRoot(t, bc, string(beacon.SlotID(slot))), mustRoot(t, h.Beacon), "slot %d", slot)
	}
	h, err := lc.Header(ctx, 134)
	require.NoError(t, err)
	require.Equal(t, beacon.Slot(133), h.Beacon.Slot, "an empty slot: the newest block before it")
	require.Nil(t, h.Execution)

	h, err = lc.Header(ctx, 100)
	require.NoError(t, err)
	st, _, err := bc.State(ctx, beacon.RootID(h.Beacon.StateRoot), beacon.StateOptions{})
	require.NoError(t, err)
	require.NoError(t, light.CheckState(st, h), "a verified header of a named slot is an anchor")
	other, _, err := bc.State(ctx, beacon.RootID(fin.Beacon.StateRoot), beacon.StateOptions{})
	require.NoError(t, err)
	require.ErrorIs(t, light.CheckState(other, h), nodeaccess.ErrUnverified)

	before := srv.RequestCount()
	_, err = lc.Header(ctx, 141)
	var ie *nodeaccess.InputError
	require.True(t, errors.As(err, &ie), "%T %v", err, err)
	require.Contains(t, err.Error(), "141")
	require.Equal(t, before, srv.RequestCount(), "nothing sent")
}

// TestHeaderRefusesLies: a node that serves another header for a parent
// root is refused with a *light.VerifyError of check "parent root".
func TestHeaderRefusesLies(t *testing.T) {
	ctx := context.Background()
	srv := minimalServer(t, 1)
	target, err := url.Parse(srv.URL)
	require.NoError(t, err)
	var lie atomic.Bool
	rp := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if lie.Load() && strings.Contains(r.URL.Path, "/eth/v1/beacon/headers/0x") {
			r.URL.Path = r.URL.Path[:strings.Index(r.URL.Path, "/0x")] + "/head"
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	bc, err := beacon.New(proxy.URL, srv.Key(), beacon.WithPreset(beacon.MinimalPreset()), nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	lc, err := light.New(bc, srv.LightConfig(), blockRoot(t, bc, "genesis"))
	require.NoError(t, err)
	light.SetClock(lc, chainClock(t, srv))
	require.NoError(t, lc.Sync(ctx))
	_, err = lc.Header(ctx, 40)
	require.NoError(t, err)
	lie.Store(true)
	_, err = lc.Header(ctx, 40)
	require.ErrorIs(t, err, nodeaccess.ErrUnverified)
	var ve *light.VerifyError
	require.True(t, errors.As(err, &ve), "%T %v", err, err)
	require.Equal(t, "parent root", ve.Check)
}

// TestHeaderBound: a slot more than 8192 slots before the verified header
// the walk would start from is a *nodeaccess.InputError naming it, and
// nothing is sent; 8192 slots are walked.
func TestHeaderBound(t *testing.T) {
	if testing.Short() {
		t.Skip("a chain of 130 periods")
	}
	ctx := context.Background()
	srv := minimalServer(t, 130) // finalized 130*64-16 = 8304
	bc, err := srv.Client()
	require.NoError(t, err)
	lc, err := light.New(bc, srv.LightConfig(), blockRoot(t, bc, "genesis"))
	require.NoError(t, err)
	light.SetClock(lc, chainClock(t, srv))
	require.NoError(t, lc.Sync(ctx))
	fin, _ := lc.Finalized()
	require.Equal(t, beacon.Slot(8304), fin.Beacon.Slot)

	before := srv.RequestCount()
	_, err = lc.Header(ctx, 8304-8193)
	var ie *nodeaccess.InputError
	require.True(t, errors.As(err, &ie), "%T %v", err, err)
	require.Contains(t, err.Error(), "111")
	require.Equal(t, before, srv.RequestCount(), "nothing sent")

	h, err := lc.Header(ctx, 8304-8192)
	require.NoError(t, err)
	require.Equal(t, before+8192, srv.RequestCount(), "one request a block")
	require.Equal(t, blockRoot(t, bc, "112"), mustRoot(t, h.Beacon))
}
