package light_test

import (
	"context"
	"errors"
	"testing"
	"time"

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
		if ep := beacon.Epoch(headHeader(t, bc).Slot / 8); ep >= 2 {
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
			light.SetClock(lc, chainClock(t, srv))
			require.NoError(t, lc.Sync(ctx))

			fin, ok := lc.Finalized()
			require.True(t, ok)
			require.Equal(t, beacon.Slot(3*64-16), fin.Beacon.Slot, "the finalized epoch's first slot")
			head, ok := lc.Optimistic()
			require.True(t, ok)
			require.Equal(t, headHeader(t, bc).ParentRoot, mustRoot(t, head.Beacon), "the optimistic header is the one the head's block signed: its parent")
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
			light.SetClock(again, chainClock(t, srv))
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

// chainClock is a clock one slot past srv's head: beacontest's slots
// are made by Advance, not by time, and its LightConfig's genesis is so
// far in the past that the wall clock would take every finalized header
// for one UPDATE_TIMEOUT old and force updates a live chain never needs.
func chainClock(t *testing.T, srv *beacontest.Server) func() time.Time {
	bc, err := srv.Client()
	require.NoError(t, err)
	return func() time.Time { return time.Unix(int64(headHeader(t, bc).Slot)+1, 0) }
}

// TestForcedUpdateWithoutFinality: while the chain does not finalize, Sync
// takes nothing it cannot verify and is no error; once the chain's clock
// is more than UPDATE_TIMEOUT (a period, 64 slots here) past the finalized
// header, the best verified update of the period is forced (its attested
// header taken as finalized, its next committee learned), and the client
// follows a chain that does not finalize for periods on, one forced update
// a period; a lie is still refused and forces nothing; when finality
// resumes the client takes it.
func TestForcedUpdateWithoutFinality(t *testing.T) {
	ctx := context.Background()
	srv := minimalServer(t, 1) // head 67, finalized 48
	bc, err := srv.Client(nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	lc, err := light.New(bc, srv.LightConfig(), blockRoot(t, bc, "genesis"))
	require.NoError(t, err)
	light.SetClock(lc, chainClock(t, srv))
	require.NoError(t, lc.Sync(ctx))
	fin, _ := lc.Finalized()
	require.Equal(t, beacon.Slot(48), fin.Beacon.Slot)

	require.NoError(t, srv.Advance(44), "no finality up to slot 111: the clock at 112, 48+64")
	require.NoError(t, lc.Sync(ctx))
	still, _ := lc.Finalized()
	require.Equal(t, fin.Beacon, still.Beacon, "no forced update before UPDATE_TIMEOUT has passed")
	saved, err := lc.MarshalBinary()
	require.NoError(t, err)

	require.NoError(t, srv.Advance(1), "the clock at 113")
	srv.Lie(beacontest.Lie{Signature: true})
	err = lc.Sync(ctx)
	srv.Lie(beacontest.Lie{})
	require.ErrorIs(t, err, nodeaccess.ErrUnverified)
	still, _ = lc.Finalized()
	require.Equal(t, fin.Beacon, still.Beacon, "a lie forces nothing")

	require.NoError(t, lc.Sync(ctx))
	ups, err := lc.Updates(ctx, 1, 1)
	require.NoError(t, err)
	forced, _ := lc.Finalized()
	require.Equal(t, ups[0].AttestedHeader.Beacon, forced.Beacon, "the period's best update, its attested header taken as finalized")
	require.Equal(t, beacon.Slot(1), forced.Beacon.Slot/64, "in period 1")
	again, err := light.New(bc, srv.LightConfig(), blockRoot(t, bc, "genesis"))
	require.NoError(t, err)
	light.SetClock(again, chainClock(t, srv))
	require.NoError(t, again.UnmarshalBinary(saved))
	require.NoError(t, again.Sync(ctx))
	restored, _ := again.Finalized()
	require.Equal(t, forced.Beacon, restored.Beacon, "a saved store carries no best_valid_update: the node's best update of the period is fetched again and forced")

	require.NoError(t, srv.Advance(3*64), "three periods more without finality")
	require.NoError(t, lc.Sync(ctx))
	forced, _ = lc.Finalized()
	ups, err = lc.Updates(ctx, 3, 1)
	require.NoError(t, err)
	require.Equal(t, ups[0].AttestedHeader.Beacon, forced.Beacon, "one forced update a period, up to the period before the head's")

	grow(t, srv, 1)
	require.NoError(t, lc.Sync(ctx))
	fin, _ = lc.Finalized()
	require.Equal(t, blockRoot(t, bc, "finalized"), mustRoot(t, fin.Beacon), "finality resumed")
	require.Equal(t, beacon.Slot(352), fin.Beacon.Slot)
}

// TestConfigClock: the current slot is Config.Clock's when it is set: a
// clock behind the chain takes the node's signatures for ones from the
// future and refuses them ("slot order"); beacontest's clock, the server's
// slot, takes them.
func TestConfigClock(t *testing.T) {
	srv := minimalServer(t, 1)
	bc, err := srv.Client(nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	cfg := srv.LightConfig()
	cfg.Clock = func() beacon.Slot { return 10 }
	lc, err := light.New(bc, cfg, blockRoot(t, bc, "genesis"))
	require.NoError(t, err)
	err = lc.Sync(context.Background())
	var ve *light.VerifyError
	require.True(t, errors.As(err, &ve), "%v", err)
	require.Equal(t, "slot order", ve.Check)
	lc, err = light.New(bc, srv.LightConfig(), blockRoot(t, bc, "genesis"))
	require.NoError(t, err)
	require.NoError(t, lc.Sync(context.Background()))
}
