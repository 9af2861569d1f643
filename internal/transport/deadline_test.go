package transport

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
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

// attemptParents are caller contexts of both kinds newAttempt handles: one
// that never ends (a rootAttempt) and one that can (an attemptCtx).
func attemptParents() map[string]func() (context.Context, context.CancelCauseFunc) {
	return map[string]func() (context.Context, context.CancelCauseFunc){
		"never ends": func() (context.Context, context.CancelCauseFunc) {
			return context.WithValue(context.Background(), ctxKey{}, "trace-42"), nil
		},
		"can end": func() (context.Context, context.CancelCauseFunc) {
			return context.WithCancelCause(context.WithValue(context.Background(), ctxKey{}, "trace-42"))
		},
	}
}

// An attempt's context behaves as a context.WithTimeout of the caller's
// would: the caller's values and cancellation, the attempt's deadline, the
// errors and causes the context package gives, to contexts derived from it
// too; and it ends with the attempt.
func TestAttemptContext(t *testing.T) {
	t.Parallel()
	const timeout = time.Minute
	for name, mk := range attemptParents() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			t.Run("values, deadline, end", func(t *testing.T) {
				t.Parallel()
				parent, _ := mk()
				start := time.Now()
				a := newAttempt(parent, timeout)
				require.NotNil(t, a)
				assert.Equal(t, "trace-42", a.Value(ctxKey{}))
				dl, ok := a.Deadline()
				require.True(t, ok)
				assert.False(t, dl.Before(start.Add(timeout)))
				assert.False(t, dl.After(time.Now().Add(timeout)))
				assert.NoError(t, a.Err())
				// A context derived from the attempt's, as net/http derives
				// one per request, and a function to run after it.
				sub, subCancel := context.WithCancelCause(a)
				defer subCancel(nil)
				ran := make(chan struct{})
				context.AfterFunc(a, func() { close(ran) })
				select {
				case <-a.Done():
					t.Fatal("done before its end")
				case <-sub.Done():
					t.Fatal("derived context done before the attempt's end")
				default:
				}
				a.end()
				<-a.Done()
				<-sub.Done()
				<-ran
				assert.Equal(t, context.Canceled, a.Err())
				assert.Equal(t, context.Canceled, context.Cause(a))
				assert.Equal(t, context.Canceled, sub.Err())
				assert.Equal(t, context.Canceled, context.Cause(sub))
				if parent.Done() != nil {
					assert.NoError(t, parent.Err(), "the caller's context goes on")
				}
				// After the end, a function runs at once.
				late := make(chan struct{})
				assert.False(t, context.AfterFunc(a, func() { close(late) })())
				<-late
			})

			t.Run("the deadline", func(t *testing.T) {
				t.Parallel()
				parent, _ := mk()
				a := newAttempt(parent, 20*time.Millisecond)
				require.NotNil(t, a)
				defer a.end()
				sub, subCancel := context.WithCancelCause(a)
				defer subCancel(nil)
				<-a.Done()
				<-sub.Done()
				assert.Equal(t, context.DeadlineExceeded, a.Err())
				assert.Equal(t, context.DeadlineExceeded, context.Cause(a))
				assert.Equal(t, context.DeadlineExceeded, context.Cause(sub), "net/http reports the cause")
				if parent.Done() != nil {
					assert.NoError(t, parent.Err(), "the caller's context goes on")
				}
			})

			t.Run("a stopped function does not run", func(t *testing.T) {
				t.Parallel()
				parent, _ := mk()
				a := newAttempt(parent, timeout)
				require.NotNil(t, a)
				ran := make(chan struct{}, 2)
				stop1 := context.AfterFunc(a, func() { ran <- struct{}{} })
				stop2 := context.AfterFunc(a, func() { ran <- struct{}{} })
				assert.True(t, stop1())
				assert.False(t, stop1(), "stopped already")
				a.end()
				<-ran
				assert.False(t, stop2(), "ran already")
				select {
				case <-ran:
					t.Fatal("a stopped function ran")
				case <-time.After(20 * time.Millisecond):
				}
			})
		})
	}

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

// expiry counts the expire calls a timer makes.
type expiry struct{ n atomic.Int32 }

func (e *expiry) expire() { e.n.Add(1) }

// A pooled timer's late firing, after its attempt was over and another
// attempt took the timer, leaves the new attempt alone; a firing at the
// deadline ends it.
func TestAttemptTimerLateFiring(t *testing.T) {
	t.Parallel()
	e := &expiry{}
	s := startTimer(e, time.Now().Add(time.Hour), time.Hour)
	s.fire() // as a firing meant for the timer's previous attempt
	assert.Zero(t, e.n.Load())
	s.stop()

	s = startTimer(e, time.Now(), time.Hour)
	s.fire()
	assert.Equal(t, int32(1), e.n.Load())
	s.stop()
	s.fire() // late, after the stop
	assert.Equal(t, int32(1), e.n.Load())
}

// The context a request carries holds the caller's values, whatever path
// newAttempt took.
func TestRequestCarriesCallerValues(t *testing.T) {
	t.Parallel()
	probe := &ctxProbe{}
	c := newClient(t, "https://node.example", testKey, nodeaccess.WithRoundTripper(probe), nodeaccess.WithMaxAttempts(1))
	ctx := context.WithValue(context.Background(), ctxKey{}, "trace-42")
	_, err := call(ctx, t, c)
	require.Error(t, err) // the empty body is not a JSON-RPC answer
	assert.True(t, strings.Contains(err.Error(), "empty body"), err.Error())
	require.Len(t, probe.got, 1)
	assert.Equal(t, "trace-42", probe.got[0].Value(ctxKey{}))
	_, hasDeadline := probe.got[0].Deadline()
	assert.True(t, hasDeadline, "every attempt is bounded")
}
