package ton_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
)

const keyEcho = "k3y-ECHO"

// Answers of a lite server that does not have a block yet, as toncenter's
// servers pass them on (HTTP 500, {"ok":false,"error":…,"code":500}):
//
//   - ton-blockchain/ton issue 832 (real, Python server): "LITE_SERVER_NOTREADY: seqno not in db";
//   - toncenter/ton-http-api issue 136 (real, Python server): "… cannot find block … seqno not in db";
//   - ton-blockchain/ton ca7d6e45 (2026-07-16) validator/manager.cpp:3161-3176, through tonlib's
//     LITE_SERVER_<NAME> prefix (tonlib/tonlib/TonlibError.h:150-186): "block (…) is not in db (possibly out of sync: …)";
//   - ton-blockchain/ton issue 2311 (real client log, 2026-04-20; validator/impl/liteserver.cpp:2083-2087,
//     code 0 → LITE_SERVER_UNKNOWN): "specified mc block is older than block's masterchain ref".
var notYetBodies = []struct{ name, body, msg string }{ // body "": the test reads it from testdata
	{"seqno not in db", "", "LITE_SERVER_NOTREADY: seqno not in db"},
	{"cannot find block", "", "LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno=2399: seqno not in db"},
	{"block not in db", `{"ok":false,"error":"LITE_SERVER_NOTREADY: block (0,8000000000000000,51234567) is not in db (possibly out of sync: shard_client_seqno=49000000 ls_seqno=49000010)","code":500}`,
		"LITE_SERVER_NOTREADY: block (0,8000000000000000,51234567) is not in db (possibly out of sync: shard_client_seqno=49000000 ls_seqno=49000010)"},
	{"older than masterchain ref", `{"ok":false,"error":"LITE_SERVER_UNKNOWN: specified mc block is older than block's masterchain ref","code":500}`,
		"LITE_SERVER_UNKNOWN: specified mc block is older than block's masterchain ref"},
	{"message echoing the key", `{"ok":false,"error":"LITE_SERVER_NOTREADY: seqno not in db (` + keyEcho + `)","code":500}`,
		"LITE_SERVER_NOTREADY: seqno not in db (" + keyEcho + ")"},
}

// TestNotYetAvailable: a lite server's "not in db" and "specified mc block
// is older than block's masterchain ref" are retried within the client's
// attempts, then returned matching ton.ErrNotYetAvailable and
// nodeaccess.ErrUnavailable, in the REST form, the JSON-RPC form (the C++
// server passes its REST answer on; the Python server answers tonlib's
// errors without jsonrpc/id) and as an error body in a 200 (a gateway's).
func TestNotYetAvailable(t *testing.T) {
	bodies := append(notYetBodies[:0:0], notYetBodies...) // the first two from testdata:
	bodies[0].body = string(testdata(t, "v2_python_getBlockTransactions_500_notready_seqno_not_in_db.json"))
	bodies[1].body = string(testdata(t, "v2_python_getMasterchainBlockSignatures_500_notready_cannot_find_block.json"))
	fast := nodeaccess.WithBackoff(time.Millisecond, time.Millisecond)
	for _, b := range bodies {
		for _, form := range []struct {
			name   string
			status int
			body   string
			rpc    bool
		}{
			{"REST 500", 500, b.body, false},
			{"JSON-RPC 500", 500, b.body, true},
			{"200 with the error", 200, strings.Replace(b.body, `"ok"`, `"jsonrpc":"2.0","id":1,"ok"`, 1), true},
		} {
			t.Run(b.name+"/"+form.name, func(t *testing.T) {
				srv, n := cannedServer(t, answer{form.status, form.body})
				opts := []nodeaccess.Option{fast}
				if form.rpc {
					opts = append(opts, ton.WithJSONRPC())
				}
				c, err := ton.New(srv.URL, keyEcho, opts...)
				require.NoError(t, err)
				_, err = c.BlockTransactions(context.Background(), mcBlockQuery())
				require.Error(t, err)
				assert.Equal(t, int32(3), n.Load(), "retried within the default attempts")
				assert.ErrorIs(t, err, ton.ErrNotYetAvailable)
				assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
				assert.NotErrorIs(t, err, ton.ErrUnreadableTransaction)
				code, msg := serverMessage(t, err)
				assert.Equal(t, 500, code)
				assert.Equal(t, strings.ReplaceAll(b.msg, keyEcho, "REDACTED"), msg)
				assert.True(t, strings.HasPrefix(err.Error(), "ton: getBlockTransactionsExt: service unavailable: block not yet available: "), err.Error())
				testkit.AssertErrNoKey(t, keyEcho, err)
			})
		}
	}
	// The retries cure a lag shorter than they are.
	fixture := string(testdata(t, blockFixture))
	srv, n := cannedServer(t, answer{500, bodies[0].body}, answer{500, bodies[3].body}, answer{200, fixture})
	c, err := ton.New(srv.URL, testKey, fast)
	require.NoError(t, err)
	page, err := c.BlockTransactions(context.Background(), mcBlockQuery())
	require.NoError(t, err)
	assert.Len(t, page.Transactions, 3)
	assert.Equal(t, int32(3), n.Load())
}

// TestUnreadableTransactionNotRetried: tonlib's failure to convert a
// transaction (toncenter/ton-http-api issue 183, real body; the text is
// ton-blockchain/ton ca7d6e45 tonlib/tonlib/TonlibClient.cpp:1177 and 6652)
// fails the same page every time: it is sent once, and the error matches
// ton.ErrUnreadableTransaction and nodeaccess.ErrUnavailable, in every form.
func TestUnreadableTransactionNotRetried(t *testing.T) {
	body := string(testdata(t, "v2_python_getBlockTransactionsExt_500_failed_to_unpack_balance.json"))
	const msg = "Error occured while creating tonlib_api::raw_transaction: Failed to unpack balance (2)"
	for _, form := range []struct {
		name   string
		status int
		body   string
		rpc    bool
	}{
		{"REST 500", 500, body, false},
		{"JSON-RPC 500", 500, body, true},
		{"200 with the error", 200, body, true},
		{"C++ body with @extra", 500, `{"ok":false,"error":"` + msg + `","code":500,"@extra":"5:` + keyEcho + `"}`, false},
	} {
		t.Run(form.name, func(t *testing.T) {
			srv, n := cannedServer(t, answer{form.status, form.body})
			opts := []nodeaccess.Option{nodeaccess.WithBackoff(time.Millisecond, time.Millisecond)}
			if form.rpc {
				opts = append(opts, ton.WithJSONRPC())
			}
			c, err := ton.New(srv.URL, keyEcho, opts...)
			require.NoError(t, err)
			_, err = c.BlockTransactions(context.Background(), mcBlockQuery())
			require.Error(t, err)
			assert.Equal(t, int32(1), n.Load(), "not retried")
			assert.ErrorIs(t, err, ton.ErrUnreadableTransaction)
			assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
			assert.NotErrorIs(t, err, ton.ErrNotYetAvailable)
			_, got := serverMessage(t, err)
			assert.Equal(t, msg, got)
			assert.True(t, strings.HasPrefix(err.Error(), "ton: getBlockTransactionsExt: service unavailable: the server cannot read a transaction of the block: "), err.Error())
			testkit.AssertErrNoKey(t, keyEcho, err)
		})
	}
}

// Other transient answers stay plain ErrUnavailable errors, retried:
// the Python server's 503 without a working lite server (ton-blockchain/ton
// issue 1044, real), its 504 "Liteserver timeout" (hand-built from
// toncenter/ton-http-api 4b4e54fc pyTON/main.py:164-167) and the published
// 504 example "LITE_SERVER_NETWORK timeout" (ton-org/docs b28afb9e).
func TestOtherTransientAnswers(t *testing.T) {
	for _, tc := range []struct {
		file   string
		status int
	}{
		{"v2_python_jsonrpc_getMasterchainInfo_503_no_working_liteservers.json", 503},
		{"v2_python_504_liteserver_timeout_HANDBUILT.json", 504},
		{"v2_docs_openapi_504_example.json", 504},
	} {
		srv, n := cannedServer(t, answer{tc.status, string(testdata(t, tc.file))})
		c, err := ton.New(srv.URL, testKey, nodeaccess.WithBackoff(time.Millisecond, time.Millisecond))
		require.NoError(t, err)
		_, err = c.BlockTransactions(context.Background(), mcBlockQuery())
		assert.Equal(t, int32(3), n.Load(), tc.file)
		assert.ErrorIs(t, err, nodeaccess.ErrUnavailable, tc.file)
		assert.NotErrorIs(t, err, ton.ErrNotYetAvailable, tc.file)
		assert.NotErrorIs(t, err, ton.ErrUnreadableTransaction, tc.file)
	}
	// A 4xx that happens to say "not in db" is not a lag.
	srv, _ := cannedServer(t, answer{422, `{"ok":false,"error":"seqno not in db","code":422}`})
	c, err := ton.New(srv.URL, testKey)
	require.NoError(t, err)
	_, err = c.BlockTransactions(context.Background(), mcBlockQuery())
	assert.NotErrorIs(t, err, ton.ErrNotYetAvailable)
	assert.NotErrorIs(t, err, nodeaccess.ErrUnavailable)
}
