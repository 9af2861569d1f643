package tontest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

const (
	// toncenter/ton-http-api issue 183 (Python server, testnet, 2025-10-16).
	unpackBody        = `{"ok":false,"error":"Error occured while creating tonlib_api::raw_transaction: Failed to unpack balance (2)","code":500}`
	defaultBlockQuery = "workchain=-1&shard=-9223372036854775808&seqno=39984096"
)

// getBlockTransactions lists the ids of a block's transactions as toncenter
// does: the server's answer for the default block is the recorded one
// (BlockPI's docs, the same block) but for tonlib's "@extra" request tag.
func TestGetBlockTransactionsRecorded(t *testing.T) {
	s := start(t)
	var want struct {
		OK     bool                       `json:"ok"`
		Result map[string]json.RawMessage `json:"result"`
	}
	require.NoError(t, json.Unmarshal(recorded(t, "v2_getBlockTransactions_blockpi_mc39984096.json"), &want))
	require.NotNil(t, want.Result["@extra"])
	delete(want.Result, "@extra")
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	r := get(t, s, "/api/v2/"+testKey+"/getBlockTransactions?"+defaultBlockQuery+"&count=40")
	require.Equal(t, 200, r.status, r.body)
	assert.JSONEq(t, string(wantJSON), r.body)

	// The JSON-RPC method and paging after a transaction, as for the Ext call.
	r = post(t, s, "/api/v2/"+testKey+"/jsonRPC", `{"jsonrpc":"2.0","id":7,"method":"getBlockTransactions","params":{"workchain":-1,"shard":"-9223372036854775808","seqno":39984096,"count":1,"after_lt":"48756940000001","after_hash":"`+strings.Repeat("33", 32)+`"}}`)
	require.Equal(t, 200, r.status, r.body)
	assert.Contains(t, r.body, `"req_count":1,"incomplete":true,"transactions":[{"@type":"blocks.shortTxId","mode":135,"account":"-1:`+strings.Repeat("33", 32)+`","lt":"48756940000002","hash":"0kwvliWmBxHEXXWVNhNfBZsQFGaWejcojKq79d3Im+A="}]`)
	assert.True(t, strings.HasSuffix(r.body, `,"jsonrpc":"2.0","id":7}`), r.body)
}

// A block with transactions the server cannot read (Block.Unreadable): a
// getBlockTransactionsExt page that holds one is answered with issue 183's
// 500, in both forms (no jsonrpc/id in the JSON-RPC form's error, as both
// servers answer tonlib's errors); a page that stops before it is served;
// getBlockTransactions lists it.
func TestUnreadableTransactionWire(t *testing.T) {
	block, _ := walkBlock(7, 3)
	s := start(t, tontest.WithoutDefaults())
	require.NoError(t, s.SetBlock(block))
	q := "workchain=0&shard=-9223372036854775808&seqno=9"
	r := get(t, s, "/api/v2/"+testKey+"/getBlockTransactionsExt?"+q+"&count=4")
	assert.Equal(t, 500, r.status)
	assert.Equal(t, unpackBody, r.body)
	r = post(t, s, "/api/v2/"+testKey+"/jsonRPC", `{"jsonrpc":"2.0","id":1,"method":"getBlockTransactionsExt","params":{"workchain":0,"shard":"-9223372036854775808","seqno":9,"count":40}}`)
	assert.Equal(t, 500, r.status)
	assert.Equal(t, unpackBody, r.body)
	r = get(t, s, "/api/v2/"+testKey+"/getBlockTransactionsExt?"+q+"&count=3")
	assert.Equal(t, 200, r.status)
	assert.Contains(t, r.body, `"incomplete":true`)
	r = get(t, s, "/api/v2/"+testKey+"/getBlockTransactions?"+q+"&count=40")
	assert.Equal(t, 200, r.status)
	assert.Equal(t, 7, strings.Count(r.body, "blocks.shortTxId"))

	// Bad indexes are refused.
	for _, idx := range [][]int{{7}, {-1}, {2, 2}} {
		bad := block
		bad.Unreadable = idx
		err := s.SetBlock(bad)
		require.Error(t, err, "%v", idx)
		assert.Contains(t, err.Error(), "Unreadable")
	}
}

// walkBlock is a block of n transactions of three accounts, in block order
// (account id, then lt), with the transactions at the indexes unreadable.
func walkBlock(n int, unreadable ...int) (tontest.Block, []ton.BlockTransaction) {
	txs := make([]ton.BlockTransaction, n)
	for i := range txs {
		acct := mustAddress(fmt.Sprintf("0:%064x", i/3+1))
		txs[i] = ton.BlockTransaction{Account: acct, LT: uint64(100 + i), Hash: ton.Hash{byte(i + 1)}, Time: time.Unix(1775000000, 0).UTC()}
	}
	return tontest.Block{
		ID:           ton.BlockID{BlockRef: ton.BlockRef{Workchain: 0, Shard: ton.MasterchainShard, Seqno: 9}, RootHash: ton.Hash{0xaa}, FileHash: ton.Hash{0xbb}},
		Transactions: txs,
		Unreadable:   unreadable,
	}, txs
}

// AllBlockTransactions isolates each transaction the server cannot read
// and goes on: every other transaction arrives once, in block order, and
// each unreadable one once, as its id with an ErrUnreadableTransaction
// error naming the block and the position. Unreadable transactions at the
// start, in the middle, at the end, on both sides of a page boundary, two
// in a row, all of them; page sizes 1, 2, 3, 5 and the default; the REST
// and the JSON-RPC form.
func TestAllBlockTransactionsUnreadable(t *testing.T) {
	cases := []struct {
		name       string
		n          int
		unreadable []int
	}{
		{"start", 7, []int{0}},
		{"middle", 7, []int{3}},
		{"end", 7, []int{6}},
		{"last of a page of 2", 7, []int{1}},
		{"first of a page of 2", 7, []int{2}},
		{"two in a row", 7, []int{3, 4}},
		{"start and end", 7, []int{0, 6}},
		{"all", 4, []int{0, 1, 2, 3}},
		{"none", 7, nil},
		{"one transaction, unreadable", 1, []int{0}},
	}
	for _, tc := range cases {
		for _, count := range []int{1, 2, 3, 5, 0} {
			for _, rpc := range []bool{false, true} {
				name := fmt.Sprintf("%s/count=%d/rpc=%t", tc.name, count, rpc)
				t.Run(name, func(t *testing.T) {
					block, txs := walkBlock(tc.n, tc.unreadable...)
					s := start(t, tontest.WithoutDefaults())
					require.NoError(t, s.SetBlock(block))
					var opts []nodeaccess.Option
					if rpc {
						opts = append(opts, ton.WithJSONRPC())
					}
					c := client(t, s, opts...)
					bad := map[int]bool{}
					for _, i := range tc.unreadable {
						bad[i] = true
					}
					i := 0
					for tx, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: block.ID.BlockRef, Count: count}) {
						require.Less(t, i, len(txs), "more items than transactions")
						want := txs[i]
						assert.Equal(t, want.Account, tx.Account, "item %d", i)
						assert.Equal(t, want.LT, tx.LT, "item %d", i)
						assert.Equal(t, want.Hash, tx.Hash, "item %d", i)
						if !bad[i] {
							require.NoError(t, err, "item %d", i)
							assert.Equal(t, want.Time, tx.Time)
							i++
							continue
						}
						require.Error(t, err, "item %d", i)
						assert.ErrorIs(t, err, ton.ErrUnreadableTransaction)
						assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
						var he *nodeaccess.HTTPError
						require.True(t, errors.As(err, &he))
						assert.Equal(t, 500, he.StatusCode)
						after := "the start of the block"
						if i > 0 {
							after = fmt.Sprintf("account %s lt %d", txs[i-1].Account, txs[i-1].LT)
						}
						assert.Equal(t, fmt.Sprintf("ton: getBlockTransactionsExt: block (0,8000000000000000,9), the transaction after %s (account %s, lt %d, hash %s): "+
							"service unavailable: the server cannot read a transaction of the block: HTTP 500 Internal Server Error: Error occured while creating tonlib_api::raw_transaction: Failed to unpack balance (2)",
							after, want.Account, want.LT, want.Hash), err.Error())
						assert.Nil(t, tx.InMsg)
						assert.True(t, tx.Time.IsZero(), "only the id is known")
						testkit.AssertErrNoKey(t, testKey, err)
						i++
					}
					assert.Equal(t, len(txs), i, "every transaction, once")
				})
			}
		}
	}
}

// The walk stays within a bound of requests: for one unreadable
// transaction at position p with pages of c, about 2·log2(c) requests
// more than the plain walk, and one getBlockTransactions.
func TestAllBlockTransactionsUnreadableCost(t *testing.T) {
	block, _ := walkBlock(40, 29)
	s := start(t, tontest.WithoutDefaults())
	require.NoError(t, s.SetBlock(block))
	c := client(t, s)
	n := 0
	for _, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: block.ID.BlockRef, Count: 32}) {
		if err != nil {
			n++
		}
	}
	assert.Equal(t, 1, n)
	// 32 fails; 16 ok (0-15); 16 fails; 8 ok (16-23); 8 fails; 4 ok
	// (24-27); 4 fails; 2 fails; 1 ok (28); 1 fails; the id; 32 ok (30-39).
	assert.Equal(t, 12, s.Requests())
}

// WithLag: a lite server behind the newest blocks answers them as not in
// its database, with toncenter's 500 (by seqno: issue 136's message; by
// hash: the lite server's, validator/manager.cpp), until the lag has
// passed since each block was set; the client retries, and returns
// ton.ErrNotYetAvailable when its attempts run out first.
func TestLaggingLiteServer(t *testing.T) {
	const lag = 400 * time.Millisecond
	began := time.Now()
	s := start(t, tontest.WithLag(lag))
	base := "/api/v2/" + testKey
	r := get(t, s, base+"/getBlockTransactionsExt?"+defaultBlockQuery)
	assert.Equal(t, 500, r.status)
	assert.Equal(t, `{"ok":false,"error":"LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno=39984096: seqno not in db","code":500}`, r.body)
	byHash := "&root_hash=" + url.QueryEscape("b26/Pw8BYz6VY7RyYB/w2Nf8pKBebsg+H4rT1pH5ZEM=") + "&file_hash=" + url.QueryEscape("lLylrj7eZn0TSNxpg4yovJJ4x/ILgeeJ3byS6MFVTJw=")
	r = get(t, s, base+"/getBlockTransactions?"+defaultBlockQuery+byHash)
	assert.Equal(t, 500, r.status)
	assert.Equal(t, `{"ok":false,"error":"LITE_SERVER_NOTREADY: block (-1,8000000000000000,39984096) is not in db (last known masterchain block: 0)","code":500}`, r.body)

	c := client(t, s, nodeaccess.WithMaxAttempts(2))
	_, err := c.BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock()})
	assert.ErrorIs(t, err, ton.ErrNotYetAvailable)
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	testkit.AssertErrNoKey(t, testKey, err)
	for _, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock()}) {
		assert.ErrorIs(t, err, ton.ErrNotYetAvailable)
	}
	if time.Since(began) >= lag {
		t.Skip("the machine was too slow to see the lag") // the rest still holds, but proves nothing
	}

	// Retries that outlast the lag get the block.
	patient := client(t, s, nodeaccess.WithMaxAttempts(20), nodeaccess.WithBackoff(100*time.Millisecond, 200*time.Millisecond))
	page, err := patient.BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock()})
	require.NoError(t, err)
	assert.Len(t, page.Transactions, 3)
	assert.GreaterOrEqual(t, time.Since(began), lag)

	// A block set later lags from when it was set; a shard block's message
	// names the newest masterchain block the lite server has.
	shard := ton.BlockRef{Workchain: 0, Shard: ton.MasterchainShard, Seqno: 77}
	require.NoError(t, s.SetBlock(tontest.Block{ID: ton.BlockID{BlockRef: shard, RootHash: ton.Hash{1}, FileHash: ton.Hash{2}}}))
	r = get(t, s, base+"/getBlockTransactionsExt?workchain=0&shard=-9223372036854775808&seqno=77&root_hash="+url.QueryEscape(ton.Hash{1}.String())+"&file_hash="+url.QueryEscape(ton.Hash{2}.String()))
	assert.Equal(t, `{"ok":false,"error":"LITE_SERVER_NOTREADY: block (0,8000000000000000,77) is not in db (possibly out of sync: shard_client_seqno=39984096 ls_seqno=39984096)","code":500}`, r.body)
	_, err = client(t, s, nodeaccess.WithMaxAttempts(1)).BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: shard})
	assert.ErrorIs(t, err, ton.ErrNotYetAvailable)

	_, err = tontest.New(tontest.WithLag(0))
	assert.EqualError(t, err, "tontest: WithLag: 0s is not a lag: want a positive duration")
}

// Block timestamps may repeat since protocol version 13 (ton-blockchain/ton
// ca7d6e45 doc/GlobalVersions.md:291-307: a block's time may equal the
// previous block's): nothing in the walk orders or keys by time. Two
// blocks whose transactions all share one utime are walked whole, page by
// page, in block order.
func TestRepeatedBlockTimestamps(t *testing.T) {
	same := time.Unix(1775000000, 0).UTC()
	var blocks []tontest.Block
	for seqno := uint32(10); seqno <= 11; seqno++ {
		b := tontest.Block{ID: ton.BlockID{BlockRef: ton.MasterchainBlock(seqno), RootHash: ton.Hash{byte(seqno)}, FileHash: ton.Hash{byte(seqno)}}}
		for i := range 5 {
			acct := mustAddress(fmt.Sprintf("-1:%064x", 5-i)) // given in reverse account order
			b.Transactions = append(b.Transactions, ton.BlockTransaction{Account: acct, LT: uint64(seqno)*100 + uint64(i), Hash: ton.Hash{byte(i), byte(seqno)}, Time: same})
		}
		blocks = append(blocks, b)
	}
	s := start(t, tontest.WithoutDefaults())
	require.NoError(t, s.SetBlock(blocks[0]))
	require.NoError(t, s.SetBlock(blocks[1]))
	c := client(t, s)
	for _, b := range blocks {
		var lts []uint64
		for tx, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: b.ID.BlockRef, Count: 2}) {
			require.NoError(t, err)
			assert.Equal(t, same, tx.Time)
			lts = append(lts, tx.LT)
		}
		base := uint64(b.ID.Seqno) * 100
		assert.Equal(t, []uint64{base + 4, base + 3, base + 2, base + 1, base}, lts, "block order: by account id")
	}
}
