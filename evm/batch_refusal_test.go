package evm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refuseAbove answers a batch of more than limit calls with the refusal in
// file (the first call's id put where the body has id 1) and HTTP status,
// and any other batch call by call with echoCode.
func refuseAbove(t *testing.T, limit, status int, file string) func(int, []batchReq) (int, string) {
	raw, err := os.ReadFile("testdata/batch/" + file)
	require.NoError(t, err)
	refusal := string(raw)
	return func(n int, reqs []batchReq) (int, string) {
		if len(reqs) > limit {
			return status, withID(refusal, reqs[0].ID)
		}
		return answerEach(echoCode)(n, reqs)
	}
}

func batchSizes(t *testing.T, node *batchNode) []int {
	t.Helper()
	var sizes []int
	for _, body := range node.requests() {
		var reqs []batchReq
		require.NoError(t, json.Unmarshal([]byte(body), &reqs))
		sizes = append(sizes, len(reqs))
	}
	return sizes
}

// TestBatchTooLargeIsSentSmaller checks each server's refusal of a batch's
// size: the batch goes again in pieces (at the limit the refusal names,
// else halved), the rest of it in pieces of that size, and every call gets
// its own answer.
func TestBatchTooLargeIsSentSmaller(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file   string
		status int
		sizes  []int
	}{
		// No limit named: 50 is halved to 25, then 12, which passes; the
		// rest goes in twelves.
		{"geth_batch_too_large.json", 200, []int{50, 25, 12, 12, 12, 12, 2}},
		// The limit named (100) is not below 50: halved as well.
		{"erigon_batch_limit.json", 200, []int{50, 25, 12, 12, 12, 12, 2}},
		{"erigon_old_batch_limit.json", 200, []int{50, 25, 12, 12, 12, 12, 2}},
		{"nethermind_batch_size.json", 200, []int{50, 25, 12, 12, 12, 12, 2}},
		{"nethermind_batch_size.json", 503, []int{50, 25, 12, 12, 12, 12, 2}},
		{"besu_max_batch_size.json", 200, []int{50, 25, 12, 12, 12, 12, 2}},
		// Its limit is in bytes: halved.
		{"jsonrpsee_batch_response_too_large.json", 200, []int{50, 25, 12, 12, 12, 12, 2}},
		// HyperEVM's answer over its cap, with the first call's id: halved
		// too (its "Exceeded max limit of 1048576" is in bytes).
		{"hyperevm_response_too_big.json", 200, []int{50, 25, 12, 12, 12, 12, 2}},
		// "Exceeded max limit of 20": straight to 20.
		{"jsonrpsee_batch_too_large.json", 200, []int{50, 20, 20, 10}},
		{"jsonrpsee_batch_too_large.json", 413, []int{50, 20, 20, 10}},
	} {
		t.Run(fmt.Sprintf("%s %d", tc.file, tc.status), func(t *testing.T) {
			t.Parallel()
			node, c := newBatchNode(t, refuseAbove(t, 20, tc.status, tc.file),
				evm.WithMaxBatchSize(50), nodeaccess.WithMaxAttempts(1))
			var b evm.Batch
			res := make([]*evm.BatchResult[hexutil.Bytes], 50)
			for i := range res {
				res[i] = evm.Add[hexutil.Bytes](&b, "eth_getCode", account(i), evm.Latest)
			}
			require.NoError(t, c.SendBatch(t.Context(), &b))
			assert.Equal(t, tc.sizes, batchSizes(t, node))
			for i, r := range res {
				out, err := r.Result()
				require.NoError(t, err, "call %d", i)
				assert.Equal(t, account(i).Bytes(), []byte(out), "call %d", i)
			}
		})
	}
}

// TestBatchLimitIsKept checks that a limit a refusal names holds for the
// client's later batches, and that a refusal naming none does not.
func TestBatchLimitIsKept(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file          string
		first, second []int
	}{
		{"jsonrpsee_batch_too_large.json", []int{50, 20, 20, 10}, []int{20, 20, 10}},
		{"geth_batch_too_large.json", []int{50, 25, 12, 12, 12, 12, 2}, []int{50, 25, 12, 12, 12, 12, 2}},
	} {
		node, c := newBatchNode(t, refuseAbove(t, 20, 200, tc.file), evm.WithMaxBatchSize(50))
		for i, want := range [][]int{tc.first, tc.second} {
			var b evm.Batch
			for j := range 50 {
				evm.Add[hexutil.Bytes](&b, "eth_getCode", account(j), evm.Latest)
			}
			before := len(node.requests())
			require.NoError(t, c.SendBatch(t.Context(), &b))
			assert.Equal(t, want, batchSizes(t, node)[before:], "%s, batch %d", tc.file, i+1)
		}
	}
}

// TestBatchOfOneTooLarge checks that a refusal of one call is that call's
// error, not an endless split.
func TestBatchOfOneTooLarge(t *testing.T) {
	t.Parallel()
	node, c := newBatchNode(t, refuseAbove(t, 0, 200, "geth_batch_too_large.json"), evm.WithMaxBatchSize(2))
	var b evm.Batch
	r1, r2, r3 := evm.Add[hexutil.Bytes](&b, "eth_getCode", account(1), evm.Latest), evm.Add[hexutil.Bytes](&b, "eth_getCode", account(2), evm.Latest), evm.Add[hexutil.Bytes](&b, "eth_getCode", account(3), evm.Latest)
	require.NoError(t, c.SendBatch(t.Context(), &b))
	assert.Equal(t, []int{2, 1, 1, 1}, batchSizes(t, node))
	for _, r := range []*evm.BatchResult[hexutil.Bytes]{r1, r2, r3} {
		_, err := r.Result()
		var re *nodeaccess.RPCError
		require.ErrorAs(t, err, &re)
		assert.Equal(t, -32600, re.Code)
		assert.Equal(t, "evm: eth_getCode: json-rpc error -32600: batch too large", err.Error())
	}
}

// TestBatchSingleErrorForAll checks a batch answered with one error object
// that is not about its size: each call gets that error, and the batch is
// not split.
func TestBatchSingleErrorForAll(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"limit exceeded"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"limit exceeded"}}`,
		`[{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"limit exceeded"}}]`,
		`[{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"limit exceeded"}}]`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}`,
	} {
		node, c := newBatchNode(t, func(int, []batchReq) (int, string) { return 200, body })
		var b evm.Batch
		r1, r2, r3 := b.Call(evm.CallMsg{To: token}, evm.Latest), evm.Add[hexutil.Bytes](&b, "eth_getCode", token, evm.Latest), evm.Add[[]evm.InternalOperation](&b, "ots_getInternalOperations", common.Hash{1})
		require.NoError(t, c.SendBatch(t.Context(), &b))
		assert.Len(t, node.requests(), 1, body)
		for _, err := range []error{resultErr(r1), resultErr(r2), resultErr(r3)} {
			var re *nodeaccess.RPCError
			require.ErrorAs(t, err, &re, body)
			assert.NotErrorIs(t, err, evm.ErrReverted)
		}
		assert.Contains(t, resultErr(r1).Error(), "evm: eth_call: ")
		assert.Contains(t, resultErr(r3).Error(), "evm: ots_getInternalOperations: ")
	}
}

// TestBatchRetriedWhole checks that a batch is retried as a single call is
// (here a 503, a 429 and a reset connection's 502), whole, with the same
// body, and that hooks see each attempt with its calls and their units.
func TestBatchRetriedWhole(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var attempts []nodeaccess.Attempt
	hook := nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) { mu.Lock(); attempts = append(attempts, a); mu.Unlock() })
	node, c := newBatchNode(t, func(n int, reqs []batchReq) (int, string) {
		switch n {
		case 1:
			return 503, `{"error":"overloaded"}`
		case 2:
			return 429, `rate limited`
		}
		return answerEach(func(r batchReq) string {
			if r.Method == "eth_getCode" {
				return echoCode(r)
			}
			return `"result":"0x01"`
		})(n, reqs)
	}, hook, nodeaccess.WithBackoff(time.Millisecond, time.Millisecond), nodeaccess.WithMaxRetryAfter(0), evm.WithMaxBatchSize(3))
	var b evm.Batch
	// An eth_call at a block hash is an archive request: 2 units.
	call := b.Call(evm.CallMsg{To: token}, evm.BlockHash{Hash: common.Hash{7}})
	code := evm.Add[hexutil.Bytes](&b, "eth_getCode", account(1), evm.Latest)
	latest := b.Call(evm.CallMsg{To: token}, evm.Latest)
	require.NoError(t, c.SendBatch(t.Context(), &b))
	bodies := node.requests()
	require.Len(t, bodies, 3)
	assert.Equal(t, bodies[0], bodies[1])
	assert.Equal(t, bodies[0], bodies[2])
	for _, err := range []error{resultErr(call), resultErr(code), resultErr(latest)} {
		require.NoError(t, err)
	}
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, attempts, 3)
	want := []nodeaccess.BatchCall{{Op: "eth_call", Units: 2}, {Op: "eth_getCode", Units: 1}, {Op: "eth_call", Units: 1}}
	for i, a := range attempts {
		assert.Equal(t, "batch", a.Op)
		assert.Equal(t, i+1, a.Number)
		assert.Equal(t, 4, a.Units)
		assert.Equal(t, want, a.Batch)
		assert.Equal(t, i < 2, a.WillRetry)
	}
	assert.Equal(t, []int{503, 429, 200}, []int{attempts[0].StatusCode, attempts[1].StatusCode, attempts[2].StatusCode})
}

// TestBatchUnitsFollowWithCost checks that a batch's units are its calls'
// units as the user priced them.
func TestBatchUnitsFollowWithCost(t *testing.T) {
	t.Parallel()
	var got []nodeaccess.Attempt
	_, c := newBatchNode(t, answerEach(func(batchReq) string { return `"result":[]` }),
		nodeaccess.WithCost("ots_getInternalOperations", 5), nodeaccess.WithCost("eth_getCode", 3),
		nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) { got = append(got, a) }))
	var b evm.Batch
	evm.Add[[]evm.InternalOperation](&b, "ots_getInternalOperations", common.Hash{1})
	evm.Add[[]evm.InternalOperation](&b, "ots_getInternalOperations", common.Hash{2})
	evm.Add[hexutil.Bytes](&b, "eth_getCode", token, evm.Latest)
	require.NoError(t, c.SendBatch(t.Context(), &b))
	require.Len(t, got, 1)
	assert.Equal(t, 13, got[0].Units)
	assert.Equal(t, []nodeaccess.BatchCall{{Op: "ots_getInternalOperations", Units: 5}, {Op: "ots_getInternalOperations", Units: 5}, {Op: "eth_getCode", Units: 3}}, got[0].Batch)
}

// TestBatchBadInputSendsNothing checks that one bad call stops the whole
// batch before anything is sent, naming the call and the value.
func TestBatchBadInputSendsNothing(t *testing.T) {
	t.Parallel()
	node, c := newBatchNode(t, answerEach(echoCode))
	var b evm.Batch
	good := evm.Add[hexutil.Bytes](&b, "eth_getCode", token, evm.Latest)
	bad := b.Call(evm.CallMsg{To: token, Value: big.NewInt(-5)}, evm.Latest)
	badOv := b.Call(evm.CallMsg{To: token, StateOverride: evm.StateOverride{sender: {State: map[common.Hash]common.Hash{}, StateDiff: map[common.Hash]common.Hash{}}}}, evm.Latest)
	err := c.SendBatch(t.Context(), &b)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.Equal(t, "evm: batch: call 1 (eth_call): invalid input: value: negative amount -5", err.Error())
	assert.Empty(t, node.requests())

	_, err = good.Result()
	testkit.RequireInputError(t, err, "batch")
	assert.Equal(t, "evm: eth_getCode: invalid input: batch: not sent: read a BatchResult after SendBatch returned nil", err.Error())
	require.ErrorIs(t, resultErr(bad), nodeaccess.ErrInvalidInput)
	assert.Equal(t, "evm: eth_call: invalid input: value: negative amount -5", resultErr(bad).Error())
	require.ErrorIs(t, resultErr(badOv), nodeaccess.ErrInvalidInput)
	assert.Contains(t, resultErr(badOv).Error(), "stateOverride[0x00000000219ab540356cBB839Cbe05303d7705Fa].state")
}

func TestBatchSentOnceAndEmpty(t *testing.T) {
	t.Parallel()
	node, c := newBatchNode(t, answerEach(echoCode))
	var empty evm.Batch
	require.NoError(t, c.SendBatch(t.Context(), &empty))
	assert.Empty(t, node.requests(), "an empty batch sends nothing")

	var b evm.Batch
	r := evm.Add[hexutil.Bytes](&b, "eth_getCode", account(1), evm.Latest)
	_, err := r.Result()
	testkit.RequireInputError(t, err, "batch")
	require.NoError(t, c.SendBatch(t.Context(), &b))
	err = c.SendBatch(t.Context(), &b)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.Contains(t, err.Error(), "was sent before")
	assert.Len(t, node.requests(), 1)
	require.ErrorIs(t, c.SendBatch(t.Context(), nil), nodeaccess.ErrInvalidInput)
}

func TestBatchCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	node, c := newBatchNode(t, func(n int, reqs []batchReq) (int, string) {
		cancel() // the first request's answer arrives after the end
		return answerEach(echoCode)(n, reqs)
	}, evm.WithMaxBatchSize(1))
	var b evm.Batch
	r1, r2 := evm.Add[hexutil.Bytes](&b, "eth_getCode", account(1), evm.Latest), evm.Add[hexutil.Bytes](&b, "eth_getCode", account(2), evm.Latest)
	err := c.SendBatch(ctx, &b)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, "evm: batch: context canceled", err.Error())
	require.ErrorIs(t, resultErr(r1), context.Canceled)
	require.ErrorIs(t, resultErr(r2), context.Canceled)
	assert.Len(t, node.requests(), 1, "nothing is sent after the context ended")
}

// TestBatchKeyNeverShown checks that the key, echoed by the server in every
// place a batch answer has text, appears in no error and no hook payload.
func TestBatchKeyNeverShown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		answer func(int, []batchReq) (int, string)
	}{
		{"element errors", answerEach(func(batchReq) string {
			return `"error":{"code":-32000,"message":"no access for ` + testKey + `","data":"` + testKey + `"}`
		})},
		{"revert reason", answerEach(func(batchReq) string {
			return `"error":{"code":3,"message":"execution reverted: ` + testKey + `"}`
		})},
		{"bad result", answerEach(func(batchReq) string { return `"result":"` + testKey + `"` })},
		{"one error object", func(int, []batchReq) (int, string) {
			return 200, `{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"key ` + testKey + ` is over its limit"}}`
		}},
		{"one revert without an id", func(int, []batchReq) (int, string) {
			return 200, `{"jsonrpc":"2.0","id":null,"error":{"code":3,"message":"execution reverted: ` + testKey + `","data":"` + testKey + `"}}`
		}},
		{"one call's revert", func(_ int, reqs []batchReq) (int, string) {
			return 200, `{"jsonrpc":"2.0","id":` + string(reqs[0].ID) + `,"error":{"code":3,"message":"execution reverted: ` + testKey + `"}}`
		}},
		{"answer too big", func(_ int, reqs []batchReq) (int, string) {
			return 200, `{"jsonrpc":"2.0","id":` + string(reqs[0].ID) + `,"error":{"code":-32008,"message":"Response is too big for ` + testKey + `","data":"` + testKey + `"}}`
		}},
		{"http error", func(int, []batchReq) (int, string) { return 401, `{"error":"bad key ` + testKey + `"}` }},
		{"not JSON", func(int, []batchReq) (int, string) { return 200, `<html>` + testKey + `</html>` }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var shown []string
			_, c := newBatchNode(t, tc.answer, nodeaccess.WithMaxAttempts(1), nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
				mu.Lock()
				defer mu.Unlock()
				shown = append(shown, fmt.Sprintf("%+v", a))
				if a.Err != nil {
					shown = append(shown, a.Err.Error())
				}
			}))
			var b evm.Batch
			r1, r2 := b.Call(evm.CallMsg{To: token}, evm.Latest), evm.Add[hexutil.Bytes](&b, "eth_getCode", token, evm.Latest)
			require.NoError(t, c.SendBatch(t.Context(), &b))
			for _, err := range []error{resultErr(r1), resultErr(r2)} {
				require.Error(t, err)
				shown = append(shown, err.Error(), fmt.Sprintf("%+v", err))
				if re, ok := err.(interface{ ErrorData() any }); ok {
					shown = append(shown, fmt.Sprint(re.ErrorData()))
				}
			}
			mu.Lock()
			defer mu.Unlock()
			for _, s := range shown {
				assert.NotContains(t, s, testKey)
			}
		})
	}
}
