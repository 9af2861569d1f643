package evm_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
)

// costNode is a JSON-RPC node that answers eth_blockNumber with head (or an
// error when headFails) and every other method with "0x", and records the
// methods it was asked for.
type costNode struct {
	mu        sync.Mutex
	head      uint64
	headFails bool
	methods   []string
}

func (n *costNode) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	n.mu.Lock()
	n.methods = append(n.methods, req.Method)
	head, fails := n.head, n.headFails
	n.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case req.Method == "eth_blockNumber" && fails:
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32000,"message":"unavailable"}}`))
	case req.Method == "eth_blockNumber":
		q, _ := json.Marshal(hexQuantity(head))
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + string(q) + `}`))
	default:
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":"0x"}`))
	}
}

func hexQuantity(n uint64) string { return "0x" + strconv.FormatUint(n, 16) }

var callTo = evm.CallMsg{To: common.HexToAddress("0x1")}

func (n *costNode) count(method string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := 0
	for _, m := range n.methods {
		if m == method {
			c++
		}
	}
	return c
}

// costClient returns a client of node and a func that returns (and forgets)
// the units of each attempt its hook saw, by operation.
func costClient(t *testing.T, node *costNode, opts ...nodeaccess.Option) (*evm.Client, func() map[string][]int) {
	t.Helper()
	srv := httptest.NewServer(node)
	t.Cleanup(srv.Close)
	var mu sync.Mutex
	seen := map[string][]int{}
	opts = append([]nodeaccess.Option{nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
		mu.Lock()
		seen[a.Op] = append(seen[a.Op], a.Units)
		mu.Unlock()
	})}, opts...)
	c, err := evm.New(srv.URL, "k3y", opts...)
	require.NoError(t, err)
	return c, func() map[string][]int {
		mu.Lock()
		defer mu.Unlock()
		out := seen
		seen = map[string][]int{}
		return out
	}
}

func bigBudget(t *testing.T) *nodeaccess.Budget {
	b, err := nodeaccess.NewBudget(1e6, 1000)
	require.NoError(t, err)
	return b
}

var someHash = common.HexToHash("0x88e96d4537bea4d9c05d12549907b32561d3bf31f45aae734cdc119f13406cb6")

// TestCallUnitsSelectors: the cost of eth_call for every kind of block
// selector, with a budget (the head learnt from the node) and without.
func TestCallUnitsSelectors(t *testing.T) {
	ctx := context.Background()
	msg := evm.CallMsg{To: common.HexToAddress("0x1")}
	const head = 1000
	cases := []struct {
		name   string
		block  evm.Block
		budget int // units with a budget and a known head
		none   int // units without a budget
	}{
		{"latest", evm.Latest, 1, 1},
		{"safe", evm.Safe, 1, 1},
		{"finalized", evm.Finalized, 1, 1},
		{"pending", evm.Pending, 1, 1},
		{"earliest", evm.Earliest, 2, 2},
		{"hash", evm.BlockHash{Hash: someHash}, 2, 2},
		{"canonical hash", evm.BlockHash{Hash: someHash, RequireCanonical: true}, 2, 2},
		{"the head", evm.BlockNumber(head), 1, 2},
		{"127 behind", evm.BlockNumber(head - 127), 1, 2},
		{"128 behind", evm.BlockNumber(head - 128), 2, 2},
		{"129 behind", evm.BlockNumber(head - 129), 2, 2},
		{"genesis by number", evm.BlockNumber(0), 2, 2},
		{"ahead of the known head", evm.BlockNumber(head + 5), 1, 2},
	}
	node := &costNode{head: head}
	withB, seenB := costClient(t, node, nodeaccess.WithBudget(bigBudget(t)))
	without, seenN := costClient(t, node)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := withB.Call(ctx, msg, tc.block)
			require.NoError(t, err)
			require.Equal(t, []int{tc.budget}, seenB()["eth_call"])
			_, err = without.Call(ctx, msg, tc.block)
			require.NoError(t, err)
			require.Equal(t, map[string][]int{"eth_call": {tc.none}}, seenN())
		})
	}
	// The head was asked for once (cached for a few seconds), and only by the
	// client with a budget.
	require.Equal(t, 1, node.count("eth_blockNumber"))
}

// TestCallUnitsHeadCharged: the eth_blockNumber that learns the head is an
// attempt of its own, charged to the budget like any call.
func TestCallUnitsHeadCharged(t *testing.T) {
	b := bigBudget(t)
	node := &costNode{head: 500}
	c, seen := costClient(t, node, nodeaccess.WithBudget(b))
	_, err := c.Call(context.Background(), callTo, evm.BlockNumber(100))
	require.NoError(t, err)
	require.Equal(t, map[string][]int{"eth_blockNumber": {1}, "eth_call": {2}}, seen())
	require.Equal(t, int64(3), b.Stats().Units)
	require.Equal(t, int64(2), b.Stats().Waits)
}

// TestCallUnitsHeadUnknown: when the head cannot be learnt, a block number
// counts as archive (never under-counted), the tags still count 1.
func TestCallUnitsHeadUnknown(t *testing.T) {
	node := &costNode{head: 1000, headFails: true}
	c, seen := costClient(t, node, nodeaccess.WithBudget(bigBudget(t)), nodeaccess.WithMaxAttempts(1))
	ctx := context.Background()
	_, err := c.Call(ctx, callTo, evm.BlockNumber(999))
	require.NoError(t, err)
	_, err = c.Call(ctx, callTo, evm.Latest)
	require.NoError(t, err)
	require.Equal(t, []int{2, 1}, seen()["eth_call"])
	// The failed refresh is not repeated on every call.
	require.Equal(t, 1, node.count("eth_blockNumber"))
}

// TestCostOverrides: WithCost replaces the default of every EVM operation,
// the archive eth_call included.
func TestCostOverrides(t *testing.T) {
	node := &costNode{head: 1000}
	ctx := context.Background()
	c, seen := costClient(t, node)
	_, err := c.Call(ctx, callTo, evm.Latest)
	require.NoError(t, err)
	_, err = c.Code(ctx, common.Address{}, evm.Latest)
	require.NoError(t, err)
	_, _ = c.InternalOperations(ctx, someHash) // "0x" is no list: the cost is what counts
	require.Equal(t, map[string][]int{"eth_call": {1}, "eth_getCode": {1}, "ots_getInternalOperations": {1}}, seen())

	c, seen = costClient(t, node,
		nodeaccess.WithCost("eth_call", 3), nodeaccess.WithCost(evm.OpArchiveCall, 7),
		nodeaccess.WithCost("eth_getCode", 4), nodeaccess.WithCost("ots_getInternalOperations", 5))
	_, err = c.Call(ctx, callTo, evm.Latest)
	require.NoError(t, err)
	_, err = c.Call(ctx, callTo, evm.Earliest)
	require.NoError(t, err)
	_, err = c.Code(ctx, common.Address{}, evm.Latest)
	require.NoError(t, err)
	_, _ = c.InternalOperations(ctx, someHash)
	require.Equal(t, map[string][]int{"eth_call": {3, 7}, "eth_getCode": {4}, "ots_getInternalOperations": {5}}, seen())
}
