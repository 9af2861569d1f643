package evm_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/internal/testcontract"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNodeBatch sends one batch of every kind of call to the local node
// (go-ethereum's own JSON-RPC server, which answers batches as geth does)
// and checks each result against the single call's.
func TestNodeBatch(t *testing.T) {
	t.Parallel()
	env := simNode(t)
	ctx := t.Context()
	var b evm.Batch
	value := b.Call(evm.CallMsg{To: simContract, Data: simPack(t, "value")}, evm.Latest)
	old := b.Call(evm.CallMsg{To: simContract, Data: simPack(t, "value")}, evm.BlockNumber(1))
	reverts := b.Call(evm.CallMsg{To: simContract, Data: simPack(t, "failRequire")}, evm.Latest)
	future := b.Call(evm.CallMsg{To: simContract, Data: simPack(t, "value")}, evm.BlockNumber(env.head+1000))
	code := evm.Add[hexutil.Bytes](&b, "eth_getCode", simContract, evm.Latest)
	none := evm.Add[hexutil.Bytes](&b, "eth_getCode", simStranger, evm.Latest)
	ops := evm.Add[[]evm.InternalOperation](&b, "ots_getInternalOperations", env.setTx)
	require.NoError(t, env.client.SendBatch(ctx, &b))

	out, err := value.Result()
	require.NoError(t, err)
	assert.Equal(t, simWord(simUpdatedValue), out)
	out, err = old.Result()
	require.NoError(t, err)
	assert.Equal(t, simWord(simInitialValue), out)

	_, err = reverts.Result()
	var re *evm.RevertError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, simRevertReason, re.Reason)
	assert.Equal(t, simErrorString(simRevertReason), re.Data)
	_, single := env.client.Call(ctx, evm.CallMsg{To: simContract, Data: simPack(t, "failRequire")}, evm.Latest)
	assert.Equal(t, single.Error(), err.Error(), "the batched revert is the single call's")

	_, err = future.Result()
	_, single = env.client.Call(ctx, evm.CallMsg{To: simContract, Data: simPack(t, "value")}, evm.BlockNumber(env.head+1000))
	require.Error(t, err)
	assert.NotErrorIs(t, err, evm.ErrReverted)
	assert.Equal(t, single.Error(), err.Error())

	out, err = code.Result()
	require.NoError(t, err)
	assert.Equal(t, testcontract.RuntimeCode(), out)
	out, err = none.Result()
	require.NoError(t, err)
	assert.NotNil(t, out)
	assert.Empty(t, out)

	list, err := ops.Result()
	require.NoError(t, err)
	want, err := env.client.InternalOperations(ctx, env.setTx)
	require.NoError(t, err)
	assert.Equal(t, want, list)
}

// TestNodeBatchTooLargeSplits sends more calls in one request than geth's
// default BatchRequestLimit (1000): the node refuses with its own "batch
// too large", and the batch goes again in halves, each call answered.
func TestNodeBatchTooLargeSplits(t *testing.T) {
	t.Parallel()
	env := simNode(t)
	var mu sync.Mutex
	var sizes []int
	c, err := env.srv.Client(nodeaccess.WithMaxAttempts(1), evm.WithMaxBatchSize(1001),
		nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
			mu.Lock()
			sizes = append(sizes, len(a.Batch))
			mu.Unlock()
		}))
	require.NoError(t, err)
	var b evm.Batch
	res := make([]*evm.BatchResult[hexutil.Bytes], 1001)
	for i := range res {
		if i%2 == 0 {
			res[i] = evm.Add[hexutil.Bytes](&b, "eth_getCode", simContract, evm.Latest)
		} else {
			res[i] = evm.Add[hexutil.Bytes](&b, "eth_getCode", account(i), evm.Latest)
		}
	}
	require.NoError(t, c.SendBatch(t.Context(), &b))
	for i, r := range res {
		out, err := r.Result()
		require.NoError(t, err, "call %d", i)
		if i%2 == 0 {
			assert.Equal(t, testcontract.RuntimeCode(), []byte(out), fmt.Sprint("call ", i))
		} else {
			assert.Empty(t, out, "call %d", i)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []int{1001, 500, 500, 1}, sizes)
}
