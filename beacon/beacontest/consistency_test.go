package beacontest_test

import (
	"context"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The default chain the server serves refers to itself: the head state's
// finalized and current justified checkpoints are the blocks of the
// finalized and justified states it serves (the epoch of their slot, and
// their block root: the latest block header with the state's root filled
// in), its block_roots and state_roots hold those blocks' and states' roots
// at their slots, and every state root it holds there is served by that
// root; the justified state's current justified checkpoint and rings name
// the finalized state the same way. Each fulu state is its block's
// post-state, so a Prover reaches its block root.
func TestDefaultChainRefersToItself(t *testing.T) {
	srv := start(t)
	c := client(t, srv)
	ctx := context.Background()
	get := func(id beacon.StateID) (*beacon.State, beacon.Root, beacon.Root) {
		t.Helper()
		st, _, err := c.State(ctx, id)
		require.NoError(t, err, id)
		p, err := beacon.NewProver(st)
		require.NoError(t, err)
		block, err := p.BlockRoot()
		require.NoError(t, err, "%s: the post-state of its block", id)
		return st, p.StateRoot(), block
	}
	head, _, _ := get(beacon.Head)
	fin, finRoot, finBlock := get(beacon.Finalized)
	just, justRoot, justBlock := get(beacon.Justified)
	ring := head.Preset.SlotsPerHistoricalRoot
	epochStart := func(cp beacon.Checkpoint) beacon.Slot {
		return beacon.Slot(uint64(cp.Epoch) * head.Preset.SlotsPerEpoch)
	}

	for _, link := range []struct {
		name      string
		cp        beacon.Checkpoint
		later     *beacon.State
		st        *beacon.State
		root, blk beacon.Root
	}{
		{"head's finalized", head.FinalizedCheckpoint, head, fin, finRoot, finBlock},
		{"head's previous justified", head.PreviousJustifiedCheckpoint, head, fin, finRoot, finBlock},
		{"head's current justified", head.CurrentJustifiedCheckpoint, head, just, justRoot, justBlock},
		{"justified's current justified", just.CurrentJustifiedCheckpoint, just, fin, finRoot, finBlock},
	} {
		assert.Equal(t, link.st.Slot, epochStart(link.cp), link.name)
		assert.Equal(t, link.blk, link.cp.Root, link.name)
		i := uint64(link.st.Slot) % ring
		assert.Equal(t, link.blk, link.later.BlockRoots[i], link.name)
		assert.Equal(t, link.root, link.later.StateRoots[i], link.name)
	}

	// Every state root the head holds that the server knows is served by
	// that root, and is the state of that slot.
	known := map[beacon.Root]beacon.Slot{}
	for _, info := range srv.States() {
		known[info.Root] = info.Slot
	}
	served := 0
	for i, r := range head.StateRoots {
		slot, ok := known[r]
		if !ok {
			continue
		}
		st, _, err := c.State(ctx, beacon.RootID(r))
		require.NoError(t, err)
		assert.Equal(t, slot, st.Slot)
		assert.Equal(t, uint64(i), uint64(st.Slot)%ring)
		served++
	}
	assert.Equal(t, 2, served, "the finalized and justified states")
}
