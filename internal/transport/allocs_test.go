package transport

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestAttemptAllocs pins what an attempt's own objects cost: its context,
// the request with its body and GetBody, and the context net/http derives
// from the attempt's for the request (context.WithCancelCause, then Done,
// then cancelled when the response is done with), for a small JSON-RPC body
// under each kind of caller context. The network side is net/http's and is
// measured in bench/ (see bench/README.md).
func TestAttemptAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	c := newClient(t, "https://node.example", testKey)
	r := &Request{Method: http.MethodPost, Target: rpcTarget(t, c),
		Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0x00000000000000000000000000000000000000aa","data":"0x70a08231"},"latest"]}`)}
	cancelable, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, tc := range []struct {
		name   string
		parent context.Context
		max    float64
	}{
		// rootAttempt with its body (1), its Done channel (1), the body's
		// io.NopCloser (1) and GetBody (1), the *http.Request (1);
		// net/http's context (2), its Done channel (1), and hooking it to
		// the attempt through AfterFunc (3).
		{"background", context.Background(), 11},
		// attemptCtx with its body (1), its context.WithCancelCause (2) and
		// Done channel (1), the body's io.NopCloser (1) and GetBody (1),
		// the *http.Request (1); net/http's context (2), its Done channel
		// (1), and hooking it to the attempt's cancelCtx (its children
		// map, 2).
		{"cancelable", cancelable, 12},
	} {
		got := testing.AllocsPerRun(1000, func() {
			a := newAttempt(tc.parent, time.Minute)
			req := c.newRequest(a, r, a.body())
			ctx, cancel := context.WithCancelCause(req.Context())
			_ = ctx.Done()
			cancel(nil)
			a.end()
		})
		assert.LessOrEqual(t, got, tc.max, tc.name)
		t.Logf("%s: %v allocations per attempt", tc.name, got)
	}
}
