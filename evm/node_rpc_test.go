package evm_test

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNodeBlockNumberAndChainID asks the local node (go-ethereum's chain and
// RPC server) and compares with what go-ethereum's ethclient reads there.
func TestNodeBlockNumberAndChainID(t *testing.T) {
	env := simNode(t)
	ec := env.srv.EthClient()
	n, err := env.client.BlockNumber(t.Context())
	require.NoError(t, err)
	assert.Equal(t, env.head, n)
	id, err := env.client.ChainID(t.Context())
	require.NoError(t, err)
	want, err := ec.ChainID(t.Context())
	require.NoError(t, err)
	assert.Equal(t, want, id)
	assert.Equal(t, int64(evmtest.ChainID), id.Int64())
}

// TestNodeCallContext sends methods the package does not type to the local
// node, alone and in a batch, and compares with ethclient; an eth_call sent
// this way reverts as Call reverts.
func TestNodeCallContext(t *testing.T) {
	env := simNode(t)
	ctx := t.Context()
	ec := env.srv.EthClient()

	var bal hexutil.Big
	require.NoError(t, env.client.CallContext(ctx, &bal, "eth_getBalance", env.funded, evm.BlockNumber(1)))
	want, err := ec.BalanceAt(ctx, env.funded, big.NewInt(1))
	require.NoError(t, err)
	assert.Equal(t, want, bal.ToInt())

	var header struct {
		Hash   string         `json:"hash"`
		Number hexutil.Uint64 `json:"number"`
	}
	require.NoError(t, env.client.CallContext(ctx, &header, "eth_getBlockByNumber", evm.BlockNumber(2), false))
	assert.Equal(t, env.hashes[2].Hex(), header.Hash)
	assert.Equal(t, hexutil.Uint64(2), header.Number)

	// Not served by a node-access service's geth: -32601, not a revert.
	err = env.client.CallContext(ctx, nil, "debug_traceTransaction", env.setTx)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-32601")

	msg := map[string]any{"to": simContract, "data": hexutil.Bytes(simPack(t, "failRequire"))}
	var out hexutil.Bytes
	err = env.client.CallContext(ctx, &out, "eth_call", msg, evm.Latest)
	var rev *evm.RevertError
	require.ErrorAs(t, err, &rev)
	assert.Equal(t, simRevertReason, rev.Reason)
	_, callErr := env.client.Call(ctx, evm.CallMsg{To: simContract, Data: simPack(t, "failRequire")}, evm.Latest)
	assert.Equal(t, callErr.Error(), err.Error())

	var b evm.Batch
	nonce := evm.Add[hexutil.Uint64](&b, "eth_getTransactionCount", env.funded, evm.Latest)
	code := evm.Add[hexutil.Bytes](&b, "eth_getCode", simContract, evm.Latest)
	receipt := evm.Add[json.RawMessage](&b, "eth_getTransactionReceipt", env.setTx)
	value := b.Call(evm.CallMsg{To: simContract, Data: simPack(t, "value")}, evm.Latest)
	require.NoError(t, env.client.SendBatch(ctx, &b))
	n, err := nonce.Result()
	require.NoError(t, err)
	wantNonce, err := ec.NonceAt(ctx, env.funded, nil)
	require.NoError(t, err)
	assert.Equal(t, wantNonce, uint64(n))
	c, err := code.Result()
	require.NoError(t, err)
	wantCode, err := ec.CodeAt(ctx, simContract, nil)
	require.NoError(t, err)
	assert.Equal(t, wantCode, []byte(c))
	raw, err := receipt.Result()
	require.NoError(t, err)
	var r struct {
		BlockNumber hexutil.Uint64 `json:"blockNumber"`
	}
	require.NoError(t, json.Unmarshal(raw, &r))
	assert.Equal(t, hexutil.Uint64(2), r.BlockNumber)
	v, err := value.Result()
	require.NoError(t, err)
	wantValue, err := ec.CallContract(ctx, ethereum.CallMsg{To: &simContract, Data: simPack(t, "value")}, nil)
	require.NoError(t, err)
	assert.Equal(t, wantValue, v)
}
