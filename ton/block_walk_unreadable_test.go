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
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
)

const unpackBody = `{"ok":false,"error":"Error occured while creating tonlib_api::raw_transaction: Failed to unpack balance (2)","code":500}`

// unreadableServer serves one block of transactions (account id byte, lt)
// in both v2 forms: getBlockTransactionsExt fails with issue 183's 500 for
// a page that holds the transaction at index bad, getBlockTransactions
// answers ids with ids (nil: as the block lists them). It records each
// request as "<method> <after_lt> <count>".
type unreadableServer struct {
	txs  []blockTx
	bad  int
	ids  func(afterLT string) (status int, body string)
	mu   sync.Mutex
	reqs []string
}

func (u *unreadableServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
	p := map[string]string{}
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Method string                     `json:"method"`
			Params map[string]json.RawMessage `json:"params"`
		}
		_ = json.Unmarshal(body, &req)
		method = req.Method
		for k, v := range req.Params {
			p[k] = strings.Trim(string(v), `"`)
		}
	} else {
		for k := range r.URL.Query() {
			p[k] = r.URL.Query().Get(k)
		}
	}
	u.mu.Lock()
	u.reqs = append(u.reqs, fmt.Sprintf("%s %s %s", method, p["after_lt"], p["count"]))
	u.mu.Unlock()
	count, _ := strconv.Atoi(p["count"])
	start := 0
	if p["after_lt"] != "" {
		id, _ := base64.StdEncoding.DecodeString(p["after_hash"])
		lt, _ := strconv.ParseUint(p["after_lt"], 10, 64)
		for start < len(u.txs) && (u.txs[start].id < id[0] || u.txs[start].id == id[0] && u.txs[start].lt <= lt) {
			start++
		}
	}
	end := min(start+count, len(u.txs))
	w.Header().Set("Content-Type", "application/json")
	if method == "getBlockTransactions" && u.ids != nil {
		status, body := u.ids(p["after_lt"])
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
		return
	}
	if method == "getBlockTransactionsExt" && u.bad >= start && u.bad < end {
		w.WriteHeader(500)
		_, _ = io.WriteString(w, unpackBody)
		return
	}
	var items []string
	for _, tx := range u.txs[start:end] {
		items = append(items, fmt.Sprintf(`{"account":"0:%s","transaction_id":{"lt":"%d","hash":%q}}`,
			strings.Repeat(fmt.Sprintf("%02x", tx.id), 32), tx.lt, base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{byte(tx.lt)}, 32))))
	}
	fmt.Fprintf(w, `{"ok":true,"result":{"id":{"workchain":0,"shard":"-9223372036854775808","seqno":7},"incomplete":%t,"transactions":[%s]}}`,
		end < len(u.txs), strings.Join(items, ","))
}

func walkAll(t *testing.T, u *unreadableServer, count int, opts ...nodeaccess.Option) (lts []uint64, errs []error) {
	t.Helper()
	srv := httptest.NewServer(u)
	t.Cleanup(srv.Close)
	c, err := ton.New(srv.URL, testKey, append([]nodeaccess.Option{nodeaccess.WithMaxAttempts(1)}, opts...)...)
	require.NoError(t, err)
	for tx, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: ton.BlockRef{Workchain: 0, Shard: ton.MasterchainShard, Seqno: 7}, Count: count}) {
		lts = append(lts, tx.LT)
		errs = append(errs, err)
	}
	return lts, errs
}

// The requests the walk makes around an unreadable transaction, in both
// forms: the page sizes halve, getBlockTransactions is asked for one id
// after the last transaction read, the walk goes on after it at the full
// size.
func TestAllBlockTransactionsUnreadableRequests(t *testing.T) {
	for _, rpc := range []bool{false, true} {
		u := &unreadableServer{txs: []blockTx{{1, 1}, {1, 2}, {2, 3}, {3, 4}, {3, 5}, {4, 6}}, bad: 3}
		var opts []nodeaccess.Option
		if rpc {
			opts = append(opts, ton.WithJSONRPC())
		}
		lts, errs := walkAll(t, u, 4, opts...)
		assert.Equal(t, []uint64{1, 2, 3, 4, 5, 6}, lts)
		for i, err := range errs {
			if i == 3 {
				assert.ErrorIs(t, err, ton.ErrUnreadableTransaction)
				continue
			}
			assert.NoError(t, err)
		}
		assert.Equal(t, []string{
			"getBlockTransactionsExt  4", // fails: holds index 3
			"getBlockTransactionsExt  2", // 1, 2
			"getBlockTransactionsExt 2 2",
			"getBlockTransactionsExt 2 1", // 3
			"getBlockTransactionsExt 3 1", // fails
			"getBlockTransactions 3 1",    // the id of lt 4
			"getBlockTransactionsExt 4 4", // 5, 6
		}, u.reqs, "rpc=%t", rpc)
	}
}

// In the JSON-RPC form the narrowing starts from the 256 that form sends,
// not from a larger Count it does not send.
func TestAllBlockTransactionsUnreadableRPCCount(t *testing.T) {
	u := &unreadableServer{txs: []blockTx{{1, 1}, {1, 2}, {2, 3}}, bad: 0}
	lts, errs := walkAll(t, u, 1000, ton.WithJSONRPC())
	assert.Equal(t, []uint64{1, 2, 3}, lts)
	assert.ErrorIs(t, errs[0], ton.ErrUnreadableTransaction)
	assert.Equal(t, []string{
		"getBlockTransactionsExt  256", "getBlockTransactionsExt  128", "getBlockTransactionsExt  64", "getBlockTransactionsExt  32",
		"getBlockTransactionsExt  16", "getBlockTransactionsExt  8", "getBlockTransactionsExt  4", "getBlockTransactionsExt  2",
		"getBlockTransactionsExt  1", "getBlockTransactions  1", "getBlockTransactionsExt 1 256",
	}, u.reqs)
}

// When getBlockTransactions cannot give the id, the walk cannot go past
// the transaction: it yields its error without an id, then the reason,
// and stops.
func TestAllBlockTransactionsUnreadableNoID(t *testing.T) {
	txs := []blockTx{{1, 1}, {2, 2}, {3, 3}}
	for _, tc := range []struct {
		name   string
		status int
		body   string
		check  func(t *testing.T, err error)
	}{
		{"getBlockTransactions fails", 503, `{"ok":false,"error":"No working liteservers with ls_index=None, archival=None","code":503}`, func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
			assert.True(t, strings.HasPrefix(err.Error(), "ton: getBlockTransactions: HTTP 503"), err.Error())
		}},
		{"no transaction listed", 200, `{"ok":true,"result":{"id":{"workchain":0,"shard":"-9223372036854775808","seqno":7},"incomplete":false,"transactions":[]}}`, func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			assert.EqualError(t, err, "ton: getBlockTransactions: invalid response: it lists no transaction after account 0:"+strings.Repeat("01", 32)+" lt 1, where getBlockTransactionsExt fails on one")
		}},
		{"a transaction before the cursor", 200, `{"ok":true,"result":{"id":{"workchain":0,"shard":"-9223372036854775808","seqno":7},"incomplete":true,"transactions":[{"account":"0:` + strings.Repeat("01", 32) + `","lt":"1","hash":"` + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{1}, 32)) + `"}]}}`, func(t *testing.T, err error) {
			assert.ErrorIs(t, err, ton.ErrRepeatedPage)
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := &unreadableServer{txs: txs, bad: 1, ids: func(string) (int, string) { return tc.status, tc.body }}
			lts, errs := walkAll(t, u, 1)
			require.Len(t, errs, 3)
			assert.NoError(t, errs[0])
			assert.Equal(t, []uint64{1, 0, 0}, lts)
			assert.ErrorIs(t, errs[1], ton.ErrUnreadableTransaction)
			assert.EqualError(t, errs[1], "ton: getBlockTransactionsExt: block (0,8000000000000000,7), the transaction after account 0:"+strings.Repeat("01", 32)+
				" lt 1: service unavailable: the server cannot read a transaction of the block: HTTP 500 Internal Server Error: Error occured while creating tonlib_api::raw_transaction: Failed to unpack balance (2)")
			assert.NotErrorIs(t, errs[2], ton.ErrUnreadableTransaction)
			tc.check(t, errs[2])
		})
	}
}

// A break inside the walk stops it, also on the unreadable transaction's
// item.
func TestAllBlockTransactionsUnreadableBreak(t *testing.T) {
	u := &unreadableServer{txs: []blockTx{{1, 1}, {2, 2}, {3, 3}}, bad: 1}
	srv := httptest.NewServer(u)
	defer srv.Close()
	c, err := ton.New(srv.URL, testKey)
	require.NoError(t, err)
	n := 0
	for _, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: ton.BlockRef{Workchain: 0, Shard: ton.MasterchainShard, Seqno: 7}, Count: 1}) {
		n++
		if err != nil {
			break
		}
	}
	assert.Equal(t, 2, n)
	assert.Equal(t, []string{"getBlockTransactionsExt  1", "getBlockTransactionsExt 1 1", "getBlockTransactions 1 1"}, u.reqs)
}

// The JSON-RPC form asks for at most 256 transactions a call (the C++
// server runs it through its REST handler with a 10 s timeout:
// toncenter/ton-http-api-cpp 492d24f7 (2026-07-17)
// ton-http-api/src/handlers/JsonRpcHandler.cpp:41-50); the REST form sends
// the count as asked, up to maxBlockCount.
func TestJSONRPCPageSize(t *testing.T) {
	c := gockClient(t, ton.WithJSONRPC())
	fixture := string(testdata(t, blockFixture))
	counts := []int{256, 257, 10000}
	for i := range counts {
		mockPOST(t, pathRPC, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i+1)+`,"method":"getBlockTransactionsExt","params":{"workchain":-1,"shard":"-9223372036854775808","seqno":39984096,"count":256}}`, 200, fixture)
	}
	for _, count := range counts {
		q := mcBlockQuery()
		q.Count = count
		_, err := c.BlockTransactions(context.Background(), q)
		require.NoError(t, err)
	}
	rest := gockClient(t)
	mockGET(t, pathBlock, "count=10000&seqno=39984096&shard=-9223372036854775808&workchain=-1", 200, fixture)
	q := mcBlockQuery()
	q.Count = 10000
	_, err := rest.BlockTransactions(context.Background(), q)
	require.NoError(t, err)
}

// The walk's new error paths (the unreadable transaction's error, the
// getBlockTransactions failure after it, both forms) never show the key,
// also when the servers echo it in their messages.
func TestAllBlockTransactionsUnreadableKeyNeverLeaks(t *testing.T) {
	q := func(s string) string { return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) }
	for _, key := range testkit.LeakKeys {
		for _, rpc := range []bool{false, true} {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				w.Header().Set("Content-Type", "application/json")
				echo := q(r.URL.Path) + " " + q(r.URL.EscapedPath())
				if strings.HasSuffix(r.URL.Path, "/getBlockTransactions") || bytes.Contains(body, []byte(`"getBlockTransactions"`)) {
					w.WriteHeader(503)
					_, _ = io.WriteString(w, `{"ok":false,"error":"no lite server for `+echo+`","code":503}`)
					return
				}
				w.WriteHeader(500)
				_, _ = io.WriteString(w, `{"ok":false,"error":"Error occured while creating tonlib_api::raw_transaction: Failed to unpack balance (2) `+echo+`","code":500}`)
			}))
			opts := []nodeaccess.Option{nodeaccess.WithMaxAttempts(1)}
			if rpc {
				opts = append(opts, ton.WithJSONRPC())
			}
			c, err := ton.New(srv.URL, key, opts...)
			require.NoError(t, err)
			var errs []error
			for _, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(7), Count: 2}) {
				errs = append(errs, err)
			}
			srv.Close()
			require.Len(t, errs, 2)
			assert.ErrorIs(t, errs[0], ton.ErrUnreadableTransaction)
			assert.ErrorIs(t, errs[1], nodeaccess.ErrUnavailable)
			for _, err := range errs {
				testkit.AssertErrNoKey(t, key, err)
				assert.Contains(t, err.Error(), "REDACTED", "the echo is masked, not dropped")
			}
		}
	}
}
