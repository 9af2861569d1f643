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
	bg := context.Background()
	start := time.Now()
	a := s.get(bg, timeout)
	b := s.get(bg, timeout)
	assert.Same(t, a, b, "attempts within one window share the context")
	dl, ok := a.Deadline()
	require.True(t, ok)
	left := dl.Sub(start)
	assert.GreaterOrEqual(t, left, timeout, "never less than the timeout")
	assert.LessOrEqual(t, left, timeout+timeout/64+time.Second/10)

	// Another timeout does not reuse a context made for a longer one.
	short := s.get(bg, time.Second)
	dl, _ = short.Deadline()
	assert.LessOrEqual(t, time.Until(dl), time.Second+time.Second/64+10*time.Millisecond)

	// A window of 1/64 of 64 ms is 1 ms: after it, a new context.
	c1 := s.get(bg, 64*time.Millisecond)
	time.Sleep(3 * time.Millisecond)
	c2 := s.get(bg, 64*time.Millisecond)
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

// nonComparableCtx is a context type that == cannot compare.
type nonComparableCtx struct {
	context.Context
	tags []string
}

func TestAttemptContext(t *testing.T) {
	t.Parallel()
	c := newClient(t, "https://node.example", testKey, nodeaccess.WithTimeout(time.Minute))
	timeout := time.Minute

	// Background and TODO: shared per window.
	a, cancelA := c.attemptContext(context.Background(), timeout)
	b, cancelB := c.attemptContext(context.Background(), timeout)
	assert.Nil(t, cancelA)
	assert.Nil(t, cancelB)
	assert.Same(t, a, b)
	todo, _ := c.attemptContext(context.TODO(), timeout)
	assert.NotSame(t, a, todo, "another parent, another context")

	// A caller's context with values and cancellation: the derived context
	// keeps both, and is shared by the calls made under that caller context.
	parent, cancelParent := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "trace-42"))
	v1, cancel1 := c.attemptContext(parent, timeout)
	v2, _ := c.attemptContext(parent, timeout)
	assert.Nil(t, cancel1)
	assert.Same(t, v1, v2)
	assert.Equal(t, "trace-42", v1.Value(ctxKey{}))
	dl, ok := v1.Deadline()
	require.True(t, ok)
	assert.InDelta(t, float64(timeout), float64(time.Until(dl)), float64(2*time.Second))
	cancelParent()
	assert.ErrorIs(t, v1.Err(), context.Canceled, "the caller's cancellation reaches the attempt")

	// A sooner deadline of the caller is used as it is.
	soon, cancelSoon := context.WithTimeout(context.Background(), time.Second)
	defer cancelSoon()
	s, cancel2 := c.attemptContext(soon, timeout)
	assert.Nil(t, cancel2)
	assert.Equal(t, soon, s)

	// A later deadline gets the per-attempt timeout under it.
	late, cancelLate := context.WithTimeout(context.Background(), time.Hour)
	defer cancelLate()
	l, _ := c.attemptContext(late, timeout)
	dl, _ = l.Deadline()
	assert.Less(t, time.Until(dl), 2*time.Minute)

	// A context type that cannot be compared gets a timer context of its own.
	nc := nonComparableCtx{Context: context.Background(), tags: []string{"x"}}
	assert.NotPanics(t, func() {
		own, cancel := c.attemptContext(nc, timeout)
		require.NotNil(t, cancel)
		defer cancel()
		_, ok := own.Deadline()
		assert.True(t, ok)
	})
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
