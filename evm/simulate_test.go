package evm_test

import (
	"context"
	"encoding/json"
	"math/big"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// oneCallAnswer is an eth_simulateV1 answer of one block with one failed
// call whose error member is errMember.
func oneCallAnswer(errMember string) string {
	return `{"jsonrpc":"2.0","id":1,"result":[{"number":"0x37","hash":"0x0fa3b104fefa31b78486265bea6faf4d4f5a9ef4a89b71ba09167451cd4b727d","timestamp":"0x228","gasLimit":"0xbebc200","gasUsed":"0x5355","miner":"0x0000000000000000000000000000000000000000","transactions":[],"calls":[{"returnData":"0x","logs":[],"gasUsed":"0x5355","status":"0x0","error":` + errMember + `}]}]}`
}

// simulateOne runs a one-call simulation against a server answering
// answer.
func simulateOne(t *testing.T, answer string, opts ...nodeaccess.Option) ([]evm.SimulatedBlock, error) {
	t.Helper()
	url, _ := replay(t, answer)
	c, err := evm.New(url, testKey, append([]nodeaccess.Option{nodeaccess.WithMaxAttempts(1)}, opts...)...)
	require.NoError(t, err)
	return c.SimulateV1(context.Background(), evm.Simulation{Blocks: []evm.SimBlock{{Calls: []evm.CallMsg{{To: token}}}}}, evm.Latest)
}

// TestSimulateV1CallReverts: every revert shape a node gives eth_call
// (testdata/reverts) is a *RevertError when a node gives it to a simulated
// call, with the same data and reason as Call reads, whatever its code;
// so are the -32000 shapes simulations had before the spec took code 3,
// in any case.
func TestSimulateV1CallReverts(t *testing.T) {
	shapes := map[string]string{}
	for _, name := range listed(t, "testdata/reverts") {
		raw, _, _ := errorMember(t, filepath.Join("testdata/reverts", name))
		shapes[name] = raw
	}
	shapes["geth before 2025, Nethermind before 2026"] = `{"code":-32000,"message":"execution reverted: Always reverting contract","data":"0x08c379a000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000019416c7761797320726576657274696e6720636f6e747261637400000000000000"}`
	shapes["upper case"] = `{"code":-32000,"message":"EXECUTION REVERTED","data":"0x"}`
	for name, raw := range shapes {
		t.Run(name, func(t *testing.T) {
			blocks, err := simulateOne(t, oneCallAnswer(raw))
			require.NoError(t, err)
			call := blocks[0].Calls[0]
			assert.False(t, call.Success)
			require.ErrorIs(t, call.Err, evm.ErrReverted)
			var rev *evm.RevertError
			require.ErrorAs(t, call.Err, &rev)
			require.NotNil(t, rev.RPC)

			// The same error member from eth_call gives the same revert.
			var callRev *evm.RevertError
			require.ErrorAs(t, callWithError(t, raw), &callRev)
			assert.Equal(t, callRev.Data, rev.Data)
			assert.Equal(t, callRev.Reason, rev.Reason)
			assert.Equal(t, callRev.PanicCode, rev.PanicCode)
		})
	}
	blocks, err := simulateOne(t, oneCallAnswer(shapes["geth before 2025, Nethermind before 2026"]))
	require.NoError(t, err)
	var rev *evm.RevertError
	require.ErrorAs(t, blocks[0].Calls[0].Err, &rev)
	assert.Equal(t, "Always reverting contract", rev.Reason)
	assert.Equal(t, -32000, rev.ErrorCode())
}

// TestSimulateV1CallFailures: a call that fails without reverting (the
// spec's -32015, in go-ethereum's and anvil's words, and reth's code 3 for
// a halt before it took -32015) is the node's *nodeaccess.RPCError, not a
// revert.
func TestSimulateV1CallFailures(t *testing.T) {
	for name, tc := range map[string]struct {
		raw  string
		code int
		msg  string
	}{
		"geth out of gas":            {`{"message":"out of gas","code":-32015}`, -32015, "out of gas"},
		"geth stack underflow":       {`{"message":"stack underflow (0 <=> 2)","code":-32015}`, -32015, "stack underflow (0 <=> 2)"},
		"anvil":                      {`{"code":-32015,"message":"vm execution error: InvalidFEOpcode"}`, -32015, "vm execution error: InvalidFEOpcode"},
		"reth before 2026, a halt":   {`{"code":3,"message":"out of gas: gas required exceeds allowance: 21000"}`, 3, "out of gas: gas required exceeds allowance: 21000"},
		"capped by the RPC gas cap":  {`{"message":"out of gas (gas limit was capped by the RPC server's global gas cap)","code":-32015}`, -32015, "out of gas (gas limit was capped by the RPC server's global gas cap)"},
		"a code the SDK cannot know": {`{"code":12345,"message":"something"}`, 12345, "something"},
	} {
		t.Run(name, func(t *testing.T) {
			blocks, err := simulateOne(t, oneCallAnswer(tc.raw))
			require.NoError(t, err)
			call := blocks[0].Calls[0]
			assert.False(t, call.Success)
			assert.NotErrorIs(t, call.Err, evm.ErrReverted)
			var re *nodeaccess.RPCError
			require.ErrorAs(t, call.Err, &re)
			assert.Equal(t, tc.code, re.Code)
			assert.Equal(t, tc.msg, re.Message)
		})
	}
}

// TestSimulateV1RequestErrors: an error of the whole request (the spec's
// -380xx, -32602, go-ethereum's -32000) is the node's *nodeaccess.RPCError
// with its code, never a revert.
func TestSimulateV1RequestErrors(t *testing.T) {
	for _, tc := range []struct {
		code int
		msg  string
	}{
		{-38014, "err: insufficient funds for gas * price + value: address 0xC000000000000000000000000000000000000000 have 0 want 1000 (supplied gas 50000000)"},
		{-38026, "too many blocks"},
		{-38021, "block timestamps must be in order: 551 <= 552"},
		{-32602, "empty input"},
		{-32601, "the method eth_simulateV1 does not exist/is not available"},
		{-32000, "execution reverted"}, // a request's error is never a call's revert
	} {
		answer, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "error": map[string]any{"code": tc.code, "message": tc.msg}})
		_, err := simulateOne(t, string(answer))
		var re *nodeaccess.RPCError
		require.ErrorAs(t, err, &re, "%d", tc.code)
		assert.Equal(t, tc.code, re.Code)
		assert.Equal(t, tc.msg, re.Message)
		assert.NotErrorIs(t, err, evm.ErrReverted)
		assert.Equal(t, "evm: eth_simulateV1: json-rpc error "+itoa(tc.code)+": "+tc.msg, err.Error())
	}
}

// TestSimulateV1Refused: a simulation that cannot be sent as it is fails
// with an InputError naming the block, the call and the member, and
// nothing is sent.
func TestSimulateV1Refused(t *testing.T) {
	c, err := evm.New(testBase, testKey, nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))
	require.NoError(t, err)
	ten, five := big.NewInt(10), big.NewInt(5)
	t1, t0 := uint64(100), uint64(99)
	for _, tc := range []struct {
		sim    evm.Simulation
		block  evm.Block
		arg    string
		reason string
	}{
		{evm.Simulation{}, nil, "blockStateCalls", "no blocks: a simulation runs at least one"},
		{evm.Simulation{Blocks: []evm.SimBlock{{}, {Calls: []evm.CallMsg{{}, {Value: big.NewInt(-1)}}}}}, nil,
			"blockStateCalls[1].calls[1].value", "negative amount -1"},
		{evm.Simulation{Blocks: []evm.SimBlock{{Calls: []evm.CallMsg{{StateOverride: evm.StateOverride{}}}}}}, nil,
			"blockStateCalls[0].calls[0].overrides", "a simulated call has no overrides of its own: set them on its SimBlock, before its calls"},
		{evm.Simulation{Blocks: []evm.SimBlock{{Calls: []evm.CallMsg{{BlockOverride: &evm.BlockOverride{}}}}}}, nil,
			"blockStateCalls[0].calls[0].overrides", "a simulated call has no overrides of its own: set them on its SimBlock, before its calls"},
		{evm.Simulation{Blocks: []evm.SimBlock{{StateOverride: evm.StateOverride{token: {Balance: big.NewInt(-2)}}}}}, nil,
			"blockStateCalls[0].stateOverride[0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48].balance", "negative amount -2"},
		{evm.Simulation{Blocks: []evm.SimBlock{{BlockOverride: &evm.BlockOverride{Number: ten}}, {}, {BlockOverride: &evm.BlockOverride{Number: ten}}}}, nil,
			"blockStateCalls[2].blockOverride.number", "10 does not follow the number 11 of a block before it"},
		{evm.Simulation{Blocks: []evm.SimBlock{{BlockOverride: &evm.BlockOverride{Number: ten}}, {BlockOverride: &evm.BlockOverride{Number: five}}}}, nil,
			"blockStateCalls[1].blockOverride.number", "5 does not follow the number 10 of a block before it"},
		{evm.Simulation{Blocks: []evm.SimBlock{{BlockOverride: &evm.BlockOverride{Time: &t1}}, {BlockOverride: &evm.BlockOverride{Time: &t0}}}}, nil,
			"blockStateCalls[1].blockOverride.time", "99 is not after the time 100 of a block before it"},
		// A block without a number is the one after the block before it
		// (11 here), and times must increase, as the spec and
		// go-ethereum's sanitizeChain require (-38020, -38021).
		{evm.Simulation{Blocks: []evm.SimBlock{{BlockOverride: &evm.BlockOverride{Number: ten}}, {}, {BlockOverride: &evm.BlockOverride{Number: big.NewInt(11)}}}}, nil,
			"blockStateCalls[2].blockOverride.number", "11 does not follow the number 11 of a block before it"},
		{evm.Simulation{Blocks: []evm.SimBlock{{BlockOverride: &evm.BlockOverride{Number: ten}}, {}, {}, {BlockOverride: &evm.BlockOverride{Number: big.NewInt(12), Time: &t1}}}}, nil,
			"blockStateCalls[3].blockOverride.number", "12 does not follow the number 12 of a block before it"},
		{evm.Simulation{Blocks: []evm.SimBlock{{BlockOverride: &evm.BlockOverride{Time: &t1}}, {}, {BlockOverride: &evm.BlockOverride{Time: &t1}}}}, nil,
			"blockStateCalls[2].blockOverride.time", "100 is not after the time 100 of a block before it"},
		{evm.Simulation{Blocks: []evm.SimBlock{{}}}, evm.Tag("newest"), "block", `tag "newest" is not latest, safe, finalized, earliest or pending`},
	} {
		_, err := c.SimulateV1(context.Background(), tc.sim, tc.block)
		_, ie := testkit.RequireInputError(t, err, tc.arg)
		assert.Equal(t, tc.reason, ie.Reason)
		testkit.AssertErrNoKey(t, testKey, err)

		var b evm.Batch
		r := evm.Add[[]evm.SimulatedBlock](&b, "eth_simulateV1", tc.sim, tc.block)
		require.ErrorIs(t, c.SendBatch(context.Background(), &b), nodeaccess.ErrInvalidInput)
		_, err = r.Result()
		if tc.arg == "block" {
			testkit.RequireInputError(t, err, "args[1]") // Add encodes the block with encoding/json
		} else {
			_, ie = testkit.RequireInputError(t, err, "args[0]."+tc.arg)
			assert.Equal(t, tc.reason, ie.Reason)
		}
		testkit.AssertErrNoKey(t, testKey, err)
	}
}

// TestSimulateV1Malformed: an answer without what the spec requires, or
// with a value that does not decode, is an ErrInvalidResponse error.
func TestSimulateV1Malformed(t *testing.T) {
	block := func(calls string) string {
		return `{"jsonrpc":"2.0","id":1,"result":[{"number":"0x1","hash":"0x0fa3b104fefa31b78486265bea6faf4d4f5a9ef4a89b71ba09167451cd4b727d","timestamp":"0x2","gasLimit":"0x3","gasUsed":"0x4","miner":"0x0000000000000000000000000000000000000000","transactions":[],"calls":` + calls + `}]}`
	}
	for name, answer := range map[string]string{
		"null result":                   `{"jsonrpc":"2.0","id":1,"result":null}`,
		"an object":                     `{"jsonrpc":"2.0","id":1,"result":{}}`,
		"no calls":                      `{"jsonrpc":"2.0","id":1,"result":[{"number":"0x1","hash":"0x0fa3b104fefa31b78486265bea6faf4d4f5a9ef4a89b71ba09167451cd4b727d","timestamp":"0x2","gasLimit":"0x3","gasUsed":"0x4"}]}`,
		"no number":                     `{"jsonrpc":"2.0","id":1,"result":[{"hash":"0x0fa3b104fefa31b78486265bea6faf4d4f5a9ef4a89b71ba09167451cd4b727d","timestamp":"0x2","gasLimit":"0x3","gasUsed":"0x4","calls":[]}]}`,
		"status 0x2":                    block(`[{"returnData":"0x","gasUsed":"0x1","status":"0x2"}]`),
		"no status":                     block(`[{"returnData":"0x","gasUsed":"0x1"}]`),
		"failure without an error":      block(`[{"returnData":"0x","gasUsed":"0x1","status":"0x0"}]`),
		"success with an error":         block(`[{"returnData":"0x","gasUsed":"0x1","status":"0x1","error":{"code":3,"message":"execution reverted"}}]`),
		"bad return data":               block(`[{"returnData":"0xzz","gasUsed":"0x1","status":"0x1"}]`),
		"gas over 64 bits":              block(`[{"returnData":"0x","gasUsed":"0x10000000000000000","status":"0x1"}]`),
		"a log without its transaction": block(`[{"returnData":"0x","gasUsed":"0x1","status":"0x1","logs":[{"address":"0x0000000000000000000000000000000000000000","topics":[],"data":"0x"}]}]`),
		"a null log":                    block(`[{"returnData":"0x","gasUsed":"0x1","status":"0x1","logs":[null]}]`),
		"a null log after a log":        block(`[{"returnData":"0x","gasUsed":"0x1","status":"0x1","logs":[` + simLog + `,null]}]`),
		"a transaction of another kind": `{"jsonrpc":"2.0","id":1,"result":[{"number":"0x1","hash":"0x0fa3b104fefa31b78486265bea6faf4d4f5a9ef4a89b71ba09167451cd4b727d","timestamp":"0x2","gasLimit":"0x3","gasUsed":"0x4","transactions":[7],"calls":[]}]}`,
	} {
		_, err := simulateOne(t, answer)
		require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, name)
	}
	// Leading zeros and a missing maxUsedGas are read.
	blocks, err := simulateOne(t, block(`[{"returnData":"0x01","gasUsed":"0x0052","status":"0x1","logs":[]}]`))
	require.NoError(t, err)
	assert.Equal(t, evm.SimulatedCall{Success: true, ReturnData: []byte{1}, GasUsed: 0x52, Logs: blocks[0].Calls[0].Logs}, blocks[0].Calls[0])
	assert.Empty(t, blocks[0].Calls[0].Logs)
}

// simLog is a log as go-ethereum writes it in a simulated call's result.
const simLog = `{"address":"0xc200000000000000000000000000000000000000","topics":[],"data":"0x","blockNumber":"0x1","transactionHash":"0xf1c5abb08809ef760f87aeabe7a87284c60797192dab6d2f0d26c27c9c038e9d","transactionIndex":"0x0","blockHash":"0x0fa3b104fefa31b78486265bea6faf4d4f5a9ef4a89b71ba09167451cd4b727d","logIndex":"0x0","removed":false}`

// TestSimulateV1CostAndHooks: a simulation costs 1 request unit, or what
// nodeaccess.WithCost names for "eth_simulateV1", alone and in a batch.
func TestSimulateV1CostAndHooks(t *testing.T) {
	request, response := readSimulateFixture(t, "ethSimulate-simple.io")
	sim, _ := fixtureSimulation(t, request)
	for _, tc := range []struct {
		opts  []nodeaccess.Option
		units int
	}{{nil, 1}, {[]nodeaccess.Option{nodeaccess.WithCost("eth_simulateV1", 40)}, 40}} {
		var mu sync.Mutex
		var seen []nodeaccess.Attempt
		hook := nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, a)
		})
		url, _ := replay(t, response)
		c, err := evm.New(url, testKey, append(tc.opts, hook)...)
		require.NoError(t, err)
		_, err = c.SimulateV1(context.Background(), sim, nil)
		require.NoError(t, err)
		require.Len(t, seen, 1)
		assert.Equal(t, "eth_simulateV1", seen[0].Op)
		assert.Equal(t, tc.units, seen[0].Units)

		batchURL, _ := replay(t, "["+response+"]")
		c, err = evm.New(batchURL, testKey, append(tc.opts, hook)...)
		require.NoError(t, err)
		var b evm.Batch
		r := evm.Add[[]evm.SimulatedBlock](&b, "eth_simulateV1", sim, nil)
		require.NoError(t, c.SendBatch(context.Background(), &b))
		got, err := r.Result()
		require.NoError(t, err)
		assert.Len(t, got[0].Calls, 2)
		require.Len(t, seen, 2)
		assert.Equal(t, tc.units, seen[1].Units)
		assert.Equal(t, []nodeaccess.BatchCall{{Op: "eth_simulateV1", Units: tc.units}}, seen[1].Batch)
	}
}

// TestSimulateV1KeyMasked: the access key in a node's message inside a
// simulated call's error, and in a revert reason, is masked.
func TestSimulateV1KeyMasked(t *testing.T) {
	reason := "0x08c379a0" + "0000000000000000000000000000000000000000000000000000000000000020" +
		"0000000000000000000000000000000000000000000000000000000000000008" + // "t3st-KEY"
		"74337374 2d4b4559 000000000000000000000000000000000000000000000000"
	reason = strings.ReplaceAll(reason, " ", "")
	for _, raw := range []string{
		`{"code":-32015,"message":"out of gas at /` + testKey + `"}`,
		`{"code":3,"message":"execution reverted: ` + testKey + `","data":"` + reason + `"}`,
	} {
		blocks, err := simulateOne(t, oneCallAnswer(raw))
		require.NoError(t, err)
		testkit.AssertErrNoKey(t, testKey, blocks[0].Calls[0].Err)
		var b evm.Batch
		r := evm.Add[[]evm.SimulatedBlock](&b, "eth_simulateV1", evm.Simulation{Blocks: []evm.SimBlock{{Calls: []evm.CallMsg{{To: token}}}}}, nil)
		url, _ := replay(t, "["+oneCallAnswer(raw)+"]")
		c, err := evm.New(url, testKey)
		require.NoError(t, err)
		require.NoError(t, c.SendBatch(context.Background(), &b))
		got, err := r.Result()
		require.NoError(t, err)
		testkit.AssertErrNoKey(t, testKey, got[0].Calls[0].Err)
	}
}

// TestSimulateV1InBatchWithAdd: a simulation goes in a JSON-RPC batch both
// typed (Batch.SimulateV1) and through Add with the caller's own JSON, next
// to other calls.
func TestSimulateV1InBatchWithAdd(t *testing.T) {
	request, response := readSimulateFixture(t, "ethSimulate-simple.io")
	var req struct{ Params []json.RawMessage }
	require.NoError(t, json.Unmarshal([]byte(request), &req))
	c := gockClient(t, evm.WithCallDataMembers("input"))
	sim, block := fixtureSimulation(t, request)
	params := strings.TrimPrefix(strings.TrimSuffix(request, "}"), `{"jsonrpc":"2.0","id":1,"method":"eth_simulateV1","params":`)
	result := strings.TrimSuffix(strings.TrimPrefix(response, `{"jsonrpc":"2.0","id":1,"result":`), "}")
	mockRPC(t, "/"+testKey,
		`[{"jsonrpc":"2.0","id":1,"method":"eth_simulateV1","params":`+params+`},`+
			`{"jsonrpc":"2.0","id":2,"method":"eth_simulateV1","params":`+params+`},`+
			`{"jsonrpc":"2.0","id":3,"method":"eth_chainId","params":[]}]`,
		`[{"jsonrpc":"2.0","id":3,"result":"0x1"},{"jsonrpc":"2.0","id":2,"result":`+result+`},{"jsonrpc":"2.0","id":1,"result":`+result+`}]`)
	var b evm.Batch
	typed := evm.Add[[]evm.SimulatedBlock](&b, "eth_simulateV1", sim, block)
	raw := evm.Add[json.RawMessage](&b, "eth_simulateV1", req.Params[0], evm.Latest)
	evm.Add[string](&b, "eth_chainId")
	require.NoError(t, c.SendBatch(context.Background(), &b))
	blocks, err := typed.Result()
	require.NoError(t, err)
	require.Len(t, blocks, 1)
	assert.Equal(t, uint64(0x37), blocks[0].Number)
	assert.Equal(t, []common.Hash{
		common.HexToHash("0xf1c5abb08809ef760f87aeabe7a87284c60797192dab6d2f0d26c27c9c038e9d"),
		common.HexToHash("0xbc123d32ae457d4a444af60d1aef663c2f4a77c44a52bec0eef8ac81b53549cb"),
	}, blocks[0].TxHashes)
	rawBlocks, err := raw.Result()
	require.NoError(t, err)
	assert.JSONEq(t, result, string(rawBlocks))
	assert.JSONEq(t, string(blocks[0].Raw), strings.TrimSuffix(strings.TrimPrefix(result, "["), "]"))
}
