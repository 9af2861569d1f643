package beacon_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The roots that the Sepolia README publishes for its beacon chain's
// genesis (eth-clients/sepolia, README.md, "Meta-data: Bepolia"), none of
// them computed by this package.
const (
	sepoliaBlockRootFilled   = "0xfb9b64fe445f76696407e1e3cc390371edff147bf712db86db6197d4b31ede43" // "with state root update"
	sepoliaBlockRootUnfilled = "0xeade62f0457b2fdf48e7d3fc4b60736688286be7c7a3ac4c9a16a5e0600bd9e4" // "without state root update"
	sepoliaValidatorsRoot    = "0xd8ea171f3c94aea21ebc42a1ed61052acf3f9209c00e4efbaaddac09ed9b8078"
	sepoliaDepositRoot       = "0xd70a234731285c6804c2a4f56711ddb8c82c99740f207854891028af34e27e5e"
	sepoliaEth1BlockHash     = "0x491ebac1b7f9c0eb426047a495dc577140cb3e09036cd3f7266eda86b635d9fa"
)

func mustParseRoot(t *testing.T, s string) beacon.Root {
	t.Helper()
	var r beacon.Root
	require.NoError(t, r.UnmarshalText([]byte(s)))
	return r
}

// On the real Sepolia genesis state: the block root rule gives the
// published genesis block root, the header's own root the published root
// "without state root update", and proofs of published values (the
// genesis validators root, the eth1 data) and of validators verify against
// the published state root and on to the published block root.
func TestProverSepoliaGenesis(t *testing.T) {
	st, err := unmarshalSSZ(readSepolia(t), beacon.Phase0)
	require.NoError(t, err)
	stateRoot := mustParseRoot(t, "0x"+sepoliaGenesisRoot)
	blockRoot := mustParseRoot(t, sepoliaBlockRootFilled)

	got, err := latestBlockRoot(st)
	require.NoError(t, err)
	assert.Equal(t, blockRoot, got)
	assert.Equal(t, mustParseRoot(t, sepoliaBlockRootUnfilled), mustRoot(beacon.HashTreeRoot(st.LatestBlockHeader)))

	p, err := beacon.NewProver(st)
	require.NoError(t, err)
	require.Equal(t, stateRoot, p.StateRoot())
	got, err = p.BlockRoot()
	require.NoError(t, err)
	require.Equal(t, blockRoot, got)

	pr, err := proveField(p, "genesis_validators_root")
	require.NoError(t, err)
	assert.Equal(t, mustParseRoot(t, sepoliaValidatorsRoot), pr.Leaf)
	assert.Equal(t, beacon.GIndex(32+1), pr.GIndex)
	checkProof(t, pr, stateRoot, "genesis_validators_root")
	ext, err := p.ToBlockRoot(pr)
	require.NoError(t, err)
	checkProof(t, ext, blockRoot, "genesis_validators_root to the block")

	e := beacon.Eth1Data{DepositRoot: mustParseRoot(t, sepoliaDepositRoot), DepositCount: 0, BlockHash: mustParseRoot(t, sepoliaEth1BlockHash)}
	pr, err = proveField(p, "eth1_data")
	require.NoError(t, err)
	assert.Equal(t, mustRoot(beacon.HashTreeRoot(e)), pr.Leaf, "the published eth1 data is the proven leaf")
	checkProof(t, pr, stateRoot, "eth1_data")
	js, err := json.Marshal(st.Eth1Data)
	require.NoError(t, err)
	assert.Equal(t, `{"deposit_root":"`+sepoliaDepositRoot+`","deposit_count":"0","block_hash":"`+sepoliaEth1BlockHash+`"}`, string(js))

	for _, i := range []beacon.ValidatorIndex{0, 1, 15, 16, 777, 1568, 1569} {
		pr, err := proveValidatorField(p, i, "withdrawal_credentials")
		require.NoError(t, err)
		require.Equal(t, st.Validators[i].WithdrawalCredentials, pr.Leaf)
		ext, err := p.ToBlockRoot(pr)
		require.NoError(t, err)
		checkProof(t, ext, blockRoot, fmt.Sprintf("validator %d credentials to the block", i))
		bp, err := proveBalance(p, i)
		require.NoError(t, err)
		require.Equal(t, st.Balances[i], balanceIn(bp, i))
		checkProof(t, bp, stateRoot, fmt.Sprintf("balance %d", i))
	}
}
