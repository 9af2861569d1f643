package nodeaccess

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/time/rate"

	"github.com/nodeaccess/nodeaccess/internal/config"
)

// How a Budget waits. Callers take turns in the order they came, and only
// the caller whose turn it is holds a reservation on the schedule (the
// token bucket): the others have reserved nothing, so one that gives up
// leaves the queue and is forgotten, and the one whose turn it is gives
// back all it reserved when it gives up, because its reservation is the
// schedule's last (a token bucket can give back only what no later
// reservation has counted on). Throughput is the same as when every caller
// reserves on arrival: while callers are queued, each reserves at the time
// the one before it could act (or when it came, if later), not when its
// turn reached it, so that a late timer or a slow hand-over between turns
// (a millisecond is common) costs no units, whatever the burst.

// turn is one caller's place in the queue.
type turn struct {
	units  int
	joined time.Time // when it joined the queue
	// mark is when the schedule was left as it is by this caller's turn
	// (the time its units could act, or the time it gave them back), for
	// the schedule's generation gen.
	mark time.Time
	gen  uint64
	// ready is closed when the caller's turn comes; nil for a caller that
	// found the queue empty.
	ready chan struct{}
	// prev and next link the queue.
	prev, next *turn
}

// turnQueue is a FIFO queue of turns that a turn may leave from anywhere.
// Its first turn is the one whose turn it is.
type turnQueue struct {
	first, last *turn
}

func (q *turnQueue) push(t *turn) {
	t.prev = q.last
	if q.last != nil {
		q.last.next = t
	} else {
		q.first = t
	}
	q.last = t
}

func (q *turnQueue) remove(t *turn) {
	if t.prev != nil {
		t.prev.next = t.next
	} else {
		q.first = t.next
	}
	if t.next != nil {
		t.next.prev = t.prev
	} else {
		q.last = t.prev
	}
	t.prev, t.next = nil, nil
}

// wait waits for units and spends them; call is what the client that
// waits told the budget (nil for a caller that is not a client of the SDK).
func (b *Budget) wait(ctx context.Context, units int, call *config.BudgetCall) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for {
		// A Retry-After in force first, outside the queue, so that each
		// caller is held by the pause for no longer than it may be.
		if err := b.waitPause(ctx, call); err != nil {
			return err
		}
		t, err := b.join(ctx, units)
		if err != nil {
			return err
		}
		if t == nil {
			continue // a 429 came in between: its Retry-After holds
		}
		if done, err := b.take(ctx, t); done || err != nil {
			return err
		}
		// A pause began while the caller waited: it waits it out like
		// every caller and queues again when it ends.
	}
}

// join queues a caller for units; nil while a Retry-After is in force. A
// caller whose context's deadline would pass before the units of the
// callers queued ahead of it and its own are available is refused at once.
func (b *Budget) join(ctx context.Context, units int) (*turn, error) {
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.Before(b.pausedUntil) {
		return nil, nil
	}
	if dl, ok := ctx.Deadline(); ok && dl.Before(b.due(now, units)) {
		return nil, deadlineErr(units)
	}
	t := &turn{units: units, joined: now}
	if b.queue.first != nil {
		t.ready = make(chan struct{})
	}
	b.queue.push(t)
	b.queued += units
	return t, nil
}

// due estimates when units asked for at now would be available: after the
// units queued ahead (the reservation of the caller whose turn it is being
// on the schedule already), at the current rate. It changes nothing, and
// runs with b.mu held.
func (b *Budget) due(now time.Time, units int) time.Time {
	var tokens float64 // a new schedule after a 429 starts empty
	if !b.restart {
		tokens = b.lim.TokensAt(now)
	}
	need := float64(b.queued-b.reserved+units) - tokens
	if need <= 0 {
		return now
	}
	return now.Add(time.Duration(need / b.rateAt(now) * float64(time.Second)))
}

func deadlineErr(units int) error {
	return fmt.Errorf("nodeaccess: budget: %d units are not available before the context's deadline: %w", units, context.DeadlineExceeded)
}

// take waits for t's turn, then for its units on the schedule, and spends
// them (done). It returns done false, and no error, when a Retry-After
// began meanwhile. t leaves the queue whatever the outcome, and the next
// caller's turn comes.
func (b *Budget) take(ctx context.Context, t *turn) (done bool, err error) {
	defer b.leave(t)
	if t.ready != nil {
		select {
		case <-t.ready:
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
	for {
		now := time.Now()
		r, at, gen, throttled, err := b.reserve(now, t)
		if r == nil || err != nil {
			// nil, nil: a Retry-After holds.
			return false, err
		}
		t.gen = gen
		act := at.Add(r.DelayFrom(at))
		t.mark = act
		if act.After(now) {
			if dl, ok := ctx.Deadline(); ok && dl.Before(act) {
				r.CancelAt(now)
				t.mark = now
				return false, deadlineErr(t.units)
			}
			timer := time.NewTimer(act.Sub(now))
			select {
			case <-ctx.Done():
				timer.Stop()
				// At the time to act at the latest, so that a cancellation
				// that races the timer still gives every unit back.
				t.mark = earliest(time.Now(), act)
				r.CancelAt(t.mark)
				return false, ctx.Err()
			case <-throttled:
				// A 429: the schedule this reservation is on was refused,
				// and is dropped with it.
				timer.Stop()
				continue
			case <-timer.C:
			}
		}
		// A 429 may have come just now: the caller then queues again, on
		// the new schedule at the lowered rate, after the pause.
		if !b.throttledSince(gen) {
			return true, nil
		}
	}
}

func earliest(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// leave takes t out of the queue and, when it was t's turn, starts the next
// caller's.
func (b *Budget) leave(t *turn) {
	b.mu.Lock()
	defer b.mu.Unlock()
	first := b.queue.first == t
	b.queue.remove(t)
	b.queued -= t.units
	if first {
		b.reserved = 0
		if t.gen == b.gen && t.mark.After(b.mark) {
			b.mark = t.mark
		}
		if next := b.queue.first; next != nil {
			close(next.ready)
		}
	}
}

// reserve reserves t's units on the current schedule for the caller whose
// turn it is, at the time the caller before it could act (or when t came,
// if later; never after now), and returns that time, the schedule's
// generation and a channel closed by the next 429; nil while a Retry-After
// is in force.
func (b *Budget) reserve(now time.Time, t *turn) (*rate.Reservation, time.Time, uint64, <-chan struct{}, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.Before(b.pausedUntil) {
		return nil, time.Time{}, 0, nil, nil
	}
	units := t.units
	// b.mark is never before the schedule's last change, so the schedule
	// never goes back in time.
	at := t.joined
	if b.mark.After(at) {
		at = b.mark
	}
	if at.After(now) {
		at = now
	}
	if b.restart {
		// The first reservation after a 429 (and its Retry-After): a new
		// schedule at the lowered rate that starts empty, so that units
		// saved up before the 429 or during the pause do not go as a
		// burst into a provider's bucket that is empty.
		b.restart = false
		at = now
		b.lim = rate.NewLimiter(rate.Limit(b.cur), b.burst)
		b.lim.ReserveN(at, b.burst)
	}
	b.mark = at
	b.recover(at)
	var r *rate.Reservation
	if units > b.burst {
		// A batch's units, all at once: the burst is raised for this one
		// reservation only (no unit is saved up above the burst), so that
		// cancelling it gives back every unit.
		b.lim.SetBurstAt(at, units)
		r = b.lim.ReserveN(at, units)
		b.lim.SetBurstAt(at, b.burst)
	} else {
		r = b.lim.ReserveN(at, units)
	}
	if !r.OK() {
		// Cannot happen: units are within the burst, and the limit is
		// never infinite.
		return nil, at, 0, nil, errors.New("nodeaccess: budget: reservation refused")
	}
	b.reserved = units
	if b.throttled == nil {
		b.throttled = make(chan struct{})
	}
	return r, at, b.gen, b.throttled, nil
}

// throttledSince reports whether a 429 was reported since generation gen.
func (b *Budget) throttledSince(gen uint64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.gen != gen
}

// waitPause waits until no Retry-After is in force. A client's call is held
// for no longer than its client's MaxRetryAfter: while more of the pause is
// left, the call ends at once, as it would had the provider answered it 429
// itself.
func (b *Budget) waitPause(ctx context.Context, call *config.BudgetCall) error {
	for {
		b.mu.Lock()
		until := b.pausedUntil
		b.mu.Unlock()
		d := time.Until(until)
		if d <= 0 {
			return nil
		}
		if call != nil && d > call.MaxPause {
			return fmt.Errorf("nodeaccess: budget: a 429's Retry-After holds the budget for %s more, longer than the client waits for one (WithMaxRetryAfter %s): %w",
				d.Round(time.Millisecond), call.MaxPause, ErrRateLimited)
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
