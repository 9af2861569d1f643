package nodeaccess_test

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newBudget(t *testing.T, perSecond float64, burst int) *nodeaccess.Budget {
	t.Helper()
	b, err := nodeaccess.NewBudget(perSecond, burst)
	require.NoError(t, err)
	return b
}

func TestNewBudgetRefusesBadValues(t *testing.T) {
	for _, r := range []float64{0, -1, math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := nodeaccess.NewBudget(r, 10)
		require.Error(t, err, "rate %v", r)
	}
	_, err := nodeaccess.NewBudget(10, 0)
	require.ErrorContains(t, err, "burst 0")
	for _, o := range []nodeaccess.Option{nodeaccess.WithCost("", 1),
		nodeaccess.WithCost("eth_call", 0), nodeaccess.WithCost("eth_call", 1<<20+1)} {
		_, _, f, ok := config.Open(o)
		require.True(t, ok)
		require.Error(t, f(&config.Config{}))
	}
}

// TestBudgetManyGoroutines: many callers together never spend more than the
// rate (plus the burst) allows, and every unit is counted.
func TestBudgetManyGoroutines(t *testing.T) {
	const rate, burst, callers, each = 2000.0, 20, 40, 5
	b := newBudget(t, rate, burst)
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < callers; i++ {
		wg.Go(func() {
			for j := 0; j < each; j++ {
				require.NoError(t, b.Wait(context.Background(), 2))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	const units = callers * each * 2
	// (units - burst) / rate = 190 ms at the least.
	min := time.Duration(float64(units-burst) / rate * float64(time.Second))
	assert.GreaterOrEqual(t, elapsed, min-5*time.Millisecond)
	s := b.Stats()
	assert.Equal(t, int64(units), s.Units)
	assert.Equal(t, int64(callers*each), s.Waits)
	assert.Positive(t, s.Waited)
	assert.Equal(t, rate, s.Rate)
}

// TestBudgetCancelWhileWaiting: a caller whose context ends while it waits
// gets the context's error at once (not when the unit it waited for
// comes), spends nothing, and leaves its unit to the next caller. The
// budget's unit comes every second, so that "at once" (under half a
// second, however late a loaded machine runs the cancel) and "when the
// unit came" (a second) are far apart.
func TestBudgetCancelWhileWaiting(t *testing.T) {
	b := newBudget(t, 1, 1) // one unit every second
	require.NoError(t, b.Wait(context.Background(), 1))
	spent := time.Now() // the next unit comes a second after this at the latest
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	err := b.Wait(ctx, 1)
	require.ErrorIs(t, err, context.Canceled)
	assert.Less(t, time.Since(spent), 500*time.Millisecond, "the cancelled wait ran until its unit came")
	assert.Equal(t, int64(1), b.Stats().Units)
	// The cancelled caller's unit is the next caller's: it comes a second
	// after the first, not two.
	require.NoError(t, b.Wait(context.Background(), 1))
	assert.Less(t, time.Since(spent), 1500*time.Millisecond, "the cancelled wait spent a unit")
	assert.Equal(t, int64(2), b.Stats().Units)

	// A deadline the wait would outlast ends it at once, not at the
	// deadline: a unit every 2 s, a deadline in 1 s.
	b2 := newBudget(t, 0.5, 1)
	require.NoError(t, b2.Wait(context.Background(), 1))
	dctx, dcancel := context.WithTimeout(context.Background(), time.Second)
	defer dcancel()
	start := time.Now()
	err = b2.Wait(dctx, 1)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 500*time.Millisecond, "the wait ran to the deadline")
	assert.Equal(t, int64(1), b2.Stats().Units)

	// An ended context spends nothing even when units are there.
	b3 := newBudget(t, 10, 5)
	done, cancel3 := context.WithCancel(context.Background())
	cancel3()
	require.ErrorIs(t, b3.Wait(done, 1), context.Canceled)
	assert.Equal(t, int64(0), b3.Stats().Units)
}

// TestBudgetAIMD: a 429 at the plan's rate halves the rate once per
// congestion event (the 429s of attempts already in flight do not halve it
// again), and the rate then climbs back by 1 % of the plan per second (the
// numbers Budget's documentation gives).
func TestBudgetAIMD(t *testing.T) {
	b := newBudget(t, 1000, 10)
	// Before the 429: the recovery since it is at most the time since
	// start, however long a loaded machine takes between the lines below.
	start := time.Now()
	b.Throttled(0)
	b.Throttled(0)
	b.Throttled(0)
	s := b.Stats()
	assert.Equal(t, int64(3), s.Throttled)
	assert.Equal(t, 500.0, s.Rate)
	time.Sleep(300 * time.Millisecond)
	require.NoError(t, b.Wait(context.Background(), 1))
	elapsed := time.Since(start).Seconds()
	r := b.Stats().Rate
	// 500 + 1000·0.01 per second: 503 after 300 ms (the sleep), and no
	// more than the time since start allows.
	assert.GreaterOrEqual(t, r, 500+1000*0.01*0.3)
	assert.LessOrEqual(t, r, 500+1000*0.01*elapsed+0.01)
	// The lowered rate is the rate callers get: 100 units above the burst
	// take about 100/503 s, not 100/1000 s.
	start = time.Now()
	for i := 0; i < 110; i++ {
		require.NoError(t, b.Wait(context.Background(), 1))
	}
	assert.Greater(t, time.Since(start), 170*time.Millisecond)
}

// TestBudgetDecreaseBelowPlan: a 429 that comes when the budget has backed
// off already (a congestion event after the first) multiplies the rate by
// 0.8, not by 0.5.
func TestBudgetDecreaseBelowPlan(t *testing.T) {
	b := newBudget(t, 1000, 10)
	start := time.Now()
	b.Throttled(0) // at the plan's rate: 500
	require.Equal(t, 500.0, b.Stats().Rate)
	time.Sleep(time.Second + 50*time.Millisecond) // after the congestion event's window
	b.Throttled(0)
	elapsed := time.Since(start).Seconds()
	r := b.Stats().Rate
	// (500 + the recovery since the first 429)·0.8: 408.4 after 1.05 s.
	assert.GreaterOrEqual(t, r, (500+1000*0.01*1.05)*0.8)
	assert.LessOrEqual(t, r, (500+1000*0.01*elapsed)*0.8)
}

// TestBudgetRetryAfterEveryCaller: a Retry-After holds for every caller:
// those that come after the 429 and those already waiting when it came.
func TestBudgetRetryAfterEveryCaller(t *testing.T) {
	// 100 units per second with bursts of 40, the burst spent: a caller of
	// 40 units is due 400 ms on, so the 429 (10 ms on) comes while it
	// waits even on a machine that runs this goroutine late, and its
	// Retry-After ends after the time that caller was due.
	const pause = 500 * time.Millisecond
	b := newBudget(t, 100, 40)
	require.NoError(t, b.Wait(context.Background(), 40))
	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var ended []time.Duration
	waiter := func(units int) func() {
		return func() {
			require.NoError(t, b.Wait(context.Background(), units))
			mu.Lock()
			ended = append(ended, time.Since(start))
			mu.Unlock()
		}
	}
	wg.Go(waiter(40)) // already waiting (due at 400 ms) when the 429 comes
	time.Sleep(10 * time.Millisecond)
	thrown := time.Since(start) // before the 429: its pause ends pause after this at the earliest
	b.Throttled(pause)
	for i := 0; i < 5; i++ {
		wg.Go(waiter(1))
	}
	wg.Wait()
	require.Len(t, ended, 6)
	for _, e := range ended {
		assert.GreaterOrEqual(t, e, thrown+pause, "a caller went before the Retry-After had passed")
	}
}

// TestBudgetChargesBurstAtMost: a cost above the burst is charged the burst
// (it could never be granted otherwise), not refused.
func TestBudgetChargesBurstAtMost(t *testing.T) {
	b := newBudget(t, 100, 3)
	require.NoError(t, b.Wait(context.Background(), 20))
	assert.Equal(t, int64(3), b.Stats().Units)
}

// TestLimiterContract: *Budget is a Limiter, and a limiter of the user's own
// is accepted by WithBudget.
func TestLimiterContract(t *testing.T) {
	var _ nodeaccess.Limiter = newBudget(t, 1, 1)
	var l nodeaccess.Limiter = limiterFunc(func(context.Context, int) error { return errors.New("x") })
	_, _, f, _ := config.Open(nodeaccess.WithBudget(l))
	require.NoError(t, f(&config.Config{}))
}

type limiterFunc func(context.Context, int) error

func (f limiterFunc) Wait(ctx context.Context, n int) error { return f(ctx, n) }
func (f limiterFunc) Throttled(time.Duration)               {}

// TestBudgetPauseEndsWithoutBurst: callers held by a Retry-After do not all
// go at once when it ends (which would earn the next 429 at once): they
// queue again at the lowered rate.
func TestBudgetPauseEndsWithoutBurst(t *testing.T) {
	// A unit every 400 ms: the callers queued are due at 400, 800 and
	// 1200 ms, and the 429 (10 ms on) comes before the first of them even
	// on a machine that runs this goroutine late.
	const pause = 600 * time.Millisecond
	b := newBudget(t, 2.5, 1)
	require.NoError(t, b.Wait(context.Background(), 1))
	start := time.Now() // before the 429: its pause ends pause after this at the earliest
	var wg sync.WaitGroup
	var mu sync.Mutex
	var ended []time.Duration
	for i := 0; i < 3; i++ {
		wg.Go(func() {
			require.NoError(t, b.Wait(context.Background(), 1))
			mu.Lock()
			ended = append(ended, time.Since(start))
			mu.Unlock()
		})
	}
	time.Sleep(10 * time.Millisecond)
	b.Throttled(pause) // the rate is now 1.25 per second
	wg.Wait()
	require.Len(t, ended, 3)
	first, last := ended[0], ended[0]
	for _, e := range ended {
		first, last = min(first, e), max(last, e)
	}
	assert.GreaterOrEqual(t, first, pause, "a queued caller went during the pause")
	// 3 callers at 1.25 per second (and climbing by 0.025 per second) on a
	// schedule that starts empty when the pause ends: the last about 2.36 s
	// after it (all at once before the fix, 0.8 s after it had the pause
	// saved up a unit).
	assert.GreaterOrEqual(t, last, pause+2*time.Second, "the callers went as a burst when the pause ended")
}

// TestBudgetNoBurstAfterPause: the units a budget saved up, before a 429 or
// during its Retry-After, do not go as a burst when the pause ends: the
// provider's bucket is empty then, and a burst would earn the next 429 at
// once. The first callers after the pause are spaced at the lowered rate.
func TestBudgetNoBurstAfterPause(t *testing.T) {
	for _, pause := range []time.Duration{0, 150 * time.Millisecond} {
		b := newBudget(t, 100, 20) // a full burst of 20 saved up
		thrown := time.Now()       // before the 429: its pause ends pause after this at the earliest
		b.Throttled(pause)         // 50 units per second from now
		if pause > 0 {
			// During the pause 7.5 units would have been saved up again.
			time.Sleep(pause)
		}
		start := time.Now()
		for i := 0; i < 10; i++ {
			require.NoError(t, b.Wait(context.Background(), 1))
		}
		// 10 units at 50 per second: 200 ms after the pause (at once
		// when the saved units went as a burst).
		assert.GreaterOrEqual(t, time.Since(start), 180*time.Millisecond, "pause %v", pause)
		assert.GreaterOrEqual(t, time.Since(thrown), pause+180*time.Millisecond, "pause %v", pause)
	}
}

// TestBudgetRequeueWithoutRetryAfter: callers already queued when a 429
// comes queue again at the lowered rate, even when the provider gave no
// Retry-After: the schedule they queued on is the one it refused.
func TestBudgetRequeueWithoutRetryAfter(t *testing.T) {
	// A unit every 400 ms: the callers queued are due at 400, 800 and
	// 1200 ms, and the 429 (20 ms on) comes before the first of them even
	// on a machine that runs this goroutine late.
	b := newBudget(t, 2.5, 1)
	require.NoError(t, b.Wait(context.Background(), 1))
	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var last time.Duration
	for i := 0; i < 3; i++ {
		wg.Go(func() {
			require.NoError(t, b.Wait(context.Background(), 1))
			mu.Lock()
			last = max(last, time.Since(start))
			mu.Unlock()
		})
	}
	time.Sleep(20 * time.Millisecond) // all three queued
	thrown := time.Since(start)       // before the 429: the new schedule starts after this
	b.Throttled(0)                    // 1.25 per second from now
	wg.Wait()
	// Three units at 1.25 per second (and climbing by 0.025 per second)
	// after the 429: the last about 2.36 s after it (1.2 s after the
	// burst was spent, on the refused schedule).
	assert.GreaterOrEqual(t, last, thrown+2*time.Second, "the queued callers kept the refused schedule")
}
