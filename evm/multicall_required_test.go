package evm_test

import (
	"fmt"
	"testing"

	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMulticallRequiredMarkedFailed runs the same Multicalls on the local
// node (Multicall3 reverts when a required call fails, and the SDK finds
// the call with a second run) and through a node in front of it that runs
// every aggregate with every failure allowed (go-ethereum's abi rewrites
// the call data), as another contract or proxy at the address may answer:
// a required call marked failed in the answer is the same *MulticallError,
// naming the same call and revert, with no Aggregate, in one eth_call per
// aggregate; when the required calls succeed, the results are the same.
func TestMulticallRequiredMarkedFailed(t *testing.T) {
	t.Parallel()
	direct := simNode(t).client
	lax, c := newCapNode(t, 1<<30, false, true)
	// multicallMix's calls 2, 4 and 5 fail: Error(string), Panic(0x12),
	// a custom error.
	for _, required := range [][]int{{2}, {4}, {5}, {4, 5}, {2, 5}, {0, 7, 5}, {0}, {0, 1, 3, 6, 7}, nil} {
		for _, maxCalls := range []int{0, 3, 1} {
			msg := fmt.Sprintf("required %v, MaxCalls %d", required, maxCalls)
			calls := multicallMix(t)
			for _, i := range required {
				calls[i].AllowFailure = false
			}
			opts := evm.MulticallOptions{MaxCalls: maxCalls}
			want, wantErr := direct.Multicall(t.Context(), calls, evm.Latest, opts)
			before := len(lax.requests())
			got, err := c.Multicall(t.Context(), calls, evm.Latest, opts)
			sent := lax.requests()[before:]
			if wantErr == nil {
				require.NoError(t, err, msg)
				assert.Equal(t, want, got, msg)
				continue
			}
			assert.Nil(t, got, msg)
			var wme, me *evm.MulticallError
			require.ErrorAs(t, wantErr, &wme, msg)
			require.ErrorAs(t, err, &me, msg)
			assert.Equal(t, wme.Index, me.Index, msg)
			assert.Equal(t, wme.Target, me.Target, msg)
			require.NotNil(t, me.Revert, msg)
			assert.Equal(t, wme.Revert.Data, me.Revert.Data, msg)
			assert.Equal(t, wme.Revert.Reason, me.Revert.Reason, msg)
			assert.Equal(t, wme.Revert.PanicCode, me.Revert.PanicCode, msg)
			assert.Nil(t, me.Aggregate, msg)
			assert.Equal(t, wantErr.Error(), err.Error(), msg)
			assert.ErrorIs(t, err, evm.ErrReverted, msg)
			var rev *evm.RevertError
			require.ErrorAs(t, err, &rev, msg)
			assert.Same(t, me.Revert, rev, msg)
			// One eth_call per aggregate up to the failed call's, and no
			// second run.
			pieces := 1
			if maxCalls > 0 {
				pieces = me.Index/maxCalls + 1
			}
			assert.Len(t, sent, pieces, msg)
		}
	}
}
