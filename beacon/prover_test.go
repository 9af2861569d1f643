package beacon_test

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// specValid is the specs' is_valid_merkle_branch written out here, apart
// from the package's own, to check proofs with a rule the package did not
// supply.
func specValid(leaf beacon.Root, branch []beacon.Root, depth int, index uint64, root beacon.Root) bool {
	value := [32]byte(leaf)
	for i := range depth {
		if index/(1<<i)%2 == 1 {
			value = sha256.Sum256(append(branch[i][:], value[:]...))
		} else {
			value = sha256.Sum256(append(value[:], branch[i][:]...))
		}
	}
	return value == root
}

// checkProof asserts that pr verifies against root with both rules, and
// that changing the leaf, any sibling or the index breaks it.
func checkProof(t *testing.T, pr beacon.Proof, root beacon.Root, what string) {
	t.Helper()
	d := gDepth(pr.GIndex)
	require.Len(t, pr.Branch, d, what)
	require.True(t, specValid(pr.Leaf, pr.Branch, d, gIndex(pr.GIndex), root), "%s: spec rule", what)
	require.True(t, pr.Verify(root), "%s: Verify", what)

	bad := pr
	bad.Leaf[0] ^= 1
	require.False(t, bad.Verify(root), "%s: wrong leaf verifies", what)
	for _, i := range []int{0, d / 2, d - 1} {
		bad = pr
		bad.Branch = append([]beacon.Root(nil), pr.Branch...)
		bad.Branch[i][31] ^= 0x80
		require.False(t, bad.Verify(root), "%s: wrong sibling %d verifies", what, i)
	}
	bad = pr
	bad.GIndex ^= 1
	if pr.Leaf != pr.Branch[0] {
		require.False(t, bad.Verify(root), "%s: wrong index verifies", what)
	}
	bad = pr
	bad.GIndex *= 2
	require.False(t, bad.Verify(root), "%s: deeper index verifies", what)
	bad = pr
	bad.Branch = pr.Branch[:d-1]
	require.False(t, bad.Verify(root), "%s: short branch verifies", what)
}

// The prover's root is the state's, and a proof of every top-level field
// of every fork verifies, its leaf being the field's root.
func TestProverFields(t *testing.T) {
	for _, v := range allForks() {
		t.Run(v.String(), func(t *testing.T) {
			st := beacontest.NewState(v, beacon.MainnetPreset(), 70, 9)
			root, err := beacon.HashTreeRoot(st)
			require.NoError(t, err)
			p, err := beacon.NewProver(st)
			require.NoError(t, err)
			require.Equal(t, root, p.StateRoot())
			m := stateMembers(t, st)
			for name := range m {
				pr, err := proveField(p, name)
				require.NoError(t, err, name)
				checkProof(t, pr, root, name)
			}
			pr, err := proveLatestBlockHeader(p)
			require.NoError(t, err)
			assert.Equal(t, mustRoot(beacon.HashTreeRoot(st.LatestBlockHeader)), pr.Leaf)
			pr, err = proveField(p, "finalized_checkpoint")
			require.NoError(t, err)
			assert.Equal(t, mustRoot(beacon.HashTreeRoot(st.FinalizedCheckpoint)), pr.Leaf)
			pr, err = proveField(p, "slot")
			require.NoError(t, err)
			assert.Equal(t, beacon.Root(u64c(uint64(st.Slot))), pr.Leaf)

			_, err = proveField(p, "no_such_field")
			assert.True(t, errors.Is(err, nodeaccess.ErrInvalidInput))
			assert.ErrorContains(t, err, `"no_such_field" is not a field of `)
			assert.ErrorContains(t, err, " "+v.String()+" state")
		})
	}
}

// Validator, validator-field and balance proofs verify for every index of
// states of several sizes (a partial last block of 16, a single
// validator), with the leaves a user expects.
func TestProverValidatorsAndBalances(t *testing.T) {
	for _, c := range []struct {
		v beacon.Version
		n int
	}{{beacon.Phase0, 1}, {beacon.Altair, 17}, {beacon.Capella, 64}, {beacon.Electra, 100}, {beacon.Fulu, 257}, {beacon.Gloas, 86}} {
		t.Run(fmt.Sprintf("%s/%d", c.v, c.n), func(t *testing.T) {
			st := beacontest.NewState(c.v, beacon.MainnetPreset(), c.n, 4)
			p, err := beacon.NewProver(st)
			require.NoError(t, err)
			root := p.StateRoot()
			for i := range st.Validators {
				vi := beacon.ValidatorIndex(i)
				pr, err := proveValidator(p, vi)
				require.NoError(t, err)
				require.Equal(t, mustRoot(beacon.HashTreeRoot(st.Validators[i])), pr.Leaf)
				checkProof(t, pr, root, fmt.Sprintf("validator %d", i))

				for f, name := range validatorFieldNames {
					fp, err := proveValidatorField(p, vi, name)
					require.NoError(t, err)
					require.Equal(t, pr.GIndex*8+beacon.GIndex(f), fp.GIndex)
					require.Equal(t, fp.Branch[3:], pr.Branch, "a field's branch continues the validator's")
					checkProof(t, fp, root, fmt.Sprintf("validator %d %s", i, name))
				}
				wc, _ := proveValidatorField(p, vi, "withdrawal_credentials")
				require.Equal(t, st.Validators[i].WithdrawalCredentials, wc.Leaf)
				eb, _ := proveValidatorField(p, vi, "effective_balance")
				require.Equal(t, beacon.Root(u64c(uint64(st.Validators[i].EffectiveBalance))), eb.Leaf)
				pk, _ := proveValidatorField(p, vi, "pubkey")
				require.Equal(t, mustRoot(beacon.HashTreeRoot(st.Validators[i].PublicKey)), pk.Leaf)

				bp, err := proveBalance(p, vi)
				require.NoError(t, err)
				require.Equal(t, st.Balances[i], balanceIn(bp, vi))
				checkProof(t, bp, root, fmt.Sprintf("balance %d", i))
				// ProveBalance: the same proof, and the balance the state holds.
				pb, gwei, err := p.ProveBalance(vi)
				require.NoError(t, err)
				require.Equal(t, bp, pb)
				require.Equal(t, st.Balances[i], gwei, "ProveBalance(%d)", i)
			}
			// ProveBalance refuses a validator the state has no balance for
			// (GIndexOf and Prove still prove the empty place).
			_, _, err = p.ProveBalance(beacon.ValidatorIndex(len(st.Balances)))
			require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
			require.ErrorContains(t, err, fmt.Sprintf("validator %d: the state has %d balances", len(st.Balances), len(st.Balances)))
			// Past the registry, a path still names a node below the
			// list's limit: a zero chunk, proven as such (an absence).
			n := beacon.ValidatorIndex(len(st.Validators))
			pr, err := proveValidator(p, n)
			require.NoError(t, err)
			assert.Equal(t, beacon.Root{}, pr.Leaf)
			checkProof(t, pr, root, "past the registry")
			_, err = p.GIndexOf("validators", uint64(1)<<40)
			assert.ErrorContains(t, err, `"validators.1099511627776" index 1099511627776 is past the limit 1099511627776 of the validators`)
			_, err = proveValidatorField(p, 0, "balance")
			assert.True(t, errors.Is(err, nodeaccess.ErrInvalidInput))
			assert.ErrorContains(t, err, `"validators.0.balance" "balance" is not a field of a validator`)
		})
	}
}

// A proof extended to the block root verifies against the block root the
// specs' rule gives (State.LatestBlockRoot), for a state whose header's
// state_root is still zero, and for one where it is already the state's
// root; a state advanced past its block is refused.
func TestProverToBlockRoot(t *testing.T) {
	st := beacontest.NewState(beacon.Deneb, beacon.MainnetPreset(), 40, 2)
	st.LatestBlockHeader.StateRoot = beacon.Root{}
	p, err := beacon.NewProver(st)
	require.NoError(t, err)
	blockRoot, err := latestBlockRoot(st)
	require.NoError(t, err)
	got, err := p.BlockRoot()
	require.NoError(t, err)
	require.Equal(t, blockRoot, got)

	for _, i := range []beacon.ValidatorIndex{0, 17, 39} {
		pr, err := proveValidatorField(p, i, "withdrawal_credentials")
		require.NoError(t, err)
		ext, err := p.ToBlockRoot(pr)
		require.NoError(t, err)
		want := concatGIndices(11, pr.GIndex)
		require.Equal(t, want, ext.GIndex)
		checkProof(t, ext, blockRoot, fmt.Sprintf("validator %d to the block root", i))
		require.False(t, ext.Verify(p.StateRoot()))

		bp, err := proveBalance(p, i)
		require.NoError(t, err)
		ext, err = p.ToBlockRoot(bp)
		require.NoError(t, err)
		checkProof(t, ext, blockRoot, "balance to the block root")
	}
	hp, err := proveLatestBlockHeader(p)
	require.NoError(t, err)
	ext, err := p.ToBlockRoot(hp)
	require.NoError(t, err)
	checkProof(t, ext, blockRoot, "header to the block root")

	// The header already holds the state's root: the same block root.
	st2 := *st
	st2.LatestBlockHeader.StateRoot = p.StateRoot()
	r2, err := beacon.HashTreeRoot(&st2)
	require.NoError(t, err)
	p2, err := beacon.NewProver(&st2)
	require.NoError(t, err)
	_, err = p2.BlockRoot()
	// Filling the header changes the state's root, so the header no
	// longer holds it: refused, with both roots named.
	require.Error(t, err)
	assert.Contains(t, err.Error(), r2.String())

	// A state advanced through an empty slot: its header holds an
	// earlier state's root.
	st.LatestBlockHeader.StateRoot = beacon.Root{7}
	p3, err := beacon.NewProver(st)
	require.NoError(t, err)
	pr, err := proveValidator(p3, 0)
	require.NoError(t, err)
	_, err = p3.ToBlockRoot(pr)
	assert.ErrorContains(t, err, "advanced past its block")
}

// Prove walks any generalized index: inner nodes too; an index below a
// leaf is an error.
func TestProverAnyGIndex(t *testing.T) {
	st := beacontest.NewState(beacon.Fulu, beacon.MainnetPreset(), 33, 1)
	p, err := beacon.NewProver(st)
	require.NoError(t, err)
	for g := beacon.GIndex(1); g < 128; g++ { // the state container's tree of 64 leaves
		pr, err := p.Prove(g)
		require.NoError(t, err)
		require.True(t, pr.Verify(p.StateRoot()), "gindex %d", g)
	}
	pr, err := p.Prove(1)
	require.NoError(t, err)
	assert.Equal(t, p.StateRoot(), pr.Leaf)
	assert.Empty(t, pr.Branch)
	// Slot is field 2 of 38, a chunk: nothing below it.
	_, err = p.Prove(64 + 2)
	require.NoError(t, err)
	_, err = p.Prove((64 + 2) * 2)
	assert.ErrorContains(t, err, "goes below a leaf")
	_, err = p.Prove(0)
	assert.True(t, errors.Is(err, nodeaccess.ErrInvalidInput))
}

// A Prover is safe for concurrent use: proofs from many goroutines (run
// with -race) all verify.
func TestProverConcurrent(t *testing.T) {
	st := beacontest.NewState(beacon.Electra, beacon.MainnetPreset(), 300, 3)
	p, err := beacon.NewProver(st)
	require.NoError(t, err)
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for i := g; i < 300; i += 8 {
				pr, err := proveValidatorField(p, beacon.ValidatorIndex(i), "pubkey")
				if err == nil && !pr.Verify(p.StateRoot()) {
					err = fmt.Errorf("validator %d does not verify", i)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		require.NoError(t, <-errs)
	}
}
