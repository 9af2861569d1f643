package transport

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const okBody = `{"jsonrpc":"2.0","id":1,"result":"0x1"}`

// twoFailuresThenOK answers 503 "busy" twice, then a JSON-RPC result.
func twoFailuresThenOK(w http.ResponseWriter, r *http.Request, n int) {
	if n <= 2 {
		w.WriteHeader(503)
		io.WriteString(w, "busy")
		return
	}
	io.WriteString(w, okBody)
}

func TestHookAttempts(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, twoFailuresThenOK)
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithHook(rec.Hook))
	res, err := c.CallRPC(context.Background(), &RPC{Op: "chainID", Target: rpcTarget(t, c), Method: "eth_chainId"})
	require.NoError(t, err)
	res.Release()
	atts := rec.Attempts()
	require.Len(t, atts, 3)
	for i, a := range atts {
		assert.Equal(t, "test", a.Chain)
		assert.Equal(t, "chainID", a.Op)
		assert.Equal(t, "POST", a.Method)
		assert.Equal(t, srv.URL+"/REDACTED", a.URL)
		assert.Equal(t, i+1, a.Number)
		assert.Positive(t, a.Duration)
		if i < 2 {
			assert.Equal(t, 503, a.StatusCode)
			assert.Equal(t, int64(4), a.Bytes)
			var he *nodeaccess.HTTPError
			require.ErrorAs(t, a.Err, &he)
			assert.Equal(t, "busy", string(he.Body))
			assert.True(t, a.WillRetry)
			assert.GreaterOrEqual(t, a.Retry, time.Duration(0))
			assert.LessOrEqual(t, a.Retry, time.Duration(i+1)*time.Millisecond, "backoff bound base·2ⁿ⁻¹")
		} else {
			assert.Equal(t, 200, a.StatusCode)
			assert.Equal(t, int64(len(okBody)), a.Bytes)
			assert.NoError(t, a.Err)
			assert.False(t, a.WillRetry)
			assert.Zero(t, a.Retry)
		}
	}
}

func TestHookFinalFailureAndOpDefault(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) { w.WriteHeader(503) })
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithHook(rec.Hook), nodeaccess.WithMaxAttempts(2))
	_, err := call(context.Background(), t, c)
	require.Error(t, err)
	atts := rec.Attempts()
	require.Len(t, atts, 2)
	assert.Equal(t, "eth_chainId", atts[0].Op, "Op defaults to the method")
	assert.True(t, atts[0].WillRetry)
	assert.False(t, atts[1].WillRetry)
	assert.Zero(t, atts[1].Retry)
	assert.Same(t, err, atts[1].Err, "the last attempt's error is the call's error")
}

func TestHookGetWithQuery(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) { io.WriteString(w, "{}") })
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, escKey, nodeaccess.WithHook(rec.Hook))
	tg, err := c.Target("{key}/api/v3/{op}", "op", "walletStates")
	require.NoError(t, err)
	resp, err := c.Do(context.Background(), &Request{Op: "walletStates", Target: tg, Query: map[string][]string{"address": {"a+b"}}})
	require.NoError(t, err)
	resp.Release()
	atts := rec.Attempts()
	require.Len(t, atts, 1)
	assert.Equal(t, "GET", atts[0].Method)
	assert.Equal(t, srv.URL+"/REDACTED/api/v3/walletStates?address=a%2Bb", atts[0].URL)
	assert.Equal(t, int64(2), atts[0].Bytes)
}

// logRecords parses the JSON log lines.
func logRecords(t *testing.T, s string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), sc.Text())
		out = append(out, m)
	}
	return out
}

func TestLoggerLevels(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, twoFailuresThenOK)
	var buf syncBuffer
	l := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithLogger(l))
	res, err := call(context.Background(), t, c)
	require.NoError(t, err)
	res.Release()

	recs := logRecords(t, buf.String())
	require.Len(t, recs, 3)
	for i, r := range recs {
		assert.Equal(t, "test", r["chain"])
		assert.Equal(t, "eth_chainId", r["op"])
		assert.Equal(t, "POST", r["method"])
		assert.Equal(t, srv.URL+"/REDACTED", r["url"])
		assert.Equal(t, float64(i+1), r["attempt"])
		assert.Contains(t, r, "duration")
		if i < 2 {
			assert.Equal(t, "INFO", r["level"])
			assert.Equal(t, "nodeaccess: request failed, retrying", r["msg"])
			assert.Equal(t, float64(503), r["status"])
			assert.Equal(t, float64(4), r["bytes"])
			assert.Equal(t, "HTTP 503 Service Unavailable: busy", r["error"])
			assert.Contains(t, r, "retry_in")
		} else {
			assert.Equal(t, "DEBUG", r["level"])
			assert.Equal(t, "nodeaccess: request", r["msg"])
			assert.Equal(t, float64(200), r["status"])
			assert.NotContains(t, r, "error")
			assert.NotContains(t, r, "retry_in")
		}
	}

	// The final failure is a Warn without retry_in; at Info level the
	// successes are not logged.
	srv2, _ := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			io.WriteString(w, okBody)
			return
		}
		w.WriteHeader(404)
	})
	var buf2 syncBuffer
	l2 := slog.New(slog.NewJSONHandler(&buf2, &slog.HandlerOptions{Level: slog.LevelInfo}))
	c2 := newClient(t, srv2.URL, testKey, fast, nodeaccess.WithLogger(l2))
	res, err = call(context.Background(), t, c2)
	require.NoError(t, err)
	res.Release()
	_, err = call(context.Background(), t, c2)
	require.Error(t, err)
	recs = logRecords(t, buf2.String())
	require.Len(t, recs, 1)
	assert.Equal(t, "WARN", recs[0]["level"])
	assert.Equal(t, "nodeaccess: request failed", recs[0]["msg"])
	assert.Equal(t, "HTTP 404 Not Found", recs[0]["error"])
	assert.NotContains(t, recs[0], "retry_in")
}

// TestSilentByDefault: without WithLogger and WithHook nothing is written
// to the default logger or to standard error. It swaps globals, so it does
// not run in parallel.
func TestSilentByDefault(t *testing.T) {
	var logged syncBuffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug})))
	defer slog.SetDefault(prev)
	r, w, err := os.Pipe()
	require.NoError(t, err)
	stderr := os.Stderr
	os.Stderr = w
	defer func() { os.Stderr = stderr }()
	var captured bytes.Buffer
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(&captured, r)
		close(done)
	}()

	srv, _ := serve(t, twoFailuresThenOK)
	c := newClient(t, srv.URL, testKey, fast)
	res, err := call(context.Background(), t, c)
	require.NoError(t, err)
	res.Release()
	_, err = call(context.Background(), t, newClient(t, "http://"+closedPort(t), testKey, fast))
	require.Error(t, err)

	os.Stderr = stderr
	require.NoError(t, w.Close())
	<-done
	assert.NotContains(t, logged.String(), "nodeaccess")
	assert.NotContains(t, captured.String(), "nodeaccess")
	assert.NotContains(t, logged.String(), "REDACTED")
	assert.NotContains(t, captured.String(), "REDACTED")
}

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct{ r testkit.Recorder }

func (b *syncBuffer) Write(p []byte) (int, error) { return b.r.Write(p) }
func (b *syncBuffer) String() string              { return b.r.Log() }
