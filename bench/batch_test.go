package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
)

// The batch benchmarks make 1,000 eth_calls (the benchmark's balanceOf, see
// evmcall_test.go) per iteration, three ways. The same server answers them
// at /{benchKey}/batch, and at /{benchKey}/batch/rtt after a fixed delay
// per HTTP request, which stands for the round trip to a remote provider.
const (
	batchCalls = 1000
	batchSize  = 100
	batchRTT   = 5 * time.Millisecond
)

// batchHandler answers the benchmark's eth_call, alone or in a JSON-RPC
// batch (answers in the order of the calls, as geth does), and any other
// call with an error, like rpcHandler.
func batchHandler() http.Handler {
	type req = rpcRequest
	okTail := `,"result":"0x` + fmt.Sprintf("%x", callResult) + `"}`
	answer := func(buf *bytes.Buffer, q *req) {
		buf.WriteString(`{"jsonrpc":"2.0","id":`)
		buf.Write(q.ID)
		if why := checkCall(q.Method, q.Params); why != "" || q.JSONRPC != "2.0" {
			msg, _ := json.Marshal(why + " (jsonrpc " + q.JSONRPC + ")")
			buf.WriteString(`,"error":{"code":-32602,"message":`)
			buf.Write(msg)
			buf.WriteString("}}")
			return
		}
		buf.WriteString(okTail)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/rtt") {
			time.Sleep(batchRTT)
		}
		body, err := io.ReadAll(r.Body)
		if err != nil || r.Method != http.MethodPost {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		var out bytes.Buffer
		if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '[' {
			var qs []req
			if err := json.Unmarshal(body, &qs); err != nil || len(qs) == 0 {
				http.Error(w, "bad batch", http.StatusBadRequest)
				return
			}
			out.WriteByte('[')
			for i := range qs {
				if i > 0 {
					out.WriteByte(',')
				}
				answer(&out, &qs[i])
			}
			out.WriteByte(']')
		} else {
			var q req
			if err := json.Unmarshal(body, &q); err != nil {
				http.Error(w, "bad request", http.StatusBadRequest)
				return
			}
			answer(&out, &q)
		}
		h := w.Header()
		h["Content-Type"] = []string{"application/json"}
		h["Content-Length"] = []string{strconv.Itoa(out.Len())}
		_, _ = w.Write(out.Bytes())
	})
}

// way is one way to make the 1,000 calls of the batch and Multicall
// benchmarks; run checks every result.
type way struct {
	name string
	run  func(ctx context.Context) error
}

// wayClient returns nodeaccess's client for the ways against path, with its
// default transport. units, when not nil, receives the request units its
// hook reports.
func wayClient(tb testing.TB, path string, units *unitCount) *evm.Client {
	tb.Helper()
	opts := []evm.Option{evm.WithPathSuffix(path)}
	if units != nil {
		opts = append(opts, nodeaccess.WithHook(units.add))
	}
	na, err := evm.New(serverURL, benchKey, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	return na
}

// batchWays returns the three ways against path ("batch" or "batch/rtt"),
// each library with its default transport. units, when not nil, receives
// the request units nodeaccess's hook reports.
func batchWays(tb testing.TB, path string, units *unitCount) []way {
	tb.Helper()
	na := wayClient(tb, path, units)
	msg := evm.CallMsg{To: callTo, Data: callData}

	ec, err := ethclient.Dial(serverURL + "/" + benchKey + "/" + path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(ec.Close)
	rc := ec.Client()
	to := callTo

	return []way{
		{"nodeaccess-batch100", func(ctx context.Context) error {
			var b evm.Batch
			res := make([]*evm.BatchResult[[]byte], batchCalls)
			for i := range res {
				res[i] = b.Call(msg, evm.Latest)
			}
			if err := na.SendBatch(ctx, &b); err != nil {
				return err
			}
			for _, r := range res {
				if err := check(r.Result()); err != nil {
					return err
				}
			}
			return nil
		}},
		{"nodeaccess-one-by-one", func(ctx context.Context) error {
			for range batchCalls {
				if err := check(na.Call(ctx, msg, evm.Latest)); err != nil {
					return err
				}
			}
			return nil
		}},
		{"ethclient-batch100", func(ctx context.Context) error {
			// The call object as ethclient's CallContract builds it
			// (toCallArg), in rpc.BatchElems of 100.
			for start := 0; start < batchCalls; start += batchSize {
				elems := make([]rpc.BatchElem, batchSize)
				for i := range elems {
					arg := map[string]any{"from": common.Address{}, "to": &to, "input": hexutil.Bytes(callData)}
					elems[i] = rpc.BatchElem{Method: "eth_call", Args: []any{arg, "latest"}, Result: new(hexutil.Bytes)}
				}
				if err := rc.BatchCallContext(ctx, elems); err != nil {
					return err
				}
				for _, e := range elems {
					if err := check(*e.Result.(*hexutil.Bytes), e.Error); err != nil {
						return err
					}
				}
			}
			return nil
		}},
	}
}

// unitCount sums the request units and HTTP attempts nodeaccess's hook
// reports.
type unitCount struct {
	mu              sync.Mutex
	units, requests int
}

func (u *unitCount) add(_ context.Context, a nodeaccess.Attempt) {
	u.mu.Lock()
	u.units += a.Units
	u.requests++
	u.mu.Unlock()
}

// TestBatchWays checks the setup: each way gets the 1,000 expected
// results, and nodeaccess charges 1,000 request units either way (eth_call
// at latest costs 1), in 10 HTTP requests as batches and 1,000 one by one.
func TestBatchWays(t *testing.T) {
	ctx := context.Background()
	for _, path := range []string{"batch", "batch/rtt"} {
		units := new(unitCount)
		for _, w := range batchWays(t, path, units) {
			*units = unitCount{}
			if err := w.run(ctx); err != nil {
				t.Fatalf("%s %s: %v", path, w.name, err)
			}
			if !strings.HasPrefix(w.name, "nodeaccess") {
				continue
			}
			want := batchCalls
			if strings.HasSuffix(w.name, "batch100") {
				want = batchCalls / batchSize
			}
			if units.units != batchCalls || units.requests != want {
				t.Errorf("%s %s: %d units in %d requests, want %d in %d", path, w.name, units.units, units.requests, batchCalls, want)
			}
		}
	}
	// The server refuses a call that is not the benchmark's, in a batch too.
	na, err := evm.New(serverURL, benchKey, evm.WithPathSuffix("batch"))
	if err != nil {
		t.Fatal(err)
	}
	var b evm.Batch
	good, bad := b.Call(evm.CallMsg{To: callTo, Data: callData}, evm.Latest), b.Call(evm.CallMsg{To: callTo, Data: callData}, evm.BlockNumber(1))
	if err := na.SendBatch(ctx, &b); err != nil {
		t.Fatal(err)
	}
	if _, badErr := bad.Result(); check(good.Result()) != nil || badErr == nil {
		t.Fatalf("good call: %v; a call at another block: %v (want an error)", check(good.Result()), badErr)
	}
}

// BenchmarkBatch1000 makes 1,000 eth_calls per iteration: as batches of
// 100, one by one, and with ethclient's BatchCallContext in batches of 100;
// "local" on loopback, "rtt5ms" with 5 ms per HTTP request. calls/s is the
// throughput; allocs/op and B/op are per 1,000 calls.
func BenchmarkBatch1000(b *testing.B) {
	for _, net := range []struct{ name, path string }{{"local", "batch"}, {"rtt5ms", "batch/rtt"}} {
		for _, w := range batchWays(b, net.path, nil) {
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
				b.ReportMetric(float64(b.N*batchCalls)/time.Since(start).Seconds(), "calls/s")
			})
		}
	}
}
