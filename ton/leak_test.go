package ton_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
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

// echoServer answers every request with status and a body built by body
// from the request path in its decoded and escaped spellings, so that the
// server's messages carry the key.
func echoServer(t *testing.T, status int, body func(path, escaped string) string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body(r.URL.Path, r.URL.EscapedPath()))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestKeyNeverLeaks(t *testing.T) {
	q := func(s string) string { return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) }
	cases := []struct {
		name   string
		status int
		body   func(p, e string) string
		rpcMsg bool // the server's message (HTTPError.Message or RPCError.Message), scrubbed, must be reachable
	}{
		{"v2 ok:false in a 200", 200, func(p, e string) string {
			return `{"ok":false,"error":"bad key ` + q(p) + ` / ` + q(e) + `","code":401}`
		}, true},
		{"v2 rate limit in result, 429", 429, func(p, e string) string {
			return `{"ok":false,"result":"Ratelimit exceed for ` + q(p) + ` ` + q(e) + `","code":429}`
		}, true},
		{"v3 error, 422, key in ASCII-only JSON", 422, func(p, e string) string { return `{"error":"no route ` + testkit.ASCIIJSON(p) + `"}` }, true},
		{"v2 error, 200, key in ASCII-only JSON", 200, func(p, e string) string { return `{"ok":false,"error":"` + testkit.ASCIIJSON(p) + `"}` }, true},
		{"v3 error, 422", 422, func(p, e string) string { return `{"error":"no route ` + q(p) + ` ` + q(e) + `"}` }, true},
		{"v3 error in a 200", 200, func(p, e string) string { return `{"error":"` + q(p) + q(e) + `"}` }, true},
		{"JSON-RPC error object", 200, func(p, e string) string {
			return `{"jsonrpc":"2.0","error":{"code":-32000,"message":"` + q(p) + ` ` + q(e) + `"}}`
		}, true},
		{"invalid body", 200, func(p, e string) string { return `<html>` + p + ` ` + e + `</html>` }, false},
		{"plain 404", 404, func(p, e string) string { return p + " " + e + " not here" }, false},
		{"truncated JSON", 200, func(p, e string) string { return `{"ok":true,"result":{"id":"` + q(p) + q(e) }, false},
	}
	for _, key := range testkit.LeakKeys {
		for _, tc := range cases {
			for _, rpc := range []bool{false, true} {
				base := echoServer(t, tc.status, tc.body)
				var attempts []nodeaccess.Attempt
				var mu sync.Mutex
				opts := []nodeaccess.Option{
					nodeaccess.WithBackoff(time.Millisecond, time.Millisecond),
					nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) { mu.Lock(); attempts = append(attempts, a); mu.Unlock() }),
				}
				if rpc {
					opts = append(opts, ton.WithJSONRPC())
				}
				c, err := ton.New(base, key, opts...)
				require.NoError(t, err)
				testkit.AssertNoKey(t, key, "client", fmt.Sprintf("%v %+v %#v %s", c, c, c, c))
				for _, o := range ops {
					err := o.call(c)
					require.Error(t, err, tc.name)
					what := fmt.Sprintf("%s/%s/rpc=%t", tc.name, o.name, rpc)
					testkit.AssertNoKey(t, key, what, err.Error())
					testkit.AssertNoKey(t, key, what+" %+v", fmt.Sprintf("%+v %#v", err, err))
					if tc.rpcMsg {
						_, msg := serverMessage(t, err)
						testkit.AssertNoKey(t, key, what+" server message", msg)
						assert.Contains(t, msg, "REDACTED", what)
					}
					var he *nodeaccess.HTTPError
					if errors.As(err, &he) {
						testkit.AssertNoKey(t, key, what+" HTTPError body", string(he.Body))
						testkit.AssertNoKey(t, key, what+" HTTPError URL", he.URL)
					}
				}
				mu.Lock()
				for _, a := range attempts {
					testkit.AssertNoKey(t, key, "hook URL", a.URL)
					assert.Contains(t, a.URL, "REDACTED")
					if a.Err != nil {
						testkit.AssertNoKey(t, key, "hook error", a.Err.Error())
					}
				}
				mu.Unlock()
			}
		}
	}
}

func TestKeyNeverLeaksOnNetworkFailure(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close() // connection refused from now on
	for _, key := range testkit.LeakKeys {
		c, err := ton.New(base, key, nodeaccess.WithBackoff(time.Millisecond, time.Millisecond))
		require.NoError(t, err)
		for _, o := range ops {
			err := o.call(c)
			require.Error(t, err)
			assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
			testkit.AssertNoKey(t, key, o.name, err.Error())
			assert.Contains(t, err.Error(), "REDACTED")
		}
	}
}
