package beacontest_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The default chain is what the documentation says: four mainnet-preset
// states at the documented slots and forks, of one chain, the head's
// checkpoints and state_roots pointing at the finalized and justified
// states, the documented SSZ size; and it is the same on every call.
func TestDefaultStates(t *testing.T) {
	_, all := defaults(t)
	slots := []beacon.Slot{defaultGenesisSlot, defaultFinalizedSlot, defaultJustifiedSlot, defaultHeadSlot}
	versions := []beacon.Version{beacon.Phase0, defaultFork, defaultFork, defaultFork}
	for i, w := range all {
		assert.Equal(t, slots[i], w.st.Slot)
		assert.Equal(t, slots[i], w.st.LatestBlockHeader.Slot)
		assert.Equal(t, versions[i], w.st.Version)
		assert.Equal(t, beacon.MainnetPreset(), w.st.Preset)
		assert.Len(t, w.st.Validators, defaultValidators)
		assert.Equal(t, uint64(1606824023), w.st.GenesisTime)
		assert.Equal(t, "0x4b363db94e286120d76eb905340fdd4e54bfe9f06bf33ff6cf5ad27f511bfe95", string(beacon.RootID(w.st.GenesisValidatorsRoot)))
	}
	assert.Equal(t, beacon.Fork{}, all[0].st.Fork)
	head := all[3].st
	assert.Equal(t, beacon.Fork{PreviousVersion: beacon.ForkVersion{5}, CurrentVersion: beacon.ForkVersion{6}, Epoch: 411392}, head.Fork)
	assert.Equal(t, beacon.Slot(412500*32+31), head.Slot) // the last slot of epoch 412500
	assert.Equal(t, beacon.Epoch(412498), head.FinalizedCheckpoint.Epoch)
	assert.Equal(t, beacon.Epoch(412499), head.CurrentJustifiedCheckpoint.Epoch)
	assert.Equal(t, defaultFinalizedSlot, beacon.Slot(uint64(head.FinalizedCheckpoint.Epoch)*32))
	assert.Equal(t, defaultJustifiedSlot, beacon.Slot(uint64(head.CurrentJustifiedCheckpoint.Epoch)*32))
	assert.Equal(t, all[1].root, head.StateRoots[uint64(defaultFinalizedSlot)%8192])
	assert.Equal(t, all[2].root, head.StateRoots[uint64(defaultJustifiedSlot)%8192])
	assert.Equal(t, head.GenesisTime+uint64(head.Slot)*12, head.LatestExecutionPayloadHeader.Timestamp)

	assert.Equal(t, 5_021_637, len(all[3].ssz), "the size the documentation gives")

	again := beacontest.DefaultStates()
	for i, st := range again {
		b, err := marshalSSZ(st)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(all[i].ssz, b), "state %d differs between calls", i)
	}
	roots := map[beacon.Root]bool{}
	for _, w := range all {
		roots[w.root] = true
	}
	assert.Len(t, roots, 4, "four different states")
}

// A default server serves the default chain, and Client decodes it with
// the mainnet preset.
func TestDefaultServer(t *testing.T) {
	srv := start(t)
	_, all := defaults(t)
	infos := srv.States()
	require.Len(t, infos, 4)
	for i, info := range infos {
		assert.Equal(t, beacontest.Info{Slot: all[i].st.Slot, Root: all[i].root, Version: all[i].st.Version, Preset: beacon.MainnetPreset(),
			Validators: defaultValidators, Flags: beacon.Flags{Finalized: i < 2}}, info)
	}
	c := client(t, srv)
	assert.Equal(t, "beacon.Client{"+srv.URL+"/beacon/REDACTED}", fmt.Sprint(c))
}
