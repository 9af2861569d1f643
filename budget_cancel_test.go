package nodeaccess_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// queueWaiters starts one Wait per element of units on b, each under a
// context of its own, and returns their cancel functions and a function
// that waits for all of them to return and gives their errors.
func queueWaiters(t *testing.T, b *nodeaccess.Budget, units []int) ([]context.CancelFunc, func() []error) {
	t.Helper()
	cancels := make([]context.CancelFunc, len(units))
	errs := make([]error, len(units))
	var wg sync.WaitGroup
	for i, u := range units {
		ctx, cancel := context.WithCancel(context.Background())
		cancels[i] = cancel
		wg.Go(func() { errs[i] = b.Wait(ctx, u) })
	}
	time.Sleep(30 * time.Millisecond) // all of them queued
	return cancels, func() []error { wg.Wait(); return errs }
}

// cancelOrders are the orders in which queued callers give up: the first
// to queue first, the last first, and shuffled (callers in the middle of
// the queue before those around them).
var cancelOrders = map[string]func(n int) []int{
	"first queued first": func(n int) []int {
		o := make([]int, n)
		for i := range o {
			o[i] = i
		}
		return o
	},
	"last queued first": func(n int) []int {
		o := make([]int, n)
		for i := range o {
			o[i] = n - 1 - i
		}
		return o
	},
	"shuffled": func(n int) []int {
		return rand.New(rand.NewPCG(1, 2)).Perm(n)
	},
}

// TestBudgetCancelledWaitsSpendNothing: callers whose context ends while
// they wait spend nothing, whatever their place in the queue and in
// whatever order they give up, and whatever their units: the next caller
// waits as if they had never come (about units/rate, not the sum of what
// the cancelled callers asked for), and a caller with a deadline that
// this leaves enough time is not refused.
func TestBudgetCancelledWaitsSpendNothing(t *testing.T) {
	for name, order := range cancelOrders {
		for _, tc := range []struct {
			rate  float64
			burst int
			units []int
		}{
			// Slow enough that no waiter is served before it gives up:
			// 10 s and 12 s of units cancelled.
			{2, 1, slices.Repeat([]int{1}, 20)},
			{4, 3, slices.Repeat([]int{3, 1, 2}, 8)},
		} {
			b := newBudget(t, tc.rate, tc.burst)
			require.NoError(t, b.Wait(context.Background(), tc.burst)) // the burst spent
			cancels, wait := queueWaiters(t, b, tc.units)
			for _, i := range order(len(tc.units)) {
				cancels[i]()
				time.Sleep(time.Millisecond)
			}
			for i, err := range wait() {
				require.ErrorIs(t, err, context.Canceled, "%s %v: waiter %d", name, tc.units, i)
			}
			// The burst refills in burst/rate from the first Wait; the
			// caller may have to wait for it, never for the cancelled.
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			start := time.Now()
			err := b.Wait(ctx, tc.burst)
			cancel()
			require.NoError(t, err, "%s %v: the caller after the cancelled ones", name, tc.units)
			refill := time.Duration(float64(tc.burst) / tc.rate * float64(time.Second))
			assert.Less(t, time.Since(start), refill+100*time.Millisecond, "%s %v", name, tc.units)
			st := b.Stats()
			assert.Equal(t, int64(2*tc.burst), st.Units, "%s %v", name, tc.units)
			assert.Equal(t, int64(2), st.Waits, "%s %v", name, tc.units)
		}
	}
}

// TestBudgetCancelledWaitsAroundRestart: callers queued again on the new
// schedule a 429 starts (after its Retry-After, at the lowered rate) spend
// nothing when they give up, and neither do callers that give up during
// the pause.
func TestBudgetCancelledWaitsAroundRestart(t *testing.T) {
	const n = 20
	for name, order := range cancelOrders {
		for _, during := range []bool{false, true} {
			what := fmt.Sprintf("%s, cancelled during the pause: %v", name, during)
			b := newBudget(t, 100, 1) // one unit every 10 ms
			require.NoError(t, b.Wait(context.Background(), 1))
			cancels, wait := queueWaiters(t, b, slices.Repeat([]int{1}, n)) // due at 10..200 ms
			// 50 units per second after a pause that outlasts the schedule
			// the provider refused: every waiter queues again on the new
			// one, 20 ms apart from 220 ms on.
			b.Throttled(200 * time.Millisecond)
			pauseEnd := time.Now().Add(200 * time.Millisecond)
			if during {
				time.Sleep(100 * time.Millisecond)
			} else {
				time.Sleep(270 * time.Millisecond) // two or three served, the rest queued
			}
			for _, i := range order(n) {
				cancels[i]()
			}
			served := 0
			for _, err := range wait() {
				if err == nil {
					served++
					continue
				}
				require.ErrorIs(t, err, context.Canceled, what)
			}
			// The next caller waits for the pause's end and one unit at the
			// new rate at most (20 ms), not for the cancelled ones (up to
			// 400 ms).
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			from := time.Now()
			if from.Before(pauseEnd) {
				from = pauseEnd
			}
			err := b.Wait(ctx, 1)
			cancel()
			require.NoError(t, err, what)
			assert.Less(t, time.Since(from), 100*time.Millisecond, what)
			assert.Equal(t, int64(2+served), b.Stats().Units, what)
		}
	}
}

// TestBudgetDeadlineCountsQueuedCallers: a caller whose deadline would
// pass before the callers queued ahead of it and its own units are served
// is refused at once; one whose deadline leaves time goes in its turn.
func TestBudgetDeadlineCountsQueuedCallers(t *testing.T) {
	b := newBudget(t, 10, 1)
	require.NoError(t, b.Wait(context.Background(), 1))
	_, wait := queueWaiters(t, b, []int{1, 1, 1, 1}) // served at 100..400 ms
	short, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
	defer cancel()
	start := time.Now()
	require.ErrorIs(t, b.Wait(short, 1), context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 30*time.Millisecond)
	long, cancel2 := context.WithTimeout(context.Background(), time.Second)
	defer cancel2()
	require.NoError(t, b.Wait(long, 1))
	for _, err := range wait() {
		require.NoError(t, err)
	}
	assert.Equal(t, int64(6), b.Stats().Units)
}

// TestBudgetFIFO: callers are served in the order they came, so a caller
// of many units is not overtaken for ever by callers of few.
func TestBudgetFIFO(t *testing.T) {
	b := newBudget(t, 100, 5)
	require.NoError(t, b.Wait(context.Background(), 5))
	var mu sync.Mutex
	var served []int
	var wg sync.WaitGroup
	for i := range 6 {
		units := 1
		if i == 1 {
			units = 5
		}
		wg.Go(func() {
			require.NoError(t, b.Wait(context.Background(), units))
			mu.Lock()
			served = append(served, i)
			mu.Unlock()
		})
		time.Sleep(5 * time.Millisecond)
	}
	wg.Wait()
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5}, served)
}

// TestBudgetQueueKeepsRate: callers that take turns still get the whole
// rate when the burst is small and the rate high, where a late timer or a
// slow hand-over between turns (about a millisecond on a busy machine) is
// longer than the burst lasts: 4000 units per second with a burst of 1 (a
// unit every 250 µs) to 16 callers. (Each caller reserves at the time the
// one before it could act, not when its turn reached it; reserving at the
// hand-over gave a third of the rate.)
func TestBudgetQueueKeepsRate(t *testing.T) {
	const rate, d = 4000.0, 500 * time.Millisecond
	// A machine busy with other tests (CI runs packages in parallel) can
	// starve 16 goroutines for a while in any one run, so the best of three
	// runs is held to the bound: the defect this guards against (a third of
	// the rate) loses every run, a busy machine rarely all three.
	var best float64
	for range 3 {
		b := newBudget(t, rate, 1)
		require.NoError(t, b.Wait(context.Background(), 1))
		start := time.Now()
		end := start.Add(d)
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				for time.Now().Before(end) {
					require.NoError(t, b.Wait(context.Background(), 1))
				}
			})
		}
		wg.Wait()
		got := float64(b.Stats().Units-1) / time.Since(start).Seconds()
		assert.LessOrEqual(t, got, rate*1.05+1/d.Seconds(), "units per second")
		best = max(best, got)
		if best >= 0.7*rate {
			break
		}
	}
	assert.GreaterOrEqual(t, best, 0.7*rate, "units per second, the best of three runs")
}
