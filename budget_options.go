package nodeaccess

import (
	"errors"
	"fmt"
	"maps"

	"github.com/nodeaccess/nodeaccess/internal/config"
)

// maxCost is the largest cost WithCost accepts for one operation.
const maxCost = 1 << 20

// WithBudget makes the client wait on l for each attempt's request units
// before sending it, and report 429 answers to l (with their Retry-After up
// to the client's WithMaxRetryAfter). Pass the same l (a *Budget, or a
// limiter shared by several processes) to every client that draws on one
// plan, whatever their chain. WithBudget(nil) (a nil *Budget too) turns off
// a budget set by an earlier option, such as one in a bundle of Options.
// (The weight budget of Hyperliquid's public API is hyper's own option.)
//
// What each operation costs is documented by its chain package; WithCost
// changes it. Without a budget nothing waits and nothing is counted: the
// costs then only appear in Attempt.Units.
func WithBudget(l Limiter) Option {
	if b, ok := l.(*Budget); ok && b == nil {
		l = nil
	}
	return option(func(c *config.Config) error {
		c.Budget = l
		return nil
	})
}

// WithCost sets the request units one attempt of operation op costs, from 1
// to 2^20 (1,048,576), replacing the chain package's default. op is the
// operation's name as Attempt.Op shows it: a typed operation's by its
// chain package's constant (evm.OpCall, evm.OpArchiveCall for an archive
// eth_call, ton.OpAccountStates, …), a generic call's by what it sends (a
// JSON-RPC method, an /info type, a TON method, a beacon API path). The
// chain's New refuses a name that cannot be an operation of its client
// (another chain's, or a typo of a typed operation's), saying which it
// has: such a cost would never apply.
func WithCost(op string, units int) Option {
	return option(func(c *config.Config) error {
		if op == "" {
			return errors.New("nodeaccess: WithCost: empty operation name")
		}
		if units < 1 || units > maxCost {
			return fmt.Errorf("nodeaccess: WithCost: %d units for %q is outside 1..%d", units, op, maxCost)
		}
		// A copy, so that options applied to several clients never share
		// a map one of them writes.
		m := make(map[string]int, len(c.Costs)+1)
		maps.Copy(m, c.Costs)
		m[op] = units
		c.Costs = m
		return nil
	})
}
