package beacon_test

import (
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/require"
)

// specLightClient is the consensus specs' light-client generalized
// indices per fork, as the sync-protocol documents and the pyspec state
// them (ethereum/consensus-specs a08d8a6e2b45f0b8c0d379abc15583427c643689,
// specs/{altair,capella,electra,gloas}/light-client/sync-protocol.md and
// pysetup/spec_builders/{altair,capella,electra,gloas}.py; see
// testdata/SOURCES.md): FINALIZED_ROOT_GINDEX 105, _ELECTRA 169, _GLOAS
// 735; CURRENT/NEXT_SYNC_COMMITTEE_GINDEX 54/55, _ELECTRA 86/87, _GLOAS
// 2945/2946; EXECUTION_PAYLOAD_GINDEX 25; EXECUTION_BLOCK_HASH_GINDEX 412,
// _DENEB 812, _GLOAS 2856. Phase0 and bellatrix have no light-client
// document: their values are the same paths' (phase0's state has the
// finalized checkpoint where altair has it; bellatrix's body and payload
// put execution_payload and block_hash where capella does).
var specLightClient = map[beacon.Version]beacon.LightClientGIndices{
	beacon.Phase0:    {FinalizedRoot: 105},
	beacon.Altair:    {FinalizedRoot: 105, CurrentSyncCommittee: 54, NextSyncCommittee: 55},
	beacon.Bellatrix: {FinalizedRoot: 105, CurrentSyncCommittee: 54, NextSyncCommittee: 55, ExecutionPayload: 25, ExecutionBlockHash: 412},
	beacon.Capella:   {FinalizedRoot: 105, CurrentSyncCommittee: 54, NextSyncCommittee: 55, ExecutionPayload: 25, ExecutionBlockHash: 412},
	beacon.Deneb:     {FinalizedRoot: 105, CurrentSyncCommittee: 54, NextSyncCommittee: 55, ExecutionPayload: 25, ExecutionBlockHash: 812},
	beacon.Electra:   {FinalizedRoot: 169, CurrentSyncCommittee: 86, NextSyncCommittee: 87, ExecutionPayload: 25, ExecutionBlockHash: 812},
	beacon.Fulu:      {FinalizedRoot: 169, CurrentSyncCommittee: 86, NextSyncCommittee: 87, ExecutionPayload: 25, ExecutionBlockHash: 812},
	beacon.Gloas:     {FinalizedRoot: 735, CurrentSyncCommittee: 2945, NextSyncCommittee: 2946, ExecutionBlockHash: 2856},
}

// TestLightClientGIndices checks each fork's values against the specs'
// numbers, and the state's against the package's own path derivation
// (GIndexOf on a state of that fork, both presets) and a proof of each:
// its leaf is the finalized root, the sync committee's root.
func TestLightClientGIndices(t *testing.T) {
	for _, v := range allForks() {
		got := v.LightClientGIndices()
		require.Equal(t, specLightClient[v], got, v.String())
		for _, p := range presets {
			st := beacontest.NewState(v, p, 3, uint64(v)+40)
			pv, err := beacon.NewProver(st)
			require.NoError(t, err)
			g, err := pv.GIndexOf("finalized_checkpoint", "root")
			require.NoError(t, err)
			require.Equal(t, got.FinalizedRoot, g, v.String())
			pr, err := pv.Prove(got.FinalizedRoot)
			require.NoError(t, err)
			require.Equal(t, st.FinalizedCheckpoint.Root, pr.Leaf)
			checkProof(t, pr, pv.StateRoot(), v.String()+" finalized root")
			for _, c := range []struct {
				name string
				g    beacon.GIndex
				sc   *beacon.SyncCommittee
			}{{"current_sync_committee", got.CurrentSyncCommittee, &st.CurrentSyncCommittee}, {"next_sync_committee", got.NextSyncCommittee, &st.NextSyncCommittee}} {
				g, err := pv.GIndexOf(c.name)
				if v < beacon.Altair {
					require.Error(t, err, "phase0 has no %s", c.name)
					require.Zero(t, c.g)
					continue
				}
				require.NoError(t, err)
				require.Equal(t, c.g, g, c.name)
				pr, err := pv.Prove(c.g)
				require.NoError(t, err)
				want, err := beacon.HashTreeRoot(*c.sc)
				require.NoError(t, err)
				require.Equal(t, want, pr.Leaf, c.name)
				checkProof(t, pr, pv.StateRoot(), v.String()+" "+c.name)
			}
		}
	}
	require.Equal(t, beacon.LightClientGIndices{}, beacon.Version(200).LightClientGIndices())
}
