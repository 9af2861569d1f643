package nodeaccess

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limiter is what a client needs from a request-unit budget. Budget is the
// in-process one; a limiter shared by many processes (a Redis-backed GCRA,
// say) meets the same two methods and is passed with WithBudget the same
// way.
type Limiter interface {
	// Wait blocks until units request units may be spent, then spends them.
	// It returns ctx's error (or one that matches it with errors.Is) when
	// ctx ends first, and spends nothing then.
	Wait(ctx context.Context, units int) error
	// Throttled tells the limiter that the provider answered 429 (too many
	// requests), with the Retry-After it asked for (0 when it gave none).
	Throttled(retryAfter time.Duration)
}

// The AIMD constants of Budget: how it backs off after a 429 and how it
// recovers, the way TCP's congestion control does.
const (
	// BudgetDecrease is the factor a 429 multiplies the budget's rate by.
	BudgetDecrease = 0.5
	// BudgetRecovery is the share of the plan's rate added back per second
	// after a 429, until the plan's rate is reached again.
	BudgetRecovery = 0.1
	// BudgetMinShare is the lowest share of the plan's rate a budget falls
	// to, however many 429s it sees.
	BudgetMinShare = 1.0 / 64
)

// Budget spends a plan's request units: at most unitsPerSecond on average,
// with bursts of up to burst units. Share one Budget between every client
// that draws on the same plan (clients of several chains included) by
// passing it to each with WithBudget. A Budget is safe for concurrent use.
//
// Before each attempt of a call (retries included) the client waits on the
// budget for the attempt's cost in units. When the provider answers 429
// anyway (another process shares the plan, or the plan is smaller than
// configured), the budget halves its rate, makes every caller wait out the
// Retry-After the provider asked for (callers already waiting included,
// which then queue again at the lowered rate rather than all going when the
// pause ends), and then adds back a tenth of the
// plan's rate per second until it reaches the plan's rate again (additive
// increase, multiplicative decrease). Processes that share one plan, each
// with its own Budget, so converge to a share of it.
//
// Budget is built on golang.org/x/time/rate's token bucket.
type Budget struct {
	plan  float64
	burst int
	lim   *rate.Limiter

	// window is the time after a decrease in which further 429s do not
	// decrease again: the attempts already in flight when the first 429
	// came back answer 429 too, and count as one congestion event.
	window time.Duration

	mu           sync.Mutex
	cur          float64   // the current rate
	adjusted     time.Time // when cur was last changed
	lastDecrease time.Time
	pausedUntil  time.Time // no unit is spent before this (Retry-After)
	stats        BudgetStats
}

// BudgetStats is what a Budget has done since it was made, for dashboards.
type BudgetStats struct {
	// Units is the number of request units spent.
	Units int64
	// Waits is the number of Wait calls that spent units.
	Waits int64
	// Waited is the total time callers waited (successful waits and
	// cancelled ones).
	Waited time.Duration
	// Throttled is the number of 429 answers reported to the budget.
	Throttled int64
	// Rate is the current rate in units per second (below the plan's rate
	// after a 429, until it recovers).
	Rate float64
}

// NewBudget returns a budget of unitsPerSecond request units per second
// (positive, finite) with bursts of up to burst units (at least 1). A call
// that costs more units than burst is charged burst units.
//
// Give the plan's rate, and a burst below the provider's own bucket (half
// of it, say): requests the budget spaces evenly may still reach the
// provider bunched (scheduling, garbage collection, the network), and the
// provider's spare units absorb that instead of a 429. Where that is not
// enough (a small bucket, a loaded machine), a rate a little below the
// plan's (90 %) leaves spare units for it.
func NewBudget(unitsPerSecond float64, burst int) (*Budget, error) {
	if !(unitsPerSecond > 0) || math.IsInf(unitsPerSecond, 0) {
		return nil, fmt.Errorf("nodeaccess: NewBudget: %v units per second is not a positive finite rate", unitsPerSecond)
	}
	if burst < 1 {
		return nil, fmt.Errorf("nodeaccess: NewBudget: burst %d is below 1", burst)
	}
	return &Budget{
		plan:   unitsPerSecond,
		burst:  burst,
		lim:    rate.NewLimiter(rate.Limit(unitsPerSecond), burst),
		window: time.Second,
		cur:    unitsPerSecond,
	}, nil
}

// Rate returns the plan's rate in units per second, as given to NewBudget.
func (b *Budget) Rate() float64 { return b.plan }

// Burst returns the largest burst in units, as given to NewBudget.
func (b *Budget) Burst() int { return b.burst }

// Stats returns what the budget has spent and seen so far.
func (b *Budget) Stats() BudgetStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.stats
	s.Rate = b.cur
	return s
}

// Wait blocks until units may be spent and spends them; see Limiter. It
// returns at once when ctx's deadline would pass before the units are
// available, with an error that matches context.DeadlineExceeded.
func (b *Budget) Wait(ctx context.Context, units int) error {
	if units <= 0 {
		return nil
	}
	units = min(units, b.burst)
	start := time.Now()
	err := b.wait(ctx, units)
	waited := time.Since(start)
	b.mu.Lock()
	b.stats.Waited += waited
	if err == nil {
		b.stats.Units += int64(units)
		b.stats.Waits++
	}
	b.mu.Unlock()
	return err
}

func (b *Budget) wait(ctx context.Context, units int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for {
		// A Retry-After in force first.
		if err := b.waitPause(ctx); err != nil {
			return err
		}
		now := time.Now()
		b.recover(now)
		r := b.lim.ReserveN(now, units)
		if !r.OK() {
			// Cannot happen: units <= burst, and the limit is never infinite.
			return errors.New("nodeaccess: budget: reservation refused")
		}
		if d := r.DelayFrom(now); d > 0 {
			if dl, ok := ctx.Deadline(); ok && dl.Before(now.Add(d)) {
				r.CancelAt(now)
				return fmt.Errorf("nodeaccess: budget: %d units are not available before the context's deadline: %w", units, context.DeadlineExceeded)
			}
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
				r.Cancel()
				return ctx.Err()
			case <-t.C:
			}
		}
		// A 429 may have come while this caller waited: its Retry-After
		// holds for every caller, those already waiting included. Such a
		// caller queues again after the pause, at the lowered rate, so that
		// the callers held by the pause do not all go at once when it ends
		// (the units of the first reservation stay spent: the budget errs
		// on the slow side).
		if !b.paused(time.Now()) {
			return nil
		}
	}
}

// paused reports whether a Retry-After is in force at now.
func (b *Budget) paused(now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return now.Before(b.pausedUntil)
}

// waitPause waits until no Retry-After is in force.
func (b *Budget) waitPause(ctx context.Context) error {
	for {
		b.mu.Lock()
		until := b.pausedUntil
		b.mu.Unlock()
		d := time.Until(until)
		if d <= 0 {
			return nil
		}
		if dl, ok := ctx.Deadline(); ok && dl.Before(until) {
			return fmt.Errorf("nodeaccess: budget: the provider's Retry-After outlasts the context's deadline: %w", context.DeadlineExceeded)
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// recover adds back BudgetRecovery of the plan's rate per second since the
// last change, up to the plan's rate.
func (b *Budget) recover(now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cur >= b.plan {
		return
	}
	elapsed := now.Sub(b.adjusted).Seconds()
	if elapsed <= 0 {
		return
	}
	b.cur = min(b.plan, b.cur+b.plan*BudgetRecovery*elapsed)
	b.adjusted = now
	b.lim.SetLimitAt(now, rate.Limit(b.cur))
}

// Throttled records a 429: the rate is multiplied by BudgetDecrease (once
// per congestion event, not once per 429 of the attempts already in flight)
// and no units are spent before retryAfter has passed, by any caller.
func (b *Budget) Throttled(retryAfter time.Duration) {
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stats.Throttled++
	if retryAfter > 0 {
		if until := now.Add(retryAfter); until.After(b.pausedUntil) {
			b.pausedUntil = until
		}
	}
	if !b.lastDecrease.IsZero() && now.Sub(b.lastDecrease) < b.window {
		return
	}
	b.lastDecrease = now
	b.cur = max(b.plan*BudgetMinShare, b.cur*BudgetDecrease)
	b.adjusted = now
	if until := b.pausedUntil; until.After(now) {
		// Recovery starts when the pause ends.
		b.adjusted = until
	}
	b.lim.SetLimitAt(now, rate.Limit(b.cur))
	// The tokens saved up before the 429 are spent: the provider's bucket
	// is empty, a burst now would be answered 429 again.
	if tk := int(b.lim.TokensAt(now)); tk > 0 {
		b.lim.ReserveN(now, tk)
	}
}

// String describes the budget.
func (b *Budget) String() string {
	return fmt.Sprintf("nodeaccess.Budget(%g units/s, burst %d)", b.plan, b.burst)
}
