package transport

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type traceKey struct{}

// ctxHandler is a slog.Handler that keeps, for every record, the trace id
// found in the context the record was logged with, and the record's text.
type ctxHandler struct {
	mu     *sync.Mutex
	traces *[]any
	texts  *[]string
}

func (h ctxHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h ctxHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h ctxHandler) WithGroup(string) slog.Handler            { return h }
func (h ctxHandler) Handle(ctx context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool { b.WriteString(" " + a.String()); return true })
	h.mu.Lock()
	defer h.mu.Unlock()
	*h.traces = append(*h.traces, ctx.Value(traceKey{}))
	*h.texts = append(*h.texts, b.String())
	return nil
}

// The hook and the logger get the caller's context, for every attempt (a
// success, a retried failure, a final failure): a value the caller put in
// it reaches both, as a tracer needs. The context is the caller's own, not
// the attempt's: it is still live after the call (an attempt's context ends
// with the attempt) and the hook cannot hold an attempt open through it.
// The key reaches neither.
func TestHookAndLoggerGetCallersContext(t *testing.T) {
	for _, key := range []string{testKey, escKey} {
		srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
			switch n {
			case 1:
				http.Error(w, "busy "+key, http.StatusServiceUnavailable)
			case 2:
				rpcOK(w, r, `"0x1"`)
			default:
				http.Error(w, "gone", http.StatusInternalServerError)
			}
		})
		var (
			mu     sync.Mutex
			hooked []context.Context
			traces []any
			texts  []string
		)
		hook := func(ctx context.Context, a nodeaccess.Attempt) {
			mu.Lock()
			defer mu.Unlock()
			hooked = append(hooked, ctx)
		}
		l := slog.New(ctxHandler{mu: &mu, traces: &traces, texts: &texts})
		c := newClient(t, srv.URL, key, fast, nodeaccess.WithMaxAttempts(2), nodeaccess.WithHook(hook), nodeaccess.WithLogger(l))

		ctx := context.WithValue(context.Background(), traceKey{}, "trace-1")
		_, err := call(ctx, t, c) // a 503, retried, then a success
		require.NoError(t, err)
		ctx2 := context.WithValue(context.Background(), traceKey{}, "trace-2")
		_, err = call(ctx2, t, c) // a 500: not retried, the final failure
		require.Error(t, err)

		mu.Lock()
		require.Len(t, hooked, 3)
		assert.Equal(t, []any{"trace-1", "trace-1", "trace-2"}, traces, "the logger's contexts")
		for i, want := range []context.Context{ctx, ctx, ctx2} {
			assert.True(t, hooked[i] == want, "attempt %d: the hook got another context than the caller's", i+1)
			assert.NoError(t, hooked[i].Err(), "attempt %d: the hook's context ended with the call", i+1)
		}
		for _, s := range texts {
			assert.NotContains(t, s, key)
		}
		mu.Unlock()
	}
}

// When the caller's context ends the call, the hook sees that context, ended.
func TestHookSeesCallerCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	stop := make(chan struct{})
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		cancel()
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	})
	t.Cleanup(func() { close(stop) }) // before the server closes
	var got context.Context
	c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithHook(func(hctx context.Context, a nodeaccess.Attempt) { got = hctx }))
	_, err := call(ctx, t, c)
	require.ErrorIs(t, err, context.Canceled)
	require.NotNil(t, got)
	assert.True(t, got == ctx)
	assert.ErrorIs(t, got.Err(), context.Canceled)
}
