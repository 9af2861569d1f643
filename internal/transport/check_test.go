package transport

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheck: Request.Check sees each 2xx body of Do; a Retryable error from
// it retries the attempt, a plain one ends the call, nil lets the body
// through.
func TestCheck(t *testing.T) {
	t.Parallel()
	errBusy := errors.New("busy in a 200")
	check := func(body []byte) error {
		switch string(body) {
		case "busy":
			return Retryable(errBusy)
		case "bad":
			return errors.New("bad in a 200")
		}
		return nil
	}
	for _, tc := range []struct {
		name     string
		bodies   []string // what the server answers, in order (the last one repeats)
		want     string   // body returned, or "" for an error
		wantErr  error
		attempts int64
	}{
		{"passes", []string{"fine"}, "fine", nil, 1},
		{"retried then fine", []string{"busy", "busy", "fine"}, "fine", nil, 3},
		{"retried until attempts run out", []string{"busy"}, "", errBusy, 3},
		{"not retryable", []string{"bad", "fine"}, "", nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var n atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				i := int(n.Add(1)) - 1
				_, _ = io.WriteString(w, tc.bodies[min(i, len(tc.bodies)-1)])
			}))
			t.Cleanup(srv.Close)
			var hooks []nodeaccess.Attempt
			c, err := New(Settings{Chain: "test", BaseURL: srv.URL, Key: "k3y", Options: funcs(
				nodeaccess.WithBackoff(time.Millisecond, time.Millisecond),
				nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) { hooks = append(hooks, a) }),
			)})
			require.NoError(t, err)
			target, err := c.Target("{key}/x")
			require.NoError(t, err)
			resp, err := c.Do(context.Background(), &Request{Op: "op", Method: http.MethodGet, Target: target, Check: check})
			assert.Equal(t, tc.attempts, n.Load())
			require.Len(t, hooks, int(tc.attempts))
			if tc.want != "" {
				require.NoError(t, err)
				assert.Equal(t, tc.want, string(resp.Body))
				resp.Release()
				return
			}
			require.Error(t, err)
			if tc.wantErr != nil {
				assert.Same(t, tc.wantErr, err, "the check's error, unwrapped from Retryable")
			} else {
				assert.EqualError(t, err, "bad in a 200")
			}
			assert.Equal(t, 200, hooks[0].StatusCode)
			assert.Equal(t, tc.attempts > 1, hooks[0].WillRetry)
		})
	}
}

// TestMaskCut: the key is masked before the cut, so a key the cut would
// split leaves no piece behind; cuts fall on character boundaries.
func TestMaskCut(t *testing.T) {
	t.Parallel()
	c, err := New(Settings{Chain: "test", BaseURL: "https://node.example", Key: "k3y-SECRET"})
	require.NoError(t, err)
	for pad := 0; pad < 12; pad++ {
		s := strings.Repeat("x", 20-pad) + "k3y-SECRET and more"
		got := c.MaskCut(s, 24)
		assert.NotContains(t, got, "k3y", "pad %d: %q", pad, got)
		assert.LessOrEqual(t, len(got), 24+len("…"))
	}
	assert.Equal(t, "short", Cut("short", 5))
	assert.Equal(t, "ab…", Cut("abé", 3), "é (2 bytes) is dropped whole")
	assert.Equal(t, "…", Cut("éé", 1))
}
