package bench_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
)

// The simulation benchmarks make 100 reads of a real contract on a real
// EVM: evmtest's token balanceOf(holder) at "latest", on go-ethereum's EVM
// (evmtest), in one eth_simulateV1 of 100 calls, in 100 eth_calls one by
// one, in one JSON-RPC batch of 100 eth_calls, and with go-ethereum's
// ethclient (SimulateV1, CallContract). The node works for each read
// either way, so the times include the EVM's; what the simulation saves is
// requests and request units: 1 for the 100 calls, against 100.
//
// The 100 calls stay far below go-ethereum's request-wide gas budget for a
// simulation (50,000,000, the eth_call gas cap, which evmtest keeps): a
// balanceOf uses about 24,000 gas, 2.4 million for the 100
// (TestSimulateWays checks the sum).
//
// evmtest runs in the server process (see evmcall_test.go's TestMain),
// behind /{benchKey}/sim, and /{benchKey}/sim/rtt adds batchRTT per HTTP
// request, as for the other benchmarks.
const simCalls = 100

var (
	simOnce sync.Once
	simSrv  *evmtest.Server
	simErr  error
)

// simHandler passes /{benchKey}/sim… to an evmtest server of its own, with
// the key benchKey, started at the first request.
func simHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		simOnce.Do(func() { simSrv, simErr = evmtest.New(evmtest.WithKey(benchKey), evmtest.WithoutScenario()) })
		if simErr != nil {
			http.Error(w, simErr.Error(), http.StatusInternalServerError)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/rtt") {
			time.Sleep(batchRTT)
		}
		target, _ := url.Parse(simSrv.URL)
		proxy := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.URL.Path = "/" + benchKey
			pr.Out.URL.RawPath = ""
		}}
		proxy.ServeHTTP(w, r)
	})
}

// simBalanceOf is evmtest's token's balanceOf(Holder()).
var simBalanceOf = append(common.FromHex("0x70a08231"), common.LeftPadBytes(evmtest.Holder().Bytes(), 32)...)

// checkBalance checks one read: the holder's balance, as a word.
func checkBalance(out []byte, err error) error {
	if err != nil {
		return err
	}
	if want := common.LeftPadBytes(evmtest.HolderBalance().Bytes(), 32); !bytes.Equal(out, want) {
		return fmt.Errorf("got %x, want %x", out, want)
	}
	return nil
}

// simWays returns the ways against path ("sim" or "sim/rtt"); gas, when
// not nil, receives the gas the simulation's calls used.
func simWays(tb testing.TB, path string, units *unitCount, gas *uint64) []way {
	tb.Helper()
	na := wayClient(tb, path, units)
	msg := evm.CallMsg{To: evmtest.Token(), Data: simBalanceOf}
	sim := evm.Simulation{Blocks: []evm.SimBlock{{Calls: make([]evm.CallMsg, simCalls)}}}
	for i := range sim.Blocks[0].Calls {
		sim.Blocks[0].Calls[i] = msg
	}
	ec, err := ethclient.Dial(serverURL + "/" + benchKey + "/" + path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(ec.Close)
	token := evmtest.Token()
	gethMsg := ethereum.CallMsg{To: &token, Data: simBalanceOf}
	gethSim := ethclient.SimulateOptions{BlockStateCalls: []ethclient.SimulateBlock{{Calls: make([]ethereum.CallMsg, simCalls)}}}
	for i := range gethSim.BlockStateCalls[0].Calls {
		gethSim.BlockStateCalls[0].Calls[i] = gethMsg
	}
	latest := rpc.BlockNumberOrHashWithNumber(rpc.LatestBlockNumber)

	return []way{
		{"nodeaccess-simulate-1x100", func(ctx context.Context) error {
			blocks, err := na.SimulateV1(ctx, sim, evm.Latest)
			if err != nil {
				return err
			}
			if len(blocks) != 1 || len(blocks[0].Calls) != simCalls {
				return fmt.Errorf("%d blocks", len(blocks))
			}
			used := uint64(0)
			for _, c := range blocks[0].Calls {
				if err := checkBalance(c.ReturnData, c.Err); err != nil {
					return err
				}
				used += c.GasUsed
			}
			if gas != nil {
				*gas = used
			}
			return nil
		}},
		{"nodeaccess-eth_call-100", func(ctx context.Context) error {
			for range simCalls {
				if err := checkBalance(na.Call(ctx, msg, evm.Latest)); err != nil {
					return err
				}
			}
			return nil
		}},
		{"nodeaccess-batch-100", func(ctx context.Context) error {
			var b evm.Batch
			res := make([]*evm.BatchResult[[]byte], simCalls)
			for i := range res {
				res[i] = b.Call(msg, evm.Latest)
			}
			if err := na.SendBatch(ctx, &b); err != nil {
				return err
			}
			for _, r := range res {
				if err := checkBalance(r.Result()); err != nil {
					return err
				}
			}
			return nil
		}},
		{"ethclient-simulate-1x100", func(ctx context.Context) error {
			blocks, err := ec.SimulateV1(ctx, gethSim, &latest)
			if err != nil {
				return err
			}
			if len(blocks) != 1 || len(blocks[0].Calls) != simCalls {
				return fmt.Errorf("%d blocks", len(blocks))
			}
			for _, c := range blocks[0].Calls {
				var cerr error
				if c.Error != nil {
					cerr = fmt.Errorf("%d: %s", c.Error.Code, c.Error.Message)
				}
				if err := checkBalance(c.ReturnValue, cerr); err != nil {
					return err
				}
			}
			return nil
		}},
		{"ethclient-eth_call-100", func(ctx context.Context) error {
			for range simCalls {
				if err := checkBalance(ec.CallContract(ctx, gethMsg, nil)); err != nil {
					return err
				}
			}
			return nil
		}},
	}
}

// TestSimulateWays checks the setup: each way reads the holder's balance
// 100 times on evmtest's EVM; nodeaccess charges 1 request unit in 1
// request for the simulation, 100 in 100 for the eth_calls, 100 in 1 for
// the batch; the simulation's 100 calls use far less gas than the
// request-wide budget of 50,000,000.
func TestSimulateWays(t *testing.T) {
	ctx := context.Background()
	want := map[string][2]int{
		"nodeaccess-simulate-1x100": {1, 1},
		"nodeaccess-eth_call-100":   {simCalls, simCalls},
		"nodeaccess-batch-100":      {simCalls, 1},
	}
	for _, path := range []string{"sim", "sim/rtt"} {
		units := new(unitCount)
		var gas uint64
		for _, w := range simWays(t, path, units, &gas) {
			*units = unitCount{}
			if err := w.run(ctx); err != nil {
				t.Fatalf("%s %s: %v", path, w.name, err)
			}
			if n, ok := want[w.name]; ok && (units.units != n[0] || units.requests != n[1]) {
				t.Errorf("%s %s: %d units in %d requests, want %d in %d", path, w.name, units.units, units.requests, n[0], n[1])
			}
		}
		if gas == 0 || gas > 50_000_000/10 {
			t.Errorf("%s: the simulation used %d gas, want some and far below the budget of 50,000,000", path, gas)
		}
		t.Logf("%s: the 100 simulated calls used %d gas", path, gas)
	}
}

// BenchmarkSimulate100 reads a balance 100 times per iteration on
// evmtest's EVM: in one eth_simulateV1, in 100 eth_calls, in one batch of
// 100, with nodeaccess and with ethclient; "local" on loopback, "rtt5ms"
// with 5 ms per HTTP request. calls/s is the throughput, units/op the
// request units nodeaccess charges per iteration (1 per call, 1 per
// simulation). Allocations count the client only (evmtest runs in the
// server process).
func BenchmarkSimulate100(b *testing.B) {
	for _, net := range []struct{ name, path string }{{"local", "sim"}, {"rtt5ms", "sim/rtt"}} {
		units := new(unitCount)
		for _, w := range simWays(b, net.path, units, nil) {
			b.Run(net.name+"/"+w.name, func(b *testing.B) {
				ctx := context.Background()
				if err := w.run(ctx); err != nil { // warm: connections, pools, the server's chain
					b.Fatal(err)
				}
				*units = unitCount{}
				b.ReportAllocs()
				start := time.Now()
				for b.Loop() {
					if err := w.run(ctx); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N*simCalls)/time.Since(start).Seconds(), "calls/s")
				if strings.HasPrefix(w.name, "nodeaccess") {
					b.ReportMetric(float64(units.units)/float64(b.N), "units/op")
				}
			})
		}
	}
}
