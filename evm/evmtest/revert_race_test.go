package evmtest_test

import (
	"context"
	"math/big"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/require"
)

// A transaction that reaches the pool over HTTP while Revert runs does not
// make Revert fail ("pending block dirty", go-ethereum's Fork rule): Revert
// lands on the snapshot and empties the pool.
func TestRevertWhileTransactionsArrive(t *testing.T) {
	t.Parallel()
	s := fresh(t)
	snap := s.Snapshot()
	acc := evmtest.Accounts()
	signer := types.LatestSignerForChainID(big.NewInt(evmtest.ChainID))
	to := acc[2].Address

	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	wg.Go(func() {
		ec := s.EthClient()
		for nonce := uint64(0); ctx.Err() == nil; nonce = (nonce + 1) % 4 {
			tx, err := types.SignNewTx(acc[3].Key, signer, &types.LegacyTx{
				Nonce: nonce, GasPrice: big.NewInt(10_000_000_000), Gas: 21000, To: &to, Value: big.NewInt(1),
			})
			if err != nil {
				return
			}
			_ = ec.SendTransaction(ctx, tx) // known/underpriced/nonce errors are fine here
		}
	})
	for i := range 150 {
		s.Commit()
		require.NoError(t, s.Revert(snap), "round %d", i)
		require.Equal(t, snap.Block(), s.Snapshot().Block(), "round %d", i)
	}
	cancel()
	wg.Wait()
}
