package ton_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// TestEveryOperationCostsOne: every TON operation costs 1 request unit (the
// default cost of a node-access request), in Attempt.Units and in the
// budget.
func TestEveryOperationCostsOne(t *testing.T) {
	srv := tontest.NewT(t)
	b, err := nodeaccess.NewBudget(1000, 100)
	require.NoError(t, err)
	units := map[string][]int{}
	var mu sync.Mutex
	c, err := srv.Client(nodeaccess.WithBudget(b), nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
		mu.Lock()
		units[a.Op] = append(units[a.Op], a.Units)
		mu.Unlock()
	}))
	require.NoError(t, err)
	ctx := context.Background()
	_, err = c.BlockTransactions(ctx, ton.BlockTransactionsQuery{Block: tontest.DefaultBlock(), Count: 1})
	require.NoError(t, err)
	_, err = c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount}})
	require.NoError(t, err)
	_, err = c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}})
	require.NoError(t, err)
	assert.Equal(t, map[string][]int{"getBlockTransactionsExt": {1}, "accountStates": {1}, "pendingTransactions": {1}}, units)
	assert.Equal(t, int64(3), b.Stats().Units)
}

// TestBudgetKeepsWithinPlan: 16 goroutines against a server that enforces
// a plan: with a budget of the plan's numbers, no request is refused; without
// one, many are. The budget is a little below the plan (90 of 100 units per
// second, bursts of 2 where the plan's bucket holds 30): requests the budget
// spaces evenly may reach the server bunched (goroutines that passed the
// budget and were then held up by the scheduler, the garbage collector or
// the race detector for up to about 300 ms), and the plan's spare units
// absorb that.
func TestBudgetKeepsWithinPlan(t *testing.T) {
	run := func(opts ...nodeaccess.Option) (nodeaccesstest.PlanStats, int64) {
		srv := tontest.NewT(t)
		srv.EnforcePlan(nodeaccesstest.Plan{UnitsPerSecond: 100, Burst: 30})
		c, err := srv.Client(append(opts, nodeaccess.WithMaxAttempts(1))...)
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		var ok atomic.Int64
		var wg sync.WaitGroup
		for i := 0; i < 16; i++ {
			wg.Go(func() {
				for ctx.Err() == nil {
					if _, err := c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}}); err == nil {
						ok.Add(1)
					}
				}
			})
		}
		wg.Wait()
		return srv.PlanStats(), ok.Load()
	}
	// 2 at once and 90 per second for 1 s: about 92. The bound leaves room
	// for a loaded machine under -race (0.5 s runs with a bound of 40 of 47
	// failed there about one run in eight: 37 and 38 served), and the best
	// of three runs is held to it (CI's parallel packages starved one run to
	// below 65); every run must keep within the plan.
	var best int64
	for range 3 {
		b, err := nodeaccess.NewBudget(90, 2)
		require.NoError(t, err)
		with, served := run(nodeaccess.WithBudget(b))
		assert.Zero(t, with.Rejected, "the budget let a request through that the plan refused")
		best = max(best, served)
		if best >= 65 {
			break
		}
	}
	assert.GreaterOrEqual(t, best, int64(65), "served, the best of three runs")
	// The control: without the budget the same callers overrun the plan.
	// A starved run may send too few requests to be refused, so the best
	// of three.
	var rejected int
	for range 3 {
		without, _ := run()
		if rejected = max(rejected, without.Rejected); rejected > 10 {
			break
		}
	}
	assert.Greater(t, rejected, 10, "refused without a budget, the best of three runs")
}
