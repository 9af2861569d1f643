package hypercore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// hyperEVM is a local server that answers as HyperEVM's RPC does
// (testdata/SOURCES.md, "HyperEVM"): a state read at any block, past,
// future or a tag, is answered from the latest state, without an error
// (hyperliquid-dex/node issue #158): eth_getBalance is always latestBalance
// and eth_call always returns latestWord. eth_getBlockByNumber answers
// null. It counts the JSON-RPC calls it receives.
type hyperEVM struct {
	*httptest.Server
	mu    sync.Mutex
	calls []string // the methods received, in order
}

const (
	latestBalance = "0x2a"
	latestWord    = "0x000000000000000000000000000000000000000000000000000000000000002a"
)

func newHyperEVM(t *testing.T) *hyperEVM {
	h := &hyperEVM{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		type req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		var reqs []req
		batch := strings.HasPrefix(strings.TrimSpace(string(body)), "[")
		if batch {
			_ = json.Unmarshal(body, &reqs)
		} else {
			var one req
			_ = json.Unmarshal(body, &one)
			reqs = []req{one}
		}
		var out []string
		for _, rq := range reqs {
			h.mu.Lock()
			h.calls = append(h.calls, rq.Method)
			h.mu.Unlock()
			result := `null`
			switch rq.Method {
			case "eth_getBalance":
				result = `"` + latestBalance + `"`
			case "eth_call":
				result = `"` + latestWord + `"`
			case "eth_getCode":
				result = `"0x6000"`
			}
			out = append(out, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, rq.ID, result))
		}
		w.Header().Set("Content-Type", "application/json")
		if batch {
			_, _ = io.WriteString(w, "["+strings.Join(out, ",")+"]")
			return
		}
		_, _ = io.WriteString(w, out[0])
	}))
	t.Cleanup(h.Close)
	return h
}

// received returns the methods the server received.
func (h *hyperEVM) received() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.calls...)
}

// TestEVMReadsLatestOnly: every way the EVM client reads state at a
// block, given a selector other than latest (a past or future number, a
// hash, pending, safe, finalized, earliest), is refused with an InputError
// that says why and names WithHistory, and nothing is sent; at latest
// (or with no selector) the same reads are sent. Reads that are not of
// state at a block (eth_getBlockByNumber of an old block, eth_chainId) go
// out at any block.
func TestEVMReadsLatestOnly(t *testing.T) {
	h := newHyperEVM(t)
	c, err := hypercore.New(h.URL, testKey, nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	e := c
	ctx := context.Background()
	token := common.HexToAddress("0x5555555555555555555555555555555555555555")
	msg := evm.CallMsg{To: token}
	sim := evm.Simulation{Blocks: []evm.SimBlock{{Calls: []evm.CallMsg{msg}}}}
	past := []evm.Block{evm.BlockNumber(1), evm.BlockNumber(1 << 40), evm.BlockHash{Hash: common.HexToHash("0x01")},
		evm.Pending, evm.Safe, evm.Finalized, evm.Earliest}
	reads := map[string]func(evm.Block) error{
		"Call": func(b evm.Block) error { _, err := e.Call(ctx, msg, b); return err },
		"Code": func(b evm.Block) error { _, err := e.Code(ctx, token, b); return err },
		"Multicall": func(b evm.Block) error {
			_, err := e.Multicall(ctx, []evm.Call3{{Target: token}}, b, evm.MulticallOptions{})
			return err
		},
		"SimulateV1": func(b evm.Block) error { _, err := e.SimulateV1(ctx, sim, b); return err },
		"CallContext eth_getBalance": func(b evm.Block) error {
			var v hexutil.Big
			return e.CallContext(ctx, &v, "eth_getBalance", token, b)
		},
		"CallContext eth_getStorageAt": func(b evm.Block) error {
			return e.CallContext(ctx, nil, "eth_getStorageAt", token, "0x0", b)
		},
		"CallContext eth_call as text": func(b evm.Block) error {
			return e.CallContext(ctx, nil, "eth_call", map[string]string{"to": token.Hex()}, fmt.Sprint(b))
		},
		"batch": func(b evm.Block) error {
			var batch evm.Batch
			batch.Call(msg, evm.Latest)
			evm.Add[hexutil.Big](&batch, "eth_getBalance", token, b)
			return e.SendBatch(ctx, &batch)
		},
		"batch eth_simulateV1": func(b evm.Block) error {
			var batch evm.Batch
			evm.Add[[]evm.SimulatedBlock](&batch, "eth_simulateV1", sim, b)
			return e.SendBatch(ctx, &batch)
		},
	}
	for name, read := range reads {
		for _, b := range past {
			err := read(b)
			_, ie := testkit.RequireInputError(t, err, "block")
			assert.Contains(t, ie.Reason, "HyperEVM's RPC serves the latest state only", "%s at %s", name, b)
			assert.Contains(t, ie.Reason, "hypercore.WithHistory()", name)
			testkit.AssertErrNoKey(t, testKey, err)
		}
		require.Empty(t, h.received(), "%s sent a refused read", name)
	}
	for name, read := range reads {
		if strings.HasPrefix(name, "CallContext eth_call as text") {
			continue // "latest" as text is sent: see below
		}
		before := len(h.received())
		err := read(evm.Latest)
		if name != "Multicall" && name != "SimulateV1" && name != "batch eth_simulateV1" { // answered with data that is not theirs
			require.NoError(t, err, name)
		}
		assert.Greater(t, len(h.received()), before, "%s at latest was not sent", name)
	}
	before := len(h.received())
	require.NoError(t, e.CallContext(ctx, nil, "eth_call", map[string]string{"to": token.Hex()}, "latest"))
	require.NoError(t, e.CallContext(ctx, nil, "eth_call", map[string]string{"to": token.Hex()}))
	out, err := e.Call(ctx, msg, nil)
	require.NoError(t, err)
	assert.Equal(t, common.FromHex(latestWord), out)
	require.NoError(t, e.CallContext(ctx, nil, "eth_getBlockByNumber", evm.BlockNumber(1), false))
	assert.Equal(t, []string{"eth_call", "eth_call", "eth_call", "eth_getBlockByNumber"}, h.received()[before:])
}

// TestEVMGethAdapterLatestOnly: go-ethereum's bind callers that name a
// block (a number, pending, a hash) are refused as well.
func TestEVMGethAdapterLatestOnly(t *testing.T) {
	h := newHyperEVM(t)
	c, err := hypercore.New(h.URL, testKey)
	require.NoError(t, err)
	e, ctx := c, context.Background()
	to := common.HexToAddress("0x5555555555555555555555555555555555555555")
	_, err = e.ContractCaller().CallContract(ctx, ethereum.CallMsg{To: &to}, big.NewInt(100))
	testkit.RequireInputError(t, err, "block")
	_, err = e.ContractCaller().PendingCallContract(ctx, ethereum.CallMsg{To: &to})
	testkit.RequireInputError(t, err, "block")
	_, err = e.ContractCaller().CodeAtHash(ctx, to, common.HexToHash("0x01"))
	testkit.RequireInputError(t, err, "block")
	assert.Empty(t, h.received())
	_, err = e.ContractCaller().CallContract(ctx, ethereum.CallMsg{To: &to}, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"eth_call"}, h.received())
}

// TestEVMHistory: with WithHistory the EVM client sends a read at any
// block. Against a server that answers as HyperEVM does, the past balance
// comes back as the latest one: what the refusal protects from.
func TestEVMHistory(t *testing.T) {
	h := newHyperEVM(t)
	c, err := hypercore.New(h.URL, testKey, hypercore.WithHistory())
	require.NoError(t, err)
	var bal hexutil.Big
	require.NoError(t, c.CallContext(context.Background(), &bal, "eth_getBalance", common.Address{}, evm.BlockNumber(1)))
	assert.Equal(t, latestBalance, bal.String())
	out, err := c.Call(context.Background(), evm.CallMsg{}, evm.Pending)
	require.NoError(t, err)
	assert.Equal(t, common.FromHex(latestWord), out)
	assert.Equal(t, []string{"eth_getBalance", "eth_call"}, h.received())

	// The evm package's own clients read any block.
	e, err := evm.New(h.URL, testKey)
	require.NoError(t, err)
	_, err = e.Code(context.Background(), common.Address{}, evm.BlockNumber(1))
	require.NoError(t, err)
}

// TestEVMResponseTooBig: HyperEVM's answer to a call whose answer is over
// 1 MiB (hyperliquid-dex/node issue #65, testdata/hyperevm_response_too_big.json)
// is an error matching nodeaccess.ErrResponseTooLarge, with the node's
// code and message.
func TestEVMResponseTooBig(t *testing.T) {
	body, err := os.ReadFile("testdata/hyperevm_response_too_big.json")
	require.NoError(t, err)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	c, err := hypercore.New(srv.URL, testKey, nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	var logs json.RawMessage
	err = c.CallContext(context.Background(), &logs, "eth_getLogs", map[string]string{"fromBlock": "0x2e99b2", "toBlock": "0x2e99b2"})
	require.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge)
	var re *nodeaccess.RPCError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, -32008, re.Code)
	assert.Equal(t, "Response is too big", re.Message)
	assert.Equal(t, "Exceeded max limit of 1048576", re.Data)
}

// NewFromURL takes the URLs hyper.NewFromURL takes and gives the HyperEVM
// client at {base}/{key}/evm.
func TestNewFromURLIsNew(t *testing.T) {
	for _, ep := range []string{"https://node.example/" + testKey, "https://node.example/" + testKey + "/",
		"https://node.example/" + testKey + "/info", "https://node.example/" + testKey + "/evm/"} {
		c, err := hypercore.NewFromURL(ep)
		require.NoError(t, err, ep)
		assert.Equal(t, "evm.Client{https://node.example/REDACTED/evm}", c.String(), ep)
	}
	_, err := hypercore.NewFromURL("https://host/" + testKey + "/rpc")
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.NotContains(t, err.Error(), testKey)
}

// A network failure (connection refused) prints the URL in Go's own error;
// the key is masked there.
func TestRefusedConnectionDoesNotLeakTheKey(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := "http://" + l.Addr().String()
	require.NoError(t, l.Close())
	for _, key := range testkit.LeakKeys {
		var o observed
		c, err := hypercore.New(addr, key, o.options()...)
		require.NoError(t, err)
		_, err = c.Call(context.Background(), evm.CallMsg{To: common.HexToAddress("0x01")}, evm.Latest)
		require.ErrorIs(t, err, nodeaccess.ErrUnavailable)
		testkit.AssertNoKey(t, key, "evm error", fmt.Sprintf("%v %+v", err, err))
		testkit.AssertNoKey(t, key, "evm client", fmt.Sprintf("%v %+v %#v", c, c, c))
		o.check(t, key)
	}
}
