package ton_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
)

// Call's requests, byte for byte: the key in each API version's place, the
// query of a GET, the body of a POST, and the JSON-RPC form of v2.
func TestCallWire(t *testing.T) {
	ctx := context.Background()
	t.Run("v2 GET without params", func(t *testing.T) {
		c := gockClient(t)
		mockGET(t, "/api/v2/"+testKey+"/getMasterchainInfo", "", 200,
			`{"ok":true,"result":{"@type":"blocks.masterchainInfo","last":{"workchain":-1,"shard":"-9223372036854775808","seqno":39984096}}}`)
		var info struct {
			Last struct {
				Workchain int32       `json:"workchain"`
				Shard     ton.ShardID `json:"shard"`
				Seqno     uint32      `json:"seqno"`
			} `json:"last"`
		}
		require.NoError(t, c.Call(ctx, &info, "v2/getMasterchainInfo", nil))
		assert.Equal(t, ton.MasterchainBlock(39984096), ton.BlockRef{Workchain: info.Last.Workchain, Shard: info.Last.Shard, Seqno: info.Last.Seqno})
	})
	t.Run("v2 GET with a query, result not an object", func(t *testing.T) {
		c := gockClient(t)
		mockGET(t, "/api/v2/"+testKey+"/getAddressBalance", "address="+acctEscape+"&seqno=5", 200, `{"ok":true,"result":"18446744073709551616"}`)
		var balance string
		require.NoError(t, c.Call(ctx, &balance, "v2/getAddressBalance", url.Values{"address": {acctLower}, "seqno": {"5"}}))
		assert.Equal(t, "18446744073709551616", balance)
	})
	t.Run("v3 GET, a nested path, repeated parameters, the body whole", func(t *testing.T) {
		c := gockClient(t)
		mockGET(t, "/"+testKey+"/api/v3/jetton/masters", "address="+acctEscape+"&address=0%3Aab&limit=1", 200, `{"jetton_masters":[],"address_book":{}}`)
		var raw json.RawMessage
		require.NoError(t, c.Call(ctx, &raw, "v3/jetton/masters", url.Values{"address": {acctLower, "0:ab"}, "limit": {"1"}}))
		assert.JSONEq(t, `{"jetton_masters":[],"address_book":{}}`, string(raw))
	})
	t.Run("v2 POST with a body", func(t *testing.T) {
		c := gockClient(t)
		mockPOST(t, "/api/v2/"+testKey+"/sendBoc", `{"boc":"te6ccg=="}`, 200, `{"ok":true,"result":{"@type":"ok"}}`)
		require.NoError(t, c.Call(ctx, nil, "v2/sendBoc", map[string]string{"boc": "te6ccg=="}))
	})
	t.Run("v3 POST with a body", func(t *testing.T) {
		c := gockClient(t)
		mockPOST(t, "/"+testKey+"/api/v3/message", `{"boc":"te6ccg=="}`, 200, `{"message_hash":"x"}`)
		var out struct {
			Hash string `json:"message_hash"`
		}
		require.NoError(t, c.Call(ctx, &out, "v3/message", struct {
			BOC string `json:"boc"`
		}{"te6ccg=="}))
		assert.Equal(t, "x", out.Hash)
	})
	t.Run("JSON-RPC: url.Values as strings", func(t *testing.T) {
		c := gockClient(t, ton.WithJSONRPC())
		mockPOST(t, pathRPC, `{"jsonrpc":"2.0","id":1,"method":"shards","params":{"seqno":"39984096"}}`, 200,
			`{"ok":true,"result":{"@type":"blocks.shards","shards":[]},"jsonrpc":"2.0","id":1}`)
		mockPOST(t, pathRPC, `{"jsonrpc":"2.0","id":2,"method":"getLibraries","params":{"libraries":["a","b"]}}`, 200,
			`{"jsonrpc":"2.0","id":2,"result":{"@type":"smc.libraryResult","result":[]}}`)
		mockPOST(t, pathRPC, `{"jsonrpc":"2.0","id":3,"method":"getMasterchainInfo","params":{}}`, 200, `{"ok":true,"result":{"last":{}}}`)
		var shards struct {
			Type   string            `json:"@type"`
			Shards []json.RawMessage `json:"shards"`
		}
		require.NoError(t, c.Call(ctx, &shards, "v2/shards", url.Values{"seqno": {"39984096"}}))
		assert.Equal(t, "blocks.shards", shards.Type)
		var libs struct {
			Type string `json:"@type"`
		}
		require.NoError(t, c.Call(ctx, &libs, "v2/getLibraries", url.Values{"libraries": {"a", "b"}}))
		assert.Equal(t, "smc.libraryResult", libs.Type)
		require.NoError(t, c.Call(ctx, nil, "v2/getMasterchainInfo", nil))
	})
	t.Run("JSON-RPC: a body value as the params", func(t *testing.T) {
		c := gockClient(t, ton.WithJSONRPC())
		mockPOST(t, pathRPC, `{"jsonrpc":"2.0","id":1,"method":"runGetMethod","params":{"address":"`+acctLower+`","method":"seqno","stack":[]}}`, 200,
			`{"ok":true,"result":{"exit_code":0}}`)
		var res struct {
			ExitCode int `json:"exit_code"`
		}
		require.NoError(t, c.Call(ctx, &res, "v2/runGetMethod", map[string]any{"address": acctLower, "method": "seqno", "stack": []any{}}))
		assert.Equal(t, 0, res.ExitCode)
	})
	t.Run("JSON-RPC leaves v3 alone", func(t *testing.T) {
		c := gockClient(t, ton.WithJSONRPC())
		mockGET(t, "/"+testKey+"/api/v3/masterchainInfo", "", 200, `{"last":{"seqno":7}}`)
		var info struct {
			Last struct{ Seqno int } `json:"last"`
		}
		require.NoError(t, c.Call(ctx, &info, "v3/masterchainInfo", nil))
		assert.Equal(t, 7, info.Last.Seqno)
	})
}

// A path Call cannot send as given, and params it cannot send, are input
// errors naming the value, and nothing is sent (gock fails on any request).
func TestCallRefusesInput(t *testing.T) {
	ctx := context.Background()
	c := gockClient(t)
	for _, path := range []string{"", "v2", "v2/", "v3/", "v4/x", "/v2/getMasterchainInfo", "api/v2/getMasterchainInfo",
		"v2/a/b", "v3/a//b", "v3/a/", "v3/../x", "v3/./x", "v3/a/..", "v2/..", "v3/a?b=1", "v3/a#b", "v3/a%2Fb",
		"v3/a b", "v2/getBlock\n", "v3/é", `v3/a\b`, "V2/getMasterchainInfo", "v3/{key}"} {
		err := c.Call(ctx, nil, path, nil)
		var ie *nodeaccess.InputError
		require.True(t, errors.As(err, &ie), "%q: %v", path, err)
		assert.Equal(t, "path", ie.Arg, path)
		assert.Contains(t, ie.Reason, fmt.Sprintf("%q", path), "the reason quotes the path")
		var oe *nodeaccess.OpError
		require.True(t, errors.As(err, &oe), path)
		assert.Equal(t, "call", oe.Op)
	}
	for _, tc := range []struct {
		name   string
		params any
		opts   []nodeaccess.Option
		reason string
	}{
		{"a value that does not marshal", map[string]any{"f": func() {}}, nil, "map[string]interface {} does not marshal to JSON: json: unsupported type: func()"},
		{"JSON-RPC params that are not an object", []string{"a"}, []nodeaccess.Option{ton.WithJSONRPC()}, `JSON-RPC params must be a JSON object, not "[\"a\"]"`},
		{"JSON-RPC params null", (*struct{})(nil), []nodeaccess.Option{ton.WithJSONRPC()}, `JSON-RPC params must be a JSON object, not "null"`},
	} {
		c := gockClient(t, tc.opts...)
		err := c.Call(ctx, nil, "v2/getMasterchainInfo", tc.params)
		var ie *nodeaccess.InputError
		require.True(t, errors.As(err, &ie), "%s: %v", tc.name, err)
		assert.Equal(t, "params", ie.Arg)
		assert.Equal(t, tc.reason, ie.Reason, tc.name)
		assert.True(t, strings.HasPrefix(err.Error(), "ton: getMasterchainInfo: invalid input: params: "), err.Error())
	}
	var n int
	for _, out := range []any{n, (*int)(nil), struct{}{}} {
		err := c.Call(ctx, out, "v2/getMasterchainInfo", nil)
		var ie *nodeaccess.InputError
		require.True(t, errors.As(err, &ie), "%T: %v", out, err)
		assert.Equal(t, "out", ie.Arg)
		assert.Equal(t, fmt.Sprintf("%T is not a non-nil pointer (or nil, to drop the answer)", out), ie.Reason)
	}
}

// The access key in a Call's path, in a parameter's name or value, or in a
// body, in any spelling, is refused before anything is sent, by an error
// that does not hold it.
func TestCallRefusesTheKey(t *testing.T) {
	ctx := context.Background()
	for _, key := range testkit.LeakKeys {
		for _, rpc := range []bool{false, true} {
			opts := []nodeaccess.Option{nodeaccess.WithHTTPClient(testkit.GockHTTPClient(t))}
			if rpc {
				opts = append(opts, ton.WithJSONRPC())
			}
			c, err := ton.New(testBase, key, opts...)
			require.NoError(t, err)
			calls := map[string]func() error{
				"path": func() error { return c.Call(ctx, nil, "v3/"+key, nil) },
				"path, escaped": func() error {
					return c.Call(ctx, nil, "v3/"+url.PathEscape(key), nil)
				},
				"query value":    func() error { return c.Call(ctx, nil, "v2/getAddressBalance", url.Values{"address": {"0:" + key}}) },
				"query name":     func() error { return c.Call(ctx, nil, "v3/accountStates", url.Values{key: {"1"}}) },
				"query, escaped": func() error { return c.Call(ctx, nil, "v3/accountStates", url.Values{"q": {url.QueryEscape(key)}}) },
				"body":           func() error { return c.Call(ctx, nil, "v2/sendBoc", map[string]string{"boc": key}) },
				"body, JSON-escaped": func() error {
					return c.Call(ctx, nil, "v3/message", json.RawMessage(`{"boc":"`+testkit.ASCIIJSON(key)+`"}`))
				},
			}
			for what, call := range calls {
				err := call()
				var ie *nodeaccess.InputError
				require.True(t, errors.As(err, &ie), "%s (key %q): %v", what, key, err)
				testkit.AssertErrNoKey(t, key, err)
			}
		}
	}
}

// Call's answers: TON's error bodies in either status class, the retries
// and the classification every call has, a 422 left to the caller, and a
// body out cannot hold.
func TestCallErrors(t *testing.T) {
	ctx := context.Background()
	fast := nodeaccess.WithBackoff(time.Millisecond, time.Millisecond)
	newClient := func(t *testing.T, answers ...answer) (*ton.Client, func() int32) {
		srv, n := cannedServer(t, answers...)
		c, err := ton.New(srv.URL, testKey, fast)
		require.NoError(t, err)
		return c, n.Load
	}
	t.Run("v2 error in a 200", func(t *testing.T) {
		c, n := newClient(t, answer{200, `{"ok":false,"error":"Incorrect address","code":416}`})
		err := c.Call(ctx, nil, "v2/getAddressBalance", url.Values{"address": {"x"}})
		var re *nodeaccess.RPCError
		require.ErrorAs(t, err, &re)
		assert.Equal(t, 416, re.Code)
		assert.Equal(t, "Incorrect address", re.Message)
		assert.EqualError(t, err, "ton: getAddressBalance: json-rpc error 416: Incorrect address")
		assert.Equal(t, int32(1), n())
	})
	t.Run("v3 error in a 200", func(t *testing.T) {
		c, _ := newClient(t, answer{200, `{"error":"limit is too big"}`})
		err := c.Call(ctx, nil, "v3/blocks", nil)
		assert.EqualError(t, err, "ton: blocks: json-rpc error 0: limit is too big")
	})
	t.Run("non-2xx: the HTTPError with the server's message", func(t *testing.T) {
		c, n := newClient(t, answer{404, `{"ok":false,"error":"Not Found","code":404}`})
		err := c.Call(ctx, nil, "v2/getNothing", nil)
		var he *nodeaccess.HTTPError
		require.ErrorAs(t, err, &he)
		assert.Equal(t, "Not Found", he.Message)
		assert.ErrorIs(t, err, nodeaccess.ErrNotFound)
		var re *nodeaccess.RPCError
		assert.False(t, errors.As(err, &re))
		assert.Equal(t, int32(1), n())
	})
	t.Run("a lite server behind: retried, then ErrNotYetAvailable", func(t *testing.T) {
		c, n := newClient(t, answer{500, `{"ok":false,"error":"LITE_SERVER_NOTREADY: block is not applied","code":500}`})
		err := c.Call(ctx, nil, "v2/getBlockHeader", url.Values{"workchain": {"-1"}})
		assert.ErrorIs(t, err, ton.ErrNotYetAvailable)
		assert.Equal(t, int32(3), n())
	})
	t.Run("an unreadable transaction: not retried", func(t *testing.T) {
		c, n := newClient(t, answer{500, `{"ok":false,"error":"Error occured while creating tonlib_api::raw_transaction: Failed to unpack balance (2)","code":500}`})
		err := c.Call(ctx, nil, "v2/getTransactions", nil)
		assert.ErrorIs(t, err, ton.ErrUnreadableTransaction)
		assert.Equal(t, int32(1), n())
	})
	t.Run("429 then the answer", func(t *testing.T) {
		c, n := newClient(t, answer{429, `{"ok":false,"result":"Ratelimit exceed","code":429}`}, answer{200, `{"ok":true,"result":5}`})
		var v int
		require.NoError(t, c.Call(ctx, &v, "v2/getAddressBalance", nil))
		assert.Equal(t, 5, v)
		assert.Equal(t, int32(2), n())
	})
	t.Run("a transient error in a 200 is retried", func(t *testing.T) {
		c, n := newClient(t, answer{200, `{"ok":false,"result":"Ratelimit exceed","code":429}`}, answer{200, `{"blocks":[]}`})
		require.NoError(t, c.Call(ctx, nil, "v3/blocks", nil))
		assert.Equal(t, int32(2), n())
	})
	t.Run("422: the server's, not retried, not the SDK's input error", func(t *testing.T) {
		c, n := newClient(t, answer{422, `{"error":"limit is not allowed: 1001 > 1000"}`})
		err := c.Call(ctx, nil, "v3/blocks", url.Values{"limit": {"1001"}})
		var he *nodeaccess.HTTPError
		require.ErrorAs(t, err, &he)
		assert.Equal(t, "limit is not allowed: 1001 > 1000", he.Message)
		assert.NotErrorIs(t, err, nodeaccess.ErrInvalidInput)
		assert.Equal(t, int32(1), n())
	})
	t.Run("a body out cannot hold", func(t *testing.T) {
		for _, body := range []string{`{"ok":true,"result":"x"}`, `<html>`, `{"ok":true}`, `{"ok":true,"result":`} {
			c, _ := newClient(t, answer{200, body})
			var v int
			err := c.Call(ctx, &v, "v2/getAddressBalance", nil)
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, body)
		}
		c, _ := newClient(t, answer{200, `[1,2]`})
		var v []int
		require.NoError(t, c.Call(ctx, &v, "v2/bare", nil), "a bare body is decoded whole")
		assert.Equal(t, []int{1, 2}, v)
	})
}

// A Call costs one unit a try, or its name's nodeaccess.WithCost, and hooks
// see it under its name with the key masked.
func TestCallCostAndHooks(t *testing.T) {
	srv, _ := cannedServer(t, answer{200, `{"ok":true,"result":{}}`})
	b, err := nodeaccess.NewBudget(1000, 100)
	require.NoError(t, err)
	var mu sync.Mutex
	var attempts []nodeaccess.Attempt
	c, err := ton.New(srv.URL, testKey, nodeaccess.WithBudget(b), nodeaccess.WithCost("shards", 3),
		nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) { mu.Lock(); attempts = append(attempts, a); mu.Unlock() }))
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, c.Call(ctx, nil, "v2/getMasterchainInfo", nil))
	require.NoError(t, c.Call(ctx, nil, "v2/shards", url.Values{"seqno": {"1"}}))
	require.NoError(t, c.Call(ctx, nil, "v3/jetton/masters", nil))
	assert.Equal(t, int64(5), b.Stats().Units)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, attempts, 3)
	for i, want := range []struct {
		op    string
		units int
		url   string
	}{
		{"getMasterchainInfo", 1, srv.URL + "/api/v2/REDACTED/getMasterchainInfo"},
		{"shards", 3, srv.URL + "/api/v2/REDACTED/shards?seqno=1"},
		{"jetton/masters", 1, srv.URL + "/REDACTED/api/v3/jetton/masters"},
	} {
		assert.Equal(t, want.op, attempts[i].Op)
		assert.Equal(t, want.units, attempts[i].Units)
		assert.Equal(t, want.url, attempts[i].URL)
	}
}

// Call on recorded bodies (testdata/SOURCES.md): a v2 result that is an
// array (getTransactions), a v3 body whole (transactions), and the Python
// server's JSON-RPC 503 without jsonrpc and id.
func TestCallRecordedBodies(t *testing.T) {
	ctx := context.Background()
	type tx struct {
		TransactionID struct {
			LT   string   `json:"lt"`
			Hash ton.Hash `json:"hash"`
		} `json:"transaction_id"`
		Fee string `json:"fee"`
	}
	srv, _ := cannedServer(t, answer{200, string(testdata(t, "v2_getTransactions_toncenter_wallet_tutorial.json"))})
	c, err := ton.New(srv.URL, testKey)
	require.NoError(t, err)
	var txs []tx
	require.NoError(t, c.Call(ctx, &txs, "v2/getTransactions", url.Values{"address": {"EQCQCLTvR0XYTyM0uxh_H8kLAR7u7v98pEKZKpbq8w2peuNY"}, "limit": {"1"}}))
	require.Len(t, txs, 1)
	assert.Equal(t, "46761157000001", txs[0].TransactionID.LT)
	assert.Equal(t, "kI1yL265o4KKNFQv4BpOWqiv7zclV2GJzG4fkIck66g=", txs[0].TransactionID.Hash.String())
	assert.Equal(t, "2737656", txs[0].Fee)

	srv, _ = cannedServer(t, answer{200, string(testdata(t, v3TxFixture))})
	c, err = ton.New(srv.URL, testKey)
	require.NoError(t, err)
	var v3 struct {
		Transactions []struct {
			Account ton.Address `json:"account"`
			LT      string      `json:"lt"`
		} `json:"transactions"`
	}
	require.NoError(t, c.Call(ctx, &v3, "v3/transactions", url.Values{"limit": {"1"}}))
	require.Len(t, v3.Transactions, 1)
	assert.Equal(t, "36582626000003", v3.Transactions[0].LT)

	srv, n := cannedServer(t, answer{503, string(testdata(t, "v2_python_jsonrpc_getMasterchainInfo_503_no_working_liteservers.json"))})
	c, err = ton.New(srv.URL, testKey, ton.WithJSONRPC(), nodeaccess.WithBackoff(time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	err = c.Call(ctx, nil, "v2/getMasterchainInfo", nil)
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, "No working liteservers with ls_index=None, archival=None", he.Message)
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.Equal(t, int32(3), n.Load())
}
