package nodeaccess

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/nodeaccess/nodeaccess/internal/config"
)

// Limiter is what a client needs from a request-unit budget. Budget is the
// in-process one; a limiter shared by many processes (a Redis-backed GCRA,
// say) meets the same two methods and is passed with WithBudget the same
// way.
type Limiter interface {
	// Wait blocks until units request units may be spent, then spends them.
	// It returns ctx's error (or one that matches it with errors.Is) when
	// ctx ends first, and spends nothing then.
	//
	// A client waits before each attempt for the attempt's cost. A
	// limiter that also has a method Burst() int, the most units one Wait
	// grants, gets the cost of a JSON-RPC batch above it in Waits of at
	// most that many units, one after the other; when one of them fails
	// the batch is not sent, but the units the earlier ones granted stay
	// spent (Budget grants a batch's units at once or not at all).
	Wait(ctx context.Context, units int) error
	// Throttled tells the limiter that the provider answered 429 (too many
	// requests), with the Retry-After it asked for (0 when it gave none or
	// asked for no wait). A client reports no more than its own
	// WithMaxRetryAfter, the longest it waits for a Retry-After: a longer
	// one ends the client's call at once, and is reported as that cap.
	Throttled(retryAfter time.Duration)
}

// The AIMD constants of Budget: how it backs off after a 429 and how it
// recovers, the way TCP's congestion control does. They were chosen by
// measurement (bench/RESULTS.md): a plan shared by two processes, each with
// a Budget of the plan's whole rate, served 90 to 95 % of the plan with
// them, against 80 to 85 % with the classic halving on every 429 and a
// tenth of the plan back per second. What a 429 costs there is mostly the
// provider's Retry-After (whole seconds, while its bucket refills in a
// fraction of one), so the constants aim at few 429s: a decrease that
// matches what the 429 says, and a slow probe for spare units.
const (
	// budgetDecreaseAtPlan is the factor a 429 multiplies the rate by when
	// the budget was spending at the plan's full rate: it is not alone on
	// the plan (or the plan is smaller than configured), and without
	// knowing how many share it, it halves, as TCP does.
	budgetDecreaseAtPlan = 0.5
	// budgetDecrease is the factor a 429 multiplies the rate by when the
	// budget was already below the plan's rate: it has backed off before,
	// and its share has drifted a little above what the plan leaves it.
	budgetDecrease = 0.8
	// budgetRecovery is the share of the plan's rate added back per second
	// after a 429 (from the end of its Retry-After), until the plan's rate
	// is reached again: a budget that halved takes 50 s to climb back.
	// Each probe above what the plan allows ends in a 429 and a pause, so
	// a slow climb keeps 429s rare.
	budgetRecovery = 0.01
	// budgetMinShare is the lowest share of the plan's rate a budget falls
	// to, however many 429s it sees.
	budgetMinShare = 1.0 / 64
)

// Budget spends a plan's request units: at most unitsPerSecond on average,
// with bursts of up to burst units. Share one Budget between every client
// that draws on the same plan (clients of several chains included) by
// passing it to each with WithBudget. A Budget is safe for concurrent use.
//
// Before each attempt of a call (retries included) the client waits on the
// budget for the attempt's cost in units. Callers are served in the order
// they came. A caller whose context ends while it waits spends nothing, and
// the callers after it wait as if it had never come. A JSON-RPC batch whose
// cost is above the burst is granted all its units at once, or none.
//
// When the provider answers 429 anyway (another process shares the plan,
// or the plan is smaller than configured), the budget lowers its rate
// (halves it when it was at the plan's rate, multiplies it by 0.8 when it
// had already backed off), holds every caller until the Retry-After the
// provider asked for has passed (callers already waiting included, which
// then queue again on a new schedule at the lowered rate, with no units
// saved up, rather than all going when the pause ends), and then adds back
// 1 % of the plan's rate per second until it reaches the plan's rate again
// (additive increase, multiplicative decrease), and never falls below 1/64
// of the plan's rate. Processes that share one plan, each with its own
// Budget, so converge to a share of it (bench/RESULTS.md measures two such
// processes).
//
// The pause is bounded by the clients' WithMaxRetryAfter (30 s unless set),
// on both sides. A client reports a
// Retry-After longer than its own cap as that cap, so a pause the clients'
// 429s set lasts at most the longest cap among them, whatever the provider
// sent (one your own code sets with Throttled lasts what it says). And a
// client's call is held by a pause for no longer than its own cap: while
// more of the pause is left, the call ends at once, with nothing sent and
// an error that matches ErrRateLimited, as it would had the provider
// answered it 429 with that Retry-After (with a cap of 0, every call during
// a pause ends so). A caller of Wait that is not a client (your own code)
// waits the whole pause out. Any wait also ends at once when the context's
// deadline would pass first.
//
// Budget is built on golang.org/x/time/rate's token bucket.
type Budget struct {
	plan  float64
	burst int

	// window is the time after a decrease in which further 429s do not
	// decrease again: the attempts already in flight when the first 429
	// came back answer 429 too, and count as one congestion event.
	window time.Duration

	mu           sync.Mutex
	lim          *rate.Limiter // the schedule
	cur          float64       // the current rate
	floor        float64       // the rate right after the last decrease
	epoch        time.Time     // when recovery from it starts (the pause's end)
	lastDecrease time.Time
	pausedUntil  time.Time // no unit is spent before this (Retry-After)
	gen          uint64    // the number of 429s: the schedule's generation
	restart      bool      // the next reservation starts a new, empty schedule
	// mark is the earliest time the next reservation is made at: when the
	// last caller served could act, or when the schedule last changed.
	mark time.Time
	// throttled is closed by the next 429 (nil until a caller waits on it).
	throttled chan struct{}
	// The callers waiting for units, in the order they came (budget_wait.go).
	queue    turnQueue
	queued   int // the units of the callers in queue
	reserved int // the units the caller whose turn it is has reserved on lim
	stats    BudgetStats
}

// BudgetStats is what a Budget has done since it was made, for dashboards.
type BudgetStats struct {
	// Units is the number of request units spent: those of the Waits
	// that granted them (a client sends its attempt as soon as its units
	// are granted). A wait that ends without its units, cancelled or
	// refused, spends and counts none.
	Units int64
	// Waits is the number of Wait calls that spent units (one per attempt,
	// a batch's included).
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
// that costs more units than burst is charged burst units; a JSON-RPC
// batch is charged all of them.
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
// available (after those of the callers queued ahead), with an error that
// matches context.DeadlineExceeded. Units above the burst are charged as
// the burst. A nil ctx is an *InputError.
func (b *Budget) Wait(ctx context.Context, units int) error {
	if ctx == nil {
		return &InputError{Arg: "ctx", Reason: "nil context.Context (pass context.Background() or a context of the caller's)"}
	}
	if units <= 0 {
		return nil
	}
	call := config.BudgetCallFrom(ctx)
	if call == nil || !call.Whole {
		units = min(units, b.burst)
	}
	start := time.Now()
	err := b.wait(ctx, units, call)
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

// recover sets the rate on the recovery line at now: budgetRecovery of the
// plan's rate per second since the pause after the last decrease ended. It
// runs with b.mu held.
func (b *Budget) recover(now time.Time) {
	if r := b.rateAt(now); r != b.cur {
		b.cur = r
		b.lim.SetLimitAt(now, rate.Limit(b.cur))
	}
}

// rateAt is the rate on the recovery line at now. It runs with b.mu held.
func (b *Budget) rateAt(now time.Time) float64 {
	if b.cur >= b.plan || !now.After(b.epoch) {
		return b.cur
	}
	return min(b.plan, b.floor+b.plan*budgetRecovery*now.Sub(b.epoch).Seconds())
}

// Throttled records a 429: the rate is halved when the budget was at the
// plan's rate and multiplied by 0.8 when it had backed off before (once
// per congestion event, not once per 429 of the attempts already in
// flight), no units are spent before retryAfter has
// passed (a pause already in force that ends later is kept), and the
// callers already queued queue again at the lowered rate. A client's call
// is held by the pause for no longer than its WithMaxRetryAfter (see
// Budget).
func (b *Budget) Throttled(retryAfter time.Duration) {
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stats.Throttled++
	// Every caller queued on the schedule the provider refused queues
	// again on a new one.
	b.gen++
	b.restart = true
	b.reserved = 0 // the reservation is on the schedule dropped
	if b.throttled != nil {
		close(b.throttled)
		b.throttled = nil
	}
	if retryAfter > 0 {
		if until := now.Add(retryAfter); until.After(b.pausedUntil) {
			b.pausedUntil = until
		}
	}
	if !b.lastDecrease.IsZero() && now.Sub(b.lastDecrease) < b.window {
		return
	}
	b.lastDecrease = now
	b.recover(now) // the rate the 429 answered
	factor := budgetDecrease
	if b.cur >= b.plan {
		factor = budgetDecreaseAtPlan
	}
	b.cur = max(b.plan*budgetMinShare, b.cur*factor)
	b.floor = b.cur
	// Recovery starts when the pause ends.
	b.epoch = now
	if b.pausedUntil.After(now) {
		b.epoch = b.pausedUntil
	}
}

// String describes the budget.
func (b *Budget) String() string {
	return fmt.Sprintf("nodeaccess.Budget(%g units/s, burst %d)", b.plan, b.burst)
}
