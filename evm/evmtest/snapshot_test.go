package evmtest_test

import (
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Revert takes the chain back to a snapshot: head, safe and finalized
// blocks, state, nonces; the dropped blocks' transactions are gone and the
// pool is emptied. The snapshot stays valid, and one of the dropped branch
// brings that branch back.
func TestSnapshotRevert(t *testing.T) {
	t.Parallel()
	s := fresh(t)
	ctx := t.Context()
	ec := s.EthClient()
	c := client(t, s)
	acc := evmtest.Accounts()
	tag := func(n rpc.BlockNumber) *types.Header {
		t.Helper()
		h, err := ec.HeaderByNumber(ctx, big.NewInt(int64(n)))
		require.NoError(t, err, n)
		return h
	}
	at5 := tag(rpc.LatestBlockNumber)
	require.Equal(t, uint64(5), at5.Number.Uint64())

	snap := s.Snapshot()
	assert.Equal(t, uint64(5), snap.Block())

	// Block 6: acc[1] sends 1 LUSD to acc[3]; block 7 is empty; one more
	// transaction of acc[1]'s waits in the pool.
	tok := evmtest.Token()
	data, err := evmtest.TokenABI().Pack("transfer", acc[3].Address, big.NewInt(1_000_000))
	require.NoError(t, err)
	r6, err := s.Transact(ctx, acc[1], &tok, nil, data)
	require.NoError(t, err)
	require.Equal(t, uint64(6), r6.BlockNumber.Uint64())
	old6 := tag(6)
	s.Commit()
	at7 := s.Snapshot()
	to := acc[2].Address
	waiting, err := types.SignNewTx(acc[1].Key, types.LatestSignerForChainID(big.NewInt(evmtest.ChainID)), &types.LegacyTx{
		Nonce: 1, GasPrice: big.NewInt(10_000_000_000), Gas: 21000, To: &to, Value: big.NewInt(9),
	})
	require.NoError(t, err)
	require.NoError(t, s.SendTransaction(ctx, waiting))
	assert.Equal(t, "1000000", tokenBig(t, c, tok, evm.Latest, "balanceOf", acc[3].Address))
	assert.Equal(t, uint64(7), tag(rpc.SafeBlockNumber).Number.Uint64())

	require.NoError(t, s.Revert(snap))
	assert.Equal(t, at5.Hash(), tag(rpc.LatestBlockNumber).Hash())
	assert.Equal(t, at5.Hash(), tag(rpc.SafeBlockNumber).Hash())
	assert.Equal(t, uint64(0), tag(rpc.FinalizedBlockNumber).Number.Uint64())
	_, err = ec.HeaderByNumber(ctx, big.NewInt(6))
	assert.ErrorIs(t, err, ethereum.NotFound)
	assert.Equal(t, "0", tokenBig(t, c, tok, evm.Latest, "balanceOf", acc[3].Address))
	assert.Equal(t, "534567891", tokenBig(t, c, tok, evm.Latest, "balanceOf", acc[1].Address))
	nonce, err := ec.PendingNonceAt(ctx, acc[1].Address)
	require.NoError(t, err)
	assert.Equal(t, uint64(0), nonce, "the pool forgot the waiting transaction")
	_, err = ec.TransactionReceipt(ctx, r6.TxHash)
	assert.ErrorIs(t, err, ethereum.NotFound)
	_, err = c.InternalOperations(ctx, r6.TxHash)
	var re *nodeaccess.RPCError
	require.True(t, errors.As(err, &re), "%v", err)
	assert.Equal(t, "transaction "+r6.TxHash.Hex()+" not found", re.Message)
	// The dropped block stays readable by hash, as a side chain's.
	b, err := ec.BlockByHash(ctx, old6.Hash())
	require.NoError(t, err)
	assert.Equal(t, r6.TxHash, b.Transactions()[0].Hash())
	// The scenario is untouched.
	ops, err := c.InternalOperations(ctx, s.Scenario().Transfer.Hash)
	require.NoError(t, err)
	assert.Equal(t, view(s.Scenario().Transfer.Operations), view(ops))

	// The same transaction again: same nonce and fees, so the same hash, in
	// a new block 6 with another hash; the waiting one is not in it.
	again, err := s.Transact(ctx, acc[1], &tok, nil, data)
	require.NoError(t, err)
	assert.Equal(t, r6.TxHash, again.TxHash)
	assert.Equal(t, uint64(6), again.BlockNumber.Uint64())
	new6 := tag(6)
	assert.NotEqual(t, old6.Hash(), new6.Hash())
	assert.Greater(t, new6.Time, old6.Time, "time does not go back")
	n, err := ec.TransactionCount(ctx, new6.Hash())
	require.NoError(t, err)
	assert.Equal(t, uint(1), n)
	_, err = ec.TransactionReceipt(ctx, waiting.Hash())
	assert.ErrorIs(t, err, ethereum.NotFound)

	// Twice to the same snapshot, then to the dropped branch's block 7.
	require.NoError(t, s.Revert(snap))
	require.NoError(t, s.Revert(snap))
	assert.Equal(t, at5.Hash(), tag(rpc.LatestBlockNumber).Hash())
	require.NoError(t, s.Revert(at7))
	assert.Equal(t, uint64(7), tag(rpc.LatestBlockNumber).Number.Uint64())
	assert.Equal(t, old6.Hash(), tag(6).Hash())
	r, err := ec.TransactionReceipt(ctx, r6.TxHash)
	require.NoError(t, err)
	assert.Equal(t, old6.Hash(), r.BlockHash)
	assert.Equal(t, "1000000", tokenBig(t, c, tok, evm.Latest, "balanceOf", acc[3].Address))
	h := s.Commit()
	assert.Equal(t, uint64(8), tag(rpc.LatestBlockNumber).Number.Uint64())
	assert.Equal(t, h, tag(8).Hash())
}

func TestRevertRefused(t *testing.T) {
	t.Parallel()
	s := shared(t)
	other := fresh(t, evmtest.WithoutScenario())
	assert.EqualError(t, s.Revert(evmtest.Snapshot{}), "evmtest: Revert: the zero Snapshot")
	assert.EqualError(t, s.Revert(other.Snapshot()), "evmtest: Revert: the Snapshot is another Server's")
	assert.Equal(t, uint64(0), evmtest.Snapshot{}.Block())
	n, err := s.EthClient().BlockNumber(t.Context())
	require.NoError(t, err)
	assert.Equal(t, uint64(5), n)
}
