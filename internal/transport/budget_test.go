package transport

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingLimiter records what the transport asks of a limiter.
type countingLimiter struct {
	mu        sync.Mutex
	waits     []int
	throttled []time.Duration
	err       error
}

func (l *countingLimiter) Wait(ctx context.Context, units int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	l.waits = append(l.waits, units)
	return nil
}

func (l *countingLimiter) Throttled(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.throttled = append(l.throttled, d)
}

// TestBudgetChargesEveryAttempt: each attempt, retries included, waits for
// its units first; a 429 is reported with its Retry-After; the hook sees
// the units and the wait.
func TestBudgetChargesEveryAttempt(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
		case 2:
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			rpcOK(w, r, `"0x1"`)
		}
	}))
	defer srv.Close()
	lim := &countingLimiter{}
	var mu sync.Mutex
	var atts []nodeaccess.Attempt
	c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithBudget(lim), nodeaccess.WithCost("eth_chainId", 3),
		nodeaccess.WithMaxAttempts(3), nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) { mu.Lock(); atts = append(atts, a); mu.Unlock() }))
	start := time.Now()
	res, err := call(context.Background(), t, c)
	require.NoError(t, err)
	res.Release()
	assert.GreaterOrEqual(t, time.Since(start), time.Second, "the Retry-After was not waited for")
	assert.Equal(t, []int{3, 3, 3}, lim.waits)
	assert.Equal(t, []time.Duration{time.Second}, lim.throttled)
	require.Len(t, atts, 3)
	for _, a := range atts {
		assert.Equal(t, 3, a.Units)
	}
}

// TestBudgetWaitEndsWithContext: a call whose context ends while it waits
// for its units returns the context's error and sends nothing.
func TestBudgetWaitEndsWithContext(t *testing.T) {
	var sent atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		rpcOK(w, r, `"0x1"`)
	}))
	defer srv.Close()
	b, err := nodeaccess.NewBudget(1, 1)
	require.NoError(t, err)
	var hooked atomic.Int32
	c := newClient(t, srv.URL, testKey, nodeaccess.WithBudget(b), nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
		hooked.Add(1)
		assert.Equal(t, 1, a.Units)
	}))
	res, err := call(context.Background(), t, c)
	require.NoError(t, err)
	res.Release()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	_, err = call(ctx, t, c)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, int32(1), sent.Load())
	assert.Equal(t, int32(1), hooked.Load())
}

// TestBudgetWaitReported: Attempt.BudgetWait is the time the attempt
// waited for its units.
func TestBudgetWaitReported(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { rpcOK(w, r, `"0x1"`) }))
	defer srv.Close()
	// One unit a second: the first call's units are there (it waits for
	// nothing, well under half a second however loaded the machine), and
	// the second's come a second after the first's, less the time the
	// first call took (well under half a second).
	b, err := nodeaccess.NewBudget(1, 1)
	require.NoError(t, err)
	var waits []time.Duration
	c := newClient(t, srv.URL, testKey, nodeaccess.WithBudget(b), nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) { waits = append(waits, a.BudgetWait) }))
	for i := 0; i < 2; i++ {
		res, err := call(context.Background(), t, c)
		require.NoError(t, err)
		res.Release()
	}
	require.Len(t, waits, 2)
	assert.Less(t, waits[0], 500*time.Millisecond)
	assert.Greater(t, waits[1], 500*time.Millisecond)
	assert.Equal(t, int64(2), b.Stats().Units)
}

// TestBudgetLimiterFailure: a limiter's own failure (a distributed limiter
// that cannot reach its store) ends the call before anything is sent.
func TestBudgetLimiterFailure(t *testing.T) {
	c := newClient(t, "http://127.0.0.1:1", testKey, nodeaccess.WithBudget(&countingLimiter{err: errors.New("store down")}))
	_, err := call(context.Background(), t, c)
	require.ErrorContains(t, err, "budget: store down")
}

// TestBudgetWithout: WithBudget(nil), and a nil *Budget, undo an earlier
// WithBudget.
func TestBudgetWithout(t *testing.T) {
	l := &countingLimiter{}
	assert.Same(t, l, newClient(t, "https://node.example", testKey, nodeaccess.WithBudget(l)).budget)
	c := newClient(t, "https://node.example", testKey, nodeaccess.WithBudget(l), nodeaccess.WithBudget(nil))
	assert.Nil(t, c.budget)
	assert.False(t, c.Budgeted())
	var none *nodeaccess.Budget
	c = newClient(t, "https://node.example", testKey, nodeaccess.WithBudget(l), nodeaccess.WithBudget(none))
	assert.Nil(t, c.budget, "a nil *Budget is no budget, not a Limiter whose Wait panics")
	assert.Nil(t, newClient(t, "https://node.example", testKey).budget)
}

// TestBudgetDeadlineFailsFast: units that would come after the context's
// deadline end the call at once with an error that matches
// context.DeadlineExceeded, not wrapped as a limiter failure, and nothing is
// sent.
func TestBudgetDeadlineFailsFast(t *testing.T) {
	// A unit every 5 s and a deadline in 1 s: "at once" (under half a
	// second, however loaded the machine) is far from "at the deadline".
	b, err := nodeaccess.NewBudget(0.2, 1)
	require.NoError(t, err)
	require.NoError(t, b.Wait(context.Background(), 1))
	c := newClient(t, "http://127.0.0.1:1", testKey, nodeaccess.WithBudget(b))
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	_, err = call(ctx, t, c)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.NotContains(t, err.Error(), "budget: nodeaccess: budget")
	assert.Less(t, time.Since(start), 500*time.Millisecond, "the call waited for its deadline")
}
