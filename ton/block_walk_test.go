package ton_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
)

// blockTx is one transaction of blockServer's block.
type blockTx struct {
	id byte // the account id is 32 bytes of id
	lt uint64
}

// blockServer serves one block's transactions in pages, in the v2 REST and
// JSON-RPC forms, continuing after (after_lt, after_hash = account id).
type blockServer struct {
	txs         []blockTx
	ignoreAfter bool
	shift       bool // with ignoreAfter: the n-th request starts at txs[n]
	emptyPage   bool // say incomplete with no transactions
	mu          sync.Mutex
	requests    []string
}

func (b *blockServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var count int
	var afterLT, afterHash string
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Params struct {
				Count     int             `json:"count"`
				AfterLT   json.RawMessage `json:"after_lt"`
				AfterHash string          `json:"after_hash"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &req)
		count, afterLT, afterHash = req.Params.Count, string(req.Params.AfterLT), req.Params.AfterHash
		b.record(string(body))
	} else {
		q := r.URL.Query()
		count, _ = strconv.Atoi(q.Get("count"))
		afterLT, afterHash = q.Get("after_lt"), q.Get("after_hash")
		b.record(r.URL.RawQuery)
	}
	start := 0
	if b.shift {
		b.mu.Lock()
		start = min(len(b.requests)-1, len(b.txs))
		b.mu.Unlock()
	}
	if afterLT != "" && !b.ignoreAfter {
		id, _ := base64.StdEncoding.DecodeString(afterHash)
		lt, _ := strconv.ParseUint(afterLT, 10, 64)
		for start < len(b.txs) && (b.txs[start].id < id[0] || b.txs[start].id == id[0] && b.txs[start].lt <= lt) {
			start++
		}
	}
	end := min(start+count, len(b.txs))
	var items []string
	if !b.emptyPage {
		for _, tx := range b.txs[start:end] {
			acct := "0:" + strings.Repeat(fmt.Sprintf("%02x", tx.id), 32)
			items = append(items, fmt.Sprintf(`{"account":%q,"transaction_id":{"lt":"%d","hash":%q},"utime":1}`,
				acct, tx.lt, base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{byte(tx.lt)}, 32))))
		}
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"ok":true,"result":{"id":{"workchain":0,"shard":"-9223372036854775808","seqno":7,"root_hash":"","file_hash":""},"req_count":%d,"incomplete":%t,"transactions":[%s]}}`,
		count, end < len(b.txs), strings.Join(items, ","))
}

func (b *blockServer) record(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.requests = append(b.requests, s)
}

func TestAllBlockTransactions(t *testing.T) {
	txs := []blockTx{{0xfb, 1}, {0xfb, 2}, {0xfc, 3}, {0xff, 4}, {0xff, 5}}
	q := ton.BlockTransactionsQuery{Block: ton.BlockRef{Workchain: 0, Shard: ton.MasterchainShard, Seqno: 7}, Count: 2}
	for _, rpc := range []bool{false, true} {
		b := &blockServer{txs: txs}
		srv := httptest.NewServer(b)
		opts := []nodeaccess.Option{nodeaccess.WithMaxAttempts(1)}
		if rpc {
			opts = append(opts, ton.WithJSONRPC())
		}
		c, err := ton.New(srv.URL, testKey, opts...)
		require.NoError(t, err)
		var got []uint64
		for tx, err := range c.AllBlockTransactions(context.Background(), q) {
			require.NoError(t, err)
			assert.Equal(t, uint64(tx.Account.ID[0]), uint64(txs[len(got)].id))
			got = append(got, tx.LT)
		}
		srv.Close()
		assert.Equal(t, []uint64{1, 2, 3, 4, 5}, got)
		// after_hash carries the account id: 0xfb… and 0xff… encode with '+' and '/'.
		idFB := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0xfb}, 32))
		idFF := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0xff}, 32))
		require.True(t, strings.Contains(idFB, "+") && strings.Contains(idFF, "/"))
		if rpc {
			assert.Equal(t, []string{
				`{"jsonrpc":"2.0","id":1,"method":"getBlockTransactionsExt","params":{"workchain":0,"shard":"-9223372036854775808","seqno":7,"count":2}}`,
				`{"jsonrpc":"2.0","id":2,"method":"getBlockTransactionsExt","params":{"workchain":0,"shard":"-9223372036854775808","seqno":7,"count":2,"after_lt":2,"after_hash":"` + idFB + `"}}`,
				`{"jsonrpc":"2.0","id":3,"method":"getBlockTransactionsExt","params":{"workchain":0,"shard":"-9223372036854775808","seqno":7,"count":2,"after_lt":4,"after_hash":"` + idFF + `"}}`,
			}, b.requests)
		} else {
			esc := func(s string) string {
				return strings.NewReplacer("+", "%2B", "/", "%2F", "=", "%3D").Replace(s)
			}
			assert.Equal(t, []string{
				"count=2&seqno=7&shard=-9223372036854775808&workchain=0",
				"after_hash=" + esc(idFB) + "&after_lt=2&count=2&seqno=7&shard=-9223372036854775808&workchain=0",
				"after_hash=" + esc(idFF) + "&after_lt=4&count=2&seqno=7&shard=-9223372036854775808&workchain=0",
			}, b.requests)
		}
	}
}

func TestAllBlockTransactionsFromCursorAndBreak(t *testing.T) {
	b := &blockServer{txs: []blockTx{{1, 1}, {2, 2}, {3, 3}, {4, 4}}}
	srv := httptest.NewServer(b)
	defer srv.Close()
	c, err := ton.New(srv.URL, testKey)
	require.NoError(t, err)
	var acct ton.Address
	acct.ID = [32]byte(bytes.Repeat([]byte{1}, 32))
	q := ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(7), Count: 1, After: &ton.BlockCursor{Account: acct, LT: 1}}
	var got []uint64
	for tx, err := range c.AllBlockTransactions(context.Background(), q) {
		require.NoError(t, err)
		got = append(got, tx.LT)
		if len(got) == 2 {
			break
		}
	}
	assert.Equal(t, []uint64{2, 3}, got)
	assert.Len(t, b.requests, 2)
}

func TestAllBlockTransactionsRepeatingServer(t *testing.T) {
	for _, b := range []*blockServer{
		{txs: []blockTx{{1, 1}, {2, 2}, {3, 3}}, ignoreAfter: true},
		{txs: []blockTx{{1, 1}, {2, 2}, {3, 3}}, emptyPage: true},
	} {
		srv := httptest.NewServer(b)
		c, err := ton.New(srv.URL, testKey)
		require.NoError(t, err)
		items := 0
		var errs []error
		for _, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(7), Count: 2}) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			items++
		}
		srv.Close()
		require.Len(t, errs, 1)
		assert.ErrorIs(t, errs[0], ton.ErrRepeatedPage)
		assert.ErrorIs(t, errs[0], nodeaccess.ErrInvalidResponse)
		assert.True(t, strings.HasPrefix(errs[0].Error(), "ton: getBlockTransactionsExt: invalid response: "), errs[0].Error())
		if b.ignoreAfter {
			assert.Equal(t, 2, items)
			assert.Len(t, b.requests, 2)
		} else {
			assert.Equal(t, 0, items)
			assert.Len(t, b.requests, 1)
		}
	}
}

func TestAllBlockTransactionsError(t *testing.T) {
	srv, n := cannedServer(t, answer{416, `{"ok":false,"error":"Incorrect address","code":416}`})
	c, err := ton.New(srv.URL, testKey)
	require.NoError(t, err)
	var errs []error
	for _, err := range c.AllBlockTransactions(context.Background(), mcBlockQuery()) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	assert.EqualError(t, errs[0], "ton: getBlockTransactionsExt: HTTP 416 Requested Range Not Satisfiable: Incorrect address")
	assert.Equal(t, int32(1), n.Load())
}

// Bug 2 for blocks: a server that ignores after_lt/after_hash while its
// window moves sends no two equal pages; the walk ends at the first
// transaction already yielded.
func TestAllBlockTransactionsShiftingServer(t *testing.T) {
	b := &blockServer{txs: []blockTx{{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {6, 6}}, ignoreAfter: true, shift: true}
	srv := httptest.NewServer(b)
	defer srv.Close()
	c, err := ton.New(srv.URL, testKey)
	require.NoError(t, err)
	lts, errs := collect(c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(7), Count: 2}))
	var got []uint64
	for _, tx := range lts {
		got = append(got, tx.LT)
	}
	assert.Equal(t, []uint64{1, 2}, got)
	assert.Equal(t, []string{"ton: getBlockTransactionsExt: invalid response: server repeated an item of an earlier page: transaction 0 of the page after account 0:" +
		strings.Repeat("02", 32) + " lt 2 (account 0:" + strings.Repeat("02", 32) + ", lt 2) was already yielded (the server ignores after_lt/after_hash)"}, errs)
	assert.Len(t, b.requests, 2)
}

// Bug 3 for blocks: the sequence keeps its cursor inside each range, so it
// can be ranged twice, and by two goroutines at once (run with -race).
func TestAllBlockTransactionsReusable(t *testing.T) {
	b := &blockServer{txs: []blockTx{{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}}}
	srv := httptest.NewServer(b)
	defer srv.Close()
	c, err := ton.New(srv.URL, testKey)
	require.NoError(t, err)
	seq := c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(7), Count: 2})
	lts := func() []uint64 {
		txs, errs := collect(seq)
		assert.Empty(t, errs)
		var out []uint64
		for _, tx := range txs {
			out = append(out, tx.LT)
		}
		return out
	}
	want := []uint64{1, 2, 3, 4, 5}
	assert.Equal(t, want, lts(), "first range")
	assert.Equal(t, want, lts(), "second range")
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() { defer wg.Done(); assert.Equal(t, want, lts()) }()
	}
	wg.Wait()
	assert.Len(t, b.requests, 5*3) // 2 ranges, then 3 at once; 3 pages each
}
