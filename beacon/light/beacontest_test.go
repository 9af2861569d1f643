package light_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/beacon/light"
)

// The light client and beacontest are written apart from the specs (one
// reads, the other serves and signs): each tests the other.

// minimalServer is a beacontest server with a minimal-preset head state
// (a sync committee of 32, periods of 64 slots), advanced over periods
// periods, finalizing two epochs behind its head as a healthy chain does
// (the sync protocol moves a light client to a new period only through
// finality).
func minimalServer(t *testing.T, periods int) *beacontest.Server {
	t.Helper()
	srv := beacontest.NewT(t, beacontest.WithStates(beacontest.NewState(beacon.Electra, beacon.MinimalPreset(), 64, 1)))
	grow(t, srv, periods)
	return srv
}

// grow advances srv by periods periods of 8 epochs of 8 slots, finalizing
// two epochs behind the head at each epoch, then 3 slots more.
func grow(t *testing.T, srv *beacontest.Server, periods int) {
	t.Helper()
	bc, err := srv.Client()
	require.NoError(t, err)
	for range periods * 8 {
		require.NoError(t, srv.Advance(8))
		var h struct {
			Data struct {
				Header struct {
					Message beacon.BeaconBlockHeader `json:"message"`
				} `json:"header"`
			} `json:"data"`
		}
		require.NoError(t, bc.Get(context.Background(), &h, "/eth/v1/beacon/headers/head", nil))
		if ep := beacon.Epoch(h.Data.Header.Message.Slot / 8); ep >= 2 {
			require.NoError(t, srv.Finalize(ep-2))
		}
	}
	require.NoError(t, srv.Advance(3))
}

// blockRoot is the root of the server's block at id (a slot, head, genesis).
func blockRoot(t *testing.T, bc *beacon.Client, id string) beacon.Root {
	t.Helper()
	var h struct {
		Data struct {
			Root beacon.Root `json:"root"`
		} `json:"data"`
	}
	require.NoError(t, bc.Get(context.Background(), &h, "/eth/v1/beacon/headers/"+id, nil))
	return h.Data.Root
}

// TestFollowsBeacontest: from a trusted genesis root, Sync verifies every
// period's committee, the finalized and the optimistic header, in JSON
// and in SSZ; the verified header's state, fetched by its root, passes
// CheckState and proves a balance against the signed root; a saved store
// resumes without a bootstrap.
func TestFollowsBeacontest(t *testing.T) {
	for _, enc := range []beacon.Encoding{beacon.EncodingJSON, beacon.EncodingSSZ} {
		t.Run(enc.String(), func(t *testing.T) {
			ctx := context.Background()
			srv := minimalServer(t, 3)
			bc, err := srv.Client(beacon.WithEncoding(enc))
			require.NoError(t, err)
			trusted := blockRoot(t, bc, "genesis")
			lc, err := light.New(bc, srv.LightConfig(), trusted)
			require.NoError(t, err)
			require.NoError(t, lc.Sync(ctx))

			fin, ok := lc.Finalized()
			require.True(t, ok)
			require.Equal(t, beacon.Slot(3*64-16), fin.Beacon.Slot, "the finalized epoch's first slot")
			head, ok := lc.Optimistic()
			require.True(t, ok)
			var hd struct {
				Data struct {
					Header struct {
						Message beacon.BeaconBlockHeader `json:"message"`
					} `json:"header"`
				} `json:"data"`
			}
			require.NoError(t, bc.Get(ctx, &hd, "/eth/v1/beacon/headers/head", nil))
			require.Equal(t, hd.Data.Header.Message.ParentRoot, mustRoot(t, head.Beacon), "the optimistic header is the one the head's block signed: its parent")
			hh, fh, err := lc.ExecutionBlocks(ctx)
			require.NoError(t, err)
			require.Equal(t, head.ExecutionBlockHash, hh)
			require.Equal(t, fin.ExecutionBlockHash, fh)

			st, _, err := bc.State(ctx, beacon.RootID(fin.Beacon.StateRoot), beacon.StateOptions{})
			require.NoError(t, err)
			require.NoError(t, light.CheckState(st, fin))
			p, err := beacon.NewProver(st)
			require.NoError(t, err)
			proof, bal, err := p.ProveBalance(3)
			require.NoError(t, err)
			require.Equal(t, st.Balances[3], bal)
			require.True(t, proof.Verify(fin.Beacon.StateRoot), "the balance stands on the signed state root")
			other, _, err := bc.State(ctx, beacon.RootID(head.Beacon.StateRoot), beacon.StateOptions{})
			require.NoError(t, err)
			if head.Beacon.StateRoot != fin.Beacon.StateRoot {
				err = light.CheckState(other, fin)
				require.ErrorIs(t, err, nodeaccess.ErrUnverified, "another block's state")
			}

			saved, err := lc.MarshalBinary()
			require.NoError(t, err)
			grow(t, srv, 2)
			again, err := light.New(bc, srv.LightConfig(), trusted)
			require.NoError(t, err)
			require.NoError(t, again.UnmarshalBinary(saved))
			before := srv.RequestCount()
			require.NoError(t, again.Sync(ctx))
			for _, r := range srv.Requests()[before:] {
				require.NotContains(t, r.Path, "bootstrap", "a restored store bootstraps no more")
			}
			fin2, _ := again.Finalized()
			require.Equal(t, fin.Beacon.Slot+2*64, fin2.Beacon.Slot, "two periods on")
		})
	}
}

func mustRoot(t *testing.T, h beacon.BeaconBlockHeader) beacon.Root {
	t.Helper()
	r, err := beacon.HashTreeRoot(h)
	require.NoError(t, err)
	return r
}

// TestBeacontestLiesRefused: every way beacontest lies is refused with a
// *light.VerifyError matching nodeaccess.ErrUnverified, and nothing it
// sent is kept.
func TestBeacontestLiesRefused(t *testing.T) {
	lies := map[string]beacontest.Lie{
		"signature":        {Signature: true},
		"short signature":  {ShortSignature: true},
		"participants":     {Participants: true},
		"fork version":     {ForkVersion: true},
		"finality branch":  {FinalityBranch: true},
		"committee branch": {CommitteeBranch: true},
		"bootstrap":        {Bootstrap: true},
		"execution branch": {ExecutionBranch: true},
	}
	srv := minimalServer(t, 2)
	for name, lie := range lies {
		t.Run(name, func(t *testing.T) {
			bc, err := srv.Client(nodeaccess.WithMaxAttempts(1))
			require.NoError(t, err)
			trusted := blockRoot(t, bc, "genesis")
			lc, err := light.New(bc, srv.LightConfig(), trusted)
			require.NoError(t, err)
			srv.Lie(lie)
			defer srv.Lie(beacontest.Lie{})
			err = lc.Sync(context.Background())
			require.ErrorIs(t, err, nodeaccess.ErrUnverified, "%v", err)
			var ve *light.VerifyError
			require.True(t, errors.As(err, &ve), "%T %v", err, err)
			if h, ok := lc.Optimistic(); ok {
				require.Equal(t, beacon.Slot(0), h.Beacon.Slot, "nothing but the trusted bootstrap is kept")
			}
			if f, ok := lc.Finalized(); ok {
				require.Equal(t, beacon.Slot(0), f.Beacon.Slot, "nothing but the trusted bootstrap is kept")
			}
		})
	}
}

// TestSyncWaitsWithoutFinality: while the chain does not finalize into a
// new period, Sync takes nothing it cannot verify and is no error. The
// client keeps no best_valid_update and makes no forced update (see the
// package documentation), so a chain that went a whole period without
// finality leaves it where it was: its updates of the later periods are
// signed by committees it never learned.
func TestSyncWaitsWithoutFinality(t *testing.T) {
	ctx := context.Background()
	srv := minimalServer(t, 1)
	bc, err := srv.Client()
	require.NoError(t, err)
	lc, err := light.New(bc, srv.LightConfig(), blockRoot(t, bc, "genesis"))
	require.NoError(t, err)
	require.NoError(t, lc.Sync(ctx))
	fin, _ := lc.Finalized()
	require.NoError(t, srv.Advance(3*64), "three periods without finality")
	require.NoError(t, lc.Sync(ctx), "an update of a period without a committee yet is waited for, not refused")
	still, _ := lc.Finalized()
	require.Equal(t, fin.Beacon, still.Beacon)
	grow(t, srv, 1)
	require.NoError(t, lc.Sync(ctx))
	still, _ = lc.Finalized()
	require.Equal(t, fin.Beacon, still.Beacon, "no forced update")
}
