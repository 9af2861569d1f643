package transport

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDeadlineShareWindow(t *testing.T) {
	t.Parallel()
	var s deadlineShare
	const timeout = 30 * time.Second
	start := time.Now()
	a := s.get(timeout)
	b := s.get(timeout)
	assert.Same(t, a, b, "attempts within one window share the context")
	dl, ok := a.Deadline()
	require.True(t, ok)
	left := dl.Sub(start)
	assert.GreaterOrEqual(t, left, timeout, "never less than the timeout")
	assert.LessOrEqual(t, left, timeout+timeout/64+time.Second/10)

	// Another timeout does not reuse a context made for a longer one.
	short := s.get(time.Second)
	dl, _ = short.Deadline()
	assert.LessOrEqual(t, time.Until(dl), time.Second+time.Second/64+10*time.Millisecond)

	// A window of 1/64 of 64 ms is 1 ms: after it, a new context.
	c1 := s.get(64 * time.Millisecond)
	time.Sleep(3 * time.Millisecond)
	c2 := s.get(64 * time.Millisecond)
	assert.NotSame(t, c1, c2)
}

// ctxProbe is a transport that records the context of each request and
// answers a JSON-RPC result.
type ctxProbe struct{ got []context.Context }

func (p *ctxProbe) RoundTrip(req *http.Request) (*http.Response, error) {
	p.got = append(p.got, req.Context())
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: http.NoBody, ContentLength: 0, Request: req}, nil
}

type ctxKey struct{}

func TestAttemptContext(t *testing.T) {
	t.Parallel()
	c := newClient(t, "https://node.example", testKey, nodeaccess.WithTimeout(time.Minute))
	timeout := time.Minute

	// Background and TODO share one context per window.
	a, cancelA := c.attemptContext(context.Background(), timeout)
	b, cancelB := c.attemptContext(context.TODO(), timeout)
	assert.Nil(t, cancelA)
	assert.Nil(t, cancelB)
	assert.Same(t, a, b)

	// A context with values keeps them: it gets its own timer context.
	withValue := context.WithValue(context.Background(), ctxKey{}, "trace-42")
	v, cancel := c.attemptContext(withValue, timeout)
	require.NotNil(t, cancel)
	defer cancel()
	assert.Equal(t, "trace-42", v.Value(ctxKey{}))
	dl, ok := v.Deadline()
	require.True(t, ok)
	assert.InDelta(t, float64(timeout), float64(time.Until(dl)), float64(time.Second))

	// A sooner deadline of the caller is used as it is.
	soon, cancelSoon := context.WithTimeout(context.Background(), time.Second)
	defer cancelSoon()
	s, cancel2 := c.attemptContext(soon, timeout)
	assert.Nil(t, cancel2)
	assert.Equal(t, soon, s)

	// A later deadline gets the per-attempt timeout under it.
	late, cancelLate := context.WithTimeout(context.Background(), time.Hour)
	defer cancelLate()
	l, cancel3 := c.attemptContext(late, timeout)
	require.NotNil(t, cancel3)
	defer cancel3()
	dl, _ = l.Deadline()
	assert.Less(t, time.Until(dl), 2*time.Minute)
}

// The context a request carries holds the caller's values, whatever path
// attemptContext took.
func TestRequestCarriesCallerValues(t *testing.T) {
	t.Parallel()
	probe := &ctxProbe{}
	c := newClient(t, "https://node.example", testKey, nodeaccess.WithRoundTripper(probe), nodeaccess.WithoutRetries())
	ctx := context.WithValue(context.Background(), ctxKey{}, "trace-42")
	_, err := call(ctx, t, c)
	require.Error(t, err) // the empty body is not a JSON-RPC answer
	assert.True(t, strings.Contains(err.Error(), "empty body"), err.Error())
	require.Len(t, probe.got, 1)
	assert.Equal(t, "trace-42", probe.got[0].Value(ctxKey{}))
	_, hasDeadline := probe.got[0].Deadline()
	assert.True(t, hasDeadline, "every attempt is bounded")
}
