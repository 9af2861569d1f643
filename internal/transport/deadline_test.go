package transport

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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

// An attempt's context behaves as a context.WithTimeout of the caller's
// would: the caller's values and cancellation, the attempt's deadline, the
// errors and causes the context package gives; and it ends with the attempt.
func TestAttemptContext(t *testing.T) {
	t.Parallel()
	const timeout = time.Minute

	t.Run("values, deadline, end", func(t *testing.T) {
		t.Parallel()
		parent := context.WithValue(context.Background(), ctxKey{}, "trace-42")
		start := time.Now()
		a := newAttempt(parent, timeout)
		require.NotNil(t, a)
		assert.Equal(t, "trace-42", a.Value(ctxKey{}))
		dl, ok := a.Deadline()
		require.True(t, ok)
		assert.False(t, dl.Before(start.Add(timeout)))
		assert.False(t, dl.After(time.Now().Add(timeout)))
		assert.NoError(t, a.Err())
		select {
		case <-a.Done():
			t.Fatal("done before its end")
		default:
		}
		a.end()
		<-a.Done()
		assert.Equal(t, context.Canceled, a.Err())
		assert.Equal(t, context.Canceled, context.Cause(a))
	})

	t.Run("the caller's cancellation", func(t *testing.T) {
		t.Parallel()
		cause := errors.New("shutting down")
		parent, cancel := context.WithCancelCause(context.Background())
		a := newAttempt(parent, timeout)
		require.NotNil(t, a)
		defer a.end()
		cancel(cause)
		<-a.Done()
		assert.Equal(t, context.Canceled, a.Err())
		assert.Equal(t, cause, context.Cause(a))
	})

	t.Run("the caller's later deadline", func(t *testing.T) {
		t.Parallel()
		parent, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		a := newAttempt(parent, timeout)
		require.NotNil(t, a)
		defer a.end()
		dl, _ := a.Deadline()
		assert.Less(t, time.Until(dl), 2*timeout, "the attempt's deadline, not the caller's")
	})

	t.Run("the caller's sooner deadline", func(t *testing.T) {
		t.Parallel()
		parent, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		assert.Nil(t, newAttempt(parent, timeout), "the caller's context is used as it is")
	})

	t.Run("the deadline", func(t *testing.T) {
		t.Parallel()
		child, stop := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, 1))
		defer stop()
		a := newAttempt(child, 20*time.Millisecond)
		require.NotNil(t, a)
		defer a.end()
		// A context derived from the attempt's, as net/http derives one.
		sub, subCancel := context.WithCancelCause(a)
		defer subCancel(nil)
		<-a.Done()
		<-sub.Done()
		assert.Equal(t, context.DeadlineExceeded, a.Err())
		assert.Equal(t, context.DeadlineExceeded, context.Cause(a))
		assert.Equal(t, context.DeadlineExceeded, context.Cause(sub), "net/http reports the cause")
		assert.NoError(t, child.Err(), "the caller's context goes on")
	})

	t.Run("a non-comparable context type", func(t *testing.T) {
		t.Parallel()
		nc := nonComparableCtx{Context: context.Background(), tags: []string{"x"}}
		assert.NotPanics(t, func() {
			a := newAttempt(nc, timeout)
			require.NotNil(t, a)
			a.end()
		})
	})
}

// A pooled timer's late firing, after its attempt was over and another
// attempt took the timer, leaves the new attempt alone; a firing at the
// deadline ends it.
func TestAttemptTimerLateFiring(t *testing.T) {
	t.Parallel()
	a := newAttempt(context.Background(), time.Hour)
	require.NotNil(t, a)
	defer a.end()
	a.timer.fire() // as a firing meant for the timer's previous attempt
	assert.NoError(t, a.Err())

	b := newAttempt(context.Background(), time.Hour)
	require.NotNil(t, b)
	defer b.end()
	b.deadline = time.Now() // (before the timer fires: no race)
	b.timer.fire()
	assert.Equal(t, context.DeadlineExceeded, b.Err())
}

// The context a request carries holds the caller's values, whatever path
// newAttempt took.
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
