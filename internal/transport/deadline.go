package transport

import (
	"context"
	"reflect"
	"sync/atomic"
	"time"
)

// attemptContext bounds one attempt by timeout. A caller's context whose
// deadline comes sooner is used as it is. Otherwise the attempt runs under a
// context derived from the caller's (its values and its cancellation kept)
// with a deadline, and attempts that start within one window of each other
// under the same caller context share that derived context instead of each
// making a timer context: that saves about seven allocations per call for
// callers that pass one context to many calls (context.Background(), a
// worker's context). Each attempt still gets at least timeout and at most
// timeout plus the window (1/64 of it, at most one second).
func (c *Client) attemptContext(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= timeout {
		return ctx, nil
	}
	if !reflect.TypeOf(ctx).Comparable() {
		// A context type that == cannot compare: no sharing.
		return context.WithTimeout(ctx, timeout)
	}
	return c.deadlines.get(ctx, timeout), nil
}

// deadlineShare holds the shared attempt context of one client: one entry,
// for the caller context seen last.
type deadlineShare struct {
	cur atomic.Pointer[sharedDeadline]
}

type sharedDeadline struct {
	parent  context.Context
	ctx     context.Context
	cancel  context.CancelFunc // never called: the deadline or the parent releases it
	timeout time.Duration
	at      time.Time
}

// get returns a context derived from parent that ends between timeout and
// timeout+window from now (or when parent ends). parent's type must be
// comparable.
func (s *deadlineShare) get(parent context.Context, timeout time.Duration) context.Context {
	now := time.Now()
	window := min(timeout/64, time.Second)
	if p := s.cur.Load(); p != nil && p.timeout == timeout && p.parent == parent {
		if left := p.at.Sub(now); left >= timeout && left <= timeout+window {
			return p.ctx
		}
	}
	at := now.Add(timeout + window)
	ctx, cancel := context.WithDeadline(parent, at)
	s.cur.Store(&sharedDeadline{parent: parent, ctx: ctx, cancel: cancel, timeout: timeout, at: at})
	return ctx
}
