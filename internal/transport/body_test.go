package transport

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeLog is a connection that records each Write the client makes.
type writeLog struct {
	net.Conn
	mu     *sync.Mutex
	writes *[]string
}

func (w writeLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	*w.writes = append(*w.writes, string(p))
	w.mu.Unlock()
	return w.Conn.Write(p)
}

// TestRequestOneWrite: a request with a body leaves in one write, headers
// and body together (net/http flushes the headers on their own first for a
// body it does not know to be in memory), and those bytes are the request,
// exactly: request line, headers in net/http's order, body. Bodies that
// fit the bodyBox and bodies that do not, under both kinds of attempt
// context, and a caller's deadline earlier than the attempt's (no attempt
// context of its own).
func TestRequestOneWrite(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":"0x1"}`)
	})
	var (
		mu     sync.Mutex
		writes []string
	)
	tr := DefaultTransport()
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return writeLog{Conn: conn, mu: &mu, writes: &writes}, nil
	}
	t.Cleanup(tr.CloseIdleConnections)
	c := newClient(t, srv.URL, testKey, nodeaccess.WithRoundTripper(tr), nodeaccess.WithoutRPCIDCheck())
	ctxs := map[string]func() (context.Context, context.CancelFunc){
		"background": func() (context.Context, context.CancelFunc) { return context.Background(), func() {} },
		"cancelable": func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) },
		"earlier deadline": func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), config.DefaultTimeout/2)
		},
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	for name, mk := range ctxs {
		for _, n := range []int{0, 1, inlineBody, 3000} {
			mu.Lock()
			writes = nil
			mu.Unlock()
			params := `["` + strings.Repeat("a", n) + `"]`
			ctx, cancel := mk()
			res, err := c.CallRPC(ctx, &RPC{Target: rpcTarget(t, c), Method: "m", Params: []byte(params)})
			cancel()
			require.NoError(t, err, "%s, %d bytes", name, n)
			res.Release()
			id := c.ids.Load()
			body := `{"jsonrpc":"2.0","id":` + strconv.FormatUint(id, 10) + `,"method":"m","params":` + params + `}`
			want := "POST /" + testKey + " HTTP/1.1\r\n" +
				"Host: " + host + "\r\n" +
				"User-Agent: nodeaccess-go/" + nodeaccess.Version + "\r\n" +
				"Content-Length: " + strconv.Itoa(len(body)) + "\r\n" +
				"Accept: application/json\r\n" +
				"Content-Type: application/json\r\n" +
				"Accept-Encoding: gzip\r\n" +
				"\r\n" + body
			mu.Lock()
			got := writes
			mu.Unlock()
			assert.Equal(t, []string{want}, got, "%s, params of %d bytes", name, n)
		}
	}
}

// TestRequestGetBody: GetBody gives a new reader over the request's bytes
// each time, whatever was read before from the body or from another
// GetBody reader (net/http resends a body through it), for a body that fits
// the bodyBox and one that does not.
func TestRequestGetBody(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, inlineBody, inlineBody + 1, 5000} {
		body := bytes.Repeat([]byte("x"), n)
		body[0], body[n-1] = 'a', 'z'
		c := newClient(t, "https://node.example", testKey)
		tg := rpcTarget(t, c)
		req := c.newRequest(context.Background(), &Request{Method: http.MethodPost, Target: tg, Body: body}, nil)
		clear(body) // the request has its own copy
		want := bytes.Repeat([]byte("x"), n)
		want[0], want[n-1] = 'a', 'z'
		assert.Equal(t, int64(n), req.ContentLength)
		got, err := io.ReadAll(req.Body)
		require.NoError(t, err)
		assert.Equal(t, want, got, "Body, %d bytes", n)
		require.NoError(t, req.Body.Close())
		r1, err := req.GetBody()
		require.NoError(t, err)
		half := make([]byte, n/2)
		_, err = io.ReadFull(r1, half)
		require.NoError(t, err)
		r2, err := req.GetBody()
		require.NoError(t, err)
		got, err = io.ReadAll(r2)
		require.NoError(t, err)
		assert.Equal(t, want, got, "GetBody after a half-read GetBody, %d bytes", n)
		rest, err := io.ReadAll(r1)
		require.NoError(t, err)
		assert.Equal(t, want, append(half, rest...), "the half-read GetBody, %d bytes", n)
	}
}
