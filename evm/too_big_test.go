package evm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
)

// tooBigFile is HyperEVM's answer to a call whose answer is over its cap
// (1 MiB): jsonrpsee's -32008, as hyperliquid-dex/node issue #65 quotes it.
const tooBigFile = "testdata/batch/hyperevm_response_too_big.json"

// idOne is the id member of a pinned body, which the tests replace with
// the id of the request it answers.
var idOne = regexp.MustCompile(`"id":\s*1,`)

// pinnedWithID returns the pinned body in file with id in place of its id 1.
func pinnedWithID(t *testing.T, file string, id json.RawMessage) string {
	t.Helper()
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	require.True(t, idOne.Match(raw), "%s has no id 1", file)
	return withID(string(raw), id)
}

// withID returns body with id in place of its first id 1.
func withID(body string, id json.RawMessage) string {
	loc := idOne.FindStringIndex(body)
	if loc == nil {
		return body
	}
	return body[:loc[0]] + `"id":` + string(id) + `,` + body[loc[1]:]
}

// TestResponseTooBigSingleCall checks that a node's refusal to send an
// answer over its size cap is typed for every single call: it matches
// nodeaccess.ErrResponseTooLarge, keeps the node's error, is no revert,
// and is not retried.
func TestResponseTooBigSingleCall(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&req))
		mu.Lock()
		requests++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(pinnedWithID(t, tooBigFile, req.ID)))
	}))
	t.Cleanup(srv.Close)
	var attempts []nodeaccess.Attempt
	c, err := evm.New(srv.URL, testKey, nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
		mu.Lock()
		attempts = append(attempts, a)
		mu.Unlock()
	}))
	require.NoError(t, err)
	ctx := t.Context()
	for _, tc := range []struct {
		op   string
		call func() error
	}{
		{"eth_call", func() error { _, err := c.Call(ctx, evm.CallMsg{To: token}, evm.Latest); return err }},
		{"eth_call", func() error {
			_, err := c.Call(ctx, evm.CallMsg{To: token, StateOverride: evm.StateOverride{sender: {Nonce: new(uint64)}}}, evm.Latest)
			return err
		}},
		{"eth_getCode", func() error { _, err := c.Code(ctx, token, evm.Latest); return err }},
		{"ots_getInternalOperations", func() error { _, err := c.InternalOperations(ctx, common.Hash{1}); return err }},
	} {
		mu.Lock()
		requests, attempts = 0, nil
		mu.Unlock()
		err := tc.call()
		require.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge, tc.op)
		assert.NotErrorIs(t, err, evm.ErrReverted, tc.op)
		assert.NotErrorIs(t, err, nodeaccess.ErrInvalidResponse, tc.op)
		var re *nodeaccess.RPCError
		require.ErrorAs(t, err, &re, tc.op)
		assert.Equal(t, nodeaccess.RPCError{Code: -32008, Message: "Response is too big", Data: "Exceeded max limit of 1048576"}, *re)
		assert.Equal(t, "evm: "+tc.op+": json-rpc error -32008: Response is too big", err.Error())
		mu.Lock()
		assert.Equal(t, 1, requests, "%s: not retried", tc.op)
		require.Len(t, attempts, 1, tc.op)
		assert.Equal(t, tc.op, attempts[0].Op)
		mu.Unlock()
	}
}

// identity is the identity precompile: an eth_call to it returns its data,
// so that a call's answer is as large as the test makes it.
var identity = common.BytesToAddress([]byte{4})

// echoData is n bytes that say which call they belong to.
func echoData(i, n int) []byte {
	b := make([]byte, n)
	for j := range b {
		b[j] = byte(i + j)
	}
	return b
}

// attemptsSeen returns a hook that records each attempt, and a func that
// returns them.
func attemptsSeen() (nodeaccess.Option, func() []nodeaccess.Attempt) {
	var mu sync.Mutex
	var seen []nodeaccess.Attempt
	return nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
			mu.Lock()
			seen = append(seen, a)
			mu.Unlock()
		}), func() []nodeaccess.Attempt {
			mu.Lock()
			defer mu.Unlock()
			return append([]nodeaccess.Attempt(nil), seen...)
		}
}

// TestBatchAnswerTooBigIsSentSmaller sends a batch of 16 eth_calls to a
// node whose answers are capped at 3,000 bytes, each answering 32 bytes
// but call 5, whose answer alone (2,000 bytes, 4,000 in hex) is over the
// cap: a node that refuses the whole batch (HyperEVM's -32008 with the
// first call's id), and the client's own cap (WithMaxResponseBytes), have
// the batch sent in halves down to call 5 alone, which fails with an error
// matching ErrResponseTooLarge, and the calls after it go on at the size
// before the halving; a jsonrpsee node, which refuses call 5 alone within
// the batch, needs no second request. Every other call gets its own
// answer, and hooks see one attempt per request, with its calls.
func TestBatchAnswerTooBigIsSentSmaller(t *testing.T) {
	t.Parallel()
	halving := []int{16, 8, 4, 4, 2, 1, 1, 10}
	for _, tc := range []struct {
		name   string
		max    int
		whole  bool
		opts   []nodeaccess.Option
		sizes  []int
		rpcErr bool
	}{
		{"refused whole, -32008", 3000, true, nil, halving, true},
		{"over the client's cap", 1 << 30, false, []nodeaccess.Option{nodeaccess.WithMaxResponseBytes(3000)}, halving, false},
		{"jsonrpsee, -32008 for the call", 3000, false, nil, []int{16}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			hook, attempts := attemptsSeen()
			node, c := newCapNode(t, tc.max, tc.whole, false, append(tc.opts, hook, evm.WithMaxBatchSize(16))...)
			var b evm.Batch
			res := make([]*evm.BatchResult[[]byte], 16)
			for i := range res {
				n := 32
				if i == 5 {
					n = 2000
				}
				res[i] = b.Call(evm.CallMsg{To: identity, Data: echoData(i, n)}, evm.Latest)
			}
			require.NoError(t, c.SendBatch(t.Context(), &b))
			assert.Equal(t, tc.sizes, node.requests())
			for i, r := range res {
				out, err := r.Result()
				if i != 5 {
					require.NoError(t, err, "call %d", i)
					assert.Equal(t, echoData(i, 32), out, "call %d", i)
					continue
				}
				require.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge)
				assert.NotErrorIs(t, err, evm.ErrReverted)
				var re *nodeaccess.RPCError
				assert.Equal(t, tc.rpcErr, errors.As(err, &re), "%v", err)
				assert.True(t, strings.HasPrefix(err.Error(), "evm: eth_call: "), err.Error())
			}
			seen := attempts()
			require.Len(t, seen, len(tc.sizes), "one attempt per request")
			for i, a := range seen {
				assert.Equal(t, "batch", a.Op)
				assert.Len(t, a.Batch, tc.sizes[i], "attempt %d", i)
				assert.False(t, a.WillRetry, "attempt %d", i)
			}
		})
	}
}

// TestBatchAnswersTooBigTogether sends 40 calls whose answers fit alone
// but not together to a jsonrpsee node (its -32011 with no id): halved
// once, and the rest at that size.
func TestBatchAnswersTooBigTogether(t *testing.T) {
	t.Parallel()
	node, c := newCapNode(t, 3000, false, false, evm.WithMaxBatchSize(40))
	var b evm.Batch
	res := make([]*evm.BatchResult[[]byte], 40)
	for i := range res {
		res[i] = b.Call(evm.CallMsg{To: identity, Data: echoData(i, 32)}, evm.Latest)
	}
	require.NoError(t, c.SendBatch(t.Context(), &b))
	assert.Equal(t, []int{40, 20, 20}, node.requests())
	for i, r := range res {
		out, err := r.Result()
		require.NoError(t, err, "call %d", i)
		assert.Equal(t, echoData(i, 32), out, "call %d", i)
	}
}
