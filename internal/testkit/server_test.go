package testkit_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServeCounts(t *testing.T) {
	srv, cnt := testkit.Serve(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		fmt.Fprint(w, n)
	})
	assert.Zero(t, cnt.Get())
	for want := 1; want <= 3; want++ {
		res, err := http.Get(srv.URL)
		require.NoError(t, err)
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		require.NoError(t, res.Body.Close())
		assert.Equal(t, fmt.Sprint(want), string(b))
		assert.Equal(t, want, cnt.Get())
	}
}

func TestHijack(t *testing.T) {
	srv, _ := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		conn, rw := testkit.Hijack(t, w, r)
		defer conn.Close()
		fmt.Fprint(rw, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort")
		_ = rw.Flush()
	})
	res, err := http.Post(srv.URL, "text/plain", strings.NewReader("body"))
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	assert.Equal(t, "short", string(b))
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
}

func TestRecorder(t *testing.T) {
	var r testkit.Recorder
	assert.NotEqual(t, nodeaccess.Option{}, r.Option())
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Hook(context.Background(), nodeaccess.Attempt{Chain: "evm", Number: i + 1})
		}()
	}
	wg.Wait()
	got := r.Attempts()
	assert.Len(t, got, 8)
	got[0].Chain = "changed"
	assert.Equal(t, "evm", r.Attempts()[0].Chain, "Attempts returns a copy")

	slog.New(slog.NewTextHandler(&r, nil)).Info("hello", "k", "v")
	assert.Equal(t, "hello", strings.Fields(r.Log())[2][len("msg="):])
}

// errorCatcher is a testing.TB whose Errorf is recorded, not reported.
type errorCatcher struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (e *errorCatcher) Errorf(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.errors = append(e.errors, fmt.Sprintf(format, args...))
}

// TestServeFailsOnPanic: a handler that panics fails the test, naming the
// panic and the request, and the client sees the connection dropped;
// http.ErrAbortHandler (Hijack's way out) drops it without failing.
func TestServeFailsOnPanic(t *testing.T) {
	for _, tc := range []struct {
		name  string
		h     func()
		wants string
	}{
		{"index out of range", func() { _ = strings.Split("k", " ")[1] }, "index out of range [1] with length 1"},
		{"abort", func() { panic(http.ErrAbortHandler) }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ec := &errorCatcher{TB: t}
			srv, _ := testkit.Serve(ec, func(http.ResponseWriter, *http.Request, int) { tc.h() })
			_, err := http.Get(srv.URL + "/p")
			assert.Error(t, err) // the connection was dropped
			srv.Close()
			ec.mu.Lock()
			defer ec.mu.Unlock()
			if tc.wants == "" {
				assert.Empty(t, ec.errors)
				return
			}
			require.Len(t, ec.errors, 1)
			assert.Contains(t, ec.errors[0], "handler panicked on GET /p")
			assert.Contains(t, ec.errors[0], tc.wants)
		})
	}
}
