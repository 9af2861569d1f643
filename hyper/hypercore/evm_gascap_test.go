package hypercore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
)

// hyperEVMGasCap is HyperEVM's eth_call gas cap, 30,000,000
// (testdata/SOURCES.md, "HyperEVM": hyperliquid-dex/node issue #121).
const hyperEVMGasCap = 30_000_000

// capGas is a server in front of an evmtest node that answers as HyperEVM
// does for gas: every eth_call runs with at most hyperEVMGasCap gas (a call
// object without gas, or with more, gets the cap), as a node with that
// eth_call gas cap runs it.
func capGas(t *testing.T, node *evmtest.Server) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var one map[string]any
		var batch []map[string]any
		if json.Unmarshal(body, &batch) != nil {
			require.NoError(t, json.Unmarshal(body, &one))
			batch = []map[string]any{one}
		}
		for _, req := range batch {
			if params, _ := req["params"].([]any); req["method"] == "eth_call" && len(params) > 0 {
				call := params[0].(map[string]any)
				if g, ok := call["gas"].(string); !ok || common.FromHex(g) == nil || new(big.Int).SetBytes(common.FromHex(g)).Cmp(big.NewInt(hyperEVMGasCap)) > 0 {
					call["gas"] = "0x1c9c380" // 30,000,000
				}
			}
		}
		if one != nil {
			body, _ = json.Marshal(one)
		} else {
			body, _ = json.Marshal(batch)
		}
		resp, err := http.Post(node.URL+r.URL.Path, "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestEVMMulticallUnderGasCap: on a node with HyperEVM's 30M eth_call gas
// cap, one Multicall aggregate of 8,000 balance reads (over 30M gas) runs
// out of gas, an error that is not a revert; MulticallOptions.MaxCalls,
// which WithEVM's doc points to, splits it into aggregates under the cap,
// and every read returns the balance. The same aggregate fits the 50M cap
// of go-ethereum's default (evmtest's).
func TestEVMMulticallUnderGasCap(t *testing.T) {
	node := evmtest.NewT(t, evmtest.WithoutScenario())
	c, err := hypercore.New(capGas(t, node), node.Key(), nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	balanceOf := append(common.FromHex("0x70a08231"), common.LeftPadBytes(evmtest.Holder().Bytes(), 32)...)
	calls := make([]evm.Call3, 8000)
	for i := range calls {
		calls[i] = evm.Call3{Target: evmtest.Token(), Data: balanceOf}
	}
	ctx := context.Background()

	_, err = c.Multicall(ctx, calls, evm.Latest, evm.MulticallOptions{})
	var re *nodeaccess.RPCError
	require.ErrorAs(t, err, &re, "one aggregate over the 30M cap")
	assert.Contains(t, re.Message, "out of gas")
	assert.NotErrorIs(t, err, evm.ErrReverted)

	res, err := c.Multicall(ctx, calls, evm.Latest, evm.MulticallOptions{MaxCalls: 2000})
	require.NoError(t, err)
	want := common.LeftPadBytes(evmtest.HolderBalance().Bytes(), 32)
	for i, r := range res {
		require.True(t, r.Success, "call %d", i)
		require.Equal(t, want, r.ReturnData, "call %d", i)
	}

	direct, err := node.Client()
	require.NoError(t, err)
	_, err = direct.Multicall(ctx, calls, evm.Latest, evm.MulticallOptions{})
	require.NoError(t, err, "the aggregate fits go-ethereum's default cap of 50M")
}
