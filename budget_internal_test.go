package nodeaccess

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestbudgetMinShare: however many congestion events come, the rate stays
// at 1/64 of the plan (budgetMinShare) at the least. (The window that makes the
// 429s of one event count once is set to 0 here, so that each 429 is an
// event of its own without a test that sleeps for a minute.)
func TestBudgetMinShare(t *testing.T) {
	b, err := NewBudget(640, 1)
	require.NoError(t, err)
	b.window = 0
	for range 40 {
		b.Throttled(0)
		time.Sleep(time.Millisecond) // lastDecrease moves on
		require.GreaterOrEqual(t, b.Stats().Rate, 640*budgetMinShare)
	}
	require.Equal(t, 640*budgetMinShare, b.Stats().Rate)
}
