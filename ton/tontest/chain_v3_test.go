package tontest_test

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// v3ChainTx is what these tests read of the indexer's transactions.
type v3ChainTx struct {
	Hash string `json:"hash"`
	LT   string `json:"lt"`
	Mc   uint32 `json:"mc_block_seqno"`
}

// TestChainIndexerTransactionsByLT: the chain's v3 transactions answer
// holds every indexed round's transactions with start_lt <= lt <= end_lt,
// oldest first with sort=asc, the same as the rounds'
// transactionsByMasterchainBlock; masterchainBlockShards answers a round
// not indexed with the indexer's 404 "blocks not found".
func TestChainIndexerTransactionsByLT(t *testing.T) {
	srv := tontest.NewT(t, tontest.WithChain(0), tontest.WithoutDefaults())
	require.NoError(t, srv.Advance(3)) // rounds 1 to 4
	c, err := srv.Client()
	require.NoError(t, err)
	ctx := context.Background()
	var all []v3ChainTx
	for n := 1; n <= 4; n++ {
		var res struct {
			Transactions []v3ChainTx `json:"transactions"`
		}
		require.NoError(t, c.Call(ctx, &res, "v3/transactionsByMasterchainBlock", url.Values{"seqno": {strconv.Itoa(n)}, "sort": {"asc"}, "limit": {"1000"}}))
		all = append(all, res.Transactions...)
	}
	lt := func(x v3ChainTx) uint64 { v, _ := strconv.ParseUint(x.LT, 10, 64); return v }
	slices.SortFunc(all, func(a, b v3ChainTx) int { return int(lt(a)) - int(lt(b)) })
	require.Greater(t, len(all), 8)
	byLT := func(q url.Values) []v3ChainTx {
		var res struct {
			Transactions []v3ChainTx `json:"transactions"`
		}
		require.NoError(t, c.Call(ctx, &res, "v3/transactions", q))
		return res.Transactions
	}
	from, to := all[3], all[len(all)-3]
	require.Equal(t, all[3:len(all)-2], byLT(url.Values{"start_lt": {from.LT}, "end_lt": {to.LT}, "sort": {"asc"}, "limit": {"1000"}}))
	require.Equal(t, all[3:5], byLT(url.Values{"start_lt": {from.LT}, "sort": {"asc"}, "limit": {"2"}}))
	require.Equal(t, all[5:7], byLT(url.Values{"start_lt": {from.LT}, "sort": {"asc"}, "limit": {"2"}, "offset": {"2"}}))
	require.Equal(t, all[len(all)-1], byLT(url.Values{"limit": {"1"}})[0], "newest first without sort=asc")
	var out struct{}
	err = c.Call(ctx, &out, "v3/transactions", url.Values{"start_lt": {"-1"}})
	var he *nodeaccess.HTTPError
	require.True(t, errors.As(err, &he), "%v", err)
	require.Equal(t, 422, he.StatusCode)
	err = c.Call(ctx, &out, "v3/masterchainBlockShards", url.Values{"seqno": {"5"}})
	require.True(t, errors.As(err, &he), "%v", err)
	require.Equal(t, 404, he.StatusCode)
	require.Contains(t, err.Error(), "blocks not found")
}
