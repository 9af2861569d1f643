package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
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
	c, err := New(Settings{Chain: "test", BaseURL: base, Key: key, Options: opts})
	require.NoError(t, err)
	return c
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

// recorder collects hook attempts and log output.
type recorder struct {
	mu       sync.Mutex
	attempts []nodeaccess.Attempt
	logs     bytes.Buffer
}

func (r *recorder) hook(a nodeaccess.Attempt) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attempts = append(r.attempts, a)
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logs.Write(p)
}

func (r *recorder) all() []nodeaccess.Attempt {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]nodeaccess.Attempt(nil), r.attempts...)
}

func (r *recorder) log() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logs.String()
}

// options returns a hook and a Debug-level logger that record into r, as
// JSON and as text.
func (r *recorder) options() []nodeaccess.Option {
	opts := &slog.HandlerOptions{Level: slog.LevelDebug}
	l := slog.New(slog.NewMultiHandler(slog.NewJSONHandler(r, opts), slog.NewTextHandler(r, opts)))
	return []nodeaccess.Option{nodeaccess.WithHook(r.hook), nodeaccess.WithLogger(l)}
}

// keyForms are the spellings of key that must never appear in output.
func keyForms(key string) []string {
	return []string{key, url.PathEscape(key), url.QueryEscape(key), strings.ToLower(key[:6])}
}

// assertNoKey fails when s contains key in any form.
func assertNoKey(t testing.TB, key, what, s string) {
	t.Helper()
	low := strings.ToLower(s)
	for _, f := range keyForms(key) {
		if strings.Contains(s, f) || strings.Contains(low, strings.ToLower(f)) {
			t.Errorf("%s leaks the key (%q):\n%s", what, f, s)
			return
		}
	}
}

// assertErrNoKey checks every rendering of err and of every error in its
// chain, and the typed errors' fields.
func assertErrNoKey(t testing.TB, key string, err error) {
	t.Helper()
	require.Error(t, err)
	assertNoKey(t, key, "err %v/%+v/%#v", fmt.Sprintf("%v %+v %#v %s", err, err, err, err))
	walkErr(err, func(e error) {
		assertNoKey(t, key, fmt.Sprintf("chain error %T", e), e.Error()+" "+fmt.Sprintf("%#v %+v", e, e))
		switch x := e.(type) {
		case *url.Error:
			assertNoKey(t, key, "url.Error.URL", x.URL)
		case *nodeaccess.HTTPError:
			assertNoKey(t, key, "HTTPError fields", string(x.Body)+" "+x.URL+" "+x.Location+" "+x.Status+" "+x.ContentType)
		case *nodeaccess.RPCError:
			assertNoKey(t, key, "RPCError fields", x.Message+" "+fmt.Sprintf("%#v", x.Data))
		}
	})
	var ue *url.Error
	if errors.As(err, &ue) {
		assertNoKey(t, key, "errors.As url.Error", ue.URL+" "+ue.Error())
	}
}

// walkErr calls fn on err and on every error it wraps.
func walkErr(err error, fn func(error)) {
	if err == nil {
		return
	}
	fn(err)
	switch x := err.(type) {
	case interface{ Unwrap() error }:
		walkErr(x.Unwrap(), fn)
	case interface{ Unwrap() []error }:
		for _, e := range x.Unwrap() {
			walkErr(e, fn)
		}
	}
}

// assertRecordNoKey checks the hook payloads and the log.
func assertRecordNoKey(t testing.TB, key string, r *recorder) {
	t.Helper()
	atts := r.all()
	require.NotEmpty(t, atts, "the hook saw no attempt")
	for _, a := range atts {
		assertNoKey(t, key, "hook attempt", fmt.Sprintf("%v %+v %#v", a, a, a))
		if a.Err != nil {
			assertNoKey(t, key, "hook attempt error", a.Err.Error())
			walkErr(a.Err, func(e error) { assertNoKey(t, key, "hook chain", e.Error()+fmt.Sprintf(" %#v", e)) })
		}
	}
	lg := r.log()
	require.NotEmpty(t, lg, "the logger got nothing")
	assertNoKey(t, key, "log", lg)
}

// counter counts requests and hands out the attempt number.
type counter struct{ n atomic.Int32 }

func (c *counter) next() int { return int(c.n.Add(1)) }
func (c *counter) get() int  { return int(c.n.Load()) }

// serve starts an httptest server that runs h, counting requests.
func serve(t testing.TB, h func(w http.ResponseWriter, r *http.Request, n int)) (*httptest.Server, *counter) {
	t.Helper()
	cnt := &counter{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h(w, r, cnt.next())
	}))
	t.Cleanup(srv.Close)
	return srv, cnt
}

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
