package evm_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An answer is its own call's and no other call's: a node that answers
// some calls of a batch and leaves the others unanswered gives the others
// nodeaccess.ErrInvalidResponse, whatever the answer it sent was, and
// wherever the answered call is in the batch.

// errorBodies returns every error member of testdata/reverts and
// testdata/not_reverts, by file name.
func errorBodies(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range []string{"testdata/reverts", "testdata/not_reverts"} {
		files, err := filepath.Glob(dir + "/*.json")
		require.NoError(t, err)
		for _, f := range files {
			raw, err := os.ReadFile(f)
			require.NoError(t, err)
			out[filepath.Base(dir)+"/"+filepath.Base(f)] = strings.TrimSpace(string(raw))
		}
	}
	require.Len(t, out, 17)
	return out
}

// assertUnanswered checks that err is a call's error for a missing answer:
// ErrInvalidResponse, and neither a revert nor any node's error object.
func assertUnanswered(t *testing.T, err error, msg string) {
	t.Helper()
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, msg)
	assert.NotErrorIs(t, err, evm.ErrReverted, msg)
	var re *nodeaccess.RPCError
	assert.False(t, errors.As(err, &re), "%s: %v reaches an RPCError", msg, err)
	assert.Contains(t, err.Error(), "evm: eth_call: invalid response: batch response has no answer to id ", msg)
}

// TestBatchLoneAnswerIsOneCalls answers a batch of four eth_calls with one
// call's answer alone, with that call's id: each node's revert and
// non-revert error of testdata, and a result; the call at each position;
// as a bare object and in an array. The call gets what the single call
// gets for that answer, and the other three ErrInvalidResponse, in one
// request.
func TestBatchLoneAnswerIsOneCalls(t *testing.T) {
	t.Parallel()
	answers := map[string]string{"result": `"result":"` + word + `"`}
	for name, body := range errorBodies(t) {
		answers[name] = `"error":` + body
	}
	const n = 4
	for name, answer := range answers {
		for k := range n {
			for _, array := range []bool{false, true} {
				msg := fmt.Sprintf("%s, call %d, array %v", name, k, array)
				node, c := newBatchNode(t, func(_ int, reqs []batchReq) (int, string) {
					one := `{"jsonrpc":"2.0","id":` + string(reqs[k].ID) + `,` + answer + `}`
					if array {
						one = "[" + one + "]"
					}
					return 200, one
				}, nodeaccess.WithMaxAttempts(1))
				var b evm.Batch
				res := make([]*evm.BatchResult[[]byte], n)
				for i := range res {
					res[i] = b.Call(evm.CallMsg{To: token}, evm.Latest)
				}
				require.NoError(t, c.SendBatch(t.Context(), &b), msg)
				assert.Len(t, node.requests(), 1, msg)
				for i, r := range res {
					out, err := r.Result()
					switch {
					case i != k:
						assertUnanswered(t, err, msg)
					case name == "result":
						require.NoError(t, err, msg)
						assert.Equal(t, word, "0x"+fmt.Sprintf("%x", out), msg)
					default:
						want := singleCallError(t, strings.TrimPrefix(answer, `"error":`))
						require.Error(t, err, msg)
						assert.Equal(t, want.Error(), err.Error(), msg)
						assert.Equal(t, errors.Is(want, evm.ErrReverted), errors.Is(err, evm.ErrReverted), msg)
					}
				}
			}
		}
	}
}

// TestBatchLoneRevertWithoutID answers a batch with one revert of each
// node's shape and no id (null, or no id member): a revert is one call's
// outcome, and this one names no call, so every call fails with
// ErrInvalidResponse. An error object without an id that is not a revert
// is the request's, and every call gets it.
func TestBatchLoneRevertWithoutID(t *testing.T) {
	t.Parallel()
	for name, body := range errorBodies(t) {
		isRevert := errors.Is(singleCallError(t, body), evm.ErrReverted)
		for _, id := range []string{`"id":null,`, ``} {
			for _, array := range []bool{false, true} {
				msg := fmt.Sprintf("%s, %q, array %v", name, id, array)
				one := `{"jsonrpc":"2.0",` + id + `"error":` + body + `}`
				if array {
					one = "[" + one + "]"
				}
				node, c := newBatchNode(t, func(int, []batchReq) (int, string) { return 200, one }, nodeaccess.WithMaxAttempts(1))
				var b evm.Batch
				r1, r2, r3 := b.Call(evm.CallMsg{To: token}, evm.Latest), b.Call(evm.CallMsg{To: token}, evm.Latest), evm.Add[hexutil.Bytes](&b, "eth_getCode", token, evm.Latest)
				require.NoError(t, c.SendBatch(t.Context(), &b), msg)
				assert.Len(t, node.requests(), 1, msg)
				if isRevert {
					assertUnanswered(t, resultErr(r1), msg)
					assertUnanswered(t, resultErr(r2), msg)
					require.ErrorIs(t, resultErr(r3), nodeaccess.ErrInvalidResponse, msg)
					continue
				}
				for _, err := range []error{resultErr(r1), resultErr(r2), resultErr(r3)} {
					var re *nodeaccess.RPCError
					require.ErrorAs(t, err, &re, msg)
					assert.NotErrorIs(t, err, evm.ErrReverted, msg)
				}
			}
		}
	}
}

// TestBatchRevertNamingTheBatch checks that a revert whose text speaks of
// a batch limit, answered alone with the first call's id, is that call's
// revert, not a refusal of the batch's size: nothing is sent again.
func TestBatchRevertNamingTheBatch(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		`{"code":-32000,"message":"execution reverted: batch limit 2 exceeded"}`,
		`{"code":3,"message":"execution reverted: batch too large","data":"0x"}`,
	} {
		node, c := newBatchNode(t, func(_ int, reqs []batchReq) (int, string) {
			return 200, `[{"jsonrpc":"2.0","id":` + string(reqs[0].ID) + `,"error":` + body + `}]`
		}, evm.WithMaxBatchSize(4))
		var b evm.Batch
		first, second := b.Call(evm.CallMsg{To: token}, evm.Latest), b.Call(evm.CallMsg{To: token}, evm.Latest)
		require.NoError(t, c.SendBatch(t.Context(), &b))
		assert.Equal(t, []int{2}, batchSizes(t, node), body)
		require.ErrorIs(t, resultErr(first), evm.ErrReverted, body)
		assertUnanswered(t, resultErr(second), body)
	}
}

// TestBatchAnswersWithoutIDs answers a batch with one member per call, in
// order, none with a usable id (no id, null, a string, another number):
// order is not an id, so every call fails with ErrInvalidResponse.
func TestBatchAnswersWithoutIDs(t *testing.T) {
	t.Parallel()
	for _, id := range []string{``, `"id":null,`, `"id":"1",`, `"id":99,`} {
		node, c := newBatchNode(t, func(_ int, reqs []batchReq) (int, string) {
			return 200, `[{"jsonrpc":"2.0",` + id + `"result":"` + word + `"},` +
				`{"jsonrpc":"2.0",` + id + `"error":{"code":3,"message":"execution reverted","data":"0x"}},` +
				`{"jsonrpc":"2.0",` + id + `"error":{"code":-32000,"message":"header not found"}}]`
		})
		var b evm.Batch
		res := []*evm.BatchResult[[]byte]{b.Call(evm.CallMsg{To: token}, evm.Latest), b.Call(evm.CallMsg{To: token}, evm.Latest), b.Call(evm.CallMsg{To: token}, evm.Latest)}
		require.NoError(t, c.SendBatch(t.Context(), &b))
		assert.Len(t, node.requests(), 1)
		for i, r := range res {
			assertUnanswered(t, resultErr(r), fmt.Sprintf("%q, call %d", id, i))
		}
	}
}
