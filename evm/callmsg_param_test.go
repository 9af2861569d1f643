package evm_test

import (
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// paramsRecorder is a JSON-RPC server that answers every call (alone or in
// a batch) with "0x" and records the params of each, as sent.
type paramsRecorder struct {
	mu     sync.Mutex
	params []string
}

func (p *paramsRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	type req struct {
		ID     json.RawMessage `json:"id"`
		Params json.RawMessage `json:"params"`
	}
	var batch []req
	single := json.Unmarshal(body, &batch) != nil
	if single {
		var one req
		if err := json.Unmarshal(body, &one); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		batch = []req{one}
	}
	p.mu.Lock()
	out := make([]json.RawMessage, len(batch))
	for i, q := range batch {
		p.params = append(p.params, string(q.Params))
		out[i] = json.RawMessage(`{"jsonrpc":"2.0","id":` + string(q.ID) + `,"result":"0x"}`)
	}
	p.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if single {
		_, _ = w.Write(out[0])
		return
	}
	b, _ := json.Marshal(out)
	_, _ = w.Write(b)
}

func (p *paramsRecorder) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.params
	p.params = nil
	return out
}

// TestCallMsgAsParam: a CallMsg, as a value or a pointer, given to
// CallContext or to a batch's Add goes out with exactly the bytes Call
// sends for it (the execution API's members, hex quantities, the call data
// under the client's WithCallDataMembers, the overrides as eth_call's third
// and fourth params), in every spelling and for every kind of message;
// before, it went out with Go's field names ("To", "Data", …).
func TestCallMsgAsParam(t *testing.T) {
	msgs := map[string]evm.CallMsg{
		"plain":  {To: token, Data: []byte{0x70, 0xa0, 0x82, 0x31}},
		"create": {Create: true, Data: []byte{0x60, 0x00}, From: common.HexToAddress("0x1")},
		"every member": {From: common.HexToAddress("0x2"), To: token, Gas: 21000, MaxFeePerGas: big.NewInt(30), MaxPriorityFeePerGas: big.NewInt(2),
			Value: big.NewInt(1e18), Data: []byte{1, 2}, AccessList: types.AccessList{{Address: token, StorageKeys: []common.Hash{{1}}}},
			MaxFeePerBlobGas: big.NewInt(5), BlobHashes: []common.Hash{{0x01}}, Nonce: ptr(uint64(3)), ChainID: big.NewInt(1), Type: ptr(uint8(3))},
		"state override": {To: token, Data: []byte{9}, StateOverride: evm.StateOverride{token: {Balance: big.NewInt(7), Code: []byte{0x60}}}},
		"block override": {To: token, BlockOverride: &evm.BlockOverride{Number: big.NewInt(100)}},
	}
	for _, spelling := range [][]string{nil, {"input"}, {"data", "input"}} {
		rec := &paramsRecorder{}
		srv := httptest.NewServer(rec)
		t.Cleanup(srv.Close)
		c, err := evm.New(srv.URL, testKey, evm.WithCallDataMembers(spelling...))
		if spelling == nil {
			c, err = evm.New(srv.URL, testKey)
		}
		require.NoError(t, err)
		ctx := context.Background()
		for name, msg := range msgs {
			for _, block := range []evm.Block{evm.Latest, evm.BlockNumber(0x1b4)} {
				_, err := c.Call(ctx, msg, block)
				require.NoError(t, err, name)
				want := rec.take()
				require.Len(t, want, 1)

				var out hexutil.Bytes
				require.NoError(t, c.CallContext(ctx, &out, "eth_call", msg, block), name)
				require.NoError(t, c.CallContext(ctx, &out, "eth_call", &msg, block), name)
				var b evm.Batch
				r1 := evm.Add[hexutil.Bytes](&b, "eth_call", msg, block)
				r2 := evm.Add[hexutil.Bytes](&b, "eth_call", &msg, block)
				require.NoError(t, c.SendBatch(ctx, &b), name)
				_, err = r1.Result()
				require.NoError(t, err)
				_, err = r2.Result()
				require.NoError(t, err)
				got := rec.take()
				require.Len(t, got, 4)
				for i, g := range got {
					assert.Equal(t, want[0], g, "%s, spelling %v, block %v, send %d", name, spelling, block, i)
				}
			}
			// Overrides but no block: the block "latest" before them, as
			// Call sends a nil Block.
			if msg.StateOverride != nil || msg.BlockOverride != nil {
				_, err := c.Call(ctx, msg, nil)
				require.NoError(t, err)
				want := rec.take()
				require.NoError(t, c.CallContext(ctx, nil, "eth_call", msg))
				assert.Equal(t, want, rec.take(), "%s without a block, spelling %v", name, spelling)
			}
		}
		// In any other method, the call object alone, spelt the same.
		msg := msgs["every member"]
		_, err = c.Call(ctx, msg, evm.Latest)
		require.NoError(t, err)
		var call []json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(rec.take()[0]), &call))
		require.NoError(t, c.CallContext(ctx, nil, "eth_estimateGas", &msg, evm.Latest))
		assert.Equal(t, `[`+string(call[0])+`,"latest"]`, rec.take()[0])
	}
}

// TestCallMsgParamRefused: a message Call refuses is refused as a param
// too, and a message with overrides anywhere its overrides cannot be sent
// as eth_call's third and fourth params (another method, another
// position, more params after its block) is refused rather than sent
// without them; nothing is sent.
func TestCallMsgParamRefused(t *testing.T) {
	c, err := evm.New(testBase, testKey, nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))
	require.NoError(t, err)
	ctx := context.Background()
	over := evm.CallMsg{To: token, StateOverride: evm.StateOverride{token: {Nonce: ptr(uint64(1))}}}
	for _, tc := range []struct {
		method string
		args   []any
		arg    string
	}{
		{"eth_call", []any{evm.CallMsg{Value: big.NewInt(-1)}, evm.Latest}, "args[0].value"},
		{"eth_call", []any{&evm.CallMsg{GasPrice: big.NewInt(1), MaxFeePerGas: big.NewInt(1)}}, "args[0].gasPrice"},
		{"eth_estimateGas", []any{over, evm.Latest}, "args[0].StateOverride"},
		{"eth_call", []any{over, evm.Latest, map[string]any{}}, "args[0].StateOverride"},
		{"eth_call", []any{evm.Latest, &over}, "args[1].StateOverride"},
	} {
		err := c.CallContext(ctx, nil, tc.method, tc.args...)
		testkit.RequireInputError(t, err, tc.arg)
		var b evm.Batch
		_, err = evm.Add[hexutil.Bytes](&b, tc.method, tc.args...).Result()
		testkit.RequireInputError(t, err, tc.arg)
	}
}
