package evm_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
)

// batchReq is one call of a batch as the fake node reads it.
type batchReq struct {
	ID     json.RawMessage   `json:"id"`
	Method string            `json:"method"`
	Params []json.RawMessage `json:"params"`
}

// batchNode is a JSON-RPC server at /{testKey} that records every request
// body and answers with answer.
type batchNode struct {
	mu     sync.Mutex
	bodies []string
	answer func(n int, reqs []batchReq) (status int, body string)
}

func newBatchNode(t testing.TB, answer func(n int, reqs []batchReq) (int, string), opts ...nodeaccess.Option) (*batchNode, *evm.Client) {
	t.Helper()
	bn := &batchNode{answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/"+testKey {
			http.Error(w, "not found", 404)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var reqs []batchReq
		if err := json.Unmarshal(body, &reqs); err != nil {
			t.Errorf("the client sent %q, not a JSON array: %v", body, err)
		}
		bn.mu.Lock()
		bn.bodies = append(bn.bodies, string(body))
		n := len(bn.bodies)
		bn.mu.Unlock()
		status, out := bn.answer(n, reqs)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, out)
	}))
	t.Cleanup(srv.Close)
	c, err := evm.New(srv.URL, testKey, opts...)
	require.NoError(t, err)
	return bn, c
}

func (bn *batchNode) requests() []string {
	bn.mu.Lock()
	defer bn.mu.Unlock()
	return slices.Clone(bn.bodies)
}

// answerEach answers every call with one(req), in reverse order.
func answerEach(one func(r batchReq) string) func(int, []batchReq) (int, string) {
	return func(_ int, reqs []batchReq) (int, string) {
		parts := make([]string, 0, len(reqs))
		for i := len(reqs) - 1; i >= 0; i-- {
			parts = append(parts, `{"jsonrpc":"2.0","id":`+string(reqs[i].ID)+`,`+one(reqs[i])+`}`)
		}
		return 200, "[" + strings.Join(parts, ",") + "]"
	}
}

// echoCode answers eth_getCode with the account's own address as its code,
// so that each answer says which call it belongs to.
func echoCode(r batchReq) string {
	var addr string
	_ = json.Unmarshal(r.Params[0], &addr)
	return `"result":"` + addr + `"`
}

func account(i int) common.Address { return common.BigToAddress(big.NewInt(int64(0x1000 + i))) }

func TestBatchWireAndMixedAnswers(t *testing.T) {
	t.Parallel()
	tx := common.HexToHash("0x7d3a1c0e3f7f0c8ab2d4b9f8d8a5d9e0c5b1a2f3e4d5c6b7a8998877665544ff")
	// The answers come back out of order, and each kind of outcome is in
	// one batch: a result, a revert, an error object, an operations list.
	node, c := newBatchNode(t, func(int, []batchReq) (int, string) {
		return 200, `[` +
			`{"jsonrpc":"2.0","id":4,"result":[{"type":0,"from":"0x00000000219ab540356cbb839cbe05303d7705fa","to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","value":"0x2a"}]},` +
			`{"jsonrpc":"2.0","id":2,"error":{"code":3,"message":"execution reverted: nope","data":"0x08c379a0000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000046e6f706500000000000000000000000000000000000000000000000000000000"}},` +
			`{"jsonrpc":"2.0","id":3,"result":"0x6001"},` +
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32000,"message":"header not found"}},` +
			`{"jsonrpc":"2.0","id":1,"result":"` + word + `"}]`
	})
	var b evm.Batch
	ok := b.Call(evm.CallMsg{To: token, Data: []byte{0x70, 0xa0, 0x82, 0x31}}, evm.Latest)
	rev := b.Call(evm.CallMsg{To: token, StateOverride: evm.StateOverride{sender: {Nonce: new(uint64)}}}, evm.BlockNumber(436))
	code := evm.Add[hexutil.Bytes](&b, "eth_getCode", token, evm.Pending)
	ops := evm.Add[[]evm.InternalOperation](&b, "ots_getInternalOperations", tx)
	future := b.Call(evm.CallMsg{To: token}, evm.BlockNumber(1<<40))
	require.NoError(t, c.SendBatch(t.Context(), &b))

	require.Equal(t, []string{`[` +
		`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","data":"0x70a08231"},"latest"]},` +
		`{"jsonrpc":"2.0","id":2,"method":"eth_call","params":[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"0x1b4",{"0x00000000219ab540356cbb839cbe05303d7705fa":{"nonce":"0x0"}}]},` +
		`{"jsonrpc":"2.0","id":3,"method":"eth_getCode","params":["0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","pending"]},` +
		`{"jsonrpc":"2.0","id":4,"method":"ots_getInternalOperations","params":["0x7d3a1c0e3f7f0c8ab2d4b9f8d8a5d9e0c5b1a2f3e4d5c6b7a8998877665544ff"]},` +
		`{"jsonrpc":"2.0","id":5,"method":"eth_call","params":[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"0x10000000000"]}]`},
		node.requests())

	out, err := ok.Result()
	require.NoError(t, err)
	assert.Equal(t, common.FromHex(word), out)

	_, err = rev.Result()
	var re *evm.RevertError
	require.ErrorAs(t, err, &re, "a revert is a *RevertError for its own call")
	assert.Equal(t, "nope", re.Reason)
	assert.Equal(t, `evm: eth_call: execution reverted: "nope"`, err.Error())

	out, err = code.Result()
	require.NoError(t, err)
	assert.Equal(t, []byte{0x60, 0x01}, out)

	list, err := ops.Result()
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, evm.InternalOperation{Type: evm.Transfer, From: sender, To: token, Value: big.NewInt(42)}, list[0])

	_, err = future.Result()
	var rpcErr *nodeaccess.RPCError
	require.ErrorAs(t, err, &rpcErr)
	assert.Equal(t, -32000, rpcErr.Code)
	assert.NotErrorIs(t, err, evm.ErrReverted)
	assert.Equal(t, "evm: eth_call: json-rpc error -32000: header not found", err.Error())
}

// TestBatchErrorsAreTheSingleCallsErrors checks that each answer gives a
// batched call exactly the error the single call gets for the same answer:
// every revert body and non-revert body in testdata.
func TestBatchErrorsAreTheSingleCallsErrors(t *testing.T) {
	t.Parallel()
	var bodies []string
	for _, dir := range []string{"testdata/reverts", "testdata/not_reverts"} {
		files, err := filepath.Glob(dir + "/*.json")
		require.NoError(t, err)
		for _, f := range files {
			raw, err := os.ReadFile(f)
			require.NoError(t, err)
			bodies = append(bodies, string(raw))
		}
	}
	require.NotEmpty(t, bodies)
	_, c := newBatchNode(t, func(_ int, reqs []batchReq) (int, string) {
		parts := make([]string, len(reqs))
		for i, r := range reqs {
			parts[i] = `{"jsonrpc":"2.0","id":` + string(r.ID) + `,"error":` + bodies[i] + `}`
		}
		return 200, "[" + strings.Join(parts, ",") + "]"
	})
	var b evm.Batch
	results := make([]*evm.BatchResult[[]byte], len(bodies))
	for i := range bodies {
		results[i] = b.Call(evm.CallMsg{To: token}, evm.Latest)
	}
	require.NoError(t, c.SendBatch(t.Context(), &b))
	for i, body := range bodies {
		_, got := results[i].Result()
		want := singleCallError(t, body)
		assert.Equal(t, want.Error(), got.Error(), "body %s", body)
		assert.Equal(t, errors.Is(want, evm.ErrReverted), errors.Is(got, evm.ErrReverted), "body %s", body)
		var wr, gr *evm.RevertError
		if errors.As(want, &wr) {
			require.ErrorAs(t, got, &gr)
			assert.Equal(t, wr.Data, gr.Data)
			assert.Equal(t, wr.Reason, gr.Reason)
			assert.Equal(t, wr.PanicCode, gr.PanicCode)
		}
	}
}

// singleCallError is what Call returns when the node answers with the
// error member body.
func singleCallError(t *testing.T, body string) error {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req batchReq
		_ = json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":%s}`, req.ID, body)
	}))
	defer srv.Close()
	c, err := evm.New(srv.URL, testKey)
	require.NoError(t, err)
	_, err = c.Call(t.Context(), evm.CallMsg{To: token}, evm.Latest)
	require.Error(t, err)
	return err
}

func TestBatchSplitsAboveMaxSize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		calls, max int
		sizes      []int
	}{
		{250, 100, []int{100, 100, 50}},
		{100, 100, []int{100}},
		{101, 0, []int{100, 1}}, // 0: the default
		{7, 1, []int{1, 1, 1, 1, 1, 1, 1}},
		{3, 1000, []int{3}},
	} {
		t.Run(fmt.Sprintf("%d by %d", tc.calls, tc.max), func(t *testing.T) {
			t.Parallel()
			var opts []nodeaccess.Option
			if tc.max > 0 {
				opts = append(opts, evm.WithMaxBatchSize(tc.max))
			}
			node, c := newBatchNode(t, answerEach(echoCode), opts...)
			var b evm.Batch
			res := make([]*evm.BatchResult[hexutil.Bytes], tc.calls)
			for i := range res {
				res[i] = evm.Add[hexutil.Bytes](&b, "eth_getCode", account(i), evm.Latest)
			}
			require.NoError(t, c.SendBatch(t.Context(), &b))
			var sizes []int
			ids := map[string]bool{}
			for _, body := range node.requests() {
				var reqs []batchReq
				require.NoError(t, json.Unmarshal([]byte(body), &reqs))
				sizes = append(sizes, len(reqs))
				for _, r := range reqs {
					assert.False(t, ids[string(r.ID)], "id %s sent twice", r.ID)
					ids[string(r.ID)] = true
				}
			}
			assert.Equal(t, tc.sizes, sizes)
			for i, r := range res {
				out, err := r.Result()
				require.NoError(t, err)
				assert.Equal(t, account(i).Bytes(), []byte(out), "call %d got another call's answer", i)
			}
		})
	}
}

func TestWithMaxBatchSizeRefusesBelowOne(t *testing.T) {
	for _, n := range []int{0, -1} {
		_, err := evm.New(testBase, testKey, evm.WithMaxBatchSize(n))
		require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		assert.Contains(t, err.Error(), fmt.Sprintf("WithMaxBatchSize: %d calls", n))
	}
}

// TestBatchMalformedAnswers covers each way a batch answer can be wrong:
// the calls it concerns fail with ErrInvalidResponse, the others keep
// their own answers, nothing panics and no answer goes to another call.
func TestBatchMalformedAnswers(t *testing.T) {
	t.Parallel()
	good := func(id int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":"0x%02x"}`, id, id) }
	for _, tc := range []struct {
		name string
		body string
		bad  []int // the calls (ids 1..3) that fail
	}{
		{"missing id", `[` + good(1) + `,` + good(3) + `]`, []int{2}},
		{"duplicate id", `[` + good(1) + `,` + good(2) + `,` + good(2) + `,` + good(3) + `]`, []int{2}},
		{"duplicate id with another answer", `[` + good(1) + `,` + good(2) + `,{"jsonrpc":"2.0","id":2,"result":"0xff"},` + good(3) + `]`, []int{2}},
		{"unknown id and extra items", `[` + good(3) + `,` + good(9) + `,` + good(1) + `,{"jsonrpc":"2.0","id":0,"result":"0x00"},` + good(2) + `,7,"x",null]`, nil},
		{"id as a string", `[` + good(1) + `,{"jsonrpc":"2.0","id":"2","result":"0x02"},` + good(3) + `]`, []int{2}},
		{"wrong jsonrpc", `[` + good(1) + `,{"jsonrpc":"1.0","id":2,"result":"0x02"},` + good(3) + `]`, []int{2}},
		{"neither result nor error", `[` + good(1) + `,{"jsonrpc":"2.0","id":2},` + good(3) + `]`, []int{2}},
		{"bad result", `[` + good(1) + `,{"jsonrpc":"2.0","id":2,"result":"0xzz"},` + good(3) + `]`, []int{2}},
		{"empty array", `[]`, []int{1, 2, 3}},
		{"one object with a result", good(1), []int{2, 3}},
		{"not JSON", `<html>502</html>`, []int{1, 2, 3}},
		{"truncated", `[` + good(1) + `,` + good(2), []int{1, 2, 3}},
		{"a number", `42`, []int{1, 2, 3}},
		{"null", `null`, []int{1, 2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, c := newBatchNode(t, func(int, []batchReq) (int, string) { return 200, tc.body })
			var b evm.Batch
			res := []*evm.BatchResult[hexutil.Bytes]{evm.Add[hexutil.Bytes](&b, "eth_getCode", token, evm.Latest), evm.Add[hexutil.Bytes](&b, "eth_getCode", token, evm.Latest), evm.Add[hexutil.Bytes](&b, "eth_getCode", token, evm.Latest)}
			require.NoError(t, c.SendBatch(t.Context(), &b))
			for i, r := range res {
				out, err := r.Result()
				if slices.Contains(tc.bad, i+1) {
					require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, "call %d", i+1)
					assert.True(t, strings.HasPrefix(err.Error(), "evm: eth_getCode: "), err.Error())
					continue
				}
				require.NoError(t, err, "call %d", i+1)
				assert.Equal(t, []byte{byte(i + 1)}, []byte(out), "call %d", i+1)
			}
		})
	}
}
