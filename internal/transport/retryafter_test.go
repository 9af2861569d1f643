package transport

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// retryAfterShapes are Retry-After values a server may send, and whether
// each asks for a wait longer than the default cap (the call ends at once)
// or is read as absent (the backoff applies).
var retryAfterShapes = []struct {
	v    string
	long bool
}{
	{"99999999999999999999", true}, // beyond int64
	{strings.Repeat("9", 400), true},
	{"+99999999999999999999", true},
	{"9223372036854775807", true}, // int64's largest
	{"9223372036854775808", true}, // one past it
	{"2147483649", true},          // past the 2^31 s clamp
	{"00000000000000000000000000000120", true},
	{"86400", true},
	{"Fri, 31 Dec 9999 23:59:59 GMT", true}, // the latest HTTP date
	{"-99999999999999999999", false},        // negative, beyond int64
	{"-1", false},
	{"0", false},
	{"garbage", false},
	{"99999999999999999999x", false},
	{"+-99999999999999999999", false},
	{"--99999999999999999999", false},
	{"1e30", false},
	{"", false},
}

func TestParseRetryAfterOverflow(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range retryAfterShapes {
		got := parseRetryAfter(tc.v, now)
		if tc.long {
			assert.Greater(t, got, config.DefaultMaxRetryAfter, "%q", tc.v)
			assert.LessOrEqual(t, got, maxRetryAfter, "%q", tc.v)
		} else {
			assert.Zero(t, got, "%q", tc.v)
		}
	}
	assert.Equal(t, maxRetryAfter, parseRetryAfter("99999999999999999999", now))
	assert.Equal(t, maxRetryAfter, parseRetryAfter("Fri, 31 Dec 9999 23:59:59 GMT", now))
	assert.Equal(t, 120*time.Second, parseRetryAfter("00000000000000000000000000000120", now))
}

// TestRetryAfterOverflowEndsTheCall: a 429 whose Retry-After is longer than
// the cap, however it is written, ends the call after one attempt with the
// server's error; one read as absent is retried.
func TestRetryAfterOverflowEndsTheCall(t *testing.T) {
	t.Parallel()
	for _, tc := range retryAfterShapes {
		srv, cnt := serve(t, statusThenOK(100, 429, http.Header{"Retry-After": {tc.v}}, "slow down"))
		rec := &testkit.Recorder{}
		c := newClient(t, srv.URL, testKey, rec.Option(), fast)
		start := time.Now()
		_, err := call(context.Background(), t, c)
		within(t, time.Since(start), 5*time.Second, "a 429 with Retry-After "+tc.v)
		var he *nodeaccess.HTTPError
		require.ErrorAs(t, err, &he, "%q", tc.v)
		assert.ErrorIs(t, err, nodeaccess.ErrRateLimited)
		if tc.long {
			assert.Equal(t, 1, cnt.Get(), "%q: retried", tc.v)
			assert.Positive(t, he.RetryAfter, "%q", tc.v)
			assert.False(t, rec.Attempts()[0].WillRetry, "%q", tc.v)
		} else {
			assert.Equal(t, config.DefaultMaxAttempts, cnt.Get(), "%q: not retried", tc.v)
			assert.Zero(t, he.RetryAfter, "%q", tc.v)
		}
	}
}
