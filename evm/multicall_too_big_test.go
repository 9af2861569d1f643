package evm_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
)

// identityCalls returns n calls to the identity precompile, each returning
// size bytes, call big returning bigSize bytes (none when big is -1).
func identityCalls(n, size, big, bigSize int) []evm.Call3 {
	calls := make([]evm.Call3, n)
	for i := range calls {
		s := size
		if i == big {
			s = bigSize
		}
		calls[i] = evm.Call3{Target: identity, Data: echoData(i, s), AllowFailure: true}
	}
	return calls
}

// TestMulticallAnswerTooBigIsSplit runs aggregates of calls to the
// identity precompile (100 bytes each: about 11 fit in 6,000 bytes of
// answer) on a node that caps its answers at 6,000 bytes (HyperEVM's -32008
// for the eth_call), and on the client's own cap (WithMaxResponseBytes):
// the aggregate is run again in halves, as MaxCalls splits, and the rest
// in aggregates of that size; the results are the unsplit aggregate's on
// an uncapped node. Hooks see one attempt per eth_call.
func TestMulticallAnswerTooBigIsSplit(t *testing.T) {
	t.Parallel()
	calls := identityCalls(40, 100, -1, 0)
	want, err := simNode(t).client.Multicall(t.Context(), calls, evm.Latest, evm.MulticallOptions{})
	require.NoError(t, err)
	for _, tc := range []struct {
		name     string
		max      int
		opts     []nodeaccess.Option
		maxCalls int
		sizes    []int
	}{
		{"-32008", 6000, nil, 0, []int{40, 20, 10, 10, 10, 10}},
		{"-32008, MaxCalls 16", 6000, nil, 16, []int{16, 8, 8, 8, 8, 8}},
		{"the client's cap", 1 << 30, []nodeaccess.Option{nodeaccess.WithMaxResponseBytes(6000)}, 0, []int{40, 20, 10, 10, 10, 10}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			hook, attempts := attemptsSeen()
			node, c := newCapNode(t, tc.max, false, false, append(tc.opts, hook)...)
			got, err := c.Multicall(t.Context(), calls, evm.Latest, evm.MulticallOptions{MaxCalls: tc.maxCalls})
			require.NoError(t, err)
			assert.Equal(t, tc.sizes, node.requests())
			assert.Equal(t, want, got)
			seen := attempts()
			require.Len(t, seen, len(tc.sizes), "one attempt per eth_call")
			for _, a := range seen {
				assert.Equal(t, "eth_call", a.Op)
				assert.False(t, a.WillRetry)
			}
		})
	}
}

// TestMulticallOneAnswerTooBig checks a call whose answer alone is over
// the cap: the aggregates are halved down to it, and the Multicall fails
// with an error that names it and matches ErrResponseTooLarge, from the
// node's -32008 or the client's own cap.
func TestMulticallOneAnswerTooBig(t *testing.T) {
	t.Parallel()
	calls := identityCalls(8, 100, 2, 4000)
	for _, tc := range []struct {
		name string
		max  int
		opts []nodeaccess.Option
		want string
	}{
		{"-32008", 6000, nil, "json-rpc error -32008: Response is too big"},
		{"the client's cap", 1 << 30, []nodeaccess.Option{nodeaccess.WithMaxResponseBytes(6000)}, "response too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			node, c := newCapNode(t, tc.max, false, false, tc.opts...)
			res, err := c.Multicall(t.Context(), calls, evm.Latest, evm.MulticallOptions{})
			assert.Nil(t, res)
			require.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge)
			assert.NotErrorIs(t, err, evm.ErrReverted)
			var op *nodeaccess.OpError
			require.ErrorAs(t, err, &op)
			assert.Equal(t, "eth_call", op.Op)
			assert.True(t, strings.HasPrefix(err.Error(), "evm: eth_call: multicall: call 2 (to "+identity.Hex()+") has an answer too large alone: "+tc.want), err.Error())
			assert.Equal(t, []int{8, 4, 2, 2, 1}, node.requests())
		})
	}
}

// TestMulticallRequiredFailsAnswerTooBig checks the second run that finds
// a required call that failed: its answer, with every failure allowed, is
// over the cap where the first run's revert was not, and it is split too.
func TestMulticallRequiredFailsAnswerTooBig(t *testing.T) {
	t.Parallel()
	calls := append(identityCalls(20, 100, -1, 0), evm.Call3{Target: simContract, Data: simPack(t, "failRequire")})
	node, c := newCapNode(t, 6000, false, false)
	_, err := c.Multicall(t.Context(), calls, evm.Latest, evm.MulticallOptions{})
	var me *evm.MulticallError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, 20, me.Index)
	assert.Equal(t, simRevertReason, me.Revert.Reason)
	require.NotNil(t, me.Aggregate)
	assert.Equal(t, []int{21, 21, 10, 10, 1}, node.requests(), "the aggregate's revert, then the second run in pieces")
}
