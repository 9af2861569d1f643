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
