package evm_test

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBatchChargesEveryUnit checks that a batch whose units exceed the
// budget's burst is charged all of them (a single call is charged its
// burst at most) in one Wait, in every request of a split batch.
func TestBatchChargesEveryUnit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		calls, max, burst int
		waits             int64
	}{
		{12, 100, 5, 1},  // 12 units in one grant
		{12, 5, 5, 3},    // 5 + 5 + 2, one request each
		{12, 100, 12, 1}, // within the burst: one Wait
		{12, 100, 100, 1},
	} {
		budget, err := nodeaccess.NewBudget(1e6, tc.burst)
		require.NoError(t, err)
		var units int
		_, c := newBatchNode(t, answerEach(echoCode), nodeaccess.WithBudget(budget), evm.WithMaxBatchSize(tc.max),
			nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) { units += a.Units }))
		var b evm.Batch
		for i := range tc.calls {
			evm.Add[hexutil.Bytes](&b, "eth_getCode", account(i), evm.Latest)
		}
		require.NoError(t, c.SendBatch(t.Context(), &b))
		st := budget.Stats()
		assert.Equal(t, int64(tc.calls), st.Units, "%+v: units charged", tc)
		assert.Equal(t, tc.waits, st.Waits, "%+v: waits", tc)
		assert.Equal(t, tc.calls, units, "%+v: units in hooks", tc)
	}
}
