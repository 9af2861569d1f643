package transport

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// batchServer answers JSON-RPC calls and batches with "0x1" for each call
// (rpcAnswer) and counts the calls it received.
func batchServer(t *testing.T) (string, *atomic.Int64) {
	var calls atomic.Int64
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		calls.Add(int64(rpcAnswer(w, r)))
	})
	return srv.URL, &calls
}

// sendUnits sends a batch of n calls of one unit each and returns the
// first error a call got.
func sendUnits(ctx context.Context, t *testing.T, c *Client, n int) error {
	calls := make([]BatchCall, n)
	for i := range calls {
		calls[i] = BatchCall{Method: "eth_chainId", Units: 1}
	}
	var first error
	c.CallBatch(ctx, &Batch{Op: "batch", Target: rpcTarget(t, c), Calls: calls,
		Result: func(int, []byte) error { return nil },
		Fail: func(_ int, err error) {
			if first == nil {
				first = err
			}
		}})
	return first
}

// TestBudgetBatchAllOrNothing: a batch whose units exceed the budget's
// burst is granted all its units or none. When the wait for them ends
// without them (a deadline they would come after, a cancelled context, a
// pause longer than the client's cap), nothing is sent, nothing is counted
// in the budget's Stats, and no unit is spent: the burst is still there for
// the next caller. The budget's Stats always equal what the server
// received.
func TestBudgetBatchAllOrNothing(t *testing.T) {
	// One unit per second: the batch's 10 units are 6 more than the burst,
	// 6 s, so the wait ends long before they come (the deadline, the
	// cancel and the pause 150 ms on, however late a loaded machine runs
	// them), and a unit it spent would hold the next burst back a second.
	const rate, burst, calls = 1.0, 4, 10
	cases := map[string]func(b *nodeaccess.Budget) (context.Context, context.CancelFunc){
		"deadline": func(*nodeaccess.Budget) (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 300*time.Millisecond)
		},
		"cancel": func(*nodeaccess.Budget) (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(150*time.Millisecond, cancel)
			return ctx, cancel
		},
		"pause beyond the cap": func(b *nodeaccess.Budget) (context.Context, context.CancelFunc) {
			// (A deadline, so that a budget that holds the call for the
			// hour fails the test instead of hanging it.)
			time.AfterFunc(150*time.Millisecond, func() { b.Throttled(time.Hour) })
			return context.WithTimeout(context.Background(), 10*time.Second) // after the 6 s the units take
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			b, err := nodeaccess.NewBudget(rate, burst)
			require.NoError(t, err)
			url, received := batchServer(t)
			c := newClient(t, url, testKey, nodeaccess.WithBudget(b), nodeaccess.WithMaxRetryAfter(time.Second))
			ctx, cancel := setup(b)
			defer cancel()
			start := time.Now()
			err = sendUnits(ctx, t, c, calls)
			require.Error(t, err)
			if name == "pause beyond the cap" {
				require.ErrorIs(t, err, nodeaccess.ErrRateLimited)
				within(t, time.Since(start), time.Second, "the batch held by a pause beyond its cap")
			}
			assert.Zero(t, received.Load(), "the batch was sent")
			st := b.Stats()
			assert.Zero(t, st.Units, "units counted for a batch that was not sent")
			assert.Zero(t, st.Waits)
			if name == "pause beyond the cap" {
				return
			}
			// Nothing was spent: the whole burst goes at once (not a
			// second or more later).
			start = time.Now()
			require.NoError(t, sendUnits(context.Background(), t, c, burst))
			within(t, time.Since(start), 500*time.Millisecond, "the burst after a batch that was not sent")
			assert.Equal(t, int64(burst), received.Load())
			assert.Equal(t, received.Load(), b.Stats().Units)
		})
	}

	// A batch that is sent is charged every unit, in one grant, after the
	// time its units above the burst take: 6 units at 10 per second.
	const fastRate = 10.0
	b, err := nodeaccess.NewBudget(fastRate, burst)
	require.NoError(t, err)
	url, received := batchServer(t)
	c := newClient(t, url, testKey, nodeaccess.WithBudget(b))
	start := time.Now()
	require.NoError(t, sendUnits(context.Background(), t, c, calls))
	assert.GreaterOrEqual(t, time.Since(start), time.Duration(float64(calls-burst)/fastRate*float64(time.Second))-20*time.Millisecond)
	st := b.Stats()
	assert.Equal(t, int64(calls), received.Load())
	assert.Equal(t, int64(calls), st.Units)
	assert.Equal(t, int64(1), st.Waits)
}

// TestBudgetBatchPiecesForeignLimiter: a limiter of the user's own that
// has a Burst method gets a batch's units in pieces of its burst (it may
// grant no more at once); one without gets them in one Wait.
func TestBudgetBatchPiecesForeignLimiter(t *testing.T) {
	url, _ := batchServer(t)
	l := &burstLimiter{burst: 4}
	c := newClient(t, url, testKey, nodeaccess.WithBudget(l))
	require.NoError(t, sendUnits(context.Background(), t, c, 10))
	assert.Equal(t, []int{4, 4, 2}, l.waits)
	l2 := &countingLimiter{}
	c2 := newClient(t, url, testKey, nodeaccess.WithBudget(l2))
	require.NoError(t, sendUnits(context.Background(), t, c2, 10))
	assert.Equal(t, []int{10}, l2.waits)
}

type burstLimiter struct {
	countingLimiter
	burst int
}

func (l *burstLimiter) Burst() int { return l.burst }
