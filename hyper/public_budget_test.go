package hyper_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
)

// attempts records the hook's attempts.
type attempts struct {
	mu  sync.Mutex
	all []nodeaccess.Attempt
}

func (a *attempts) hook() nodeaccess.Option {
	return nodeaccess.WithHook(func(_ context.Context, at nodeaccess.Attempt) {
		a.mu.Lock()
		a.all = append(a.all, at)
		a.mu.Unlock()
	})
}

func (a *attempts) get() []nodeaccess.Attempt {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]nodeaccess.Attempt(nil), a.all...)
}

// TestPublicBudgetDefault: by default the public API's requests are charged
// their published weight (allMids: 2) to a budget of 1200 in any minute:
// 19 per second with bursts of 60, so 36 allMids in a row (72 units) take
// at least 12/19 s.
func TestPublicBudgetDefault(t *testing.T) {

	srv := hypertest.NewT(t)
	var rec attempts
	c, err := srv.Client(rec.hook())
	require.NoError(t, err)
	start := time.Now()
	for i := 0; i < 36; i++ {
		_, err := c.AllMids(context.Background(), "")
		require.NoError(t, err)
	}
	assert.GreaterOrEqual(t, time.Since(start), 12*time.Second/19)
	got := rec.get()
	require.Len(t, got, 36)
	var waited, burst time.Duration
	for i, a := range got {
		assert.Equal(t, 2, a.Units, i)
		waited += a.BudgetWait
		if i < 30 {
			burst += a.BudgetWait
		}
	}
	// The first 30 calls spend the burst (60 units) without waiting: their
	// waits add up to nothing much (about 3 s were they spaced at the
	// rate); the waits are reported (not their exact sum: a loaded machine
	// refills the bucket while the calls run).
	assert.Less(t, burst, 500*time.Millisecond, "the calls of the burst waited")
	assert.Positive(t, waited)
}

// TestPublicBudgetSeparateFromPlan: a plan's budget (nodeaccess.WithBudget)
// is charged by the node's and the EVM's requests, never by the public
// API's, which go to the public budget.
func TestPublicBudgetSeparateFromPlan(t *testing.T) {
	srv := hypertest.NewT(t)
	plan, err := nodeaccess.NewBudget(1000, 100)
	require.NoError(t, err)
	public, err := nodeaccess.NewBudget(1000, 100)
	require.NoError(t, err)
	c, err := srv.Client(nodeaccess.WithBudget(plan), hyper.WithPublicBudget(public))
	require.NoError(t, err)
	ctx := context.Background()
	_, err = c.AllMids(ctx, "")
	require.NoError(t, err)
	_, err = c.UserVaultEquities(ctx, hypertest.DefaultUser())
	require.NoError(t, err)
	assert.Equal(t, int64(2), public.Stats().Units)
	assert.Equal(t, int64(1), plan.Stats().Units)

	// The user's WithCost wins over the published weight.
	public2, err := nodeaccess.NewBudget(1000, 100)
	require.NoError(t, err)
	c, err = srv.Client(hyper.WithPublicBudget(public2), nodeaccess.WithCost("allMids", 7))
	require.NoError(t, err)
	_, err = c.AllMids(ctx, "")
	require.NoError(t, err)
	assert.Equal(t, int64(7), public2.Stats().Units)
}

// TestPublicBudgetOff: WithPublicBudget(nil), and a nil *Budget, make the
// public API's requests wait for nothing (40 allMids of weight 2 would wait
// about a minute under the budget set before it); they still show their
// weight.
func TestPublicBudgetOff(t *testing.T) {
	srv := hypertest.NewT(t)
	var nilBudget *nodeaccess.Budget
	for name, off := range map[string]nodeaccess.Option{"nil": hyper.WithPublicBudget(nil), "nil *Budget": hyper.WithPublicBudget(nilBudget)} {
		t.Run(name, func(t *testing.T) {
			var rec attempts
			slow, err := nodeaccess.NewBudget(1, 10)
			require.NoError(t, err)
			c, err := srv.Client(rec.hook(), hyper.WithPublicBudget(slow), off)
			require.NoError(t, err)
			for i := 0; i < 40; i++ {
				_, err := c.AllMids(context.Background(), "")
				require.NoError(t, err)
			}
			for i, a := range rec.get() {
				assert.Equal(t, 2, a.Units, i)
				assert.Zero(t, a.BudgetWait, i)
			}
		})
	}
}
