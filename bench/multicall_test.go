package bench_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
)

// The Multicall benchmarks make the same 1,000 eth_calls as the batch
// benchmarks (the balanceOf of evmcall_test.go, 1,000 times) through
// Multicall3's aggregate3: in one aggregate of 1,000 calls, in 10 of 100,
// and, for comparison, one by one. The peer is what a go-ethereum user
// writes without this SDK: accounts/abi packs aggregate3, ethclient's
// CallContract sends it, accounts/abi unpacks the answer.
//
// The server is the other eth_call benchmarks' server process (allocations
// count only the client; see evmcall_test.go's TestMain), whose rpcHandler
// passes /{benchKey}/mc… to mcHandler. It answers at /{benchKey}/mc, and at
// /{benchKey}/mc/rtt after batchRTT per HTTP request (the round trip to a
// remote provider, as for the batch benchmarks). It decodes every
// aggregate3 with go-ethereum's abi and refuses it unless every call is the
// benchmark's balanceOf at "latest".
const mcCalls = 1000

// mcABI is Multicall3's aggregate3.
var mcABI = func() abi.ABI {
	a, err := abi.JSON(strings.NewReader(`[{"type":"function","name":"aggregate3","stateMutability":"payable",
	"inputs":[{"name":"calls","type":"tuple[]","components":[{"name":"target","type":"address"},{"name":"allowFailure","type":"bool"},{"name":"callData","type":"bytes"}]}],
	"outputs":[{"name":"returnData","type":"tuple[]","components":[{"name":"success","type":"bool"},{"name":"returnData","type":"bytes"}]}]}]`))
	if err != nil {
		panic(err)
	}
	return a
}()

type mcCall3 struct {
	Target       common.Address
	AllowFailure bool
	CallData     []byte
}

type mcResult struct {
	Success    bool
	ReturnData []byte
}

// mcHandler answers the benchmark's balanceOf alone, and aggregate3 calls
// of it to Multicall3, each result the 32-byte word; anything else gets a
// JSON-RPC error.
func mcHandler() http.Handler {
	var mu sync.Mutex
	answers := map[int][]byte{} // the aggregate3 output hex, by count
	answer := func(n int) []byte {
		mu.Lock()
		defer mu.Unlock()
		if a, ok := answers[n]; ok {
			return a
		}
		res := make([]mcResult, n)
		for i := range res {
			res[i] = mcResult{true, callResult}
		}
		out, err := mcABI.Methods["aggregate3"].Outputs.Pack(res)
		if err != nil {
			panic(err)
		}
		answers[n] = []byte(`,"result":"0x` + hex.EncodeToString(out) + `"}`)
		return answers[n]
	}
	single := []byte(`,"result":"0x` + hex.EncodeToString(callResult) + `"}`)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/"+benchKey+"/mc") {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/rtt") {
			time.Sleep(batchRTT)
		}
		req, ok := readRPC(w, r)
		if !ok {
			return
		}
		body := append([]byte(`{"jsonrpc":"2.0","id":`), req.ID...)
		n, why := checkAggregate(req.Method, req.Params)
		switch {
		case why == "" && n < 0:
			body = append(body, single...)
		case why == "":
			body = append(body, answer(n)...)
		default:
			msg, _ := json.Marshal(why)
			body = append(body, `,"error":{"code":-32602,"message":`...)
			body = append(body, msg...)
			body = append(body, "}}"...)
		}
		h := w.Header()
		h["Content-Type"] = []string{"application/json"}
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
		_, _ = w.Write(body)
	})
}

// checkAggregate returns the number of calls of an aggregate3 eth_call
// whose every call is the benchmark's, -1 for the benchmark's call itself,
// or why the request is neither.
func checkAggregate(method string, params []json.RawMessage) (int, string) {
	if checkCall(method, params) == "" {
		return -1, ""
	}
	if method != "eth_call" || len(params) != 2 || string(params[1]) != `"latest"` {
		return 0, "not an eth_call at latest"
	}
	var msg struct{ To, Data, Input string }
	if err := json.Unmarshal(params[0], &msg); err != nil {
		return 0, "call object: " + err.Error()
	}
	data := msg.Data
	if data == "" {
		data = msg.Input
	}
	if !strings.EqualFold(msg.To, evm.Multicall3Address().Hex()) {
		return 0, "to is " + msg.To
	}
	in, err := hex.DecodeString(strings.TrimPrefix(data, "0x"))
	if err != nil || len(in) < 4 {
		return 0, "data is not hex call data"
	}
	m, err := mcABI.MethodById(in[:4])
	if err != nil || m.Name != "aggregate3" {
		return 0, "not aggregate3"
	}
	args, err := m.Inputs.Unpack(in[4:])
	if err != nil {
		return 0, "aggregate3 arguments: " + err.Error()
	}
	var calls []mcCall3
	if err := m.Inputs.Copy(&calls, args); err != nil {
		return 0, "aggregate3 arguments: " + err.Error()
	}
	for i, c := range calls {
		if c.Target != callTo || !bytes.Equal(c.CallData, callData) {
			return 0, fmt.Sprintf("call %d is not the benchmark's", i)
		}
	}
	return len(calls), ""
}

// mcWays returns the ways against path ("mc" or "mc/rtt"). units, when not
// nil, receives the request units nodeaccess's hook reports.
func mcWays(tb testing.TB, path string, units *unitCount) []way {
	tb.Helper()
	na := wayClient(tb, path, units)
	calls := make([]evm.Call3, mcCalls)
	for i := range calls {
		calls[i] = evm.Call3{Target: callTo, Data: callData}
	}
	checkAll := func(res []evm.Call3Result, err error) error {
		if err != nil {
			return err
		}
		if len(res) != mcCalls {
			return fmt.Errorf("%d results, want %d", len(res), mcCalls)
		}
		for _, r := range res {
			if !r.Success {
				return fmt.Errorf("a call failed: %v", r.Revert)
			}
			if err := check(r.ReturnData, nil); err != nil {
				return err
			}
		}
		return nil
	}

	ec, err := ethclient.Dial(serverURL + "/" + benchKey + "/" + path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(ec.Close)
	gethCalls := make([]mcCall3, mcCalls)
	for i := range gethCalls {
		gethCalls[i] = mcCall3{Target: callTo, CallData: callData}
	}
	mc := evm.Multicall3Address()
	// ethclientAggregates packs aggregate3 with accounts/abi, sends it with
	// CallContract and unpacks the answer, per aggregate of size calls.
	ethclientAggregates := func(ctx context.Context, size int) error {
		for start := 0; start < mcCalls; start += size {
			data, err := mcABI.Pack("aggregate3", gethCalls[start:start+size])
			if err != nil {
				return err
			}
			out, err := ec.CallContract(ctx, ethereum.CallMsg{To: &mc, Data: data}, nil)
			if err != nil {
				return err
			}
			v, err := mcABI.Unpack("aggregate3", out)
			if err != nil {
				return err
			}
			var res []mcResult
			if err := mcABI.Methods["aggregate3"].Outputs.Copy(&res, v); err != nil {
				return err
			}
			if len(res) != size {
				return fmt.Errorf("%d results, want %d", len(res), size)
			}
			for _, r := range res {
				if err := check(r.ReturnData, nil); err != nil || !r.Success {
					return fmt.Errorf("result %v: %v", r.Success, err)
				}
			}
		}
		return nil
	}

	return []way{
		{"nodeaccess-multicall-1x1000", func(ctx context.Context) error {
			return checkAll(na.Multicall(ctx, calls, evm.Latest, evm.MulticallOptions{}))
		}},
		{"nodeaccess-multicall-10x100", func(ctx context.Context) error {
			return checkAll(na.Multicall(ctx, calls, evm.Latest, evm.MulticallOptions{MaxCalls: 100}))
		}},
		{"nodeaccess-one-by-one", func(ctx context.Context) error {
			msg := evm.CallMsg{To: callTo, Data: callData}
			for range mcCalls {
				if err := check(na.Call(ctx, msg, evm.Latest)); err != nil {
					return err
				}
			}
			return nil
		}},
		{"ethclient-abi-1x1000", func(ctx context.Context) error { return ethclientAggregates(ctx, mcCalls) }},
		{"ethclient-abi-10x100", func(ctx context.Context) error { return ethclientAggregates(ctx, 100) }},
	}
}

// TestMulticallWays checks the setup: each way gets the 1,000 expected
// results, and nodeaccess charges 1 request unit per aggregate (eth_call
// at latest costs 1): 1 for one aggregate, 10 for ten, 1,000 one by one.
// The server refuses an aggregate with a call that is not the benchmark's.
func TestMulticallWays(t *testing.T) {
	ctx := context.Background()
	want := map[string]int{"nodeaccess-multicall-1x1000": 1, "nodeaccess-multicall-10x100": 10, "nodeaccess-one-by-one": mcCalls}
	for _, path := range []string{"mc", "mc/rtt"} {
		units := new(unitCount)
		for _, w := range mcWays(t, path, units) {
			*units = unitCount{}
			if err := w.run(ctx); err != nil {
				t.Fatalf("%s %s: %v", path, w.name, err)
			}
			if n, ok := want[w.name]; ok && (units.units != n || units.requests != n) {
				t.Errorf("%s %s: %d units in %d requests, want %d in %d", path, w.name, units.units, units.requests, n, n)
			}
		}
	}
	na, err := evm.New(serverURL, benchKey, evm.WithPathSuffix("mc"), nodeaccess.WithMaxAttempts(1))
	if err != nil {
		t.Fatal(err)
	}
	_, err = na.Multicall(ctx, []evm.Call3{{Target: callTo, Data: callData}, {Target: callTo, Data: callData[:4]}}, evm.Latest, evm.MulticallOptions{})
	if err == nil || !strings.Contains(err.Error(), "call 1 is not the benchmark's") {
		t.Fatalf("an aggregate with another call: %v, want the server's refusal", err)
	}
}

// BenchmarkMulticall1000 makes 1,000 eth_calls per iteration through
// Multicall3 (one aggregate of 1,000, ten of 100), one by one, and with
// accounts/abi and ethclient; "local" on loopback, "rtt5ms" with 5 ms per
// HTTP request. calls/s is the throughput; allocs/op and B/op are per
// 1,000 calls.
func BenchmarkMulticall1000(b *testing.B) {
	for _, net := range []struct{ name, path string }{{"local", "mc"}, {"rtt5ms", "mc/rtt"}} {
		for _, w := range mcWays(b, net.path, nil) {
			b.Run(net.name+"/"+w.name, func(b *testing.B) {
				ctx := context.Background()
				if err := w.run(ctx); err != nil { // warm: connections and pools
					b.Fatal(err)
				}
				b.ReportAllocs()
				start := time.Now()
				for b.Loop() {
					if err := w.run(ctx); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N*mcCalls)/time.Since(start).Seconds(), "calls/s")
			})
		}
	}
}
