package transport

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
)

// Cost returns the request units of one attempt of op: the user's
// nodeaccess.WithCost for op, else def.
func (c *Client) Cost(op string, def int) int {
	if u, ok := c.cfg.Costs[op]; ok {
		return u
	}
	return def
}

// Budgeted reports whether the client charges a budget, so that a chain
// package does the work of finding a cost (such as learning the chain's
// head) only when it is spent.
func (c *Client) Budgeted() bool { return c.budget != nil }

// units is what each attempt of r costs.
func (c *Client) units(r *Request) int {
	if r.Units > 0 {
		return r.Units
	}
	return c.Cost(r.Op, 1)
}

// charge waits on the budget for units before an attempt and returns how
// long it waited. The context's error comes back as it is, and so does a
// refusal that matches the context's errors or ErrRateLimited (a pause
// longer than the client's MaxRetryAfter); a limiter's own failure (a
// distributed limiter that cannot reach its store) is wrapped.
//
// The Wait's context tells a nodeaccess.Budget the client's MaxRetryAfter
// and, for a batch, to grant every unit (a batch's units may exceed the
// burst, which caps a single call's charge) at once or none. Another
// limiter with a Burst method gets a batch's units in pieces of its burst,
// and one without in one Wait.
func (c *Client) charge(ctx context.Context, units int, batch bool) (time.Duration, error) {
	start := time.Now()
	call := &c.call
	if batch {
		call = &c.batchCall
	}
	wctx := config.WithBudgetCall(ctx, call)
	var err error
	if _, own := c.budget.(*nodeaccess.Budget); batch && !own {
		if b, ok := c.budget.(interface{ Burst() int }); ok && b.Burst() > 0 {
			for burst := b.Burst(); units > burst && err == nil; units -= burst {
				err = c.budget.Wait(wctx, burst)
			}
		}
	}
	if err == nil {
		err = c.budget.Wait(wctx, units)
	}
	waited := time.Since(start)
	if err == nil {
		return waited, nil
	}
	if cerr := ctx.Err(); cerr != nil {
		return waited, cerr
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || errors.Is(err, nodeaccess.ErrRateLimited) {
		// The limiter saw that the units would come after the deadline,
		// or a pause the client does not wait for holds it.
		return waited, c.red.Err(err)
	}
	return waited, fmt.Errorf("budget: %w", c.red.Err(err))
}

// throttled tells the budget about a 429, with its Retry-After up to the
// client's cap: a longer one ended the call at once, and must not hold the
// budget, and every client that shares it, for longer than this client
// would have waited itself (a Retry-After of decades, or a date in the year
// 9999, reads as about 68 years).
func (c *Client) throttled(o *outcome) {
	if o.status == 429 {
		c.budget.Throttled(min(o.retryAfter, c.cfg.MaxRetryAfter))
	}
}
