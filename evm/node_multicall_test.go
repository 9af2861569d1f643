package evm_test

import (
	"context"
	"encoding/hex"
	"errors"
	"math/big"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
)

// Multicall against go-ethereum's EVM running the canonical Multicall3
// bytecode (evmtest's genesis): every result is what the same call returns
// alone.

// unitsSeen returns a client of the shared node whose hook records the
// operation and units of each attempt, and a func that returns them.
func unitsSeen(t *testing.T, srv *evmtest.Server, opts ...nodeaccess.Option) (*evm.Client, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	opts = append([]nodeaccess.Option{nodeaccess.WithMaxAttempts(1), nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
		mu.Lock()
		seen = append(seen, a.Op+"="+string(rune('0'+a.Units)))
		mu.Unlock()
	})}, opts...)
	c, err := srv.Client(opts...)
	require.NoError(t, err)
	return c, func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := seen
		seen = nil
		return out
	}
}

func balanceOf(t *testing.T, holder common.Address) []byte {
	t.Helper()
	data, err := evmtest.TokenABI().Pack("balanceOf", holder)
	require.NoError(t, err)
	return data
}

// multicallMix is a set of calls of every kind: token reads that succeed,
// reverts of each shape (Error(string), Panic(uint256), a custom error), a
// call to an address without code, all with failure allowed.
func multicallMix(t *testing.T) []evm.Call3 {
	accounts := evmtest.Accounts()
	decimals, err := evmtest.TokenABI().Pack("decimals")
	require.NoError(t, err)
	return []evm.Call3{
		{Target: evmtest.Token(), Data: balanceOf(t, accounts[0].Address), AllowFailure: true},
		{Target: evmtest.Token(), Data: balanceOf(t, accounts[1].Address), AllowFailure: true},
		{Target: simContract, Data: simPack(t, "failRequire"), AllowFailure: true},
		{Target: evmtest.Token(), Data: decimals, AllowFailure: true},
		{Target: simContract, Data: simPack(t, "failPanic", big.NewInt(0)), AllowFailure: true},
		{Target: simContract, Data: simPack(t, "failCustom", big.NewInt(7)), AllowFailure: true},
		{Target: simStranger, Data: balanceOf(t, accounts[0].Address), AllowFailure: true},
		{Target: evmtest.Token(), Data: balanceOf(t, simStranger), AllowFailure: true},
	}
}

func TestNodeMulticall(t *testing.T) {
	env := simNode(t)
	c, seen := unitsSeen(t, env.srv)
	calls := multicallMix(t)
	res, err := c.Multicall(t.Context(), calls, evm.Latest, evm.MulticallOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{"eth_call=1"}, seen(), "one eth_call, one request unit")
	require.Len(t, res, len(calls))

	assert.Equal(t, evm.Call3Result{Success: true, ReturnData: simWord(1_234_567_891)}, res[0])
	assert.Equal(t, evm.Call3Result{Success: true, ReturnData: simWord(500_000_000)}, res[1])
	assert.False(t, res[2].Success)
	require.NotNil(t, res[2].Revert)
	assert.Equal(t, simRevertReason, res[2].Revert.Reason)
	assert.Equal(t, res[2].ReturnData, res[2].Revert.Data)
	assert.ErrorIs(t, res[2].Revert, evm.ErrReverted)
	assert.Equal(t, `execution reverted: "probe: always fails"`, res[2].Revert.Error())
	assert.Equal(t, simWord(6), res[3].ReturnData)
	assert.False(t, res[4].Success)
	assert.Equal(t, big.NewInt(0x12), res[4].Revert.PanicCode)
	assert.False(t, res[5].Success)
	assert.Equal(t, "execution reverted: custom error 0x"+hex.EncodeToString(simProbeABI.Errors["Denied"].ID.Bytes()[:4])+" (68 bytes of data)", res[5].Revert.Error())
	assert.Equal(t, evm.Call3Result{Success: true, ReturnData: []byte{}}, res[6], "a call to an address without code succeeds with no data")
	assert.Equal(t, evm.Call3Result{Success: true, ReturnData: simWord(0)}, res[7])

	// Each result is what the same call returns alone (sent from the
	// Multicall3 address, the caller the targets see in the aggregate).
	for i, call := range calls {
		out, err := env.client.Call(t.Context(), evm.CallMsg{From: evm.Multicall3Address(), To: call.Target, Data: call.Data}, evm.Latest)
		var rev *evm.RevertError
		if errors.As(err, &rev) {
			assert.False(t, res[i].Success, "call %d", i)
			assert.Equal(t, rev.Data, res[i].ReturnData, "call %d", i)
			assert.Equal(t, rev.Data, res[i].Revert.Data, "call %d", i)
			assert.Equal(t, rev.Reason, res[i].Revert.Reason, "call %d", i)
			assert.Equal(t, rev.PanicCode, res[i].Revert.PanicCode, "call %d", i)
			assert.Equal(t, rev.Error(), res[i].Revert.Error(), "call %d", i)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, evm.Call3Result{Success: true, ReturnData: out}, res[i], "call %d", i)
	}

	// The state of the block asked for: the aggregate reads block 1 as a
	// call does.
	res, err = c.Multicall(t.Context(), []evm.Call3{{Target: simContract, Data: simPack(t, "value")}}, evm.BlockNumber(1), evm.MulticallOptions{})
	require.NoError(t, err)
	assert.Equal(t, simWord(simInitialValue), res[0].ReturnData)
	assert.Equal(t, []string{"eth_call=2"}, seen(), "charged as an eth_call at a block number: archive without a budget to learn the head")

	res, err = c.Multicall(t.Context(), nil, evm.Latest, evm.MulticallOptions{})
	require.NoError(t, err)
	assert.Empty(t, res)
	assert.Empty(t, seen(), "no calls, no request")
}

// Many balanceOf reads in one aggregate, and the same split into
// aggregates of at most MaxCalls: the same results, one eth_call per
// aggregate.
func TestNodeMulticallManyBalances(t *testing.T) {
	env := simNode(t)
	c, seen := unitsSeen(t, env.srv)
	accounts := evmtest.Accounts()
	want := [][]byte{simWord(1_234_567_891), simWord(500_000_000), simWord(1)}
	var calls []evm.Call3
	var wantRes []evm.Call3Result
	for i := range 250 {
		holder := common.BigToAddress(big.NewInt(0xbeef0000 + int64(i)))
		out := simWord(0)
		if i < len(want) {
			holder, out = accounts[i].Address, want[i]
		}
		calls = append(calls, evm.Call3{Target: evmtest.Token(), Data: balanceOf(t, holder)})
		wantRes = append(wantRes, evm.Call3Result{Success: true, ReturnData: out})
	}
	res, err := c.Multicall(t.Context(), calls, evm.Latest, evm.MulticallOptions{})
	require.NoError(t, err)
	assert.Equal(t, wantRes, res)
	assert.Equal(t, []string{"eth_call=1"}, seen())

	for _, max := range []int{1, 7, 100, 249, 250, 1000} {
		res, err := c.Multicall(t.Context(), calls, evm.Latest, evm.MulticallOptions{MaxCalls: max})
		require.NoError(t, err)
		assert.Equal(t, wantRes, res, "MaxCalls %d", max)
		assert.Len(t, seen(), (len(calls)+max-1)/max, "MaxCalls %d: one eth_call per aggregate", max)
	}
}

// A call with AllowFailure false that fails reverts the aggregate; the
// error names the call, found by a second run, and carries its revert.
func TestNodeMulticallRequiredCallFails(t *testing.T) {
	env := simNode(t)
	c, seen := unitsSeen(t, env.srv)
	calls := multicallMix(t)
	calls[4].AllowFailure = false // failPanic(0)
	calls[5].AllowFailure = false // failCustom: after it, not reached
	for _, tc := range []struct {
		name  string
		opts  evm.MulticallOptions
		calls int
	}{
		{"one aggregate", evm.MulticallOptions{}, 2},
		{"split", evm.MulticallOptions{MaxCalls: 3}, 3}, // [0 1 2] ok, [3 4 5] fails twice
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := c.Multicall(t.Context(), calls, evm.Latest, tc.opts)
			assert.Nil(t, res)
			var me *evm.MulticallError
			require.ErrorAs(t, err, &me)
			assert.Equal(t, 4, me.Index)
			assert.Equal(t, simContract, me.Target)
			require.NotNil(t, me.Revert)
			assert.Equal(t, big.NewInt(0x12), me.Revert.PanicCode)
			require.NotNil(t, me.Aggregate)
			assert.Equal(t, "Multicall3: call failed", me.Aggregate.Reason)
			assert.ErrorIs(t, err, evm.ErrReverted)
			var rev *evm.RevertError
			require.ErrorAs(t, err, &rev)
			assert.Same(t, me.Revert, rev, "errors.As finds the call's revert first")
			var rpcErr *nodeaccess.RPCError
			require.ErrorAs(t, err, &rpcErr, "the node's error stays reachable")
			assert.Equal(t, 3, rpcErr.Code)
			var op *nodeaccess.OpError
			require.ErrorAs(t, err, &op)
			assert.Equal(t, "eth_call", op.Op)
			assert.Equal(t, "evm: eth_call: multicall: call 4 (to "+simContract.Hex()+", failure not allowed) failed: "+
				"execution reverted: panic 0x12 (division or modulo by zero)", err.Error())
			assert.Len(t, seen(), tc.calls, "the aggregate, then the run that finds the call")
		})
	}
}

// On a chain without Multicall3 the eth_call returns no data:
// ErrMulticallNotDeployed, or with Fallback one eth_call per call and the
// same results as the aggregate's.
func TestNodeMulticallNotDeployed(t *testing.T) {
	env := simNode(t)
	srv := evmtest.NewT(t, append(simOptions(env.funded), evmtest.WithoutMulticall3())...)
	c, seen := unitsSeen(t, srv)
	calls := multicallMix(t)

	_, err := c.Multicall(t.Context(), calls, evm.Latest, evm.MulticallOptions{})
	require.ErrorIs(t, err, evm.ErrMulticallNotDeployed)
	assert.ErrorIs(t, err, nodeaccess.ErrNotFound)
	var op *nodeaccess.OpError
	require.ErrorAs(t, err, &op)
	assert.Equal(t, "evm: eth_call: multicall: Multicall3 not deployed: not found "+
		"(no code at 0xcA11bde05977b3631167028862bE2a173976CA11 at block latest: the eth_call returned no data)", err.Error())
	assert.Equal(t, []string{"eth_call=1"}, seen())

	// A nil Block reads latest, and the error says so.
	_, err = c.Multicall(t.Context(), calls, nil, evm.MulticallOptions{})
	require.ErrorIs(t, err, evm.ErrMulticallNotDeployed)
	assert.Contains(t, err.Error(), "at block latest:")
	seen()

	// Another address with no code is the same.
	other := common.HexToAddress("0x00000000000000000000000000000000000ca113")
	_, err = c.Multicall(t.Context(), calls, evm.Latest, evm.MulticallOptions{Address: other})
	require.ErrorIs(t, err, evm.ErrMulticallNotDeployed)
	assert.Contains(t, err.Error(), other.Hex())
	seen()

	got, err := c.Multicall(t.Context(), calls, evm.Latest, evm.MulticallOptions{Fallback: true})
	require.NoError(t, err)
	assert.Len(t, seen(), 1+len(calls), "the aggregate that found nothing, then one eth_call per call")
	want, err := env.client.Multicall(t.Context(), calls, evm.Latest, evm.MulticallOptions{})
	require.NoError(t, err)
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, want[i].Success, got[i].Success, "call %d", i)
		assert.Equal(t, want[i].ReturnData, got[i].ReturnData, "call %d", i)
		if want[i].Revert != nil {
			assert.Equal(t, want[i].Revert.Error(), got[i].Revert.Error(), "call %d", i)
			assert.Equal(t, want[i].Revert.Data, got[i].Revert.Data, "call %d", i)
		}
	}

	// A required call that fails, one by one: named at once.
	calls[2].AllowFailure = false
	_, err = c.Multicall(t.Context(), calls, evm.Latest, evm.MulticallOptions{Fallback: true})
	var me *evm.MulticallError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, 2, me.Index)
	assert.Nil(t, me.Aggregate)
	assert.Equal(t, simRevertReason, me.Revert.Reason)
	var rpcErr *nodeaccess.RPCError
	assert.ErrorAs(t, err, &rpcErr)
}

// The decoder's fuzz seeds (testdata/multicall3/) are real outputs of the
// contract: the raw aggregate3 output of multicallMix and of no calls, as
// the node returns it today.
func TestNodeMulticallSeedsAreReal(t *testing.T) {
	env := simNode(t)
	a, err := abi.JSON(strings.NewReader(`[{"type":"function","name":"aggregate3","inputs":[{"name":"calls","type":"tuple[]","components":[{"name":"target","type":"address"},{"name":"allowFailure","type":"bool"},{"name":"callData","type":"bytes"}]}]}]`))
	require.NoError(t, err)
	type call3 struct {
		Target       common.Address
		AllowFailure bool
		CallData     []byte
	}
	for file, calls := range map[string][]evm.Call3{"mix.hex": multicallMix(t), "none.hex": nil} {
		in := []call3{}
		for _, c := range calls {
			in = append(in, call3{c.Target, c.AllowFailure, c.Data})
		}
		data, err := a.Pack("aggregate3", in)
		require.NoError(t, err)
		out, err := env.client.Call(t.Context(), evm.CallMsg{To: evm.Multicall3Address(), Data: data}, evm.Latest)
		require.NoError(t, err)
		path := "testdata/multicall3/" + file
		if os.Getenv("NODEACCESS_WRITE_SEEDS") == "1" {
			require.NoError(t, os.WriteFile(path, []byte(hex.EncodeToString(out)+"\n"), 0o644))
		}
		pinned, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, strings.TrimSpace(string(pinned)), hex.EncodeToString(out), file)
	}
}
