package evm

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// aggregateNode answers each aggregate3 eth_call with the next results of
// its list, packed by go-ethereum's abi, after checking with go-ethereum's
// abi that the aggregate's calls are the next calls of its list.
type aggregateNode struct {
	t *testing.T

	mu      sync.Mutex
	calls   []gethCall3
	results []gethResult
}

func (n *aggregateNode) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage   `json:"id"`
		Params []json.RawMessage `json:"params"`
	}
	var msg struct {
		Data hexutil.Bytes `json:"data"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Params) == 0 ||
		json.Unmarshal(req.Params[0], &msg) != nil || len(msg.Data) < 4 {
		n.t.Errorf("aggregateNode: not an eth_call: %v", err)
		return
	}
	m := aggregate3ABI.Methods["aggregate3"]
	v, err := m.Inputs.Unpack(msg.Data[4:])
	var calls []gethCall3
	if err == nil {
		err = m.Inputs.Copy(&calls, v)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if err != nil || len(calls) > len(n.calls) {
		n.t.Errorf("aggregateNode: %d calls, %d left: %v", len(calls), len(n.calls), err)
		return
	}
	for i := range calls {
		if fmt.Sprint(calls[i]) != fmt.Sprint(n.calls[i]) {
			n.t.Errorf("aggregateNode: call %v, want %v", calls[i], n.calls[i])
		}
	}
	out, err := m.Outputs.Pack(n.results[:len(calls)])
	if err != nil {
		n.t.Errorf("aggregateNode: %v", err)
	}
	n.calls, n.results = n.calls[len(calls):], n.results[len(calls):]
	w.Header().Set("Content-Type", "application/json")
	_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":"0x%s"}`, req.ID, hex.EncodeToString(out))
}

// errorString is the revert data of Error(reason), packed by go-ethereum's
// abi.
func errorString(t *testing.T, reason string) []byte {
	t.Helper()
	ty, err := abi.NewType("string", "", nil)
	require.NoError(t, err)
	args, err := abi.Arguments{{Type: ty}}.Pack(reason)
	require.NoError(t, err)
	return append(errorSelector[:], args...)
}

// TestAggregateMarksRequiredFailed answers random Multicalls with random
// aggregate3 outputs, packed by go-ethereum's abi, some of which mark a
// call with AllowFailure false as failed (which Multicall3 itself never
// answers: it reverts): the Multicall fails with the *MulticallError of
// the first such call, with its target and its revert data decoded, and
// with no results; without such a call, every result is passed on, a
// failed one with its revert.
func TestAggregateMarksRequiredFailed(t *testing.T) {
	node := &aggregateNode{t: t}
	srv := httptest.NewServer(node)
	t.Cleanup(srv.Close)
	c, err := New(srv.URL, "k3y", nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(5, 6))
	failed := 0
	for k := range 400 {
		calls := make([]Call3, 1+r.IntN(6))
		gcalls := make([]gethCall3, len(calls))
		results := make([]gethResult, len(calls))
		reasons := make([]string, len(calls))
		firstBad := -1
		for i := range calls {
			var to common.Address
			to[19], to[0] = byte(i), byte(k)
			calls[i] = Call3{Target: to, AllowFailure: r.IntN(2) == 0, Data: randomBytes(r)}
			gcalls[i] = gethCall3{to, calls[i].AllowFailure, calls[i].Data}
			results[i] = gethResult{Success: r.IntN(3) != 0, ReturnData: randomBytes(r)}
			if !results[i].Success && r.IntN(2) == 0 {
				reasons[i] = fmt.Sprintf("call %d of %d failed", i, k)
				results[i].ReturnData = errorString(t, reasons[i])
			}
			if firstBad < 0 && !results[i].Success && !calls[i].AllowFailure {
				firstBad = i
			}
		}
		maxCalls := r.IntN(len(calls) + 1)
		node.mu.Lock()
		node.calls, node.results = gcalls, results
		node.mu.Unlock()
		msg := fmt.Sprintf("case %d: MaxCalls %d, calls %+v, results %+v", k, maxCalls, calls, results)
		got, err := c.Multicall(t.Context(), calls, Latest, MulticallOptions{MaxCalls: maxCalls})
		if firstBad >= 0 {
			failed++
			assert.Nil(t, got, msg)
			var me *MulticallError
			require.ErrorAs(t, err, &me, msg)
			assert.Equal(t, firstBad, me.Index, msg)
			assert.Equal(t, calls[firstBad].Target, me.Target, msg)
			require.NotNil(t, me.Revert, msg)
			assert.Equal(t, hex.EncodeToString(results[firstBad].ReturnData), hex.EncodeToString(me.Revert.Data), msg)
			assert.Equal(t, reasons[firstBad], me.Revert.Reason, msg)
			assert.Nil(t, me.Revert.RPC, msg)
			assert.Nil(t, me.Aggregate, msg)
			assert.True(t, errors.Is(err, ErrReverted), msg)
			var op *nodeaccess.OpError
			require.ErrorAs(t, err, &op, msg)
			assert.Equal(t, fmt.Sprintf("evm: eth_call: multicall: call %d (to %s, failure not allowed) failed: %v", firstBad, me.Target.Hex(), me.Revert), err.Error(), msg)
			continue
		}
		require.NoError(t, err, msg)
		require.Len(t, got, len(calls), msg)
		for i := range got {
			assert.Equal(t, results[i].Success, got[i].Success, msg)
			assert.Equal(t, hex.EncodeToString(results[i].ReturnData), hex.EncodeToString(got[i].ReturnData), msg)
			if results[i].Success {
				assert.Nil(t, got[i].Revert, msg)
				continue
			}
			require.NotNil(t, got[i].Revert, msg)
			assert.Equal(t, reasons[i], got[i].Revert.Reason, msg)
		}
	}
	assert.Greater(t, failed, 100, "cases with a required call marked failed")
	assert.Less(t, failed, 300, "cases without one")
}
