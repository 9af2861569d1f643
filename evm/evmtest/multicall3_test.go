package evmtest_test

import (
	"bytes"
	"encoding/hex"
	"os"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Multicall3 code in genesis is the canonical one: its hash is the
// published one, and it is exactly what the canonical deployment
// transaction creates (see testdata/SOURCES.md).
func TestMulticall3CodeIsCanonical(t *testing.T) {
	code := evmtest.Multicall3Code()
	assert.Len(t, code, 3808)
	assert.Equal(t, common.HexToHash("0xd5c15df687b16f2ff992fc8d767b4216323184a2bbc6ee2f9c398c318e770891"),
		crypto.Keccak256Hash(code), "the published code hash of Multicall3")
	assert.Equal(t, evmtest.Multicall3CodeHash(), crypto.Keccak256Hash(code))
	assert.Equal(t, common.HexToAddress("0xcA11bde05977b3631167028862bE2a173976CA11"), evm.Multicall3Address())

	// The pre-signed transaction of the mds1/multicall3 README: its sender
	// at nonce 0 creates the contract at the canonical address, and its
	// init code, run by the chain's EVM (an eth_call creating a contract
	// returns the code it would deploy), returns the code in genesis.
	raw, err := os.ReadFile("testdata/multicall3_presigned_tx.hex")
	require.NoError(t, err)
	b, err := hex.DecodeString(string(bytes.TrimPrefix(bytes.TrimSpace(raw), []byte("0x"))))
	require.NoError(t, err)
	var tx types.Transaction
	require.NoError(t, tx.UnmarshalBinary(b))
	from, err := types.Sender(types.HomesteadSigner{}, &tx)
	require.NoError(t, err)
	assert.Equal(t, common.HexToAddress("0x05f32B3cC3888453ff71B01135B34FF8e41263F2"), from, "the deployer the README names")
	assert.Nil(t, tx.To(), "a contract creation")
	assert.Equal(t, evm.Multicall3Address(), crypto.CreateAddress(from, tx.Nonce()))
	created, err := client(t, shared(t)).Call(t.Context(), evm.CallMsg{Create: true, Data: tx.Data(), Gas: tx.Gas()}, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, hex.EncodeToString(created), hex.EncodeToString(code))
}

// Every chain has Multicall3 in genesis; WithoutMulticall3 leaves it out.
func TestMulticall3InGenesis(t *testing.T) {
	c := client(t, shared(t))
	code, err := c.Code(t.Context(), evm.Multicall3Address(), evm.BlockNumber(0))
	require.NoError(t, err)
	assert.Equal(t, evmtest.Multicall3Code(), code)

	// It runs: getChainId() answers the chain's id.
	out, err := c.Call(t.Context(), evm.CallMsg{To: evm.Multicall3Address(), Data: common.FromHex("0x3408e470")}, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, common.LeftPadBytes([]byte{0x05, 0x39}, 32), out, "chain id 1337")

	without := client(t, fresh(t, evmtest.WithoutMulticall3(), evmtest.WithoutScenario()))
	code, err = without.Code(t.Context(), evm.Multicall3Address(), evm.Latest)
	require.NoError(t, err)
	assert.Empty(t, code)
	_, err = without.Multicall(t.Context(), []evm.Call3{{Target: evmtest.Token()}}, evm.Latest, evm.MulticallOptions{})
	assert.ErrorIs(t, err, evm.ErrMulticallNotDeployed)
}
