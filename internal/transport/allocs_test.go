package transport

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
)

// cannedRT answers every request with a JSON-RPC result echoing id 1..n, in
// process, so that an allocation count sees the client's work only.
type cannedRT struct{ id int }

func (c *cannedRT) RoundTrip(r *http.Request) (*http.Response, error) {
	c.id++
	body := []byte(`{"jsonrpc":"2.0","id":` + itoa(c.id) + `,"result":"0x1"}`)
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

func itoa(n int) string {
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// callAllocs counts the allocations of one successful JSON-RPC call through
// c, the in-process transport's own included.
func callAllocs(t *testing.T, c *Client) float64 {
	tg := rpcTarget(t, c)
	ctx := context.Background()
	return testing.AllocsPerRun(200, func() {
		res, err := c.CallRPC(ctx, &RPC{Target: tg, Method: "eth_chainId", Params: []byte("[]")})
		if err != nil {
			t.Fatal(err)
		}
		res.Release()
	})
}

// TestSuccessAllocs: masking costs the success path nothing. The bounds are
// the counts measured when the matcher replaced the list of spellings (17
// through a RoundTripper, 23 through an *http.Client, the canned transport's
// own allocations included), plus the 2 that each attempt's own cancellable
// context costs since the leak fix of issue 11.6 (TestAttemptAllocs pins
// those); a key that needs escaping costs no more than a plain one.
func TestSuccessAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	for _, key := range []string{testKey, escKey} {
		rt := newClient(t, "https://node.example", key, nodeaccess.WithRoundTripper(&cannedRT{}))
		assert.LessOrEqual(t, callAllocs(t, rt), 19.0, "through a RoundTripper, key %q", key)
		hc := newClient(t, "https://node.example", key, nodeaccess.WithHTTPClient(&http.Client{Transport: &cannedRT{}}))
		assert.LessOrEqual(t, callAllocs(t, hc), 25.0, "through an *http.Client, key %q", key)
	}
}

// TestAttemptAllocs pins what an attempt's own objects cost: its context,
// the request with its body and GetBody, and the context net/http derives
// from the attempt's for the request (context.WithCancelCause, then Done,
// then cancelled when the response is done with), for a small JSON-RPC body
// under each kind of caller context. The network side is net/http's and is
// measured in bench/ (see bench/RESULTS.md).
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
