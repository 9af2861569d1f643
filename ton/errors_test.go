package ton_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
)

// answer is one canned response.
type answer struct {
	status int
	body   string
}

// cannedServer answers the requests in order with answers (the last one
// repeats) and counts them.
func cannedServer(t *testing.T, answers ...answer) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		i := int(n.Add(1)) - 1
		a := answers[min(i, len(answers)-1)]
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.status)
		_, _ = io.WriteString(w, a.body)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// op runs one of the operations against c: each typed call, and Call for
// API v2 and v3.
type op struct {
	name string
	call func(c *ton.Client) error
}

var ops = []op{
	{"getBlockTransactionsExt", func(c *ton.Client) error {
		_, err := c.BlockTransactions(context.Background(), mcBlockQuery())
		return err
	}},
	{"accountStates", func(c *ton.Client) error {
		_, err := c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{acctLower}})
		return err
	}},
	{"pendingTransactions", func(c *ton.Client) error {
		_, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{acctLower}})
		return err
	}},
	{"getMasterchainInfo", func(c *ton.Client) error { // Call, v2
		var info struct {
			Last json.RawMessage `json:"last"`
		}
		return c.Call(context.Background(), &info, "v2/getMasterchainInfo", nil)
	}},
	{"masterchainBlockShards", func(c *ton.Client) error { // Call, v3
		var raw json.RawMessage
		return c.Call(context.Background(), &raw, "v3/masterchainBlockShards", url.Values{"seqno": {"1"}})
	}},
}

func TestErrorBodyForms(t *testing.T) {
	cases := []struct {
		name     string
		answer   answer
		msg      string // HTTPError.Message
		text     string // the error's text after "ton: <op>: "
		sentinel error
		code     int // HTTPError.Code: the body's code
	}{
		{"v2 incorrect address", answer{416, `{"ok":false,"error":"Incorrect address","code":416}`}, "Incorrect address",
			"HTTP 416 Requested Range Not Satisfiable: Incorrect address", nil, 416},
		{"v2 validation", answer{422, `{"ok":false,"error":"Validation error: seqno: value is not a valid integer","code":422}`},
			"Validation error: seqno: value is not a valid integer", "HTTP 422 Unprocessable Entity: Validation error: seqno: value is not a valid integer", nil, 422},
		{"v2 lite server not ready", answer{500, `{"ok":false,"error":"LITE_SERVER_NOTREADY: block is not applied","code":500}`},
			"LITE_SERVER_NOTREADY: block is not applied", "service unavailable: block not yet available: HTTP 500 Internal Server Error: LITE_SERVER_NOTREADY: block is not applied", ton.ErrNotYetAvailable, 500},
		{"v2 lite server timeout", answer{504, `{"ok":false,"error":"Lite Server Timeout","code":504}`}, "Lite Server Timeout",
			"HTTP 504 Gateway Timeout: Lite Server Timeout", nodeaccess.ErrUnavailable, 504},
		{"v2 542", answer{542, `{"ok":false,"error":"LITE_SERVER_UNKNOWN: cannot load block","code":542}`}, "LITE_SERVER_UNKNOWN: cannot load block",
			"HTTP 542 status code 542: LITE_SERVER_UNKNOWN: cannot load block", nodeaccess.ErrUnavailable, 542},
		{"v2 rate limit, message in result", answer{429, `{"ok":false,"result":"Ratelimit exceed","code":429}`}, "Ratelimit exceed",
			"HTTP 429 Too Many Requests: Ratelimit exceed", nodeaccess.ErrRateLimited, 429},
		{"v2 code differs from status", answer{503, `{"ok":false,"error":"busy","code":"500"}`}, "busy",
			"HTTP 503 Service Unavailable: busy (code 500)", nodeaccess.ErrUnavailable, 500},
		{"v2 without a message", answer{500, `{"ok":false,"code":500}`}, "the server sent no message",
			"HTTP 500 Internal Server Error: the server sent no message", nodeaccess.ErrUnavailable, 500},
		{"v3 400", answer{400, `{"error":"invalid address"}`}, "invalid address", "HTTP 400 Bad Request: invalid address", nil, 0},
		{"v3 404", answer{404, `{"error":"account not indexed"}`}, "account not indexed", "HTTP 404 Not Found: account not indexed", nodeaccess.ErrNotFound, 0},
		{"v3 409", answer{409, `{"error":"conflict"}`}, "conflict", "HTTP 409 Conflict: conflict", nil, 0},
		{"v3 422 limit", answer{422, `{"error":"limit should be less than or equal to 1000"}`}, "limit should be less than or equal to 1000",
			"HTTP 422 Unprocessable Entity: limit should be less than or equal to 1000", nil, 0},
		{"v3 500", answer{500, `{"error":"internal error"}`}, "internal error", "HTTP 500 Internal Server Error: internal error", nodeaccess.ErrUnavailable, 0},
		{"JSON-RPC error object", answer{400, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad params"}}`}, "bad params",
			"HTTP 400 Bad Request: bad params (code -32602)", nil, -32602},
	}
	for _, tc := range cases {
		for _, o := range ops {
			t.Run(tc.name+"/"+o.name, func(t *testing.T) {
				srv, n := cannedServer(t, tc.answer)
				c, err := ton.New(srv.URL, testKey, nodeaccess.WithMaxAttempts(1))
				require.NoError(t, err)
				err = o.call(c)
				require.Error(t, err)
				assert.Equal(t, int32(1), n.Load())
				text, sentinel := tc.text, tc.sentinel
				if o.name == "pendingTransactions" && tc.answer.status == 422 {
					// Every 422 of pendingTransactions refuses the input.
					text, sentinel = "invalid input, refused by the server: "+text, nodeaccess.ErrInvalidInput
				} else {
					assert.NotErrorIs(t, err, nodeaccess.ErrInvalidInput)
				}
				assert.Equal(t, "ton: "+o.name+": "+text, err.Error())
				var oe *nodeaccess.OpError
				require.True(t, errors.As(err, &oe))
				assert.Equal(t, "ton", oe.Chain)
				assert.Equal(t, o.name, oe.Op)
				var he *nodeaccess.HTTPError
				require.True(t, errors.As(err, &he))
				assert.Equal(t, tc.answer.status, he.StatusCode)
				assert.Equal(t, tc.answer.body, string(he.Body))
				assert.Equal(t, tc.msg, he.Message)
				assert.Equal(t, tc.code, he.Code)
				var re *nodeaccess.RPCError
				assert.False(t, errors.As(err, &re), "a non-2xx answer is an HTTPError alone")
				if sentinel != nil {
					assert.ErrorIs(t, err, sentinel)
				}
				assert.NotErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			})
		}
	}
}

// A non-TON error body stays a plain HTTPError.
func TestErrorBodyNotTON(t *testing.T) {
	for _, a := range []answer{{502, `<html>Bad Gateway</html>`}, {403, `{"detail":"forbidden"}`}, {500, `null`}, {500, `{"ok":true}`}} {
		srv, _ := cannedServer(t, a)
		c, err := ton.New(srv.URL, testKey, nodeaccess.WithMaxAttempts(1))
		require.NoError(t, err)
		_, err = c.AccountStates(context.Background(), ton.AccountStatesQuery{})
		var he *nodeaccess.HTTPError
		require.True(t, errors.As(err, &he), a.body)
		var re *nodeaccess.RPCError
		assert.False(t, errors.As(err, &re), a.body)
	}
}

// A TON error in a 200 body is a *nodeaccess.RPCError alone; one with a
// transient code (429, 5xx) is retried first, like that status.
func TestErrorIn200Body(t *testing.T) {
	cases := []struct {
		body string
		code int
		msg  string
	}{
		{`{"ok":false,"error":"Incorrect address","code":416}`, 416, "Incorrect address"},
		{`{"ok":false,"result":"Ratelimit exceed","code":429}`, 429, "Ratelimit exceed"},
		{`{"ok":false,"error":"LITE_SERVER_NOTREADY","code":500,"jsonrpc":"2.0"}`, 500, "LITE_SERVER_NOTREADY"},
		{`{"jsonrpc":"2.0","id":"1","error":{"code":-32601,"message":"Method not found"}}`, -32601, "Method not found"},
		{`{"error":"oops"}`, 0, "oops"},
	}
	for _, tc := range cases {
		for _, rpc := range []bool{false, true} {
			srv, n := cannedServer(t, answer{200, tc.body})
			var opts []nodeaccess.Option
			if rpc {
				opts = append(opts, ton.WithJSONRPC())
			}
			c, err := ton.New(srv.URL, testKey, opts...)
			require.NoError(t, err)
			_, err = c.BlockTransactions(context.Background(), mcBlockQuery())
			var re *nodeaccess.RPCError
			require.True(t, errors.As(err, &re), tc.body)
			assert.Equal(t, tc.code, re.Code)
			assert.Equal(t, tc.msg, re.Message)
			var he *nodeaccess.HTTPError
			assert.False(t, errors.As(err, &he))
			wantTries := int32(1)
			if tc.code == 429 || tc.code >= 500 && tc.code <= 599 {
				wantTries = 3 // the default attempts
			}
			assert.Equal(t, wantTries, n.Load(), "attempts for %s", tc.body)
			if tc.code == 429 {
				assert.ErrorIs(t, err, nodeaccess.ErrRateLimited)
			}
		}
	}
	// v3 bodies too.
	srv, _ := cannedServer(t, answer{200, `{"error":"limit is too big"}`})
	c, err := ton.New(srv.URL, testKey)
	require.NoError(t, err)
	_, err = c.AccountStates(context.Background(), ton.AccountStatesQuery{})
	assert.EqualError(t, err, "ton: accountStates: json-rpc error 0: limit is too big")
	_, err = c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{})
	assert.EqualError(t, err, "ton: pendingTransactions: json-rpc error 0: limit is too big")
}

func TestRetries(t *testing.T) {
	fixture := string(testdata(t, blockFixture))
	fast := nodeaccess.WithBackoff(time.Millisecond, time.Millisecond)
	cases := []struct {
		name     string
		answers  []answer
		attempts int32
		ok       bool
	}{
		{"500 then 542 then success", []answer{{500, `{"ok":false,"error":"LITE_SERVER_NOTREADY","code":500}`}, {542, `{"ok":false,"error":"x","code":542}`}, {200, fixture}}, 3, true},
		{"429 then success", []answer{{429, `{"ok":false,"result":"Ratelimit exceed","code":429}`}, {200, fixture}}, 2, true},
		{"504 every time", []answer{{504, `{"ok":false,"error":"timeout","code":504}`}}, 3, false},
		{"422 is not retried", []answer{{422, `{"ok":false,"error":"bad","code":422}`}}, 1, false},
		{"416 is not retried", []answer{{416, `{"ok":false,"error":"Incorrect address","code":416}`}}, 1, false},
	}
	for _, tc := range cases {
		for _, rpc := range []bool{false, true} {
			srv, n := cannedServer(t, tc.answers...)
			opts := []nodeaccess.Option{fast}
			if rpc {
				opts = append(opts, ton.WithJSONRPC())
			}
			c, err := ton.New(srv.URL, testKey, opts...)
			require.NoError(t, err)
			_, err = c.BlockTransactions(context.Background(), mcBlockQuery())
			assert.Equal(t, tc.ok, err == nil, "%s: %v", tc.name, err)
			assert.Equal(t, tc.attempts, n.Load(), tc.name)
		}
	}
	// v3 5xx retried too.
	srv, n := cannedServer(t, answer{500, `{"error":"db down"}`}, answer{200, `{"accounts":[]}`})
	c, err := ton.New(srv.URL, testKey, fast)
	require.NoError(t, err)
	_, err = c.AccountStates(context.Background(), ton.AccountStatesQuery{})
	require.NoError(t, err)
	assert.Equal(t, int32(2), n.Load())
}
