package nodeaccess

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestBudgetMinShare: however many congestion events come, the rate stays
// at BudgetMinShare of the plan at the least. (The window that makes the
// 429s of one event count once is set to 0 here, so that each 429 is an
// event of its own without a test that sleeps for a minute.)
func TestBudgetMinShare(t *testing.T) {
	b, err := NewBudget(640, 1)
	require.NoError(t, err)
	b.window = 0
	for range 40 {
		b.Throttled(0)
		time.Sleep(time.Millisecond) // lastDecrease moves on
		require.GreaterOrEqual(t, b.Stats().Rate, 640*BudgetMinShare)
	}
	require.Equal(t, 640*BudgetMinShare, b.Stats().Rate)
}
