package transport

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
)

func TestDefaults(t *testing.T) {
	t.Parallel()
	c := newClient(t, "https://node.example", testKey)
	assert.Equal(t, config.DefaultMaxAttempts, c.attempts)
	assert.Equal(t, 3, c.attempts)
	cfg := c.Config()
	assert.Equal(t, 200*time.Millisecond, cfg.BackoffBase)
	assert.Equal(t, 5*time.Second, cfg.BackoffMax)
	assert.Equal(t, 30*time.Second, cfg.MaxRetryAfter)
	assert.Equal(t, int64(32<<20), cfg.MaxResponseBytes)
	assert.Equal(t, 30*time.Second, c.timeout(&Request{}))
	assert.Equal(t, time.Minute, c.timeout(&Request{Timeout: time.Minute}), "the operation's default")
	assert.Nil(t, c.hook)
	assert.Nil(t, c.log)
	assert.Nil(t, c.hc)
	assert.Same(t, sharedTransport, c.rt)
	assert.True(t, c.ownRT)
	assert.Equal(t, []string{"nodeaccess-go/" + nodeaccess.Version}, c.ua)
	assert.False(t, cfg.RelaxRPCID)

	// Clients share the default transport, so connections are pooled.
	c2 := newClient(t, "https://other.example", testKey)
	assert.Same(t, c.rt, c2.rt)
}

func TestDefaultTransport(t *testing.T) {
	t.Parallel()
	tr := DefaultTransport()
	assert.GreaterOrEqual(t, tr.MaxIdleConnsPerHost, 64)
	assert.GreaterOrEqual(t, tr.MaxIdleConns, tr.MaxIdleConnsPerHost)
	assert.True(t, tr.ForceAttemptHTTP2)
	assert.NotNil(t, tr.Proxy)
	assert.NotNil(t, tr.DialContext)
	assert.Positive(t, tr.TLSHandshakeTimeout)
	assert.Positive(t, tr.IdleConnTimeout)
	assert.NotSame(t, tr, DefaultTransport(), "a fresh transport each call")
}

func TestOptionsApplied(t *testing.T) {
	t.Parallel()
	hook := func(context.Context, nodeaccess.Attempt) {}
	hc := &http.Client{}
	rt := &canned{}
	c := newClient(t, "https://node.example", testKey,
		nodeaccess.WithMaxAttempts(7), nodeaccess.WithBackoff(time.Second, time.Minute),
		nodeaccess.WithMaxRetryAfter(time.Hour), nodeaccess.WithTimeout(3*time.Second),
		nodeaccess.WithMaxResponseBytes(1000), nodeaccess.WithHook(hook),
		nodeaccess.WithUserAgent("x/1"), nodeaccess.WithoutRPCIDCheck(),
		nodeaccess.WithRoundTripper(rt), nodeaccess.Option{})
	assert.Equal(t, 7, c.attempts)
	cfg := c.Config()
	assert.Equal(t, time.Second, cfg.BackoffBase)
	assert.Equal(t, time.Minute, cfg.BackoffMax)
	assert.Equal(t, time.Hour, cfg.MaxRetryAfter)
	assert.Equal(t, 3*time.Second, c.timeout(&Request{Timeout: time.Minute}), "WithTimeout replaces the operation's default")
	assert.Equal(t, int64(1000), cfg.MaxResponseBytes)
	assert.NotNil(t, c.hook)
	assert.True(t, cfg.RelaxRPCID)
	assert.Equal(t, []string{"nodeaccess-go/" + nodeaccess.Version + " x/1"}, c.ua)
	assert.Same(t, rt, c.rt)
	assert.False(t, c.ownRT)
	assert.Nil(t, c.hc)

	// An *http.Client wins over a RoundTripper; the client sends through a
	// copy of it that guards redirects (redirect_test.go).
	c = newClient(t, "https://node.example", testKey, nodeaccess.WithRoundTripper(rt), nodeaccess.WithHTTPClient(hc))
	require.NotNil(t, c.hc)
	assert.NotSame(t, hc, c.hc)
	assert.Equal(t, hc.Transport, c.hc.Transport)
	assert.False(t, c.ownRT)

	// A hook of the wrong type in the untyped slot is ignored.
	c, err := New(Settings{Chain: "x", BaseURL: "https://node.example", Key: testKey,
		Options: []config.Func{func(c *config.Config) error { c.Hook = "not a func"; return nil }}})
	require.NoError(t, err)
	assert.Nil(t, c.hook)
}

func TestBadOptionFailsNew(t *testing.T) {
	t.Parallel()
	_, err := New(Settings{Chain: "evm", BaseURL: "https://node.example", Key: testKey,
		Options: funcs(nodeaccess.WithMaxAttempts(0))})
	require.Error(t, err)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	var ie *nodeaccess.InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "option", ie.Arg)
	assert.Equal(t, "evm: invalid input: option: nodeaccess: WithMaxAttempts: 0 is outside 1..20", err.Error())

	// An option whose message quotes a value holding the key (a URL given
	// to a chain option) does not leak it.
	_, err = New(Settings{Chain: "hyper", BaseURL: "https://node.example", Key: testKey,
		Options: []config.Func{func(*config.Config) error {
			return fmt.Errorf("bad URL %q", "https://host/"+testKey+"/x")
		}}})
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.NotContains(t, err.Error(), testKey)
	assert.Contains(t, err.Error(), "bad URL")
}

func TestBackoffBounds(t *testing.T) {
	t.Parallel()
	base, max := 10*time.Millisecond, 100*time.Millisecond
	for n := 1; n <= 40; n++ {
		bound := max
		if n <= 4 {
			bound = base << (n - 1)
		}
		for range 200 {
			d := backoff(base, max, n)
			require.GreaterOrEqual(t, d, time.Duration(0))
			require.LessOrEqual(t, d, bound, "n=%d", n)
		}
	}
	// Full jitter: the delays spread over the range.
	var lo, hi bool
	for range 1000 {
		d := backoff(base, max, 10)
		lo = lo || d < max/4
		hi = hi || d > 3*max/4
	}
	assert.True(t, lo && hi, "backoff does not spread")
	// Extreme settings do not panic.
	assert.NotPanics(t, func() { backoff(1, time.Duration(1<<63-1), 70) })
	assert.NotPanics(t, func() { backoff(time.Duration(1<<62), time.Duration(1<<63-1), 3) })
	// A shift that would wrap around to a tiny positive bound uses max.
	var big bool
	for range 50 {
		big = big || backoff(time.Duration(1<<62+1), time.Duration(1<<63-1), 3) > 1<<40
	}
	assert.True(t, big, "an overflowing shift shrank the bound")
}

// An option owned by another chain package is refused by a chain's New,
// naming it and both packages; the zero Option sets nothing.
func TestOptionsOfOtherOwnersRefused(t *testing.T) {
	t.Parallel()
	fs, err := Options("ton", []nodeaccess.Option{{}, nodeaccess.WithMaxAttempts(2)})
	require.NoError(t, err)
	assert.Len(t, fs, 1)
	evmOwn := Option("evm", "evm.WithMaxBatchSize", func(*config.Config) error { return nil })
	_, err = Options("ton", []nodeaccess.Option{nodeaccess.WithMaxAttempts(2), evmOwn})
	require.Error(t, err)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.Equal(t, "ton: invalid input: option: option 1, evm.WithMaxBatchSize, is an option of package evm, not of ton", err.Error())
	fs, err = Options("evm", []nodeaccess.Option{evmOwn})
	require.NoError(t, err)
	assert.Len(t, fs, 1)
}
