package evmtest_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// AdjustTime mines an empty block d after the head, in whole seconds and
// never less than one; later blocks never go back in time.
func TestAdjustTime(t *testing.T) {
	t.Parallel()
	s := fresh(t)
	ctx := t.Context()
	ec := s.EthClient()
	head := func() *types.Header {
		t.Helper()
		h, err := ec.HeaderByNumber(ctx, nil)
		require.NoError(t, err)
		return h
	}
	start := head()
	require.Equal(t, uint64(5), start.Number.Uint64())

	steps := []struct {
		d    time.Duration
		plus uint64
	}{
		{time.Hour, 3600},
		{24*time.Hour + 1500*time.Millisecond, 86401}, // truncated to seconds
		{999 * time.Millisecond, 1},                   // at least one second
		{0, 1},
	}
	prev := start
	for i, st := range steps {
		require.NoError(t, s.AdjustTime(st.d), st.d)
		h := head()
		assert.Equal(t, uint64(6+i), h.Number.Uint64(), st.d)
		assert.Equal(t, prev.Hash(), h.ParentHash, st.d)
		assert.Equal(t, prev.Time+st.plus, h.Time, st.d)
		n, err := ec.TransactionCount(ctx, h.Hash())
		require.NoError(t, err)
		assert.Zero(t, n, "an empty block")
		prev = h
	}
	// The chain is a day ahead of the wall clock: Commit takes the parent's
	// time plus one second.
	s.Commit()
	h := head()
	assert.Equal(t, prev.Time+1, h.Time)
	assert.Greater(t, h.Time, uint64(time.Now().Add(24*time.Hour).Unix()))

	assert.EqualError(t, s.AdjustTime(-time.Second), "evmtest: AdjustTime: negative duration -1s: the chain's time only moves forward")

	// With a transaction waiting in the pool: refused, as go-ethereum does,
	// and no block is made. Commit mines the transaction.
	acc := evmtest.Accounts()
	to := acc[1].Address
	tx, err := types.SignNewTx(acc[3].Key, types.LatestSignerForChainID(big.NewInt(evmtest.ChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(evmtest.ChainID), Nonce: 0, GasTipCap: big.NewInt(1_000_000_000), GasFeeCap: big.NewInt(100_000_000_000), Gas: 21000, To: &to, Value: big.NewInt(1),
	})
	require.NoError(t, err)
	require.NoError(t, s.SendTransaction(ctx, tx))
	assert.EqualError(t, s.AdjustTime(time.Hour), "evmtest: AdjustTime: could not adjust time on non-empty block")
	assert.Equal(t, h.Hash(), head().Hash())
	s.Commit()
	r, err := ec.TransactionReceipt(ctx, tx.Hash())
	require.NoError(t, err)
	assert.Equal(t, h.Number.Uint64()+1, r.BlockNumber.Uint64())
	require.NoError(t, s.AdjustTime(time.Minute))
}
