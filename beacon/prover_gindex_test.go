package beacon_test

import (
	"fmt"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The generalized indices of the named helpers, derived by hand from the
// specs (ssz/merkle-proofs.md) rather than by the package:
//
//   - A container of n fields is a tree of 2^ceil(log2 n) leaves, so field
//     i is 2^ceil(log2 n) + i. The BeaconState has 21 fields in phase0,
//     24 in altair, 25 in bellatrix, 28 in capella and deneb (32 leaves),
//     37 in electra and 38 in fulu (64 leaves). validators is field 11,
//     balances 12, latest_block_header 4: gindices 43, 44, 36 up to deneb,
//     75, 76, 68 from electra.
//   - A List's contents are its node's left child (2g); validators is a
//     List[Validator, 2^40], so validator i is 2g * 2^40 + i; balances is a
//     List[uint64, 2^40] packed 4 to a chunk, 2^38 chunks, so the chunk of
//     balance i is 2g * 2^38 + i/4.
//   - A Validator has 8 fields (8 leaves): field j of validator gindex v is
//     8v + j.
//   - A BeaconBlockHeader has 5 fields (8 leaves): state_root is 8 + 3 =
//     11, and a state gindex g continues below it:
//     11 * 2^depth(g) + (g - 2^depth(g)).
//
// These are the constants restaking contracts hard-code (EigenLayer's
// BeaconChainProofs: validator tree height 40, state tree height 5 before
// electra and 6 from it, validators at 11, balances at 12, state_root at 3
// of a header of height 3).
func TestNamedGIndices(t *testing.T) {
	cases := []struct {
		v                            beacon.Version
		validators, balances, header uint64
	}{
		{beacon.Phase0, 43, 44, 36},
		{beacon.Altair, 43, 44, 36},
		{beacon.Bellatrix, 43, 44, 36},
		{beacon.Capella, 43, 44, 36},
		{beacon.Deneb, 43, 44, 36},
		{beacon.Electra, 75, 76, 68},
		{beacon.Fulu, 75, 76, 68},
	}
	for _, c := range cases {
		t.Run(c.v.String(), func(t *testing.T) {
			st := beacontest.NewState(c.v, beacon.MainnetPreset(), 12, 1)
			st.LatestBlockHeader.StateRoot = beacon.Root{}
			p, err := beacon.NewProver(st)
			require.NoError(t, err)
			for name, want := range map[string]uint64{"validators": c.validators, "balances": c.balances, "latest_block_header": c.header} {
				g, err := fieldGIndex(p, name)
				require.NoError(t, err)
				assert.Equal(t, beacon.GIndex(want), g, name)
			}
			hp, err := proveLatestBlockHeader(p)
			require.NoError(t, err)
			assert.Equal(t, beacon.GIndex(c.header), hp.GIndex)

			for _, i := range []uint64{0, 1, 5, 11} {
				wantV := c.validators*2<<40 + i
				pr, err := proveValidator(p, beacon.ValidatorIndex(i))
				require.NoError(t, err)
				assert.Equal(t, beacon.GIndex(wantV), pr.GIndex, "validator %d", i)
				fp, err := proveValidatorField(p, beacon.ValidatorIndex(i), "exit_epoch")
				require.NoError(t, err)
				assert.Equal(t, beacon.GIndex(wantV*8+6), fp.GIndex)
				bp, err := proveBalance(p, beacon.ValidatorIndex(i))
				require.NoError(t, err)
				assert.Equal(t, beacon.GIndex(c.balances*2<<38+i/4), bp.GIndex, "balance %d", i)

				// Through the block: depth(wantV) is 46 (a 7-bit field index
				// times 2 times 2^40) before electra, 47 from it.
				d := 46
				if c.v >= beacon.Electra {
					d = 47
				}
				ext, err := p.ToBlockRoot(pr)
				require.NoError(t, err)
				assert.Equal(t, beacon.GIndex(11<<d+(wantV-1<<d)), ext.GIndex)
				assert.Equal(t, d+3, len(ext.Branch))
			}
		})
	}
}

// A registry big enough for several hashing tasks (4096 validators each)
// and a partial last one, with the minimal preset too: proofs across the
// task boundaries verify.
func TestProverLargeRegistry(t *testing.T) {
	for _, pre := range []beacon.Preset{beacon.MainnetPreset(), beacon.MinimalPreset()} {
		st := beacontest.NewState(beacon.Deneb, pre, 10_001, 6)
		root, err := beacon.HashTreeRoot(st)
		require.NoError(t, err)
		p, err := beacon.NewProver(st)
		require.NoError(t, err)
		require.Equal(t, root, p.StateRoot())
		for _, i := range []beacon.ValidatorIndex{0, 15, 16, 4095, 4096, 8191, 8192, 9999, 10_000} {
			pr, err := proveValidatorField(p, i, "withdrawal_credentials")
			require.NoError(t, err)
			checkProof(t, pr, root, fmt.Sprintf("validator %d", i))
			bp, err := proveBalance(p, i)
			require.NoError(t, err)
			require.Equal(t, st.Balances[i], balanceIn(bp, i))
			checkProof(t, bp, root, fmt.Sprintf("balance %d", i))
		}
		for _, name := range []string{"randao_mixes", "block_roots", "inactivity_scores", "current_sync_committee"} {
			pr, err := proveField(p, name)
			require.NoError(t, err)
			checkProof(t, pr, root, name)
		}
	}
}
