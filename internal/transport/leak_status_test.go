package transport

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A server that echoes the request path in its status line: the error keeps
// its type (Wrap does not have to replace it) and shows no key.
func TestKeyInStatusLine(t *testing.T) {
	t.Parallel()
	for _, key := range []string{testKey, escKey} {
		srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
			conn, buf, err := http.NewResponseController(w).Hijack()
			if err != nil {
				return
			}
			defer conn.Close()
			fmt.Fprintf(buf, "HTTP/1.1 429 Too many requests for %s\r\nContent-Type: text/plain; key=%s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", r.URL.Path, r.URL.EscapedPath())
			_ = buf.Flush()
		})
		c := newClient(t, srv.URL, key, fast, nodeaccess.WithMaxAttempts(1))
		_, err := call(context.Background(), t, c)
		err = c.Wrap("eth_chainId", err)
		require.Error(t, err)
		assert.ErrorIs(t, err, nodeaccess.ErrRateLimited)
		var he *nodeaccess.HTTPError
		require.True(t, errors.As(err, &he), "the typed error survives: %v", err)
		assert.Equal(t, 429, he.StatusCode)
		assert.Contains(t, he.Status, "REDACTED")
		for _, s := range []string{err.Error(), fmt.Sprintf("%+v %#v", err, he), he.Status, he.ContentType} {
			testkit.AssertNoKey(t, key, "status line", s)
		}
	}
}

// A query value that holds the key (some providers take it as api_key) is
// masked in the hook, the log and the error alike.
func TestKeyInQueryMasked(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	rec := &testkit.Recorder{}
	var logs syncBuffer
	c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithMaxAttempts(2), nodeaccess.WithHook(rec.Hook),
		nodeaccess.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	tg, err := c.Target("api/v2/getBlock")
	require.NoError(t, err)
	_, err = c.Do(context.Background(), &Request{Op: "getBlock", Target: tg, Query: url.Values{"api_key": {testKey}}})
	require.Error(t, err)
	atts := rec.Attempts()
	require.Len(t, atts, 2)
	for _, a := range atts {
		assert.Equal(t, srv.URL+"/api/v2/getBlock?api_key=REDACTED", a.URL)
		testkit.AssertNoKey(t, testKey, "hook", fmt.Sprintf("%+v", a))
	}
	testkit.AssertNoKey(t, testKey, "log", logs.String())
	testkit.AssertNoKey(t, testKey, "error", fmt.Sprintf("%+v", c.Wrap("getBlock", err)))
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, srv.URL+"/api/v2/getBlock?api_key=REDACTED", he.URL)
}
