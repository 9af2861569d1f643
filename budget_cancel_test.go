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
// waits as if they had never come (for one unit to come back, not for the
// units the cancelled callers asked for), and a caller with a deadline
// that this leaves enough time is not refused.
func TestBudgetCancelledWaitsSpendNothing(t *testing.T) {
	// One unit per second: slow enough that no waiter is served before it
	// gives up (the first is due a second or more on, however long a
	// loaded machine takes to cancel them), with 20 s and 48 s of units
	// cancelled, and a unit that a cancelled caller kept would add a
	// second to the next caller's wait.
	const rate = 1.0
	for _, tc := range []struct {
		burst int
		units []int
	}{
		{1, slices.Repeat([]int{1}, 20)},
		{3, slices.Repeat([]int{3, 1, 2}, 8)},
	} {
		for name, order := range cancelOrders {
			t.Run(fmt.Sprintf("%s burst %d", name, tc.burst), func(t *testing.T) {
				t.Parallel() // each on a budget of its own
				b := newBudget(t, rate, tc.burst)
				// The burst spent: one unit is back a second after spent
				// at the latest.
				require.NoError(t, b.Wait(context.Background(), tc.burst))
				spent := time.Now()
				cancels, wait := queueWaiters(t, b, tc.units)
				for _, i := range order(len(tc.units)) {
					cancels[i]()
					time.Sleep(time.Millisecond)
				}
				for i, err := range wait() {
					require.ErrorIs(t, err, context.Canceled, "%v: waiter %d", tc.units, i)
				}
				// The caller may have to wait for a unit to come back,
				// never for the cancelled.
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				err := b.Wait(ctx, 1)
				cancel()
				require.NoError(t, err, "%v: the caller after the cancelled ones", tc.units)
				assert.Less(t, time.Since(spent), time.Second+500*time.Millisecond, "%v", tc.units)
				st := b.Stats()
				assert.Equal(t, int64(tc.burst+1), st.Units, "%v", tc.units)
				assert.Equal(t, int64(2), st.Waits, "%v", tc.units)
			})
		}
	}
}

// TestBudgetCancelledWaitsAroundRestart: callers queued again on the new
// schedule a 429 starts (after its Retry-After, at the lowered rate) spend
// nothing when they give up, and neither do callers that give up during
// the pause.
func TestBudgetCancelledWaitsAroundRestart(t *testing.T) {
	const n, pause = 20, 400 * time.Millisecond
	for name, order := range cancelOrders {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each order on budgets of its own
			for _, during := range []bool{false, true} {
				what := fmt.Sprintf("cancelled during the pause: %v", during)
				b := newBudget(t, 20, 1) // one unit every 50 ms
				require.NoError(t, b.Wait(context.Background(), 1))
				cancels, wait := queueWaiters(t, b, slices.Repeat([]int{1}, n)) // due at 50..1000 ms
				// 10 units per second after the pause: every waiter queues
				// again on the new schedule, 100 ms apart from 100 ms after
				// the pause's end.
				b.Throttled(pause)
				pauseEnd := time.Now().Add(pause) // (at or after the pause's end)
				if during {
					time.Sleep(pause / 2)
				} else {
					time.Sleep(pause + 250*time.Millisecond) // two or so served, the rest queued
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
				// The next caller waits for the pause's end and one unit at
				// the new rate at most (100 ms), not for the cancelled ones
				// (up to 2 s).
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				from := time.Now()
				if from.Before(pauseEnd) {
					from = pauseEnd
				}
				err := b.Wait(ctx, 1)
				cancel()
				require.NoError(t, err, what)
				assert.Less(t, time.Since(from), 500*time.Millisecond, what)
				assert.Equal(t, int64(2+served), b.Stats().Units, what)
			}
		})
	}
}

// TestBudgetDeadlineCountsQueuedCallers: a caller whose deadline would
// pass before the callers queued ahead of it and its own units are served
// is refused at once (not at its deadline); one whose deadline leaves time
// goes in its turn.
func TestBudgetDeadlineCountsQueuedCallers(t *testing.T) {
	b := newBudget(t, 4, 1) // one unit every 250 ms
	require.NoError(t, b.Wait(context.Background(), 1))
	_, wait := queueWaiters(t, b, []int{1, 1, 1, 1}) // served at 250..1000 ms
	// Its own unit would come at 1250 ms: after the deadline, however
	// late (up to 450 ms) a loaded machine gets here.
	short, cancel := context.WithTimeout(context.Background(), 800*time.Millisecond)
	defer cancel()
	start := time.Now()
	require.ErrorIs(t, b.Wait(short, 1), context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 400*time.Millisecond, "the refused caller waited for its deadline")
	long, cancel2 := context.WithTimeout(context.Background(), 3*time.Second)
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
	// Ten units per second: the callers are served 100 ms apart or more
	// (the second, of 5 units, 500 ms after the first), so that a loaded
	// machine that runs a caller late after its Wait does not reorder the
	// list, and they come 50 ms apart, all of them while the second waits.
	b := newBudget(t, 10, 5)
	require.NoError(t, b.Wait(context.Background(), 5))
	var mu sync.Mutex
	var served []int
	var wg sync.WaitGroup
	for i := range 6 {
		units := 1
		if i == 1 {
			units = 5
		}
		started := make(chan struct{})
		wg.Go(func() {
			close(started)
			require.NoError(t, b.Wait(context.Background(), units))
			mu.Lock()
			served = append(served, i)
			mu.Unlock()
		})
		<-started
		time.Sleep(50 * time.Millisecond)
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
	// the rate) loses every run, a busy machine rarely all three. The floor
	// is half the rate: 8 to 10 CPU hogs on 2 cores under -race held the
	// best of three to 0.54-0.69 of it, and the defect's third stays below.
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
		if best >= 0.5*rate {
			break
		}
	}
	assert.GreaterOrEqual(t, best, 0.5*rate, "units per second, the best of three runs")
}
