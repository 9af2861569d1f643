package ton_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
)

func TestBadInputSendsNothing(t *testing.T) {
	for _, rpc := range []bool{false, true} {
		opts := []nodeaccess.Option{nodeaccess.WithRoundTripper(testkit.Refuse{T: t})}
		if rpc {
			opts = append(opts, ton.WithJSONRPC())
		}
		c, err := ton.New(testBase, testKey, opts...)
		require.NoError(t, err)
		ctx := context.Background()
		check := func(err error, op, arg, reason string) {
			t.Helper()
			oe, ie := testkit.RequireInputError(t, err, arg)
			assert.Equal(t, []string{"ton", op}, []string{oe.Chain, oe.Op})
			assert.Contains(t, ie.Reason, reason)
			assert.True(t, strings.HasPrefix(err.Error(), "ton: "+op+": invalid input: "+arg+": "), err.Error())
			testkit.AssertErrNoKey(t, testKey, err)
		}
		block := func(q ton.BlockTransactionsQuery) error {
			_, err := c.BlockTransactions(ctx, q)
			return err
		}
		states := func(q ton.AccountStatesQuery) error {
			_, err := c.AccountStates(ctx, q)
			return err
		}
		pending := func(q ton.PendingTransactionsQuery) error {
			_, err := c.PendingTransactions(ctx, q)
			return err
		}
		const gbt = "getBlockTransactionsExt"
		check(block(ton.BlockTransactionsQuery{}), gbt, "shard", "0 is not a shard id")
		check(block(ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(1), Count: -1}), gbt, "count", "negative count -1")
		check(block(ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(1), Count: 10000 + 1}), gbt, "count", "count 10001 is over the server maximum 10000")
		if strconv.IntSize == 64 {
			over := int64(1) << 32
			check(block(ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(1), Count: int(over)}), gbt, "count", "count 4294967296 is over the server maximum 10000")
		}
		check(block(ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(0)}), gbt, "seqno", "0 is the zero state")
		check(block(ton.BlockTransactionsQuery{Block: ton.BlockRef{Workchain: 0, Shard: ton.ShardID(-2305843009213693952)}}), gbt, "seqno", "0 is the zero state")
		check(block(ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(1), RootHash: ton.Hash{1}}), gbt, "root_hash", "set both or neither")
		check(block(ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(1), FileHash: ton.Hash{1}}), gbt, "root_hash", "set both or neither")

		check(states(ton.AccountStatesQuery{Limit: -1}), "accountStates", "limit", "negative limit -1")
		check(states(ton.AccountStatesQuery{Limit: 1001}), "accountStates", "limit", "limit 1001 is over the server maximum 1000")
		check(states(ton.AccountStatesQuery{Offset: -5}), "accountStates", "offset", "negative offset -5")
		check(states(ton.AccountStatesQuery{Accounts: []string{"EQnotanaddress"}}), "accountStates", "accounts[0]", `"EQnotanaddress"`)
		check(states(ton.AccountStatesQuery{Accounts: []string{acctFriend[:47] + "x"}}), "accountStates", "accounts[0]", "checksum mismatch")
		check(states(ton.AccountStatesQuery{Sort: "newest"}), "accountStates", "sort", `"newest" is not asc or desc`)

		// An empty account is refused: the indexer reads address= as no
		// filter at all and lists 1000 other accounts.
		check(states(ton.AccountStatesQuery{Accounts: []string{acctLower, ""}}), "accountStates", "accounts[1]", `"" is empty`)
		check(states(ton.AccountStatesQuery{Accounts: []string{" \t"}}), "accountStates", "accounts[0]", `" \t" is empty`)
		check(pending(ton.PendingTransactionsQuery{Accounts: []string{""}}), "pendingTransactions", "accounts[0]", `"" is empty`)
		check(pending(ton.PendingTransactionsQuery{Accounts: []string{acctLower, acctUpper, "x"}}), "pendingTransactions", "accounts[2]", `"x"`)

		check(pending(ton.PendingTransactionsQuery{Limit: -1}), "pendingTransactions", "limit", "negative")
		check(pending(ton.PendingTransactionsQuery{Limit: 5000}), "pendingTransactions", "limit", "over the server maximum")
		check(pending(ton.PendingTransactionsQuery{Offset: -1}), "pendingTransactions", "offset", "negative")
		check(pending(ton.PendingTransactionsQuery{Accounts: []string{"1:2"}}), "pendingTransactions", "accounts[0]", "64")

		// Walkers yield the input error once and send nothing.
		n := 0
		for _, err := range c.AllAccountStates(ctx, ton.AccountStatesQuery{Limit: 2000}) {
			n++
			check(err, "accountStates", "limit", "over the server maximum")
		}
		for _, err := range c.AllAccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{acctLower, ""}}) {
			n++
			check(err, "accountStates", "accounts[1]", "is empty")
		}
		for _, err := range c.AllPendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{"x"}}) {
			n++
			check(err, "pendingTransactions", "accounts[0]", `"x"`)
		}
		for _, err := range c.AllBlockTransactions(ctx, ton.BlockTransactionsQuery{Block: ton.BlockRef{Seqno: 5}}) {
			n++
			check(err, gbt, "shard", "not a shard id")
		}
		for _, err := range c.AllBlockTransactions(ctx, ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(0)}) {
			n++
			check(err, gbt, "seqno", "zero state")
		}
		assert.Equal(t, 5, n)
	}
}

func TestNewErrors(t *testing.T) {
	_, err := ton.New("ftp://ton.node.example", testKey)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	_, err = ton.New(testBase, "")
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	_, err = ton.New(testBase, "a/b")
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)

	c, err := ton.New(testBase+"/v1/", testKey)
	require.NoError(t, err)
	assert.Equal(t, "ton.Client{https://ton.node.example/v1, key REDACTED, v2 REST}", c.String())
	var nilClient *ton.Client
	assert.Equal(t, "<nil>", nilClient.String())
}

// A base URL with a path keeps it in front of both key positions.
func TestBasePathKept(t *testing.T) {
	c, err := ton.New(testBase+"/ton/", testKey, nodeaccess.WithHTTPClient(testkit.GockHTTPClient(t)))
	require.NoError(t, err)
	mockGET(t, "/ton/api/v2/"+testKey+"/getBlockTransactionsExt", mcQuery, 200, string(testdata(t, blockFixture)))
	mockGET(t, "/ton/"+testKey+"/api/v3/accountStates", "include_boc=false", 200, `{"accounts":[]}`)
	mockGET(t, "/ton/"+testKey+"/api/v3/pendingTransactions", "", 200, `{"transactions":[]}`)
	ctx := context.Background()
	_, err = c.BlockTransactions(ctx, mcBlockQuery())
	require.NoError(t, err)
	_, err = c.AccountStates(ctx, ton.AccountStatesQuery{})
	require.NoError(t, err)
	_, err = c.PendingTransactions(ctx, ton.PendingTransactionsQuery{})
	require.NoError(t, err)
}
