package evm_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	// probeFees returns BLOBHASH(0) and GASPRICE, two words:
	// MSTORE(0, BLOBHASH(0)); MSTORE(32, GASPRICE); RETURN(0, 64).
	probeFees     = common.HexToAddress("0x00000000000000000000000000000000c0de0001")
	probeFeesCode = common.FromHex("0x600049600052" + "3a602052" + "60406000f3")
	// probeWarm reads slot 0 and returns the gas left after the SLOAD.
	probeWarm     = common.HexToAddress("0x00000000000000000000000000000000c0de0002")
	probeWarmCode = common.FromHex("0x600054505a60005260206000f3")
	// initWord is init code that returns the word 0x2a as the runtime code.
	initWord = common.FromHex("0x602a60005260206000f3")
)

// probeNode is a node of its own with the probe contracts in genesis.
func probeNode(t *testing.T) *evm.Client {
	t.Helper()
	srv := evmtest.NewT(t, evmtest.WithoutScenario(), evmtest.WithAlloc(types.GenesisAlloc{
		probeFees: {Code: probeFeesCode},
		probeWarm: {Code: probeWarmCode},
		probeStore: {Code: probeStoreCode, Storage: map[common.Hash]common.Hash{
			common.HexToHash("0x00"): common.HexToHash("0x01"),
			common.HexToHash("0x01"): common.HexToHash("0x02"),
		}},
	}))
	c, err := srv.Client(nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	return c
}

// TestNodeCallMsgEveryField runs each member of the call object on
// go-ethereum's EVM and reads back its effect.
func TestNodeCallMsgEveryField(t *testing.T) {
	c := probeNode(t)
	ctx := t.Context()

	t.Run("contract creation returns the runtime code", func(t *testing.T) {
		out, err := c.Call(ctx, evm.CallMsg{Create: true, Data: initWord}, evm.Latest)
		require.NoError(t, err)
		assert.Equal(t, simWord(42), out)
		out, err = c.ContractCaller().CallContract(ctx, ethereum.CallMsg{From: evmtest.Holder(), Data: initWord}, nil)
		require.NoError(t, err)
		assert.Equal(t, simWord(42), out)
	})

	t.Run("the zero address is called", func(t *testing.T) {
		out, err := c.Call(ctx, evm.CallMsg{Value: big.NewInt(1), From: evmtest.Holder()}, evm.Latest)
		require.NoError(t, err)
		assert.Equal(t, []byte{}, out)
	})

	t.Run("legacy gas price is the GASPRICE", func(t *testing.T) {
		out, err := c.Call(ctx, evm.CallMsg{From: evmtest.Holder(), To: probeFees, GasPrice: big.NewInt(7_000_000_000)}, evm.Latest)
		require.NoError(t, err)
		assert.Equal(t, simConcat(simWord(0), simWord(7_000_000_000)), out)
	})

	t.Run("EIP-1559 fees set the GASPRICE", func(t *testing.T) {
		// With the tip equal to the cap, the effective price is the cap.
		fee := big.NewInt(9_000_000_000)
		out, err := c.Call(ctx, evm.CallMsg{From: evmtest.Holder(), To: probeFees, MaxFeePerGas: fee, MaxPriorityFeePerGas: fee}, evm.Latest)
		require.NoError(t, err)
		assert.Equal(t, simConcat(simWord(0), simWord(9_000_000_000)), out)
		to := probeFees
		out, err = c.ContractCaller().CallContract(ctx, ethereum.CallMsg{From: evmtest.Holder(), To: &to, GasFeeCap: fee, GasTipCap: fee}, nil)
		require.NoError(t, err)
		assert.Equal(t, simConcat(simWord(0), simWord(9_000_000_000)), out)
	})

	t.Run("blob hashes reach BLOBHASH", func(t *testing.T) {
		out, err := c.Call(ctx, evm.CallMsg{
			From: evmtest.Holder(), To: probeFees, MaxFeePerGas: big.NewInt(9_000_000_000), MaxPriorityFeePerGas: big.NewInt(1),
			MaxFeePerBlobGas: big.NewInt(1_000_000_000), BlobHashes: []common.Hash{blobHash},
		}, evm.Latest)
		require.NoError(t, err)
		assert.Equal(t, blobHash[:], out[:32])
	})

	t.Run("the access list warms the slot", func(t *testing.T) {
		left := func(al types.AccessList) uint64 {
			out, err := c.Call(ctx, evm.CallMsg{To: probeWarm, Gas: 100_000, AccessList: al}, evm.Latest)
			require.NoError(t, err)
			return new(big.Int).SetBytes(out).Uint64()
		}
		cold := left(nil)
		warm := left(types.AccessList{{Address: probeWarm, StorageKeys: []common.Hash{{}}}})
		// The list costs 2400 + 1900 gas up front and saves 2000 on the
		// SLOAD (2100 cold, 100 warm): EIP-2929 and EIP-2930.
		assert.Equal(t, uint64(2300), cold-warm)
	})
}
