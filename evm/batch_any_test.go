package evm_test

import (
	"context"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBatchAddWireAndResults: calls of any method go in the batch as
// CallContext sends them alone, beside the typed ones, and each result is
// decoded into its own type; a result that does not decode fails its call
// only.
func TestBatchAddWireAndResults(t *testing.T) {
	t.Parallel()
	balance := readExchange(t, "eth_getBalance_canonical_hash.io")
	node, c := newBatchNode(t, func(int, []batchReq) (int, string) {
		return 200, `[` +
			`{"jsonrpc":"2.0","id":4,"result":"not a number"},` +
			`{"jsonrpc":"2.0","id":3,"result":{"number":"0x2a","hash":"0x01"}},` +
			`{"jsonrpc":"2.0","id":2,"result":"0xc72dd9d5e883e"},` +
			`{"jsonrpc":"2.0","id":1,"result":"0x56"}]`
	})
	addr := common.HexToAddress("0x7dcd17433742f4c0ca53122ab541d0ba67fc27df")
	hash := common.HexToHash("0xa38f2a6f7d276298d8e7a9bfa28625e4dc8948021f5a7369d0a04571879e98d2")
	var b evm.Batch
	bal := evm.Add[hexutil.Big](&b, "eth_getBalance", addr, evm.BlockHash{Hash: hash, RequireCanonical: true})
	chain := evm.Add[hexutil.Big](&b, "eth_chainId")
	block := evm.Add[json.RawMessage](&b, "eth_getBlockByNumber", evm.Finalized, false)
	bad := evm.Add[hexutil.Uint64](&b, "eth_blockNumber")
	require.NoError(t, c.SendBatch(t.Context(), &b))

	// The first call is the recording's request, with the batch's own id.
	require.Equal(t, []string{`[` + balance.request + `,` +
		`{"jsonrpc":"2.0","id":2,"method":"eth_chainId","params":[]},` +
		`{"jsonrpc":"2.0","id":3,"method":"eth_getBlockByNumber","params":["finalized",false]},` +
		`{"jsonrpc":"2.0","id":4,"method":"eth_blockNumber","params":[]}]`}, node.requests())
	v, err := bal.Result()
	require.NoError(t, err)
	assert.Equal(t, big.NewInt(0x56), v.ToInt())
	id, err := chain.Result()
	require.NoError(t, err)
	assert.Equal(t, "0xc72dd9d5e883e", id.String())
	raw, err := block.Result()
	require.NoError(t, err)
	assert.JSONEq(t, `{"number":"0x2a","hash":"0x01"}`, string(raw))
	_, err = bad.Result()
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.Contains(t, err.Error(), "evm: eth_blockNumber: invalid response")
}

// TestBatchAddCostsAndReverts: a call of any method costs its method's
// units (WithCost by name, else 1); an eth_call added with Add costs and
// fails as one added with Batch.Call.
func TestBatchAddCostsAndReverts(t *testing.T) {
	t.Parallel()
	const revert = `"error":{"code":3,"message":"execution reverted: nope","data":"0x08c379a0000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000046e6f706500000000000000000000000000000000000000000000000000000000"}`
	rec := &testkit.Recorder{}
	_, c := newBatchNode(t, answerEach(func(r batchReq) string {
		if r.Method == "eth_call" {
			return revert
		}
		return `"result":"0x1"`
	}), nodeaccess.WithCost("eth_getBalance", 4), nodeaccess.WithHook(rec.Hook))
	msg := map[string]any{"to": token}
	var b evm.Batch
	evm.Add[hexutil.Big](&b, "eth_getBalance", token, evm.Latest)
	evm.Add[hexutil.Big](&b, "eth_gasPrice")
	latest := evm.Add[hexutil.Bytes](&b, "eth_call", msg, evm.Latest)
	old := evm.Add[hexutil.Bytes](&b, "eth_call", msg, evm.Earliest)
	typed := b.Call(evm.CallMsg{To: token}, evm.Earliest)
	require.NoError(t, c.SendBatch(t.Context(), &b))
	got := rec.Attempts()
	require.Len(t, got, 1)
	assert.Equal(t, []nodeaccess.BatchCall{{Op: "eth_getBalance", Units: 4}, {Op: "eth_gasPrice", Units: 1},
		{Op: "eth_call", Units: 1}, {Op: "eth_call", Units: 2}, {Op: "eth_call", Units: 2}}, got[0].Batch)
	for _, err := range []error{resultErr(latest), resultErr(old), resultErr(typed)} {
		var rev *evm.RevertError
		require.ErrorAs(t, err, &rev)
		assert.Equal(t, "nope", rev.Reason)
		assert.Equal(t, `evm: eth_call: execution reverted: "nope"`, err.Error())
	}
}

// TestBatchAddBadInputSendsNothing: a bad method or argument in a call
// added with Add refuses the whole batch, as the typed adders' bad input
// does.
func TestBatchAddBadInputSendsNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		add     func(b *evm.Batch)
		arg     string
		refusal string
	}{
		{"empty method", func(b *evm.Batch) { evm.Add[hexutil.Big](b, "") }, "method",
			"evm: batch: call 1 (rpc): invalid input: method: empty JSON-RPC method name"},
		{"bad method", func(b *evm.Batch) { evm.Add[hexutil.Big](b, "eth/chainId") }, "method",
			`evm: batch: call 1 (rpc): invalid input: method: JSON-RPC method name "eth/chainId" has '/' at byte 3`},
		{"bad argument", func(b *evm.Batch) { evm.Add[hexutil.Big](b, "eth_getBalance", token, evm.Tag("head")) }, "args[1]",
			`evm: batch: call 1 (eth_getBalance): invalid input: args[1]: evm.Tag cannot be encoded as JSON`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			node, c := newBatchNode(t, answerEach(echoCode))
			var b evm.Batch
			good := b.Call(evm.CallMsg{To: token}, evm.Latest)
			tc.add(&b)
			err := c.SendBatch(context.Background(), &b)
			testkit.RequireInputError(t, err, tc.arg)
			assert.Contains(t, err.Error(), tc.refusal)
			testkit.AssertErrNoKey(t, testKey, err)
			assert.Empty(t, node.requests())
			testkit.RequireInputError(t, resultErr(good), "batch")
		})
	}
}
