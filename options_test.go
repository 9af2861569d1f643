package nodeaccess_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/config"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOptionsRejectBadValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		opt  nodeaccess.Option
		want string
	}{
		{nodeaccess.WithHTTPClient(nil), "WithHTTPClient: nil *http.Client"},
		{nodeaccess.WithRoundTripper(nil), "WithRoundTripper: nil http.RoundTripper"},
		{nodeaccess.WithMaxAttempts(0), "WithMaxAttempts: 0 is outside 1..20"},
		{nodeaccess.WithMaxAttempts(-1), "WithMaxAttempts: -1 is outside 1..20"},
		{nodeaccess.WithMaxAttempts(21), "WithMaxAttempts: 21 is outside 1..20"},
		{nodeaccess.WithBackoff(0, time.Second), "WithBackoff: need 0 < base <= max, got base 0s, max 1s"},
		{nodeaccess.WithBackoff(-time.Second, time.Second), "WithBackoff: need 0 < base <= max"},
		{nodeaccess.WithBackoff(2*time.Second, time.Second), "WithBackoff: need 0 < base <= max, got base 2s, max 1s"},
		{nodeaccess.WithMaxRetryAfter(-time.Second), "WithMaxRetryAfter: negative duration -1s"},
		{nodeaccess.WithTimeout(0), "WithTimeout: 0s is not a positive duration"},
		{nodeaccess.WithTimeout(-time.Millisecond), "WithTimeout: -1ms is not a positive duration"},
		{nodeaccess.WithMaxResponseBytes(0), "WithMaxResponseBytes: 0 is not positive"},
		{nodeaccess.WithMaxResponseBytes(-5), "WithMaxResponseBytes: -5 is not positive"},
		{nodeaccess.WithHook(nil), "WithHook: nil func"},
		{nodeaccess.WithLogger(nil), "WithLogger: nil *slog.Logger"},
		{nodeaccess.WithUserAgent("app/1\r\nX-Evil: 1"), `WithUserAgent: "app/1\r\nX-Evil: 1"`},
		{nodeaccess.WithUserAgent("app/1\n"), `WithUserAgent: "app/1\n"`},
		{nodeaccess.WithUserAgent("app\x00/1"), `WithUserAgent: "app\x00/1"`},
		{nodeaccess.WithUserAgent("app\x7f/1"), `WithUserAgent: "app\x7f/1"`},
	} {
		var cfg config.Config
		_, _, f, _ := config.Open(tc.opt)
		err := f(&cfg)
		require.Error(t, err, tc.want)
		assert.Contains(t, err.Error(), tc.want)

		// The constructor fails with an error that matches ErrInvalidInput.
		_, err = evm.New("https://node.example", "sEcReT-k3y", tc.opt)
		require.Error(t, err, tc.want)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie)
		assert.Equal(t, "option", ie.Arg)
		assert.Contains(t, err.Error(), tc.want)
		assert.NotContains(t, err.Error(), "sEcReT")
	}
}

func TestOptionsSetConfig(t *testing.T) {
	t.Parallel()
	apply := func(opts ...nodeaccess.Option) config.Config {
		t.Helper()
		var cfg config.Config
		for _, o := range opts {
			_, _, f, ok := config.Open(o)
			require.True(t, ok)
			require.NoError(t, f(&cfg))
		}
		return cfg
	}
	hc := &http.Client{}
	rt := &http.Transport{}
	l := slog.New(slog.NewTextHandler(io.Discard, nil))
	var hooked int
	cfg := apply(
		nodeaccess.WithHTTPClient(hc),
		nodeaccess.WithRoundTripper(rt),
		nodeaccess.WithMaxAttempts(20),
		nodeaccess.WithBackoff(time.Millisecond, time.Millisecond),
		nodeaccess.WithMaxRetryAfter(time.Minute),
		nodeaccess.WithTimeout(time.Second),
		nodeaccess.WithMaxResponseBytes(1<<40),
		nodeaccess.WithHook(func(context.Context, nodeaccess.Attempt) { hooked++ }),
		nodeaccess.WithLogger(l),
		nodeaccess.WithUserAgent("app/1.0 (+https://app.example; tab\tok; é)"),
		nodeaccess.WithoutRPCIDCheck(),
	)
	assert.Same(t, hc, cfg.HTTPClient)
	assert.Equal(t, http.RoundTripper(rt), cfg.RoundTripper)
	assert.Equal(t, 20, cfg.MaxAttempts)
	assert.True(t, cfg.MaxRetryAfterSet)
	assert.Equal(t, time.Millisecond, cfg.BackoffBase)
	assert.Equal(t, time.Millisecond, cfg.BackoffMax)
	assert.Equal(t, time.Minute, cfg.MaxRetryAfter)
	assert.Equal(t, time.Second, cfg.Timeout)
	assert.Equal(t, int64(1<<40), cfg.MaxResponseBytes)
	require.IsType(t, func(context.Context, nodeaccess.Attempt) {}, cfg.Hook)
	cfg.Hook.(func(context.Context, nodeaccess.Attempt))(context.Background(), nodeaccess.Attempt{})
	assert.Equal(t, 1, hooked)
	assert.Same(t, l, cfg.Logger)
	assert.Equal(t, "app/1.0 (+https://app.example; tab\tok; é)", cfg.UserAgent)
	assert.True(t, cfg.RelaxRPCID)

	cfg = apply(nodeaccess.WithMaxAttempts(1))
	assert.Equal(t, 1, cfg.MaxAttempts)

	// Later options replace earlier ones.
	cfg = apply(nodeaccess.WithMaxAttempts(5), nodeaccess.WithMaxAttempts(1))
	assert.Equal(t, 1, cfg.MaxAttempts)

	// Zero Retry-After cap: accepted (every Retry-After then ends the call),
	// and not mistaken for "unset".
	cfg = apply(nodeaccess.WithMaxRetryAfter(0))
	assert.Zero(t, cfg.MaxRetryAfter)
	assert.True(t, cfg.MaxRetryAfterSet)
}

// TestDefaults: the defaults a client starts from are the values the
// options' comments give (3 attempts, backoff 200 ms to 5 s, Retry-After up
// to 30 s, 32 MiB bodies, 30 s per attempt).
func TestDefaults(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 3, config.DefaultMaxAttempts)
	assert.Equal(t, 200*time.Millisecond, config.DefaultBackoffBase)
	assert.Equal(t, 5*time.Second, config.DefaultBackoffMax)
	assert.Equal(t, 30*time.Second, config.DefaultMaxRetryAfter)
	assert.Equal(t, 32<<20, config.DefaultMaxResponseBytes)
	assert.Equal(t, 30*time.Second, config.DefaultTimeout)
	assert.Regexp(t, `^\d+\.\d+\.\d+`, nodeaccess.Version)
}
