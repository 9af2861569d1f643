package testkit

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"sync/atomic"
	"testing"
)

// Counter counts a test server's requests. Its zero value is ready; it is
// safe for concurrent use.
type Counter struct{ n atomic.Int32 }

// Next counts one more request and returns the count, from 1.
func (c *Counter) Next() int { return int(c.n.Add(1)) }

// Get returns the number of requests counted so far.
func (c *Counter) Get() int { return int(c.n.Load()) }

// Serve starts an httptest server that runs h on each request with the
// request's number (from 1), and closes it when the test ends. The Counter
// tells how many requests came. A panic in h fails the test (but
// http.ErrAbortHandler, the way to drop a connection on purpose), rather
// than being logged by net/http while the client sees an error the test
// may expect anyway.
func Serve(t testing.TB, h func(w http.ResponseWriter, r *http.Request, n int)) (*httptest.Server, *Counter) {
	t.Helper()
	cnt := &Counter{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v != http.ErrAbortHandler {
					t.Errorf("test server: handler panicked on %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
				}
				panic(http.ErrAbortHandler) // the connection is dropped, as net/http drops it
			}
		}()
		h(w, r, cnt.Next())
	}))
	t.Cleanup(srv.Close)
	return srv, cnt
}

// Hijack reads the request's body and takes over a test server's
// connection, to write broken responses by hand. If the connection cannot
// be taken over it fails the test and aborts the handler.
func Hijack(t testing.TB, w http.ResponseWriter, r *http.Request) (net.Conn, *bufio.ReadWriter) {
	_, _ = io.Copy(io.Discard, r.Body)
	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		t.Errorf("hijack: %v", err)
		panic(http.ErrAbortHandler)
	}
	return conn, rw
}
