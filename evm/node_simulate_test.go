package evm_test

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The node tests run simulations on evmtest's go-ethereum EVM and pin
// cases of go-ethereum's own TestSimulateV1 (internal/ethapi/api_test.go
// at v1.17.10: evm-error, transfer-logs, validation-checks,
// blockhash-opcode, clear-storage) and of its simulator's rules (the
// request-wide gas budget, the order of times, unknown override keys).

var (
	simA = common.HexToAddress("0x00000000000000000000000000000000000c0a01")
	simB = common.HexToAddress("0x00000000000000000000000000000000000c0a02")
	simC = common.HexToAddress("0x00000000000000000000000000000000000c0a03")
	// transferTopic is ERC-20's Transfer(address,address,uint256).
	transferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))
	// ethAddress is the ERC-7528 address of the transfer logs.
	ethAddress = common.HexToAddress("0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE")
)

func simulateNode(t *testing.T) *evm.Client {
	t.Helper()
	srv := evmtest.NewT(t, evmtest.WithoutScenario())
	srv.Commit() // a block at the wall clock's time
	c, err := srv.Client(nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	return c
}

// TestNodeSimulateVMError is geth's "evm-error": code that RETURNs with an
// empty stack fails with -32015 and go-ethereum's message, using all its
// gas; the request succeeds.
func TestNodeSimulateVMError(t *testing.T) {
	c := simulateNode(t)
	blocks, err := c.SimulateV1(t.Context(), evm.Simulation{Blocks: []evm.SimBlock{{
		StateOverride: evm.StateOverride{simB: {Code: common.FromHex("f3")}},
		Calls:         []evm.CallMsg{{From: simA, To: simB, Gas: 100_000}},
	}}}, evm.Latest)
	require.NoError(t, err)
	call := blocks[0].Calls[0]
	assert.False(t, call.Success)
	var re *nodeaccess.RPCError
	require.ErrorAs(t, call.Err, &re)
	assert.NotErrorIs(t, call.Err, evm.ErrReverted)
	assert.Equal(t, -32015, re.Code)
	assert.Equal(t, "stack underflow (0 <=> 2)", re.Message)
	assert.Equal(t, uint64(100_000), call.GasUsed)
	assert.Equal(t, []byte{}, call.ReturnData)
}

// TestNodeSimulateTransferLogs is geth's "transfer-logs": with
// TraceTransfers an ether transfer is an ERC-20 Transfer log of the
// ERC-7528 address, the call's own and the contract's onward one, indexed
// in order; without it there is none.
func TestNodeSimulateTransferLogs(t *testing.T) {
	c := simulateNode(t)
	// geth's Yul contract: send 100 wei to the address in the call data.
	forward := common.FromHex("60003560601c606460008060008084865af160008103601d57600080fd5b505050")
	sim := evm.Simulation{TraceTransfers: true, Blocks: []evm.SimBlock{{
		StateOverride: evm.StateOverride{
			simA: {Balance: big.NewInt(1_000_000)},
			simB: {Balance: big.NewInt(100), Code: forward},
		},
		Calls: []evm.CallMsg{{From: simA, To: simB, Value: big.NewInt(50), Data: simC[:]}},
	}}}
	blocks, err := c.SimulateV1(t.Context(), sim, evm.Latest)
	require.NoError(t, err)
	b := blocks[0]
	call := b.Calls[0]
	require.NoError(t, call.Err)
	require.Len(t, call.Logs, 2)
	for i, want := range []struct {
		from, to common.Address
		value    int64
	}{{simA, simB, 50}, {simB, simC, 100}} {
		l := call.Logs[i]
		assert.Equal(t, ethAddress, l.Address)
		assert.Equal(t, []common.Hash{transferTopic, common.BytesToHash(want.from[:]), common.BytesToHash(want.to[:])}, l.Topics)
		assert.Equal(t, common.BigToHash(big.NewInt(want.value)).Bytes(), l.Data)
		assert.Equal(t, uint(i), l.Index)
		assert.Equal(t, b.Hash, l.BlockHash)
		assert.Equal(t, b.Number, l.BlockNumber)
		assert.Equal(t, b.Timestamp, l.BlockTimestamp)
		assert.Equal(t, b.TxHashes[0], l.TxHash)
	}

	sim.TraceTransfers = false
	blocks, err = c.SimulateV1(t.Context(), sim, evm.Latest)
	require.NoError(t, err)
	assert.Empty(t, blocks[0].Calls[0].Logs)
}

// TestNodeSimulateLogIndexAcrossCalls: log indexes run across the calls of
// a block and start again in the next block, as go-ethereum numbers them.
func TestNodeSimulateLogIndexAcrossCalls(t *testing.T) {
	c := simulateNode(t)
	// LOG0 of nothing: PUSH1 0 PUSH1 0 LOG0.
	logger := common.FromHex("60006000a0")
	two := []evm.CallMsg{{From: simA, To: simB}, {From: simA, To: simB}}
	blocks, err := c.SimulateV1(t.Context(), evm.Simulation{Blocks: []evm.SimBlock{
		{StateOverride: evm.StateOverride{simB: {Code: logger}}, Calls: two},
		{Calls: two[:1]},
	}}, evm.Latest)
	require.NoError(t, err)
	var got []uint
	for _, b := range blocks {
		for _, call := range b.Calls {
			require.Len(t, call.Logs, 1)
			got = append(got, call.Logs[0].Index)
		}
	}
	assert.Equal(t, []uint{0, 1, 0}, got)
	assert.Equal(t, uint(1), blocks[0].Calls[1].Logs[0].TxIndex)
}

// TestNodeSimulateMaxUsedGas is geth's "clear-storage" refund at work: a
// call that clears a slot gets gas back, so it needs more gas (MaxUsedGas,
// before the refund) than it uses.
func TestNodeSimulateMaxUsedGas(t *testing.T) {
	c := simulateNode(t)
	clear := common.FromHex("6000600055") // SSTORE(0, 0)
	blocks, err := c.SimulateV1(t.Context(), evm.Simulation{Blocks: []evm.SimBlock{{
		StateOverride: evm.StateOverride{simB: {Code: clear, StateDiff: map[common.Hash]common.Hash{{}: common.HexToHash("0x01")}}},
		Calls:         []evm.CallMsg{{From: simA, To: simB}},
	}}}, evm.Latest)
	require.NoError(t, err)
	call := blocks[0].Calls[0]
	require.NoError(t, call.Err)
	assert.Greater(t, call.MaxUsedGas, call.GasUsed)
	assert.Equal(t, call.GasUsed, blocks[0].GasUsed)
}

// TestNodeSimulateBlockhashAndState is geth's "blockhash-opcode" and the
// simulator's chaining: a later simulated block reads an earlier one's hash
// with BLOCKHASH, the numbers and times follow one another (12 s), the
// state a block changes is the next one's, and nothing is kept on the
// chain.
func TestNodeSimulateBlockhashAndState(t *testing.T) {
	c := simulateNode(t)
	head, err := c.BlockNumber(t.Context())
	require.NoError(t, err)
	// BLOCKHASH(NUMBER - 1), returned.
	parentHash := common.FromHex("436001900340" + "60005260206000f3")
	// BALANCE(simC), returned.
	balanceOfC := append(append([]byte{0x73}, simC[:]...), common.FromHex("3160005260206000f3")...)
	blocks, err := c.SimulateV1(t.Context(), evm.Simulation{Blocks: []evm.SimBlock{
		{StateOverride: evm.StateOverride{simA: {Balance: big.NewInt(1e18)}, simB: {Code: parentHash}},
			Calls: []evm.CallMsg{{From: simA, To: simC, Value: big.NewInt(7)}}},
		{Calls: []evm.CallMsg{{From: simA, To: simB}, {From: simA, Create: true, Data: balanceOfC}}},
	}}, evm.Latest)
	require.NoError(t, err)
	require.Len(t, blocks, 2)
	assert.Equal(t, head+1, blocks[0].Number)
	assert.Equal(t, head+2, blocks[1].Number)
	assert.Equal(t, blocks[0].Timestamp+12, blocks[1].Timestamp)
	assert.Equal(t, blocks[0].Hash, blocks[1].ParentHash)
	assert.Equal(t, blocks[0].Hash[:], blocks[1].Calls[0].ReturnData)
	assert.Equal(t, common.BigToHash(big.NewInt(7)).Bytes(), blocks[1].Calls[1].ReturnData)
	assert.Zero(t, blocks[0].BaseFee.Sign(), "base fee 0 without validation")

	var bal hexutil.Big
	require.NoError(t, c.CallContext(t.Context(), &bal, "eth_getBalance", simC, evm.Latest))
	assert.Zero(t, bal.ToInt().Sign(), "the simulation changed the chain")
	after, err := c.BlockNumber(t.Context())
	require.NoError(t, err)
	assert.Equal(t, head, after)
}

// TestNodeSimulateRequestErrors: the simulator's refusals of the whole
// request, with go-ethereum's codes and messages: validation's nonce check
// (geth's "validation-checks"), funds, a call asking more gas than the
// block has left, equal times, the request-wide gas budget, an override
// key go-ethereum does not know, a block the chain does not have.
func TestNodeSimulateRequestErrors(t *testing.T) {
	c := simulateNode(t)
	gasLimit := uint64(30_000)
	for name, tc := range map[string]struct {
		sim  evm.Simulation
		code int
		msg  string
	}{
		"nonce too high": {evm.Simulation{Validation: true, Blocks: []evm.SimBlock{{
			StateOverride: evm.StateOverride{simA: {Balance: big.NewInt(1e18)}},
			Calls:         []evm.CallMsg{{From: simA, To: simB, Nonce: ptr(uint64(2)), MaxFeePerGas: big.NewInt(1e10)}},
		}}}, -38011, "err: nonce too high: address " + simA.Hex() + ", tx: 2 state: 0 (supplied gas 50000000)"},
		"insufficient funds": {evm.Simulation{Blocks: []evm.SimBlock{{
			Calls: []evm.CallMsg{{From: simA, To: simB, Value: big.NewInt(1000)}},
		}}}, -38014, "err: insufficient funds for gas * price + value: address " + simA.Hex() + " have 0 want 1000 (supplied gas 50000000)"},
		"block gas limit reached": {evm.Simulation{Blocks: []evm.SimBlock{{
			BlockOverride: &evm.BlockOverride{GasLimit: &gasLimit},
			Calls:         []evm.CallMsg{{From: simA, To: simB, Gas: 50_000}},
		}}}, -38015, "block gas limit reached: remaining: 30000, required: 50000"},
		"the gas budget is the request's": {evm.Simulation{Blocks: []evm.SimBlock{
			{StateOverride: evm.StateOverride{simB: {Code: common.FromHex("fe")}}, Calls: []evm.CallMsg{{From: simA, To: simB}}},
			{Calls: []evm.CallMsg{{From: simA, To: simB}}},
		}}, -38013, "err: intrinsic gas too low: have 0, want 21000 (supplied gas 0)"},
	} {
		_, err := c.SimulateV1(t.Context(), tc.sim, evm.Latest)
		var re *nodeaccess.RPCError
		require.ErrorAs(t, err, &re, name)
		assert.Equal(t, tc.code, re.Code, name)
		assert.Equal(t, tc.msg, re.Message, name)
	}

	_, err := c.SimulateV1(t.Context(), evm.Simulation{Blocks: []evm.SimBlock{{}}}, evm.BlockNumber(1_000_000))
	var re *nodeaccess.RPCError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "header not found", re.Message)

	// Equal times, which SimulateV1 refuses before sending (see
	// TestSimulateV1Refused), sent as the caller's own JSON: the node
	// refuses them too.
	err = c.CallContext(t.Context(), nil, "eth_simulateV1",
		json.RawMessage(`{"blockStateCalls":[{"blockOverrides":{"time":"0xee6b2800"}},{"blockOverrides":{"time":"0xee6b2800"}}]}`), evm.Latest)
	require.ErrorAs(t, err, &re)
	assert.Equal(t, -38021, re.Code)
	assert.Equal(t, "block timestamps must be in order: 4000000000 <= 4000000000", re.Message)

	// A key no override field has, sent with CallContext.
	err = c.CallContext(t.Context(), nil, "eth_simulateV1",
		json.RawMessage(`{"blockStateCalls":[{"blockOverrides":{"coinbase":"0x0000000000000000000000000000000000000001"}}]}`), evm.Latest)
	require.ErrorAs(t, err, &re)
	assert.Equal(t, -32602, re.Code)
	assert.Equal(t, `invalid argument 0: unknown field "coinbase" in block override`, re.Message)
}

// TestNodeSimulateRevertAndBatch: a revert is the call's *RevertError with
// its reason, the other calls go on; the same simulation in a JSON-RPC
// batch, typed and through Add, beside an eth_call, gives the same blocks.
func TestNodeSimulateRevertAndBatch(t *testing.T) {
	c := simulateNode(t)
	// Error("no") revert: CODECOPY the 100 bytes of its ABI encoding
	// after the code to memory, REVERT with them.
	revertNo := common.FromHex("6064600c6000396064" + "6000fd" +
		"08c379a0" + "0000000000000000000000000000000000000000000000000000000000000020" +
		"0000000000000000000000000000000000000000000000000000000000000002" +
		"6e6f000000000000000000000000000000000000000000000000000000000000")
	sim := evm.Simulation{Blocks: []evm.SimBlock{{
		StateOverride: evm.StateOverride{simB: {Code: revertNo}},
		Calls:         []evm.CallMsg{{From: simA, To: simB}, {From: simA, To: simC}},
	}}}
	blocks, err := c.SimulateV1(t.Context(), sim, evm.Latest)
	require.NoError(t, err)
	var rev *evm.RevertError
	require.ErrorAs(t, blocks[0].Calls[0].Err, &rev)
	assert.Equal(t, "no", rev.Reason)
	assert.Equal(t, 3, rev.ErrorCode())
	assert.True(t, blocks[0].Calls[1].Success)

	var b evm.Batch
	typed := evm.Add[[]evm.SimulatedBlock](&b, "eth_simulateV1", sim, evm.Latest)
	raw := evm.Add[[]map[string]any](&b, "eth_simulateV1", json.RawMessage(
		`{"blockStateCalls":[{"stateOverrides":{"`+simB.Hex()+`":{"code":"`+hexutil.Encode(revertNo)+`"}},"calls":[{"from":"`+simA.Hex()+`","to":"`+simB.Hex()+`"}]}]}`), evm.Latest)
	call := b.Call(evm.CallMsg{To: simB, StateOverride: evm.StateOverride{simB: {Code: revertNo}}}, evm.Latest)
	require.NoError(t, c.SendBatch(t.Context(), &b))
	got, err := typed.Result()
	require.NoError(t, err)
	require.ErrorAs(t, got[0].Calls[0].Err, &rev)
	assert.Equal(t, "no", rev.Reason)
	assert.Equal(t, blocks[0].Calls[0].GasUsed, got[0].Calls[0].GasUsed)
	rawBlocks, err := raw.Result()
	require.NoError(t, err)
	assert.Equal(t, "execution reverted: no", rawBlocks[0]["calls"].([]any)[0].(map[string]any)["error"].(map[string]any)["message"])
	_, err = call.Result()
	require.ErrorAs(t, err, &rev)
	assert.Equal(t, "no", rev.Reason)
}
