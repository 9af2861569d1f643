package transport

import (
	"context"
	"sync/atomic"
	"time"
)

// attemptContext bounds one attempt by timeout. A caller's context whose
// deadline comes sooner is used as it is. For a caller that passed
// context.Background() or context.TODO() (no deadline, no values, never
// cancelled: the common case for indexers), attempts share a context with a
// deadline, renewed every window, instead of each making a timer context:
// that saves about seven allocations per call, and each attempt still gets
// at least timeout and at most timeout plus the window (1/64 of it, at most
// one second). Any other context gets its own timer context.
func (c *Client) attemptContext(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= timeout {
		return ctx, nil
	}
	if ctx == context.Background() || ctx == context.TODO() {
		return c.deadlines.get(timeout), nil
	}
	return context.WithTimeout(ctx, timeout)
}

// deadlineShare holds the shared attempt context of one client.
type deadlineShare struct {
	cur atomic.Pointer[sharedDeadline]
}

type sharedDeadline struct {
	ctx     context.Context
	cancel  context.CancelFunc // never called: the deadline releases it
	timeout time.Duration
	at      time.Time
}

// get returns a context that ends between timeout and timeout+window from
// now.
func (s *deadlineShare) get(timeout time.Duration) context.Context {
	now := time.Now()
	window := min(timeout/64, time.Second)
	if p := s.cur.Load(); p != nil && p.timeout == timeout {
		if left := p.at.Sub(now); left >= timeout && left <= timeout+window {
			return p.ctx
		}
	}
	at := now.Add(timeout + window)
	ctx, cancel := context.WithDeadline(context.Background(), at)
	s.cur.Store(&sharedDeadline{ctx: ctx, cancel: cancel, timeout: timeout, at: at})
	return ctx
}
