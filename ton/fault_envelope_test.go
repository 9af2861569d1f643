package ton_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// injector answers the first fails requests itself (every request when
// fails is negative) with status and body, and sends the others to the
// server.
type injector struct {
	fails, count atomic.Int64
	status       int
	body         string
	next         http.RoundTripper
}

func (f *injector) RoundTrip(r *http.Request) (*http.Response, error) {
	f.count.Add(1)
	if f.fails.Load() != 0 {
		f.fails.Add(-1)
		if r.Body != nil {
			_, _ = io.Copy(io.Discard, r.Body)
			_ = r.Body.Close()
		}
		return &http.Response{StatusCode: f.status, Status: fmt.Sprintf("%d %s", f.status, http.StatusText(f.status)),
			Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(f.body)), Request: r}, nil
	}
	return f.next.RoundTrip(r)
}

// faultCalls are every call and walker of the package that a fault may
// meet, each run to its end: the error it ends with, nil when it ended
// well (a walker that yielded an error ends with it).
var faultCalls = []struct {
	name string
	rpc  bool // the JSON-RPC form of API v2
	run  func(ctx context.Context, c *ton.Client) error
}{
	{"BlockTransactions", false, blockTxs},
	{"BlockTransactions", true, blockTxs},
	{"AllBlockTransactions", false, allBlockTxs},
	{"AllBlockTransactions", true, allBlockTxs},
	{"Call v2", false, callBlockIDs},
	{"Call v2", true, callBlockIDs},
	{"Call v3", false, func(ctx context.Context, c *ton.Client) error {
		return c.Call(ctx, nil, "v3/accountStates", url.Values{"address": {tontest.DefaultAccount}})
	}},
	{"AccountStates", false, func(ctx context.Context, c *ton.Client) error {
		_, err := c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount}})
		return err
	}},
	{"AllAccountStates", false, func(ctx context.Context, c *ton.Client) error {
		return walkErr(c.AllAccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount}}))
	}},
	{"PendingTransactions", false, func(ctx context.Context, c *ton.Client) error {
		_, err := c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}})
		return err
	}},
	{"AllPendingTransactions", false, func(ctx context.Context, c *ton.Client) error {
		return walkErr(c.AllPendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}}))
	}},
}

func blockTxs(ctx context.Context, c *ton.Client) error {
	_, err := c.BlockTransactions(ctx, ton.BlockTransactionsQuery{Block: tontest.DefaultBlock()})
	return err
}

func allBlockTxs(ctx context.Context, c *ton.Client) error {
	return walkErr(c.AllBlockTransactions(ctx, ton.BlockTransactionsQuery{Block: tontest.DefaultBlock()}))
}

func callBlockIDs(ctx context.Context, c *ton.Client) error {
	return c.Call(ctx, nil, "v2/getBlockTransactions", url.Values{"workchain": {"-1"}, "shard": {"-9223372036854775808"}, "seqno": {"39984096"}})
}

// walkErr ranges over a walk and returns the first error it yields.
func walkErr[T any](seq func(func(T, error) bool)) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestFaultInEitherEnvelope: a fault classifies and retries by its status
// whether it comes as the HTTP status or as the code of a TON error in an
// HTTP 200 (v2's {"ok":false,…}, and a JSON-RPC error object), in every call
// and walker, REST and JSON-RPC: as many requests, the same sentinels; a
// retried fault that passes leaves the call as if it had not happened.
func TestFaultInEitherEnvelope(t *testing.T) {
	srv := tontest.NewT(t)
	sentinels := []error{nodeaccess.ErrUnavailable, nodeaccess.ErrRateLimited, nodeaccess.ErrNotFound, nodeaccess.ErrUnauthorized}
	for _, code := range []int{429, 500, 502, 503, 504, 542, 401, 403, 404, 400, 416} {
		var want error // the sentinel the status matches
		switch {
		case code == 429:
			want = nodeaccess.ErrRateLimited
		case code >= 500:
			want = nodeaccess.ErrUnavailable
		case code == 404:
			want = nodeaccess.ErrNotFound
		case code == 401 || code == 403:
			want = nodeaccess.ErrUnauthorized
		}
		retried := code == 429 || code >= 500
		for _, form := range []struct {
			name   string
			status int
			body   string
		}{
			{"status", code, fmt.Sprintf(`{"ok":false,"error":"boom %s","code":%d}`, srv.Key(), code)},
			{"ok:false in 200", 200, fmt.Sprintf(`{"ok":false,"error":"boom %s","code":%d}`, srv.Key(), code)},
			{"rate-limit form in 200", 200, fmt.Sprintf(`{"ok":false,"result":"boom %s","code":%d}`, srv.Key(), code)},
			{"JSON-RPC error in 200", 200, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"error":{"code":%d,"message":"boom %s"}}`, code, srv.Key())},
		} {
			for _, call := range faultCalls {
				name := fmt.Sprintf("%s (JSON-RPC %v), %d as %s", call.name, call.rpc, code, form.name)
				inj := &injector{status: form.status, body: form.body, next: http.DefaultTransport}
				opts := []nodeaccess.Option{nodeaccess.WithRoundTripper(inj), nodeaccess.WithBackoff(time.Millisecond, time.Millisecond)}
				if call.rpc {
					opts = append(opts, ton.WithJSONRPC())
				}
				c, err := srv.Client(opts...)
				require.NoError(t, err)

				// The fault on every request: three attempts when retried,
				// one otherwise; the error matches the status's sentinel.
				inj.fails.Store(-1)
				err = call.run(context.Background(), c)
				require.Error(t, err, name)
				attempts := int64(1)
				if retried {
					attempts = 3
				}
				assert.Equal(t, attempts, inj.count.Load(), "%s: requests", name)
				for _, s := range sentinels {
					assert.Equal(t, s == want, errors.Is(err, s), "%s: %v matches %v", name, err, s)
				}
				assert.Contains(t, err.Error(), "boom", name)
				testkit.AssertErrNoKey(t, srv.Key(), err)
				if form.status == 200 {
					var re *nodeaccess.RPCError
					require.ErrorAs(t, err, &re, name)
					assert.Equal(t, code, re.Code, name)
				}

				// The fault once: a retried one passes unseen.
				inj.count.Store(0)
				inj.fails.Store(1)
				err = call.run(context.Background(), c)
				if retried {
					assert.NoError(t, err, name)
				} else {
					assert.Error(t, err, name)
					assert.Equal(t, int64(1), inj.count.Load(), "%s: requests", name)
				}
			}
		}
	}
}

// TestV3FaultsInEitherEnvelope: the v3 calls' own readings of a status
// and a message hold in either envelope too: the indexer's 404 "emulated
// traces not found" is an empty page, its 422 refusals of the parameters
// match nodeaccess.ErrInvalidInput (and are not retried), and
// accountStates' other 422s (a failed database query) are retried.
func TestV3FaultsInEitherEnvelope(t *testing.T) {
	srv := tontest.NewT(t)
	pending := func(ctx context.Context, c *ton.Client) (int, error) {
		p, err := c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}})
		if err != nil {
			return 0, err
		}
		return len(p.Transactions), nil
	}
	allPending := func(ctx context.Context, c *ton.Client) (int, error) {
		n := 0
		for _, err := range c.AllPendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}}) {
			if err != nil {
				return n, err
			}
			n++
		}
		return n, nil
	}
	states := func(ctx context.Context, c *ton.Client) (int, error) {
		p, err := c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount}})
		if err != nil {
			return 0, err
		}
		return len(p.States), nil
	}
	for _, tc := range []struct {
		name     string
		run      func(context.Context, *ton.Client) (int, error)
		code     int
		msg      string
		requests int64 // with the fault on every request
		refused  bool  // the error matches ErrInvalidInput; no error: an empty page
		empty    bool
	}{
		{"pendingTransactions nothing pending", pending, 404, "emulated traces not found", 1, false, true},
		{"AllPendingTransactions nothing pending", allPending, 404, "Emulated traces not found ", 1, false, true},
		{"pendingTransactions 422", pending, 422, "at least 1 account address required", 1, true, false},
		{"accountStates refusal", states, 422, "address of account is required", 1, true, false},
		{"accountStates failed query", states, 422, "query timeout", 3, false, false},
		{"pendingTransactions other 404", pending, 404, "Not Found", 1, false, false},
	} {
		for _, form := range []struct {
			name   string
			status int
			body   string
		}{
			{"status", tc.code, fmt.Sprintf(`{"error":%q}`, tc.msg)},
			{"ok:false in 200", 200, fmt.Sprintf(`{"ok":false,"error":%q,"code":%d}`, tc.msg, tc.code)},
			{"JSON-RPC error in 200", 200, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"error":{"code":%d,"message":%q}}`, tc.code, tc.msg)},
		} {
			name := tc.name + " as " + form.name
			inj := &injector{status: form.status, body: form.body, next: http.DefaultTransport}
			inj.fails.Store(-1)
			c, err := srv.Client(nodeaccess.WithRoundTripper(inj), nodeaccess.WithBackoff(time.Millisecond, time.Millisecond))
			require.NoError(t, err)
			n, err := tc.run(context.Background(), c)
			if tc.empty {
				assert.NoError(t, err, name)
				assert.Zero(t, n, name)
			} else {
				require.Error(t, err, name)
				assert.Equal(t, tc.refused, errors.Is(err, nodeaccess.ErrInvalidInput), "%s: %v", name, err)
				assert.Equal(t, tc.code == 404, errors.Is(err, nodeaccess.ErrNotFound), "%s: %v", name, err)
				assert.Contains(t, err.Error(), strings.TrimSpace(tc.msg), name)
			}
			assert.Equal(t, tc.requests, inj.count.Load(), "%s: requests", name)
		}
	}
}
