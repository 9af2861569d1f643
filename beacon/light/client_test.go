package light

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
)

// syncedServer serves a chain from a bootstrap at slot 8 (altair) through
// a best update per period 0..periods-1 (one fork per period, gloas from
// period 6), then a finality and an optimistic update in the last period.
func syncedServer(t *testing.T, c *testChain, periods uint64) (*testServer, beacon.Root, beacon.Slot) {
	s := newTestServer(c)
	root := s.addBootstrap(c.bootstrap(8))
	pp := c.slotsPerPeriod()
	for p := range periods {
		base := beacon.Slot(p) * pp
		s.updates[p] = c.update(base+pp-4, base+pp-8, true, 32)
	}
	last := beacon.Slot(periods) * pp
	s.finality = c.update(last+20, last+16, false, 30)
	s.optimistic = c.update(last+24, 0, false, 25)
	return s, root, last + 30
}

func TestSyncAcrossForks(t *testing.T) {
	for _, enc := range []beacon.Encoding{beacon.EncodingJSON, beacon.EncodingSSZ} {
		t.Run(enc.String(), func(t *testing.T) {
			c := newTestChain(t, false)
			s, root, now := syncedServer(t, c, 7)
			lc := s.client(t, root, enc)
			lc.now = c.clock(now)
			require.NoError(t, lc.Sync(context.Background()))

			fin, ok := lc.Finalized()
			require.True(t, ok)
			assert.Equal(t, s.finality.FinalizedHeader.Beacon, fin.Beacon)
			assert.Equal(t, beacon.Gloas, c.cfg.slotFork(fin.Beacon.Slot))
			opt, _ := lc.Optimistic()
			assert.Equal(t, s.optimistic.AttestedHeader.Beacon, opt.Beacon)
			lc.now = c.clock(opt.Beacon.Slot + staleSlots) // fresh: no second sync
			head, final, err := lc.ExecutionBlocks(context.Background())
			require.NoError(t, err)
			assert.Equal(t, s.optimistic.AttestedHeader.ExecutionBlockHash, head)
			assert.Equal(t, s.finality.FinalizedHeader.ExecutionBlockHash, final)
			assert.Equal(t, 1, s.count(routeBootstrap))
			assert.Equal(t, 1, s.count(routeUpdates), "%v", s.requests)
			assert.Equal(t, 1, s.count(routeFinality))
			assert.Equal(t, 1, s.count(routeOptimistic))
		})
	}
}

// Each fork's verified finalized header carries its execution data: the
// payload header (capella to fulu, with its state root and number) or the
// block hash (gloas); none before capella.
func TestFinalizedPerFork(t *testing.T) {
	c := newTestChain(t, false)
	pp := c.slotsPerPeriod()
	for p := range uint64(7) {
		s := newTestServer(c)
		root := s.addBootstrap(c.bootstrap(beacon.Slot(p)*pp + 8))
		s.finality = c.update(beacon.Slot(p)*pp+40, beacon.Slot(p)*pp+32, false, 32)
		s.optimistic = c.update(beacon.Slot(p)*pp+44, 0, false, 32)
		lc := s.client(t, root, beacon.EncodingSSZ)
		lc.now = c.clock(beacon.Slot(p)*pp + 50)
		require.NoError(t, lc.Sync(context.Background()), "period %d", p)
		fin, _ := lc.Finalized()
		f := c.cfg.slotFork(fin.Beacon.Slot)
		assert.Equal(t, s.finality.FinalizedHeader.Beacon, fin.Beacon)
		switch {
		case f < beacon.Capella:
			assert.Nil(t, fin.Execution)
			assert.Zero(t, fin.ExecutionBlockHash)
			_, _, err := lc.ExecutionBlocks(context.Background())
			assert.ErrorIs(t, err, nodeaccess.ErrUnverified)
		case f < beacon.Gloas:
			require.NotNil(t, fin.Execution, "%s", f)
			assert.Equal(t, uint64(fin.Beacon.Slot)+1000, fin.Execution.BlockNumber)
			assert.Equal(t, s.finality.FinalizedHeader.Execution.StateRoot, fin.Execution.StateRoot)
			assert.Equal(t, fin.Execution.BlockHash, fin.ExecutionBlockHash)
		default:
			assert.Nil(t, fin.Execution)
			assert.Equal(t, s.finality.FinalizedHeader.ExecutionBlockHash, fin.ExecutionBlockHash)
		}
	}
}

// A year of periods (about 320) catches up in 3 update requests of at
// most 128 periods each.
func TestCatchUpYearInThreeRequests(t *testing.T) {
	c := newTestChain(t, true)
	s, root, now := syncedServer(t, c, 321)
	lc := s.client(t, root, beacon.EncodingSSZ)
	lc.now = c.clock(now)
	require.NoError(t, lc.Sync(context.Background()))
	assert.Equal(t, 3, s.count(routeUpdates), "%v", s.requests)
	fin, _ := lc.Finalized()
	assert.Equal(t, s.finality.FinalizedHeader.Beacon.Slot, fin.Beacon.Slot)
	assert.Contains(t, s.requests, routeUpdates+"?count=128&start_period=0")
	assert.Contains(t, s.requests, routeUpdates+"?count=128&start_period=128")
	assert.Contains(t, s.requests, routeUpdates+"?count=66&start_period=256")
}

// A store saved and taken up again goes on without a bootstrap; one
// changed in any byte is refused, and so is one of another chain.
func TestSavedStore(t *testing.T) {
	c := newTestChain(t, false)
	s, root, now := syncedServer(t, c, 3)
	lc := s.client(t, root, beacon.EncodingJSON)
	lc.now = c.clock(now)
	require.NoError(t, lc.Sync(context.Background()))
	saved, err := lc.MarshalBinary()
	require.NoError(t, err)

	lc2 := s.client(t, root, beacon.EncodingJSON)
	lc2.now = lc.now
	require.NoError(t, lc2.UnmarshalBinary(saved))
	f1, _ := lc.Finalized()
	f2, _ := lc2.Finalized()
	assert.Equal(t, f1, f2)
	require.NoError(t, lc2.Sync(context.Background()))
	assert.Equal(t, 1, s.count(routeBootstrap), "the second client did not bootstrap")

	for _, i := range []int{len(storeMagic) + 10, len(saved) / 2, len(saved) - 70, len(saved) - 1} {
		bad := append([]byte{}, saved...)
		bad[i] ^= 1
		lc3 := s.client(t, root, beacon.EncodingJSON)
		err := lc3.UnmarshalBinary(bad)
		assertCheck(t, err, "saved store")
		_, ok := lc3.Finalized()
		assert.False(t, ok, "nothing taken up")
	}
	other := newTestChain(t, false)
	other.cfg.GenesisValidatorsRoot[0] ^= 1
	lc4, err := New(lc.bc, other.cfg, root)
	require.NoError(t, err)
	assertCheck(t, lc4.UnmarshalBinary(saved), "saved store")
}

// assertCheck asserts err is a *VerifyError of check, matching
// nodeaccess.ErrUnverified and ErrInvalidResponse.
func assertCheck(t *testing.T, err error, check string) {
	t.Helper()
	var ve *VerifyError
	if !errors.As(err, &ve) {
		t.Fatalf("error %v is not a *VerifyError of %q", err, check)
	}
	assert.Equal(t, check, ve.Check, "%v", err)
	assert.ErrorIs(t, err, nodeaccess.ErrUnverified)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
}

// ExecutionBlocks syncs when the optimistic header is more than two slots
// behind the clock, and not otherwise.
func TestExecutionBlocksSyncsWhenStale(t *testing.T) {
	c := newTestChain(t, false)
	s, root, now := syncedServer(t, c, 3)
	lc := s.client(t, root, beacon.EncodingJSON)
	lc.now = c.clock(now)
	_, _, err := lc.ExecutionBlocks(context.Background()) // first call: syncs
	require.NoError(t, err)
	assert.Equal(t, 1, s.count(routeOptimistic))
	opt, _ := lc.Optimistic()
	lc.now = c.clock(opt.Beacon.Slot + staleSlots)
	_, _, err = lc.ExecutionBlocks(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, s.count(routeOptimistic), "fresh: no request")
	lc.now = c.clock(opt.Beacon.Slot + staleSlots + 1)
	_, _, err = lc.ExecutionBlocks(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2, s.count(routeOptimistic), "stale: synced")
}

// A body that quotes the access key (as an unknown member's name, as a
// fork name) gets an error that does not.
func TestDecodeErrorMasksKey(t *testing.T) {
	c := newTestChain(t, false)
	s, root, now := syncedServer(t, c, 1)
	lc := s.client(t, root, beacon.EncodingJSON)
	lc.now = c.clock(now)
	s.raw[routeBootstrap+root.Hex()] = []byte(`{"version":"altair","data":{"lc-test-key":1}}`)
	err := lc.Sync(context.Background())
	assertCheck(t, err, "encoding")
	assert.NotContains(t, err.Error(), "lc-test-key")
	s.raw[routeBootstrap+root.Hex()] = []byte(`{"version":"lc-test-key","data":{}}`)
	err = lc.Sync(context.Background())
	assertCheck(t, err, "encoding")
	assert.NotContains(t, err.Error(), "lc-test-key")
}

// Arguments that cannot be used are input errors, and nothing is sent.
func TestInputErrors(t *testing.T) {
	c := newTestChain(t, false)
	s, root, _ := syncedServer(t, c, 1)
	lc := s.client(t, root, beacon.EncodingJSON)
	for _, n := range []uint64{0, 129} {
		_, err := lc.Updates(context.Background(), 0, n)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	}
	_, err := lc.MarshalBinary()
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.Empty(t, s.requests)

	_, err = New(nil, c.cfg, root)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	_, err = New(lc.bc, c.cfg, beacon.Root{})
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	for name, f := range map[string]func(*Config){
		"no slots":        func(c *Config) { c.SlotsPerEpoch = 0 },
		"committee of 12": func(c *Config) { c.SyncCommitteeSize = 12 },
		"no altair":       func(c *Config) { c.ForkEpochs[beacon.Altair] = beacon.FarFutureEpoch },
		"epochs go down":  func(c *Config) { c.ForkEpochs[beacon.Deneb] = 1 },
	} {
		cfg := testConfig()
		f(&cfg)
		_, err := New(lc.bc, cfg, root)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, name)
	}
}
