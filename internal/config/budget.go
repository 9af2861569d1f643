package config

import (
	"context"
	"time"
)

// BudgetCall is what a client tells a nodeaccess.Budget about one Wait,
// through the Wait's context: the root package cannot see the client's
// settings, and the Limiter contract has no room for them.
type BudgetCall struct {
	// MaxPause is the client's MaxRetryAfter: a pause a 429 set on the
	// budget holds the call for no longer (a longer one ends it).
	MaxPause time.Duration
	// Whole asks for every unit, above the budget's burst too, granted at
	// once or not at all (a JSON-RPC batch).
	Whole bool
}

type budgetCallKey struct{}

// WithBudgetCall returns ctx carrying call.
func WithBudgetCall(ctx context.Context, call *BudgetCall) context.Context {
	return context.WithValue(ctx, budgetCallKey{}, call)
}

// BudgetCallFrom returns the BudgetCall ctx carries, nil when none (a
// Wait not made by a client of the SDK).
func BudgetCallFrom(ctx context.Context) *BudgetCall {
	c, _ := ctx.Value(budgetCallKey{}).(*BudgetCall)
	return c
}
