package hyper

import (
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
)

// Hyperliquid's public API limits each IP address to a weight budget per
// minute, each request type having a weight. The numbers are those of
// Hyperliquid's API documentation, "Rate limits and user limits"
// (https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/rate-limits-and-user-limits):
// REST requests share 1200 per minute; allMids, l2Book,
// clearinghouseState, orderStatus, spotClearinghouseState and
// exchangeStatus weigh 2, userRole 60, every other info request 20.
const (
	publicWeightPerMinute = 1200
	weightLight           = 2
	weightInfo            = 20
	weightUserRole        = 60
)

// publicWeight is the published weight of an /info request of type typ on
// the public API, the default cost PublicInfo documents.
func publicWeight(typ string) int {
	switch typ {
	case "allMids", "l2Book", "clearinghouseState", "orderStatus", "spotClearinghouseState", "exchangeStatus":
		return weightLight
	case "userRole":
		return weightUserRole
	}
	return weightInfo
}

// The default public budget spends publicWeightPerMinute in any minute, not
// more: a token bucket of publicRate per second with a burst of publicBurst,
// where publicBurst + 60·publicRate = 1200, so that no window of 60 seconds,
// sliding or fixed, sees more than the limit (a bucket of 20 per second with
// a burst of 1200 could spend 2400 in the first minute).
const (
	publicRate  = 19.0
	publicBurst = publicWeightPerMinute - 60*19
)

// newPublicBudget returns a budget that keeps to the public API's published
// limit: 1200 weight in any minute (19 per second with bursts of 60), what
// WithPublicBudget documents as nodeaccess.NewBudget(19, 60).
func newPublicBudget() *nodeaccess.Budget {
	b, err := nodeaccess.NewBudget(publicRate, publicBurst)
	if err != nil {
		panic("hyper: the public budget's constants are wrong: " + err.Error()) // cannot happen: constants
	}
	return b
}

type publicBudgetKey struct{}

// publicBudget is what WithPublicBudget stores: off is true for a nil
// limiter.
type publicBudget struct {
	l   nodeaccess.Limiter
	off bool
}

// WithPublicBudget makes the client charge the requests it sends to the
// public API (AllMids and PublicInfo) to l instead of a budget of its own.
// Each request costs its weight in the budget's units (see PublicInfo for
// the published weights); nodeaccess.WithCost(type, n) changes the weight
// of a request type.
//
// By default every Client has a budget of its own that keeps to the public
// API's published limit, 1200 weight in any minute: nodeaccess.NewBudget(19,
// 60), 19 per second with bursts of 60, so that no window of 60 seconds sees
// more than 1200. The limit is per IP, so clients of one process (or
// machine) that call the public API should share one such budget:
//
//	public, err := nodeaccess.NewBudget(19, 60)
//	// pass hyper.WithPublicBudget(public) to each client
//
// A nil l (or a nil *nodeaccess.Budget) turns the public API's weight
// budget off: its requests then wait for nothing, and a 429 is only
// retried.
//
// nodeaccess.WithBudget, a budget of the node-access plan, applies to the
// node's requests and the EVM client's only: the public API is not part of
// the plan.
func WithPublicBudget(l nodeaccess.Limiter) Option {
	return option("WithPublicBudget", func(c *config.Config) error {
		if b, ok := l.(*nodeaccess.Budget); l == nil || ok && b == nil {
			c.SetExt(publicBudgetKey{}, publicBudget{off: true})
			return nil
		}
		c.SetExt(publicBudgetKey{}, publicBudget{l: l})
		return nil
	})
}

// publicOptions are the options of the public API's transport: the user's
// options, and last the public budget, which replaces any
// nodeaccess.WithBudget. (Each request states its weight itself.)
func publicOptions(cfg *config.Config, opts []config.Func) []config.Func {
	var l nodeaccess.Limiter
	switch v, ok := cfg.Ext(publicBudgetKey{}); {
	case !ok:
		l = newPublicBudget()
	case !v.(publicBudget).off:
		l = v.(publicBudget).l
	}
	budget := nodeaccess.WithBudget(l) // nil: none
	out := make([]config.Func, 0, len(opts)+1)
	out = append(out, opts...)
	return append(out, shared(budget))
}

// shared returns what a nodeaccess option does.
func shared(o nodeaccess.Option) config.Func {
	_, _, f, _ := config.Open(o)
	return f
}
