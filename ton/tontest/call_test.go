package tontest_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// ton.Client.Call reaches every endpoint the server serves, in both forms
// of API v2 and in v3, with the answers the typed calls read; any other
// endpoint gets the answer toncenter gives an unknown one.
func TestCallKnownEndpoints(t *testing.T) {
	s := start(t)
	ctx := context.Background()
	block := tontest.DefaultBlock()
	params := url.Values{"workchain": {"-1"}, "shard": {strconv.FormatInt(int64(block.Shard), 10)}, "seqno": {"39984096"}, "count": {"2"}}
	type page struct {
		Incomplete   bool `json:"incomplete"`
		Transactions []struct {
			TransactionID struct {
				Hash ton.Hash `json:"hash"`
			} `json:"transaction_id"`
			Hash ton.Hash `json:"hash"` // getBlockTransactions' short ids
		} `json:"transactions"`
	}
	for _, opts := range [][]nodeaccess.Option{nil, {ton.WithJSONRPC()}} {
		c := client(t, s, opts...)
		typed, err := c.BlockTransactions(ctx, ton.BlockTransactionsQuery{Block: block, Count: 2})
		require.NoError(t, err)
		var ext, ids page
		require.NoError(t, c.Call(ctx, &ext, "v2/getBlockTransactionsExt", params))
		require.NoError(t, c.Call(ctx, &ids, "v2/getBlockTransactions", params))
		assert.True(t, ext.Incomplete)
		require.Len(t, ext.Transactions, 2)
		require.Len(t, ids.Transactions, 2)
		for i, tx := range typed.Transactions {
			assert.Equal(t, tx.Hash, ext.Transactions[i].TransactionID.Hash)
			assert.Equal(t, tx.Hash, ids.Transactions[i].Hash)
		}
	}
	c := client(t, s)
	var states struct {
		States []struct {
			Account ton.Address `json:"account"`
			Balance string      `json:"balance"`
		} `json:"account_states"`
	}
	require.NoError(t, c.Call(ctx, &states, "v3/accountStates", url.Values{"address": {tontest.DefaultAccount}, "sort": {"asc"}}))
	require.Len(t, states.States, 2)
	assert.Equal(t, []string{"2717267789", "2715939331"}, []string{states.States[0].Balance, states.States[1].Balance})
	var pending struct {
		Transactions []json.RawMessage `json:"transactions"`
	}
	require.NoError(t, c.Call(ctx, &pending, "v3/pendingTransactions", url.Values{"account": {tontest.DefaultAccount}}))
	assert.Len(t, pending.Transactions, 1)
}

func TestCallUnknownEndpoints(t *testing.T) {
	s := start(t)
	ctx := context.Background()
	for _, tc := range []struct {
		path   string
		opts   []nodeaccess.Option
		status int
		msg    string
	}{
		{"v2/getMasterchainInfo", nil, 404, "Not Found"},
		{"v3/transactions", nil, 404, "Not Found"},
		{"v3/jetton/masters", []nodeaccess.Option{ton.WithJSONRPC()}, 404, "Not Found"},
		{"v2/getMasterchainInfo", []nodeaccess.Option{ton.WithJSONRPC()}, 422, "Unknown method"}, // toncenter's JSON-RPC answer
	} {
		before := s.Requests()
		err := client(t, s, tc.opts...).Call(ctx, nil, tc.path, nil)
		var he *nodeaccess.HTTPError
		require.ErrorAs(t, err, &he, tc.path)
		assert.Equal(t, tc.status, he.StatusCode, tc.path)
		assert.Equal(t, tc.msg, he.Message, tc.path)
		assert.Equal(t, 1, s.Requests()-before, "%s: not retried", tc.path)
	}
}
