package evm_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exchange is one recorded request and answer of testdata/rpc (see
// testdata/SOURCES.md).
type exchange struct{ request, response string }

// readExchange reads a .io file of the execution-apis tests: a ">> "
// request line and a "<< " answer line.
func readExchange(t *testing.T, name string) exchange {
	t.Helper()
	f, err := os.Open("testdata/rpc/" + name)
	require.NoError(t, err)
	defer f.Close()
	var ex exchange
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, ">> "):
			ex.request = line[3:]
		case strings.HasPrefix(line, "<< "):
			ex.response = line[3:]
		}
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, ex.request, name)
	require.NotEmpty(t, ex.response, name)
	return ex
}

// withParams is a recorded request with the params member the SDK always
// sends: [] where the recording has none.
func withParams(req string) string {
	if strings.Contains(req, `"params":`) {
		return req
	}
	return strings.TrimSuffix(req, "}") + `,"params":[]}`
}

// TestCallContextRecorded sends what the execution-apis conformance tests
// send, through CallContext with this package's types as the arguments,
// and decodes what go-ethereum answered there: the request bytes must be
// the recording's, byte for byte.
func TestCallContextRecorded(t *testing.T) {
	addr := common.HexToAddress("0x7dcd17433742f4c0ca53122ab541d0ba67fc27df")
	hash := common.HexToHash("0xa38f2a6f7d276298d8e7a9bfa28625e4dc8948021f5a7369d0a04571879e98d2")
	for _, tc := range []struct {
		file   string
		method string
		args   []any
		want   string
	}{
		{"eth_getBalance.io", "eth_getBalance", []any{addr, evm.Latest}, "0x73"},
		{"eth_getBalance.io", "eth_getBalance", []any{addr, "latest"}, "0x73"},
		{"eth_getBalance_canonical_hash.io", "eth_getBalance", []any{addr, evm.BlockHash{Hash: hash, RequireCanonical: true}}, "0x56"},
		{"eth_blockNumber.io", "eth_blockNumber", nil, "0x14"},
		{"eth_chainId.io", "eth_chainId", nil, "0xc72dd9d5e883e"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			ex := readExchange(t, tc.file)
			c := gockClient(t)
			mockRPC(t, "/"+testKey, withParams(ex.request), ex.response)
			var got hexutil.Big
			require.NoError(t, c.CallContext(context.Background(), &got, tc.method, tc.args...))
			assert.Equal(t, tc.want, got.String())
		})
	}
}

// TestCallContextResults: the result is decoded as encoding/json decodes
// it, into any type; nil drops it; null leaves a pointer nil.
func TestCallContextResults(t *testing.T) {
	const req = `{"jsonrpc":"2.0","id":1,"method":"eth_getTransactionByHash","params":["0x0000000000000000000000000000000000000000000000000000000000000001"]}`
	tx := common.Hash{31: 1}
	t.Run("object", func(t *testing.T) {
		c := gockClient(t)
		mockRPC(t, "/"+testKey, req, `{"jsonrpc":"2.0","id":1,"result":{"blockNumber":"0x10","hash":"0x01"}}`)
		var got struct {
			BlockNumber hexutil.Uint64 `json:"blockNumber"`
		}
		require.NoError(t, c.CallContext(context.Background(), &got, "eth_getTransactionByHash", tx))
		assert.Equal(t, hexutil.Uint64(16), got.BlockNumber)
	})
	t.Run("raw", func(t *testing.T) {
		c := gockClient(t)
		mockRPC(t, "/"+testKey, req, `{"jsonrpc":"2.0","id":1,"result":{"a":[1, 2]}}`)
		var got json.RawMessage
		require.NoError(t, c.CallContext(context.Background(), &got, "eth_getTransactionByHash", tx))
		assert.Equal(t, `{"a":[1, 2]}`, string(got))
	})
	t.Run("null", func(t *testing.T) {
		c := gockClient(t)
		mockRPC(t, "/"+testKey, req, `{"jsonrpc":"2.0","id":1,"result":null}`)
		got := &struct{}{}
		require.NoError(t, c.CallContext(context.Background(), &got, "eth_getTransactionByHash", tx))
		assert.Nil(t, got)
	})
	t.Run("nil result", func(t *testing.T) {
		c := gockClient(t)
		mockRPC(t, "/"+testKey, req, `{"jsonrpc":"2.0","id":1,"result":"anything"}`)
		require.NoError(t, c.CallContext(context.Background(), nil, "eth_getTransactionByHash", tx))
	})
	t.Run("undecodable", func(t *testing.T) {
		c := gockClient(t)
		mockRPC(t, "/"+testKey, req, `{"jsonrpc":"2.0","id":1,"result":"0x10"}`)
		var got struct{}
		err := c.CallContext(context.Background(), &got, "eth_getTransactionByHash", tx)
		require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		assert.Contains(t, err.Error(), "evm: eth_getTransactionByHash: invalid response: eth_getTransactionByHash result: json: cannot unmarshal string")
	})
	t.Run("error object", func(t *testing.T) {
		c := gockClient(t)
		mockRPC(t, "/"+testKey, req, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"the method eth_getTransactionByHash does not exist/is not available"}}`)
		err := c.CallContext(context.Background(), nil, "eth_getTransactionByHash", tx)
		var re *nodeaccess.RPCError
		require.ErrorAs(t, err, &re)
		assert.Equal(t, -32601, re.Code)
		assert.NotErrorIs(t, err, evm.ErrReverted)
	})
}

// TestCallContextBadInputSendsNothing: every kind of bad input is an
// InputError naming it, and nothing reaches the server.
func TestCallContextBadInputSendsNothing(t *testing.T) {
	c, err := evm.New(testBase, testKey, nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))
	require.NoError(t, err)
	var out hexutil.Big
	for _, tc := range []struct {
		name   string
		result any
		method string
		args   []any
		arg    string
		msg    string
	}{
		{"empty method", &out, "", nil, "method", "evm: rpc: invalid input: method: empty JSON-RPC method name"},
		{"space in method", &out, "eth call", nil, "method", `evm: rpc: invalid input: method: JSON-RPC method name "eth call" has ' ' at byte 3: only ASCII letters, digits, '_' and '.' are allowed`},
		{"quote in method", &out, `eth_call"`, nil, "method", `JSON-RPC method name "eth_call\"" has '"' at byte 8`},
		{"non-ASCII method", &out, "eth_cäll", nil, "method", `has 'Ã' at byte 5`},
		{"result not a pointer", out, "eth_getBalance", nil, "result", "evm: eth_getBalance: invalid input: result: hexutil.Big is not a non-nil pointer"},
		{"nil pointer result", (*hexutil.Big)(nil), "eth_getBalance", nil, "result", "*hexutil.Big is not a non-nil pointer"},
		{"unknown tag", &out, "eth_getBalance", []any{token, evm.Tag("newest")}, "args[1]", `evm: eth_getBalance: invalid input: args[1]: evm.Tag cannot be encoded as JSON: json: error calling MarshalJSON for type evm.Tag: invalid input: block: tag "newest" is not latest`},
		{"a channel", &out, "eth_getBalance", []any{make(chan int)}, "args[0]", "chan int cannot be encoded as JSON"},
		{"unknown tag in eth_call", &out, "eth_call", []any{map[string]any{"to": token}, evm.Tag("Latest")}, "args[1]", `tag "Latest" is not latest`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := c.CallContext(context.Background(), tc.result, tc.method, tc.args...)
			testkit.RequireInputError(t, err, tc.arg)
			assert.Contains(t, err.Error(), tc.msg)
			testkit.AssertErrNoKey(t, testKey, err)
		})
	}
}

// TestCallContextCosts: a call costs its method's units, 1 unless WithCost
// names the method; an eth_call is charged as Call charges it, also when
// its block comes as text; hooks name the method.
func TestCallContextCosts(t *testing.T) {
	const head = 10_000
	node := &costNode{head: head}
	c, seen := costClient(t, node, nodeaccess.WithBudget(bigBudget(t)), nodeaccess.WithCost("eth_getBalance", 3))
	ctx := context.Background()
	msg := map[string]any{"to": token}
	for _, tc := range []struct {
		name   string
		method string
		args   []any
		op     string
		units  int
	}{
		{"a method without a cost", "eth_gasPrice", nil, "eth_gasPrice", 1},
		{"a method priced with WithCost", "eth_getBalance", []any{token, evm.Latest}, "eth_getBalance", 3},
		{"eth_call without a block", "eth_call", []any{msg}, "eth_call", 1},
		{"eth_call at latest", "eth_call", []any{msg, evm.Latest}, "eth_call", 1},
		{"eth_call at a recent number", "eth_call", []any{msg, evm.BlockNumber(head - 5)}, "eth_call", 1},
		{"eth_call at an old number", "eth_call", []any{msg, evm.BlockNumber(head - 500)}, "eth_call", 2},
		{"eth_call at an old number as text", "eth_call", []any{msg, "0x10"}, "eth_call", 2},
		{"eth_call at a recent number as text", "eth_call", []any{msg, hexQuantity(head - 1)}, "eth_call", 1},
		{"eth_call at earliest as text", "eth_call", []any{msg, "earliest"}, "eth_call", 2},
		{"eth_call at a hash", "eth_call", []any{msg, evm.BlockHash{Hash: common.Hash{1}}}, "eth_call", 2},
		{"eth_call at a block the SDK cannot place", "eth_call", []any{msg, big.NewInt(5)}, "eth_call", 2},
		{"eth_call at a string that is no block", "eth_call", []any{msg, "soon"}, "eth_call", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, c.CallContext(ctx, nil, tc.method, tc.args...))
			got := seen()
			assert.Equal(t, []int{tc.units}, got[tc.op], "%v", got)
		})
	}
}

// TestCallContextRevert: an eth_call sent through CallContext fails as
// Call fails, with a *RevertError; another method's error that speaks of a
// revert stays an *RPCError.
func TestCallContextRevert(t *testing.T) {
	const reason = `"0x08c379a0000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000046e6f706500000000000000000000000000000000000000000000000000000000"`
	c := gockClient(t)
	mockRPC(t, "/"+testKey, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"latest"]}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted: nope","data":`+reason+`}}`)
	mockRPC(t, "/"+testKey, `{"jsonrpc":"2.0","id":2,"method":"eth_estimateGas","params":[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"}]}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":3,"message":"execution reverted: nope","data":`+reason+`}}`)
	var out hexutil.Bytes
	err := c.CallContext(context.Background(), &out, "eth_call", map[string]any{"to": token}, evm.Latest)
	var rev *evm.RevertError
	require.ErrorAs(t, err, &rev)
	assert.Equal(t, "nope", rev.Reason)
	assert.Equal(t, "evm: eth_call: execution reverted: \"nope\"", err.Error())

	err = c.CallContext(context.Background(), &out, "eth_estimateGas", map[string]any{"to": token})
	assert.NotErrorIs(t, err, evm.ErrReverted)
	var re *nodeaccess.RPCError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, 3, re.Code)
}

// TestAnyCallKeyNeverShows: the key given where it does not belong (as a
// method name, inside an argument that cannot be encoded, in the server's
// answer) shows in no error of CallContext, Add and SendBatch, nor in a
// hook's Op.
func TestAnyCallKeyNeverShows(t *testing.T) {
	const key = "s3cretKey9"
	var mu sync.Mutex
	var ops []string
	hook := nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
		mu.Lock()
		ops = append(ops, a.Op)
		for _, bc := range a.Batch {
			ops = append(ops, bc.Op)
		}
		mu.Unlock()
	})
	srvURL := startEchoNode(t, key)
	c, err := evm.New(srvURL, key, hook, nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	ctx := context.Background()

	// The key as a (valid) method name: refused, naming no key.
	err = c.CallContext(ctx, nil, key)
	testkit.RequireInputError(t, err, "method")
	assert.Equal(t, "evm: rpc: invalid input: method: the JSON-RPC method name holds the access key", err.Error())
	err = c.CallContext(ctx, nil, "eth_"+key)
	testkit.RequireInputError(t, err, "method")
	// The key in a method name that is refused.
	err = c.CallContext(ctx, nil, key+" x")
	testkit.RequireInputError(t, err, "method")
	testkit.AssertErrNoKey(t, key, err)
	// The key in an argument that cannot be encoded.
	err = c.CallContext(ctx, nil, "eth_getBalance", evm.Tag(key))
	testkit.RequireInputError(t, err, "args[0]")
	testkit.AssertErrNoKey(t, key, err)
	// The key echoed by the server in an error object and as a result.
	err = c.CallContext(ctx, nil, "echo_error", key)
	testkit.AssertErrNoKey(t, key, err)
	var n uint64
	err = c.CallContext(ctx, &n, "echo_result", key)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	testkit.AssertErrNoKey(t, key, err)

	// The same through a batch: the refusal, the bad call's own error.
	var b evm.Batch
	good := evm.Add[json.RawMessage](&b, "eth_chainId")
	bad := evm.Add[json.RawMessage](&b, "eth_getBalance", evm.Tag(key))
	err = c.SendBatch(ctx, &b)
	testkit.RequireInputError(t, err, "args[0]")
	testkit.AssertErrNoKey(t, key, err)
	testkit.AssertErrNoKey(t, key, resultErr(bad))
	testkit.RequireInputError(t, resultErr(good), "batch")

	var b2 evm.Batch
	evm.Add[json.RawMessage](&b2, "eth_chainId")
	named := evm.Add[json.RawMessage](&b2, key)
	err = c.SendBatch(ctx, &b2)
	testkit.RequireInputError(t, err, "method")
	testkit.AssertErrNoKey(t, key, err)
	testkit.RequireInputError(t, resultErr(named), "method")
	testkit.AssertErrNoKey(t, key, resultErr(named))

	var b3 evm.Batch
	chain := evm.Add[hexutil.Big](&b3, "eth_chainId")
	echoed := evm.Add[json.RawMessage](&b3, "echo_error", key)
	undecodable := evm.Add[uint64](&b3, "echo_result", key)
	require.NoError(t, c.SendBatch(ctx, &b3))
	id, err := chain.Result()
	require.NoError(t, err)
	assert.Equal(t, "0x1", id.String())
	require.ErrorIs(t, resultErr(undecodable), nodeaccess.ErrInvalidResponse)
	for _, err := range []error{resultErr(echoed), resultErr(undecodable)} {
		testkit.AssertErrNoKey(t, key, err)
	}
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, ops)
	for _, op := range ops {
		testkit.AssertNoKey(t, key, "hook Op", op)
	}
}

// startEchoNode serves JSON-RPC at /key, single calls and batches:
// echo_error answers an error object whose message and data hold the first
// param, echo_result answers the first param as the result, eth_chainId
// 0x1, anything else -32601 naming the method.
func startEchoNode(t *testing.T, key string) string {
	t.Helper()
	type req struct {
		ID     json.RawMessage   `json:"id"`
		Method string            `json:"method"`
		Params []json.RawMessage `json:"params"`
	}
	answer := func(r req) string {
		head := `{"jsonrpc":"2.0","id":` + string(r.ID) + `,`
		first := `""`
		if len(r.Params) > 0 {
			first = string(r.Params[0])
		}
		switch r.Method {
		case "echo_error":
			var text string
			_ = json.Unmarshal([]byte(first), &text)
			msg, _ := json.Marshal("no such thing: " + text)
			return head + `"error":{"code":-32000,"message":` + string(msg) + `,"data":` + first + `}}`
		case "echo_result":
			return head + `"result":` + first + `}`
		case "eth_chainId":
			return head + `"result":"0x1"}`
		}
		msg, _ := json.Marshal("the method " + r.Method + " does not exist/is not available")
		return head + `"error":{"code":-32601,"message":` + string(msg) + `}}`
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/"+key {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		var batch []req
		if json.Unmarshal(body, &batch) == nil {
			parts := make([]string, len(batch))
			for i, one := range batch {
				parts[i] = answer(one)
			}
			_, _ = io.WriteString(w, "["+strings.Join(parts, ",")+"]")
			return
		}
		var one req
		if err := json.Unmarshal(body, &one); err != nil {
			t.Errorf("the client sent %q: %v", body, err)
		}
		_, _ = io.WriteString(w, answer(one))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
