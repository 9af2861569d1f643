package transport

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	// testKey is a distinctive key; every leak check looks for "secret"
	// (case-insensitively), which also catches a key cut short.
	testKey = "sEcReT-k3y"
	// escKey needs path and query escaping.
	escKey = "sEcReT%k3y:@+?#é"
)

// fast keeps retries quick in tests.
var fast = nodeaccess.WithBackoff(time.Millisecond, 2*time.Millisecond)

// newClient builds a client for base with key and opts, failing the test on
// error.
func newClient(t testing.TB, base, key string, opts ...nodeaccess.Option) *Client {
	t.Helper()
	c, err := New(Settings{Chain: "test", BaseURL: base, Key: key, Options: funcs(opts...)})
	require.NoError(t, err)
	return c
}

// funcs returns what opts do, as a chain package hands them to New.
func funcs(opts ...nodeaccess.Option) []config.Func {
	out := make([]config.Func, len(opts))
	for i, o := range opts {
		_, _, out[i], _ = config.Open(o)
	}
	return out
}

// rpcTarget is the target of a JSON-RPC endpoint at {base}/{key}.
func rpcTarget(t testing.TB, c *Client) Target {
	t.Helper()
	tg, err := c.Target("{key}")
	require.NoError(t, err)
	return tg
}

// call sends one JSON-RPC call with method m and params [].
func call(ctx context.Context, t testing.TB, c *Client) (RPCResult, error) {
	return c.CallRPC(ctx, &RPC{Target: rpcTarget(t, c), Method: "eth_chainId", Params: []byte("[]")})
}

// assertRecordNoKey checks the hook payloads and the log.
func assertRecordNoKey(t testing.TB, key string, r *testkit.Recorder) {
	t.Helper()
	atts := r.Attempts()
	require.NotEmpty(t, atts, "the hook saw no attempt")
	for _, a := range atts {
		testkit.AssertNoKey(t, key, "hook attempt", fmt.Sprintf("%v %+v %#v", a, a, a))
		if a.Err != nil {
			testkit.AssertNoKey(t, key, "hook attempt error", a.Err.Error())
			testkit.WalkErr(a.Err, func(e error) { testkit.AssertNoKey(t, key, "hook chain", e.Error()+fmt.Sprintf(" %#v", e)) })
		}
	}
	lg := r.Log()
	require.NotEmpty(t, lg, "the logger got nothing")
	testkit.AssertNoKey(t, key, "log", lg)
}

// serve starts an httptest server that runs h, counting requests; see
// testkit.Serve.
var serve = testkit.Serve

// rpcOK answers a JSON-RPC request with result, echoing the request's id.
func rpcOK(w http.ResponseWriter, r *http.Request, result string) {
	id := requestID(r)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result)
}

// requestID returns the id member of the request body, as JSON text.
func requestID(r *http.Request) string {
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.ID) == 0 {
		return "null"
	}
	return string(req.ID)
}

// closedPort returns an address on 127.0.0.1 where nothing listens.
func closedPort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// within asserts that d is at most max (promptness with a generous margin).
func within(t testing.TB, d, max time.Duration, what string) {
	t.Helper()
	assert.LessOrEqual(t, d, max, "%s took %s", what, d)
}
