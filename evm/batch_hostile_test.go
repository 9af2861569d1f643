package evm_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repeatedIDs answers a batch of two calls with the second's answer, then
// the first's repeated n times: the hostile answer of issue 30, which each
// repeat once made the client read again in full (4x the time per doubling).
func repeatedIDs(n int) func(int, []batchReq) (int, string) {
	return func(_ int, reqs []batchReq) (int, string) {
		if len(reqs) != 2 {
			return 200, `[]`
		}
		var b strings.Builder
		b.WriteString(`[{"jsonrpc":"2.0","id":` + string(reqs[1].ID) + `,"result":"0x01"}`)
		// The review's shape: a bare member with the first id, 9 bytes a
		// repeat (10^6 repeats are 8.6 MiB, under the body cap).
		one := `,{"id":` + string(reqs[0].ID) + `}`
		b.Grow(n * len(one))
		for range n {
			b.WriteString(one)
		}
		b.WriteString("]")
		return 200, b.String()
	}
}

// TestBatchRepeatedIDsBoundedWork sends a batch of two calls to a node that
// answers the first call's id 10,000 to 1,000,000 times (8.6 MiB). The
// batch ends well within its 2 s deadline: the call answered twice fails
// with ErrInvalidResponse naming its id, the other gets its result. Before
// the work was linear in the answer, 10,000 repeats took 5 s and 30,000 32 s.
func TestBatchRepeatedIDsBoundedWork(t *testing.T) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		_, c := newBatchNode(t, repeatedIDs(n))
		var b evm.Batch
		first := evm.Add[hexutil.Bytes](&b, "eth_getCode", account(1), evm.Latest)
		second := evm.Add[hexutil.Bytes](&b, "eth_getCode", account(2), evm.Latest)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		start := time.Now()
		err := c.SendBatch(ctx, &b)
		took := time.Since(start)
		cancel()
		// Twice the deadline leaves room for a loaded machine; the defect
		// took minutes at these sizes.
		assert.Less(t, took, 4*time.Second, "%d repeats", n)
		if ctx.Err() != nil && err != nil {
			// The deadline came first on a starved machine: the context's
			// error, never a hang.
			require.ErrorIs(t, err, context.DeadlineExceeded, "%d repeats", n)
			continue
		}
		require.NoError(t, err, "%d repeats", n)
		_, err1 := first.Result()
		require.ErrorIs(t, err1, nodeaccess.ErrInvalidResponse, "%d repeats", n)
		assert.Contains(t, err1.Error(), "answers id ", "%d repeats", n)
		assert.Contains(t, err1.Error(), " twice", "%d repeats", n)
		v, err2 := second.Result()
		require.NoError(t, err2, "%d repeats", n)
		assert.Equal(t, hexutil.Bytes{0x01}, v, "%d repeats", n)
	}
}

// BenchmarkBatchRepeatedIDs measures the hostile answer's cost per size:
// ns/op grows in proportion to the repeats (linear), not their square.
func BenchmarkBatchRepeatedIDs(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			_, c := newBatchNode(b, repeatedIDs(n))
			for b.Loop() {
				var bt evm.Batch
				evm.Add[hexutil.Bytes](&bt, "eth_getCode", account(1), evm.Latest)
				evm.Add[hexutil.Bytes](&bt, "eth_getCode", account(2), evm.Latest)
				if err := c.SendBatch(context.Background(), &bt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
