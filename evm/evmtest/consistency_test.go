package evmtest_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The default chain refers to itself: each scenario transaction is in the
// block Scenario names (its receipt's, which lists it), each internal
// operation's value arrives at its address in that block, each contract an
// operation creates has code from that block on, and the token and
// Multicall3 the package names have code.
func TestScenarioRefersToTheChain(t *testing.T) {
	t.Parallel()
	s := shared(t)
	ec := s.EthClient()
	ctx := t.Context()
	ops := 0
	for _, tx := range s.Scenario().Transactions() {
		r, err := ec.TransactionReceipt(ctx, tx.Hash)
		require.NoError(t, err)
		n := r.BlockNumber
		assert.Equal(t, tx.Block, n.Uint64(), tx.Hash)
		b, err := ec.BlockByNumber(ctx, n)
		require.NoError(t, err)
		assert.Equal(t, r.BlockHash, b.Hash())
		var hashes []common.Hash
		for _, btx := range b.Transactions() {
			hashes = append(hashes, btx.Hash())
		}
		assert.Contains(t, hashes, tx.Hash)
		prev := new(big.Int).Sub(n, big.NewInt(1))
		for _, op := range tx.Operations {
			ops++
			before, err := ec.BalanceAt(ctx, op.To, prev)
			require.NoError(t, err)
			after, err := ec.BalanceAt(ctx, op.To, n)
			require.NoError(t, err)
			assert.Equal(t, op.Value.String(), new(big.Int).Sub(after, before).String(), "%s: the value reaches %s", op.Type, op.To)
			if op.Type == evm.Create || op.Type == evm.Create2 {
				code, err := ec.CodeAt(ctx, op.To, n)
				require.NoError(t, err)
				assert.NotEmpty(t, code, "%s: %s has code", op.Type, op.To)
				none, err := ec.CodeAt(ctx, op.To, prev)
				require.NoError(t, err)
				assert.Empty(t, none, "%s: %s has no code before", op.Type, op.To)
			}
		}
	}
	assert.Equal(t, 4, ops)
	for _, a := range []common.Address{evmtest.Token(), evm.Multicall3Address()} {
		code, err := ec.CodeAt(ctx, a, nil)
		require.NoError(t, err)
		assert.NotEmpty(t, code, a)
	}
}
