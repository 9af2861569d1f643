package bench_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/nodeaccess/nodeaccess/evm"
)

// The benchmarks send the same eth_call through both clients: a
// balanceOf(address) call (4-byte selector and one 32-byte word) to a fixed
// contract at "latest", answered with one 32-byte word.
var (
	callTo   = common.HexToAddress("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48")
	callData = common.FromHex("0x70a08231" +
		"000000000000000000000000d8da6bf26964af9d7eed9e03e53415d37aa96045")
	callResult = common.FromHex(
		"0x00000000000000000000000000000000000000000000000000000002540be400")
)

// benchKey is the access key; nodeaccess posts to {url}/{key}, so ethclient
// dials the same path.
const benchKey = "bench-key"

// serveEnv makes the test binary serve instead of running tests.
const serveEnv = "NODEACCESS_BENCH_SERVE"

// goroutines is the number of callers in the parallel benchmarks.
const goroutines = 64

var inproc = flag.Bool("inproc", false, "serve from inside the test process (the server's allocations then count too)")

// serverURL is the base URL of the JSON-RPC server.
var serverURL string

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		serveChild()
		return
	}
	if u := os.Getenv(beaconClientEnv); u != "" {
		beaconClientChild(u)
		return
	}
	flag.Parse()
	var stop func()
	if *inproc {
		srv := httptest.NewServer(rpcHandler())
		serverURL, stop = srv.URL, srv.Close
	} else {
		var err error
		serverURL, stop, err = startChild()
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench: starting the server process:", err)
			os.Exit(1)
		}
	}
	code := m.Run()
	stop()
	os.Exit(code)
}

// startChild runs this test binary again as the server and returns its URL
// and a function that stops it. The child exits when its stdin closes, so it
// also goes away when this process dies.
func startChild() (string, func(), error) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), serveEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case u := <-line:
		if !strings.HasPrefix(u, "http://") {
			stop()
			return "", nil, fmt.Errorf("server printed %q, want its URL", u)
		}
		return u, stop, nil
	case <-time.After(10 * time.Second):
		stop()
		return "", nil, errors.New("server did not print its URL within 10s")
	}
}

// serveChild is the server process: it listens on a loopback port, prints
// its URL on stdout and serves until stdin closes.
func serveChild() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench server:", err)
		os.Exit(1)
	}
	srv := &http.Server{Handler: rpcHandler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	fmt.Printf("http://%s\n", ln.Addr())
	if err := srv.Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, "bench server:", err)
		os.Exit(1)
	}
}

// rpcHandler answers the benchmark's eth_call at /{benchKey} with the 32-byte
// result and the request's id echoed verbatim. Any other request gets a
// JSON-RPC error, so that a client sending something else cannot pass.
func rpcHandler() http.Handler {
	okTail := []byte(`,"result":"0x` + hex.EncodeToString(callResult) + `"}`)
	batch := batchHandler() // /{benchKey}/batch…: batch_test.go
	mc := mcHandler()       // /{benchKey}/mc…: multicall_test.go
	sim := simHandler()     // /{benchKey}/sim…: simulate_test.go
	logs := logsHandler()   // /{benchKey}/logs…: evmfollow_test.go
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/"+benchKey+"/logs") {
			logs.ServeHTTP(w, r)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/"+benchKey+"/sim") {
			sim.ServeHTTP(w, r)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/"+benchKey+"/batch") {
			batch.ServeHTTP(w, r)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/"+benchKey+"/mc") {
			mc.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodPost || r.URL.Path != "/"+benchKey {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		req, ok := readRPC(w, r)
		if !ok {
			return
		}
		body := append([]byte(`{"jsonrpc":"2.0","id":`), req.ID...)
		if why := checkCall(req.Method, req.Params); why != "" {
			msg, _ := json.Marshal(why)
			body = append(body, `,"error":{"code":-32602,"message":`...)
			body = append(body, msg...)
			body = append(body, "}}"...)
		} else {
			body = append(body, okTail...)
		}
		h := w.Header()
		h["Content-Type"] = []string{"application/json"}
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
		_, _ = w.Write(body)
	})
}

// checkCall returns why a request is not the benchmark's eth_call, or "".
// ethclient names the call data "input" and always sends "from"; nodeaccess
// names it "data" and leaves out a zero "from". Both mean the same call.
func checkCall(method string, params []json.RawMessage) string {
	if method != "eth_call" {
		return "method is " + method + ", want eth_call"
	}
	if len(params) != 2 {
		return fmt.Sprintf("%d params, want 2", len(params))
	}
	var msg struct {
		From, To, Data, Input string
	}
	if err := json.Unmarshal(params[0], &msg); err != nil {
		return "call object: " + err.Error()
	}
	data := msg.Data
	if data == "" {
		data = msg.Input
	}
	switch {
	case msg.From != "" && common.HexToAddress(msg.From) != (common.Address{}):
		return "from is " + msg.From + ", want none or the zero address"
	case !strings.EqualFold(msg.To, callTo.Hex()):
		return "to is " + msg.To
	case !strings.EqualFold(data, "0x"+hex.EncodeToString(callData)):
		return "data is " + data
	case string(params[1]) != `"latest"`:
		return "block is " + string(params[1]) + `, want "latest"`
	}
	return ""
}

// client is one library's eth_call, set up once.
type client struct {
	name string
	call func(context.Context) ([]byte, error)
}

// clients returns both libraries, each with its default transport.
func clients(tb testing.TB) []client {
	tb.Helper()
	na, err := evm.New(serverURL, benchKey)
	if err != nil {
		tb.Fatal(err)
	}
	naMsg := evm.CallMsg{To: callTo, Data: callData}

	ec, err := ethclient.Dial(serverURL + "/" + benchKey)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(ec.Close)
	to := callTo
	ecMsg := ethereum.CallMsg{To: &to, Data: callData}

	return []client{
		{"nodeaccess", func(ctx context.Context) ([]byte, error) { return na.Call(ctx, naMsg, evm.Latest) }},
		{"ethclient", func(ctx context.Context) ([]byte, error) { return ec.CallContract(ctx, ecMsg, nil) }},
	}
}

func check(out []byte, err error) error {
	if err != nil {
		return err
	}
	if !bytes.Equal(out, callResult) {
		return fmt.Errorf("result %x, want %x", out, callResult)
	}
	return nil
}

// warm makes n concurrent calls, so that the benchmark starts with whatever
// connections the client's transport keeps idle.
func warm(tb testing.TB, c client, n int) {
	tb.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() { errs <- check(c.call(context.Background())) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			tb.Fatalf("%s: warm-up call: %v", c.name, err)
		}
	}
}

// TestSameResult checks the setup: both clients get the same 32 bytes from
// the server, and the server refuses a call that is not the benchmark's.
func TestSameResult(t *testing.T) {
	ctx := context.Background()
	var got [][]byte
	for _, c := range clients(t) {
		out, err := c.call(ctx)
		if err := check(out, err); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got = append(got, out)
	}
	if !bytes.Equal(got[0], got[1]) {
		t.Fatalf("nodeaccess got %x, ethclient got %x", got[0], got[1])
	}

	na, err := evm.New(serverURL, benchKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := na.Call(ctx, evm.CallMsg{To: callTo, Data: callData}, evm.BlockNumber(1)); err == nil {
		t.Fatal("the server answered a call at another block; it must refuse it")
	}
}

// BenchmarkEthCall is one caller making calls one after the other.
func BenchmarkEthCall(b *testing.B) {
	for _, c := range clients(b) {
		b.Run(c.name, func(b *testing.B) {
			warm(b, c, 1)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if err := check(c.call(ctx)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEthCallCancelable is BenchmarkEthCall with a cancelable context
// that has no deadline (as a server handler's or signal.NotifyContext's
// context is), the same for both libraries. nodeaccess then bounds each
// attempt with a timer context of its own (see HISTORY.md §1).
func BenchmarkEthCallCancelable(b *testing.B) {
	for _, c := range clients(b) {
		b.Run(c.name, func(b *testing.B) {
			warm(b, c, 1)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			b.ReportAllocs()
			for b.Loop() {
				if err := check(c.call(ctx)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEthCallContextPerCall is BenchmarkEthCall with a new context for
// every call, ended when the call returned, as a server handler's request
// context is: a context.WithCancel of a long-lived one (the context's own
// allocations count for both libraries alike).
func BenchmarkEthCallContextPerCall(b *testing.B) {
	for _, c := range clients(b) {
		b.Run(c.name, func(b *testing.B) {
			warm(b, c, 1)
			base, stop := context.WithCancel(context.Background())
			defer stop()
			b.ReportAllocs()
			for b.Loop() {
				ctx, cancel := context.WithCancel(base)
				err := check(c.call(ctx))
				cancel()
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEthCallParallel is 64 goroutines sharing one client; calls/s is
// the throughput of all of them together.
func BenchmarkEthCallParallel(b *testing.B) {
	procs := runtime.GOMAXPROCS(0)
	p := (goroutines + procs - 1) / procs
	for _, c := range clients(b) {
		b.Run(c.name, func(b *testing.B) {
			warm(b, c, p*procs)
			b.SetParallelism(p)
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				for pb.Next() {
					if err := check(c.call(ctx)); err != nil {
						b.Error(err)
						return
					}
				}
			})
			elapsed := time.Since(start)
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
		})
	}
}

// rpcRequest is one JSON-RPC call as the benchmarks' servers read it.
type rpcRequest struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      json.RawMessage   `json:"id"`
	Method  string            `json:"method"`
	Params  []json.RawMessage `json:"params"`
}

// readRPC reads r's body as one JSON-RPC 2.0 call with an id, or answers
// 400 and returns false.
func readRPC(w http.ResponseWriter, r *http.Request) (rpcRequest, bool) {
	var req rpcRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.JSONRPC != "2.0" || len(req.ID) == 0 {
		http.Error(w, "bad JSON-RPC request", http.StatusBadRequest)
		return req, false
	}
	return req, true
}
