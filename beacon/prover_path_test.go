package beacon_test

import (
	"errors"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// GIndexOf follows the specs' get_generalized_index: the same indices as
// the named helpers and as the hand derivation (TestNamedGIndices), and
// proofs at its indices verify with the expected leaves.
func TestGIndexOf(t *testing.T) {
	for _, v := range []beacon.Version{beacon.Phase0, beacon.Deneb, beacon.Electra, beacon.Fulu} {
		t.Run(v.String(), func(t *testing.T) {
			st := beacontest.NewState(v, beacon.MainnetPreset(), 40, 2)
			p, err := beacon.NewProver(st)
			require.NoError(t, err)
			root := p.StateRoot()
			must := func(path ...any) beacon.GIndex {
				t.Helper()
				g, err := p.GIndexOf(path...)
				require.NoError(t, err, "%v", path)
				return g
			}
			valG, _ := validatorGIndex(p, 7)
			assert.Equal(t, valG, must("validators", 7))
			assert.Equal(t, valG*8+6, must("validators", beacon.ValidatorIndex(7), "exit_epoch"))
			balG, _ := balanceGIndex(p, 9)
			assert.Equal(t, balG, must("balances", uint64(9)))
			fg, _ := fieldGIndex(p, "validators")
			assert.Equal(t, fg*2+1, must("validators", "__len__"))
			assert.Equal(t, fg, must("validators"))
			assert.Equal(t, beacon.GIndex(1), must())

			pr, err := p.Prove(must("validators", "__len__"))
			require.NoError(t, err)
			assert.Equal(t, beacon.Root(u64c(uint64(len(st.Validators)))), pr.Leaf)
			checkProof(t, pr, root, "validators length")

			pr, err = p.Prove(must("finalized_checkpoint", "root"))
			require.NoError(t, err)
			assert.Equal(t, st.FinalizedCheckpoint.Root, pr.Leaf)
			checkProof(t, pr, root, "finalized root")

			pr, err = p.Prove(must("randao_mixes", 100))
			require.NoError(t, err)
			assert.Equal(t, st.RandaoMixes[100], pr.Leaf)

			if v == beacon.Phase0 {
				pr, err = p.Prove(must("previous_epoch_attestations", 0, "data", "target", "epoch"))
				require.NoError(t, err)
				assert.Equal(t, beacon.Root(u64c(uint64(st.PreviousEpochAttestations[0].Data.Target.Epoch))), pr.Leaf)
				checkProof(t, pr, root, "attestation target epoch")
			} else {
				pr, err = p.Prove(must("current_sync_committee", "pubkeys", 5))
				require.NoError(t, err)
				assert.Equal(t, mustRoot(beacon.HashTreeRoot(st.CurrentSyncCommittee.PublicKeys[5])), pr.Leaf)
				checkProof(t, pr, root, "sync committee key")
				pr, err = p.Prove(must("latest_execution_payload_header", "block_hash"))
				require.NoError(t, err)
				assert.Equal(t, beacon.Root(st.LatestExecutionPayloadHeader.BlockHash), pr.Leaf)
			}
			if v >= beacon.Electra {
				pr, err = p.Prove(must("pending_deposits", 0, "amount"))
				require.NoError(t, err)
				assert.Equal(t, beacon.Root(u64c(uint64(st.PendingDeposits[0].Amount))), pr.Leaf)
				checkProof(t, pr, root, "pending deposit amount")
			}
		})
	}
}

// A bad path is an InputError that shows the path up to the bad step.
func TestGIndexOfErrors(t *testing.T) {
	st := beacontest.NewState(beacon.Deneb, beacon.MainnetPreset(), 4, 2)
	p, err := beacon.NewProver(st)
	require.NoError(t, err)
	bad := []struct {
		path []any
		why  string
	}{
		{[]any{"nope"}, `"nope" is not a field of a deneb state`},
		{[]any{"slot", 1}, `"slot.1" goes below a leaf`},
		{[]any{"validators", "exit_epoch"}, `takes an index, not a name`},
		{[]any{"validators", uint64(1 << 40)}, `index 1099511627776 is past the limit 1099511627776 of the validators`},
		{[]any{"block_roots", 8192}, `index 8192 is past the length 8192 of a list of roots`},
		{[]any{"validators", 0, "nope"}, `"nope" is not a field of a validator`},
		{[]any{"validators", 0, 3}, `index 3 into a validator, which takes a field name`},
		{[]any{"fork", "__len__"}, `__len__ of a fork, which is not a list`},
		{[]any{"validators", -1}, `is neither a field name nor an index`},
		{[]any{"validators", 1.5}, `is neither a field name nor an index`},
		{[]any{"balances", 0, 0}, `goes below a leaf`},
		{[]any{"validators", "__len__", 0}, `goes below a leaf`},
	}
	for _, b := range bad {
		_, err := p.GIndexOf(b.path...)
		require.Error(t, err, "%v", b.path)
		assert.True(t, errors.Is(err, nodeaccess.ErrInvalidInput))
		assert.Contains(t, err.Error(), b.why, "%v", b.path)
	}
}
