package evmtest_test

import (
	"errors"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
)

// Both paths serve the whole JSON-RPC API: eth, net, web3 and ots.
func TestRoutes(t *testing.T) {
	t.Parallel()
	s := shared(t)
	tests := []struct{ method, params, result string }{
		{"eth_chainId", `[]`, `"0x539"`},
		{"eth_blockNumber", `[]`, `"0x5"`},
		{"net_version", `[]`, `"1337"`},
		{"web3_sha3", `["0x68656c6c6f"]`, `"0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8"`},
		{"eth_getBalance", `["0x00000000000000000000000000000000000beef1","latest"]`, `"0x14d1120d7b160000"`},
		{"eth_getBalance", `["0x00000000000000000000000000000000000beef1","0x0"]`, `"0x0"`},
	}
	for _, path := range []string{"/" + testKey, "/" + testKey + "/evm"} {
		for _, tt := range tests {
			status, ctype, body := post(t, s, path, rpcBody(tt.method, tt.params))
			assert.Equal(t, 200, status, "%s %s", path, tt.method)
			assert.Equal(t, "application/json", ctype)
			assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":`+tt.result+`}`, body, "%s %s", path, tt.method)
		}
		// web3_clientVersion names go-ethereum.
		_, _, body := post(t, s, path, rpcBody("web3_clientVersion", `[]`))
		assert.True(t, strings.HasPrefix(body, `{"jsonrpc":"2.0","id":1,"result":"Geth/evmtest/v1.17.10-stable/`), body)
	}
}

// The namespaces a provider keeps to itself are not served.
func TestPrivateNamespacesNotServed(t *testing.T) {
	t.Parallel()
	s := shared(t)
	for _, m := range []string{"debug_traceTransaction", "admin_nodeInfo", "admin_startHTTP", "miner_setExtra", "txpool_content", "personal_listAccounts"} {
		_, _, body := post(t, s, "/"+testKey, rpcBody(m, `[]`))
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"the method `+m+` does not exist/is not available"}}`, body)
	}
}

func TestWrongKey(t *testing.T) {
	t.Parallel()
	s := shared(t)
	const want = `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"invalid access key"}}`
	wrong := []string{
		testKey + "x",            // extends the key: geth's path prefix took it
		testKey[:len(testKey)-1], // a prefix of the key
		strings.ToUpper(testKey), // case matters
		"another-key",            // unrelated
		testKey + "%2Fevm",       // the suffix escaped into the key's segment
		testKey + "x/evm",        // on the /evm path too
		testKey[:len(testKey)-1] + "/evm",
	}
	for _, k := range wrong {
		status, ctype, body := post(t, s, "/"+k, rpcBody("eth_chainId", `[]`))
		assert.Equal(t, 403, status, k)
		assert.Equal(t, "application/json", ctype, k)
		assert.Equal(t, want, body, k)
	}

	// Through the client: a typed 403 that never shows the key.
	for _, k := range []string{testKey + "x", testKey[:len(testKey)-1]} {
		for _, opts := range [][]nodeaccess.Option{nil, {evm.WithPathSuffix("evm")}} {
			c, err := evm.New(s.URL, k, append(opts, nodeaccess.WithMaxAttempts(1))...)
			require.NoError(t, err)
			_, err = c.Code(t.Context(), evmtest.Token(), evm.Latest)
			assert.ErrorIs(t, err, nodeaccess.ErrUnauthorized)
			var he *nodeaccess.HTTPError
			require.ErrorAs(t, err, &he)
			assert.Equal(t, 403, he.StatusCode)
			assert.Equal(t, want, string(he.Body))
			testkit.AssertErrNoKey(t, k, err)
			testkit.AssertErrNoKey(t, testKey, err)
		}
	}
}

func TestUnknownPathAndMethod(t *testing.T) {
	t.Parallel()
	s := shared(t)
	for _, p := range []string{"/", "/" + testKey + "/", "/" + testKey + "/info", "/" + testKey + "/evm/x", "/evm/" + testKey} {
		status, ctype, body := post(t, s, p, rpcBody("eth_chainId", `[]`))
		assert.Equal(t, 404, status, p)
		assert.Equal(t, "application/json", ctype, p)
		assert.Equal(t, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"not found"}}`, body, p)
	}
	for _, p := range []string{"/" + testKey, "/" + testKey + "/evm"} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+p, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_ = resp.Body.Close()
		assert.Equal(t, 405, resp.StatusCode, p)
		assert.Equal(t, "POST", resp.Header.Get("Allow"), p)
	}

	// The client sees 404 as ErrNotFound (a suffix the server does not
	// serve).
	c := client(t, s, evm.WithPathSuffix("info"))
	_, err := c.Code(t.Context(), evmtest.Token(), evm.Latest)
	assert.ErrorIs(t, err, nodeaccess.ErrNotFound)
	testkit.AssertErrNoKey(t, testKey, err)
}

// Each fault, seen by the evm client: retried to success, with the attempts
// the hook counts, or the typed error when retries run out.
func TestFaults(t *testing.T) {
	t.Parallel()
	s := fresh(t)
	ctx := t.Context()
	tx := s.Scenario().Transfer.Hash
	fast := nodeaccess.WithBackoff(time.Millisecond, 5*time.Millisecond)

	retried := []struct {
		name     string
		fault    nodeaccesstest.Fault
		n        int
		attempts int
		status   []int // per failed attempt, 0 for no response
	}{
		{"429 twice", nodeaccesstest.RateLimited(time.Second), 2, 3, []int{429, 429}},
		{"503", nodeaccesstest.ServerError(503), 1, 2, []int{503}},
		{"502", nodeaccesstest.ServerError(502), 1, 2, []int{502}},
		{"dropped connection", nodeaccesstest.DropConnection(), 1, 2, []int{0}},
		{"truncated body", nodeaccesstest.TruncatedBody(), 1, 2, []int{200}},
	}
	for _, tt := range retried {
		t.Run(tt.name, func(t *testing.T) {
			var rec testkit.Recorder
			c, err := s.Client(rec.Option(), fast, nodeaccess.WithMaxAttempts(4))
			require.NoError(t, err)
			before := s.Requests()
			s.FailNext(tt.n, tt.fault)
			start := time.Now()
			ops, err := c.InternalOperations(ctx, tx)
			require.NoError(t, err)
			assert.Equal(t, view(s.Scenario().Transfer.Operations), view(ops))
			attempts := rec.Attempts()
			require.Len(t, attempts, tt.attempts)
			for i, want := range tt.status {
				assert.Equal(t, want, attempts[i].StatusCode, "attempt %d", i+1)
				assert.Error(t, attempts[i].Err, "attempt %d", i+1)
				assert.True(t, attempts[i].WillRetry, "attempt %d", i+1)
			}
			last := attempts[len(attempts)-1]
			assert.Equal(t, 200, last.StatusCode)
			assert.NoError(t, last.Err)
			assert.Equal(t, tt.attempts, s.Requests()-before)
			if tt.fault.String() == nodeaccesstest.RateLimited(time.Second).String() {
				assert.Equal(t, time.Second, attempts[0].Retry, "Retry-After honoured")
				assert.GreaterOrEqual(t, time.Since(start), 2*time.Second)
			}
			testkit.AssertNoKey(t, testKey, "log", rec.Log())
		})
	}

	t.Run("slow body", func(t *testing.T) {
		var rec testkit.Recorder
		c, err := s.Client(rec.Option())
		require.NoError(t, err)
		s.FailNext(1, nodeaccesstest.SlowBody(300*time.Millisecond))
		start := time.Now()
		ops, err := c.InternalOperations(ctx, tx)
		require.NoError(t, err)
		assert.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond)
		assert.Equal(t, view(s.Scenario().Transfer.Operations), view(ops))
		assert.Len(t, rec.Attempts(), 1)
	})

	t.Run("slow body past the timeout", func(t *testing.T) {
		c, err := s.Client(nodeaccess.WithTimeout(100*time.Millisecond), nodeaccess.WithMaxAttempts(1))
		require.NoError(t, err)
		s.FailNext(1, nodeaccesstest.SlowBody(5*time.Second))
		start := time.Now()
		_, err = c.InternalOperations(ctx, tx)
		require.Error(t, err)
		assert.Less(t, time.Since(start), 4*time.Second)
		testkit.AssertErrNoKey(t, testKey, err)
	})

	t.Run("503 until retries run out", func(t *testing.T) {
		var rec testkit.Recorder
		c, err := s.Client(rec.Option(), fast, nodeaccess.WithMaxAttempts(3))
		require.NoError(t, err)
		before := s.Requests()
		s.FailNext(3, nodeaccesstest.ServerError(503))
		_, err = c.InternalOperations(ctx, tx)
		assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
		var he *nodeaccess.HTTPError
		require.ErrorAs(t, err, &he)
		assert.Equal(t, 503, he.StatusCode)
		assert.Equal(t, "application/json", he.ContentType)
		assert.Equal(t, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"service unavailable"}}`, string(he.Body))
		assert.Len(t, rec.Attempts(), 3)
		assert.Equal(t, 3, s.Requests()-before)
		testkit.AssertErrNoKey(t, testKey, err)
		testkit.AssertNoKey(t, testKey, "log", rec.Log())
	})

	t.Run("500 is not retried", func(t *testing.T) {
		var rec testkit.Recorder
		c, err := s.Client(rec.Option(), fast, nodeaccess.WithMaxAttempts(3))
		require.NoError(t, err)
		s.FailNext(1, nodeaccesstest.ServerError(500))
		_, err = c.InternalOperations(ctx, tx)
		assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
		var he *nodeaccess.HTTPError
		require.ErrorAs(t, err, &he)
		assert.Equal(t, 500, he.StatusCode)
		assert.Equal(t, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"internal server error"}}`, string(he.Body))
		assert.Len(t, rec.Attempts(), 1)
		testkit.AssertErrNoKey(t, testKey, err)
	})

	t.Run("429 when retries are off", func(t *testing.T) {
		c := client(t, s)
		s.FailNext(1, nodeaccesstest.RateLimited(2*time.Second))
		_, err := c.InternalOperations(ctx, tx)
		assert.ErrorIs(t, err, nodeaccess.ErrRateLimited)
		var he *nodeaccess.HTTPError
		require.ErrorAs(t, err, &he)
		assert.Equal(t, 2*time.Second, he.RetryAfter)
		assert.Equal(t, `{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"rate limit exceeded"}}`, string(he.Body))
		testkit.AssertErrNoKey(t, testKey, err)
	})
}

func TestNewOptions(t *testing.T) {
	t.Parallel()
	_, err := evmtest.New(evmtest.WithKey("a/b"))
	assert.ErrorContains(t, err, "evmtest: nodeaccesstest: the access key may hold only")
	_, err = evmtest.New(evmtest.WithKey(""))
	assert.EqualError(t, err, "evmtest: WithKey: empty key")
	_, err = evmtest.New(evmtest.Option{})
	assert.EqualError(t, err, "evmtest: zero Option")

	// Without WithKey: a random key of 32 hex characters.
	r, err := evmtest.New(evmtest.WithoutScenario())
	require.NoError(t, err)
	defer r.Close()
	assert.Regexp(t, `^[0-9a-f]{32}$`, r.Key())
	assert.Equal(t, r.URL+"/"+r.Key(), r.Endpoint())
	c, err := evm.NewFromURL(r.Endpoint(), nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	code, err := c.Code(t.Context(), evmtest.Token(), evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, evmtest.TokenCode(), code)
	assert.Equal(t, evmtest.Scenario{}, r.Scenario())
}

// Close stops listening, may be called twice, and leaves no goroutine of
// the server or the chain behind.
func TestClose(t *testing.T) {
	// Not parallel: it counts goroutines.
	base := runtime.NumGoroutine()
	s, err := evmtest.New()
	require.NoError(t, err)
	c := client(t, s)
	_, err = c.InternalOperations(t.Context(), s.Scenario().Create.Hash)
	require.NoError(t, err)
	addr := strings.TrimPrefix(s.URL, "http://")

	s.Close()
	s.Close()
	_, err = net.DialTimeout("tcp", addr, time.Second)
	assert.Error(t, err, "the server still listens")
	_, err = c.InternalOperations(t.Context(), s.Scenario().Create.Hash)
	var ne net.Error
	assert.True(t, errors.As(err, &ne) || errors.Is(err, nodeaccess.ErrUnavailable), "%v", err)

	http.DefaultClient.CloseIdleConnections()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base+2 {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines after Close, %d before New:\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
}

// The limits of go-ethereum's JSON-RPC server, before any JSON is read: a
// body over 5 MiB gets 413, a Content-Type other than JSON's (or none) 415,
// both text/plain.
func TestBodyLimits(t *testing.T) {
	t.Parallel()
	s := shared(t)
	const limit = 5 << 20
	// Exactly at the limit: read, and not JSON-RPC.
	status, ctype, body := post(t, s, "/"+testKey, strings.Repeat(" ", limit-2)+"{}")
	assert.Equal(t, 200, status)
	assert.Equal(t, "application/json", ctype)
	assert.Equal(t, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}`, body)

	status, ctype, body = post(t, s, "/"+testKey+"/evm", strings.Repeat(" ", limit-1)+"{}")
	assert.Equal(t, 413, status)
	assert.Equal(t, "text/plain; charset=utf-8", ctype)
	assert.Equal(t, "content length too large (5242881>5242880)\n", body)

	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded"} {
		status, ctype, body = postType(t, s, "/"+testKey, ct, rpcBody("eth_chainId", `[]`))
		assert.Equal(t, 415, status, ct)
		assert.Equal(t, "text/plain; charset=utf-8", ctype, ct)
		assert.Equal(t, "invalid content type, only application/json is supported\n", body, ct)
	}
}
