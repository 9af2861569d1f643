package evm_test

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// w is one ABI word: hex left-padded to 32 bytes.
func w(h string) string { return strings.Repeat("0", 64-len(h)) + h }

// rpad pads hex to a whole number of words on the right.
func rpad(h string) string {
	if n := len(h) % 64; n != 0 {
		h += strings.Repeat("0", 64-n)
	}
	return h
}

var (
	mcBalanceOf = "70a08231" + w("219ab540356cbb839cbe05303d7705fa")
	mcOther     = common.HexToAddress("0x0000000000000000000000000000000000000001")
	mcCalls     = []evm.Call3{
		{Target: token, Data: common.FromHex(mcBalanceOf), AllowFailure: true},
		{Target: mcOther},
	}
)

// mcRequest is the eth_call of aggregate3(mcCalls) at block 0x10, with
// the second call's allowFailure as given, and JSON-RPC id 1 (id 2 when
// allow2 is "1": the client's second request).
func mcRequest(allow2 string) string {
	id := "1"
	if allow2 == "1" {
		id = "2"
	}
	data := "82ad56cb" + w("20") + w("2") + w("40") + w("100") +
		w("a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48") + w("1") + w("60") + w("24") + rpad(mcBalanceOf) +
		w("1") + w(allow2) + w("60") + w("0")
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"eth_call","params":[{"to":"0xca11bde05977b3631167028862be2a173976ca11","data":"0x` +
		data + `"},"0x10"]}`
}

// The request is one eth_call to Multicall3 with aggregate3's call data,
// byte for byte; the answer is decoded into one result per call.
func TestMulticallWire(t *testing.T) {
	c := gockClient(t)
	out := w("20") + w("2") + w("40") + w("c0") +
		w("1") + w("40") + w("20") + w("2a") +
		w("1") + w("40") + w("0")
	mockRPC(t, "/"+testKey, mcRequest("0"), `{"jsonrpc":"2.0","id":1,"result":"0x`+out+`"}`)
	res, err := c.Multicall(context.Background(), mcCalls, evm.BlockNumber(0x10), evm.MulticallOptions{})
	require.NoError(t, err)
	assert.Equal(t, []evm.Call3Result{
		{Success: true, ReturnData: common.FromHex(w("2a"))},
		{Success: true, ReturnData: []byte{}},
	}, res)
}

// A required call that fails: the node reverts the aggregate with
// "Multicall3: call failed"; the second request allows every failure and
// names the call.
func TestMulticallWireRequiredFails(t *testing.T) {
	c := gockClient(t)
	reason := hex.EncodeToString([]byte("Multicall3: call failed"))
	mockRPC(t, "/"+testKey, mcRequest("0"),
		`{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted: Multicall3: call failed","data":"0x08c379a0`+
			w("20")+w("17")+rpad(reason)+`"}}`)
	nope := "08c379a0" + w("20") + w("4") + rpad(hex.EncodeToString([]byte("nope")))
	out := w("20") + w("2") + w("40") + w("c0") +
		w("1") + w("40") + w("20") + w("2a") +
		w("0") + w("40") + w(fmt.Sprintf("%x", len(nope)/2)) + rpad(nope)
	mockRPC(t, "/"+testKey, mcRequest("1"), `{"jsonrpc":"2.0","id":2,"result":"0x`+out+`"}`)
	_, err := c.Multicall(context.Background(), mcCalls, evm.BlockNumber(0x10), evm.MulticallOptions{})
	var me *evm.MulticallError
	require.ErrorAs(t, err, &me)
	require.Equal(t, 1, me.Index)
	assert.Equal(t, mcOther, me.Target)
	assert.Equal(t, "nope", me.Revert.Reason)
	assert.Equal(t, "Multicall3: call failed", me.Aggregate.Reason)
	assert.Equal(t, `evm: eth_call: multicall: call 1 (to 0x0000000000000000000000000000000000000001, failure not allowed) failed: execution reverted: "nope"`, err.Error())
}

// Output that is not aggregate3's (another contract at the address, a
// broken node) is an ErrInvalidResponse that names the problem, never a
// panic and never the key.
func TestMulticallWireMalformed(t *testing.T) {
	for name, tc := range map[string]struct{ result, want string }{
		"one result for two calls": {`"0x` + w("20") + w("1") + w("20") + w("1") + w("40") + w("0") + `"`, "1 results for 2 calls"},
		"length past the end":      {`"0x` + w("20") + w("2") + w("40") + w("80") + w("1") + w("40") + w("ffff") + `"`, "past the end"},
		"a word":                   {`"0x` + w("1") + `"`, "past the end"},
		"not hex":                  {`"0xzz"`, "hex string"},
		"a number":                 {`42`, "want a hex string"},
	} {
		t.Run(name, func(t *testing.T) {
			c := gockClient(t, nodeaccess.WithMaxAttempts(1))
			mockRPC(t, "/"+testKey, mcRequest("0"), `{"jsonrpc":"2.0","id":1,"result":`+tc.result+`}`)
			res, err := c.Multicall(context.Background(), mcCalls, evm.BlockNumber(0x10), evm.MulticallOptions{})
			assert.Nil(t, res)
			require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), testKey)
		})
	}
}

// A negative MaxCalls is refused before anything is sent.
func TestMulticallBadOptions(t *testing.T) {
	c := gockClient(t)
	_, err := c.Multicall(context.Background(), mcCalls, evm.Latest, evm.MulticallOptions{MaxCalls: -1})
	var ie *nodeaccess.InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "MulticallOptions.MaxCalls", ie.Arg)
	assert.Equal(t, "evm: eth_call: invalid input: MulticallOptions.MaxCalls: negative count -1", err.Error())
}

// When the second run fails too, the error says the call is unknown and
// keeps the aggregate's revert.
func TestMulticallWireRequiredFailsRerunFails(t *testing.T) {
	c := gockClient(t, nodeaccess.WithMaxAttempts(1))
	reason := hex.EncodeToString([]byte("Multicall3: call failed"))
	mockRPC(t, "/"+testKey, mcRequest("0"),
		`{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted: Multicall3: call failed","data":"0x08c379a0`+
			w("20")+w("17")+rpad(reason)+`"}}`)
	mockRPC(t, "/"+testKey, mcRequest("1"), `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"header not found"}}`)
	_, err := c.Multicall(context.Background(), mcCalls, evm.BlockNumber(0x10), evm.MulticallOptions{})
	var me *evm.MulticallError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, -1, me.Index)
	assert.Nil(t, me.Revert)
	assert.ErrorIs(t, err, evm.ErrReverted)
	assert.Equal(t, `evm: eth_call: multicall: a call whose failure is not allowed failed, and which one could not be found: execution reverted: "Multicall3: call failed"`, err.Error())
}

// A cancelled context ends a Multicall with the context's error, before
// anything is sent (gock fails the test on any request).
func TestMulticallCancelled(t *testing.T) {
	c := gockClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, opts := range []evm.MulticallOptions{{}, {MaxCalls: 1}, {Fallback: true}} {
		res, err := c.Multicall(ctx, mcCalls, evm.Latest, opts)
		assert.Nil(t, res)
		assert.ErrorIs(t, err, context.Canceled, "%+v", opts)
	}
}

// A context cancelled after the aggregate reverted: the context's error,
// not a MulticallError, and no second request.
func TestMulticallCancelledBeforeRerun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := gockClient(t, nodeaccess.WithMaxAttempts(1), nodeaccess.WithHook(func(context.Context, nodeaccess.Attempt) { cancel() }))
	reason := hex.EncodeToString([]byte("Multicall3: call failed"))
	mockRPC(t, "/"+testKey, mcRequest("0"),
		`{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted","data":"0x08c379a0`+
			w("20")+w("17")+rpad(reason)+`"}}`)
	_, err := c.Multicall(ctx, mcCalls, evm.BlockNumber(0x10), evm.MulticallOptions{})
	require.ErrorIs(t, err, context.Canceled)
	var me *evm.MulticallError
	assert.False(t, errors.As(err, &me), "%v", err)
}
