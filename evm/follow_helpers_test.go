package evm_test

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
)

// followNode starts a chain of the test's own without the scenario.
func followNode(t *testing.T) *evmtest.Server {
	t.Helper()
	srv := evmtest.NewT(t, evmtest.WithoutScenario(), evmtest.WithKey(simAccessKey))
	return srv
}

// followClient is a client of srv with quick retries.
func followClient(t *testing.T, srv *evmtest.Server, opts ...nodeaccess.Option) *evm.Client {
	t.Helper()
	c, err := srv.Client(append([]nodeaccess.Option{nodeaccess.WithBackoff(time.Millisecond, 5*time.Millisecond)}, opts...)...)
	require.NoError(t, err)
	return c
}

// mineTransfers mines one block for each count, holding that many ERC-20
// transfers of evmtest's token from Holder (one Transfer log each).
func mineTransfers(t *testing.T, srv *evmtest.Server, counts ...int) {
	t.Helper()
	ctx := context.Background()
	ec := srv.EthClient()
	holder := evmtest.Accounts()[0]
	to := evmtest.Accounts()[1].Address
	token := evmtest.Token()
	tokenABI := evmtest.TokenABI()
	nonce, err := ec.PendingNonceAt(ctx, holder.Address)
	require.NoError(t, err)
	signer := types.LatestSignerForChainID(big.NewInt(evmtest.ChainID))
	for _, k := range counts {
		head, err := ec.HeaderByNumber(ctx, nil)
		require.NoError(t, err)
		tip := big.NewInt(params.GWei)
		for range k {
			data, err := tokenABI.Pack("transfer", to, big.NewInt(int64(nonce%1000)+1))
			require.NoError(t, err)
			tx, err := types.SignNewTx(holder.Key, signer, &types.DynamicFeeTx{
				ChainID: big.NewInt(evmtest.ChainID), Nonce: nonce, GasTipCap: tip,
				GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(4)), tip),
				Gas:       100_000, To: &token, Data: data,
			})
			require.NoError(t, err)
			require.NoError(t, srv.SendTransaction(ctx, tx))
			nonce++
		}
		srv.Commit()
	}
}

// canonicalLogs is what go-ethereum's client reads of the token's logs in
// blocks from to to (0: the head), straight from the chain.
func canonicalLogs(t *testing.T, srv *evmtest.Server, from, to uint64) []types.Log {
	t.Helper()
	q := ethereum.FilterQuery{FromBlock: new(big.Int).SetUint64(from), Addresses: []common.Address{evmtest.Token()}}
	if to > 0 {
		q.ToBlock = new(big.Int).SetUint64(to)
	}
	logs, err := srv.EthClient().FilterLogs(context.Background(), q)
	require.NoError(t, err)
	return logs
}

// followed is one item Follow yielded.
type followed struct {
	log evm.FollowedLog
	err error
}

// startFollow ranges over Follow in a goroutine until the test ends, and
// hands the items over one by one.
func startFollow(t *testing.T, c *evm.Client, q evm.FollowQuery) <-chan followed {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan followed)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(out)
		for l, err := range c.Follow(ctx, q) {
			select {
			case out <- followed{l, err}:
			case <-ctx.Done():
				return
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return out
}

// take reads n items (errors included) from ch, failing after a while.
func take(t *testing.T, ch <-chan followed, n int) []followed {
	t.Helper()
	var got []followed
	deadline := time.After(60 * time.Second)
	for len(got) < n {
		select {
		case it, ok := <-ch:
			require.True(t, ok, "Follow ended after %d items of %d", len(got), n)
			got = append(got, it)
		case <-deadline:
			require.FailNow(t, "no item", "%d items of %d", len(got), n)
		}
	}
	return got
}

// logsOf returns the logs of items that have no error.
func logsOf(t *testing.T, items []followed) []types.Log {
	t.Helper()
	out := make([]types.Log, len(items))
	for i, it := range items {
		require.NoError(t, it.err, "item %d", i)
		out[i] = it.log.Log
	}
	return out
}

// removed returns logs reversed and marked removed, as Follow yields the
// logs of blocks that left the chain.
func removed(logs []types.Log) []types.Log {
	out := make([]types.Log, len(logs))
	for i, l := range logs {
		l.Removed = true
		out[len(logs)-1-i] = l
	}
	return out
}

// tokenQuery follows the token's logs from from.
func tokenQuery(from evm.FollowCursor) evm.FollowQuery {
	return evm.FollowQuery{From: from, Addresses: []common.Address{evmtest.Token()}, Poll: 5 * time.Millisecond}
}

// counts returns n counts of per each.
func counts(n, per int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = per
	}
	return out
}
