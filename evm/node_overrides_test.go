package evm_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	// probeStore returns SLOAD(0), SLOAD(1) and SELFBALANCE; in genesis
	// slot 0 holds 1 and slot 1 holds 2.
	probeStore     = common.HexToAddress("0x00000000000000000000000000000000c0de0003")
	probeStoreCode = common.FromHex("0x600054600052" + "600154602052" + "47604052" + "60606000f3")
	// blockProbeCode returns NUMBER, TIMESTAMP, BASEFEE, GASLIMIT,
	// COINBASE, PREVRANDAO and BLOBBASEFEE; no account has it in genesis.
	blockProbeCode = common.FromHex("0x43600052" + "42602052" + "48604052" + "45606052" +
		"41608052" + "4460a052" + "4a60c052" + "60e06000f3")
	nowhere = common.HexToAddress("0x00000000000000000000000000000000c0de00ff")
)

// TestNodeStateOverride runs state overrides on go-ethereum's EVM and reads
// their effect back.
func TestNodeStateOverride(t *testing.T) {
	c := probeNode(t)
	ctx := t.Context()
	store := func(ov evm.OverrideAccount) []byte {
		t.Helper()
		out, err := c.Call(ctx, evm.CallMsg{To: probeStore, StateOverride: evm.StateOverride{probeStore: ov}}, evm.Latest)
		require.NoError(t, err)
		return out
	}
	nine := common.HexToHash("0x09")
	assert.Equal(t, simConcat(simWord(1), simWord(2), simWord(0)), store(evm.OverrideAccount{}), "no change")
	assert.Equal(t, simConcat(simWord(1), simWord(9), simWord(0)),
		store(evm.OverrideAccount{StateDiff: map[common.Hash]common.Hash{{31: 1}: nine}}), "stateDiff sets one slot")
	assert.Equal(t, simConcat(simWord(0), simWord(9), simWord(0)),
		store(evm.OverrideAccount{State: map[common.Hash]common.Hash{{31: 1}: nine}}), "state replaces the storage")
	assert.Equal(t, simConcat(simWord(0), simWord(0), simWord(0)),
		store(evm.OverrideAccount{State: map[common.Hash]common.Hash{}}), "an empty state wipes it")
	assert.Equal(t, simConcat(simWord(1), simWord(2), simWord(777)),
		store(evm.OverrideAccount{Balance: big.NewInt(777)}), "balance")

	// Code: an account without code runs the code given.
	out, err := c.Call(ctx, evm.CallMsg{To: nowhere, StateOverride: evm.StateOverride{nowhere: {Code: probeStoreCode}}}, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, simConcat(simWord(0), simWord(0), simWord(0)), out)
	// An empty Code removes the code: the call runs nothing.
	out, err = c.Call(ctx, evm.CallMsg{To: probeStore, StateOverride: evm.StateOverride{probeStore: {Code: []byte{}}}}, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, []byte{}, out)

	// Nonce: a creation's address is derived from the sender's nonce; init
	// code returning ADDRESS shows the nonce the EVM used.
	initAddress := common.FromHex("0x3060005260206000f3")
	for _, nonce := range []uint64{0, 41} {
		out, err = c.Call(ctx, evm.CallMsg{From: evmtest.Holder(), Create: true, Data: initAddress, StateOverride: evm.StateOverride{evmtest.Holder(): {Nonce: u64(nonce)}}}, evm.Latest)
		require.NoError(t, err)
		assert.Equal(t, common.LeftPadBytes(crypto.CreateAddress(evmtest.Holder(), nonce).Bytes(), 32), out, "nonce %d", nonce)
	}
}

// TestNodeBlockOverride overrides every block field and reads each back
// through its opcode, on go-ethereum's EVM.
func TestNodeBlockOverride(t *testing.T) {
	c := probeNode(t)
	coinbase, randao := evmtest.Holder(), common.HexToHash("0x5eed")
	// go-ethereum runs a call without a gas price at a base fee of 0 (its
	// NoBaseFee), so BASEFEE shows the override only with a price set.
	out, err := c.Call(t.Context(), evm.CallMsg{From: evmtest.Holder(), To: nowhere, GasPrice: big.NewInt(1000), StateOverride: evm.StateOverride{nowhere: {Code: blockProbeCode}}, BlockOverride: &evm.BlockOverride{
		Number: big.NewInt(20_000_000), Time: u64(1_900_000_000), BaseFee: big.NewInt(123), GasLimit: u64(31_000_000),
		FeeRecipient: &coinbase, PrevRandao: &randao, BlobBaseFee: big.NewInt(456),
	}}, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, simConcat(simWord(20_000_000), simWord(1_900_000_000), simWord(123), simWord(31_000_000),
		common.LeftPadBytes(coinbase[:], 32), randao[:], simWord(456)), out)

	// Block alone: the state param goes out as {} and the node takes it.
	out, err = c.Call(t.Context(), evm.CallMsg{Create: true, Data: common.FromHex("0x4360005260206000f3"), BlockOverride: &evm.BlockOverride{Number: big.NewInt(77)}}, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, simWord(77), out)
}
