package bench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
)

// Following EVM logs (issue 33): evm.Client.Follow against a server (the
// benchmark's server process, path /{benchKey}/logs…) whose chain holds
// followLogsPerBlock Transfer logs of one token in every block, and which
// refuses an eth_getLogs answer of more than followCap logs as Infura
// does (-32005 "query returned more than 10000 results. Try with this
// block range [0x…, 0x…].").
//
//   - catch-up: blocks 1 to 10,000 (1,000,000 logs) read by Follow, and by
//     go-ethereum's ethclient.FilterLogs over fixed windows of 100 blocks
//     (10,000 logs, the most the cap lets through: what a user who knows
//     the cap writes by hand), each yielding or collecting every log;
//   - head: a chain whose head moves one block every followBlockTime,
//     followed from "now" with Poll at the block time: requests and
//     request units per block.
const (
	followHead         = 10_000
	followLogsPerBlock = 100
	followCap          = 10_000
	followBlockTime    = 100 * time.Millisecond
	followWindow       = 100 // ethclient's fixed window, in blocks
)

var (
	followToken    = common.HexToAddress("0x00000000000000000000000000000000000E020a")
	followTransfer = common.HexToHash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")
)

// followHash is block n's hash: 0xb1, then n, never zero.
func followHash(n uint64) string {
	return fmt.Sprintf("0xb1%062x", n)
}

// logsHandler serves the chain: /{benchKey}/logs has head followHead;
// /{benchKey}/logs/live's head moves one block every followBlockTime from
// its first request.
func logsHandler() http.Handler {
	var once sync.Once
	var start time.Time
	head := func(r *http.Request) uint64 {
		if !strings.HasSuffix(r.URL.Path, "/live") {
			return followHead
		}
		once.Do(func() { start = time.Now() })
		return followHead + uint64(time.Since(start)/followBlockTime)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var reqs []rpcRequest
		var one rpcRequest
		dec := json.NewDecoder(r.Body)
		raw := json.RawMessage{}
		if err := dec.Decode(&raw); err != nil || len(raw) == 0 {
			http.Error(w, "bad JSON-RPC request", http.StatusBadRequest)
			return
		}
		batch := raw[0] == '['
		if batch {
			if json.Unmarshal(raw, &reqs) != nil {
				http.Error(w, "bad batch", http.StatusBadRequest)
				return
			}
		} else {
			if json.Unmarshal(raw, &one) != nil {
				http.Error(w, "bad call", http.StatusBadRequest)
				return
			}
			reqs = []rpcRequest{one}
		}
		h := head(r)
		body := make([]byte, 0, 1<<20)
		if batch {
			body = append(body, '[')
		}
		for i, req := range reqs {
			if i > 0 {
				body = append(body, ',')
			}
			body = append(body, `{"jsonrpc":"2.0","id":`...)
			body = append(body, req.ID...)
			body = answerLogsCall(body, h, req)
			body = append(body, '}')
		}
		if batch {
			body = append(body, ']')
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	})
}

// answerLogsCall appends the result or error member of one call.
func answerLogsCall(b []byte, head uint64, req rpcRequest) []byte {
	fail := func(code int, msg string) []byte {
		m, _ := json.Marshal(msg)
		return append(append(append(b, `,"error":{"code":`+strconv.Itoa(code)+`,"message":`...), m...), '}')
	}
	switch req.Method {
	case "eth_blockNumber":
		return append(b, `,"result":"`+hexutil.EncodeUint64(head)+`"`...)
	case "eth_getBlockByNumber":
		var n string
		if len(req.Params) != 2 || json.Unmarshal(req.Params[0], &n) != nil {
			return fail(-32602, "bad params")
		}
		num := head
		if n != "latest" {
			v, err := hexutil.DecodeUint64(n)
			if err != nil {
				return fail(-32602, "bad block number")
			}
			num = v
		}
		if num > head {
			return append(b, `,"result":null`...)
		}
		return append(b, `,"result":{"number":"`+hexutil.EncodeUint64(num)+`","hash":"`+followHash(num)+`","parentHash":"`+followHash(num-1)+`"}`...)
	case "eth_getLogs":
		var q struct{ FromBlock, ToBlock string }
		if len(req.Params) != 1 || json.Unmarshal(req.Params[0], &q) != nil {
			return fail(-32602, "bad filter")
		}
		from, err1 := hexutil.DecodeUint64(q.FromBlock)
		to, err2 := hexutil.DecodeUint64(q.ToBlock)
		if err1 != nil || err2 != nil || from > to || from == 0 {
			return fail(-32602, "bad range")
		}
		if to > head {
			return fail(-32602, "block range extends beyond current head block")
		}
		if (to-from+1)*followLogsPerBlock > followCap {
			fit := from + followCap/followLogsPerBlock - 1
			return fail(-32005, fmt.Sprintf("query returned more than %d results. Try with this block range [%s, %s].", followCap, hexutil.EncodeUint64(from), hexutil.EncodeUint64(fit)))
		}
		b = append(b, `,"result":[`...)
		for n := from; n <= to; n++ {
			for i := uint64(0); i < followLogsPerBlock; i++ {
				if n > from || i > 0 {
					b = append(b, ',')
				}
				b = appendFollowLog(b, n, i)
			}
		}
		return append(b, ']')
	}
	return fail(-32601, "the method "+req.Method+" does not exist/is not available")
}

// appendFollowLog appends log i of block n: a Transfer of the token.
func appendFollowLog(b []byte, n, i uint64) []byte {
	b = append(b, `{"address":"`...)
	b = append(b, strings.ToLower(followToken.Hex())...)
	b = append(b, `","topics":["`...)
	b = append(b, followTransfer.Hex()...)
	b = fmt.Appendf(b, `","0x%064x","0x%064x"],"data":"0x%064x","blockNumber":"0x%x","transactionHash":"0xc0%062x","transactionIndex":"0x%x","blockHash":"%s","logIndex":"0x%x","removed":false}`,
		n, i, n*1000+i, n, n<<16|i, i, followHash(n), i)
	return b
}

// followCounter counts a client's HTTP requests and request units.
type followCounter struct{ requests, units atomic.Int64 }

func (f *followCounter) hook(_ context.Context, a nodeaccess.Attempt) {
	f.requests.Add(1)
	f.units.Add(int64(a.Units))
}

// countingTransport counts the HTTP requests ethclient sends.
type countingTransport struct{ n atomic.Int64 }

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

// TestFollowLogsBench checks the benchmark's server and both contenders on
// a short range: the same logs, in the same order.
func TestFollowLogsBench(t *testing.T) {
	na := followNA(t, "/logs", nil)
	var got []types.Log
	for l, err := range na.Follow(context.Background(), evm.FollowQuery{From: evm.FollowCursor{Number: followHead - 150}, Addresses: []common.Address{followToken}}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, l.Log)
		if len(got) == 150*followLogsPerBlock {
			break
		}
	}
	ec, _ := followEC(t, "/logs")
	want, err := ec.FilterLogs(context.Background(), ethereum.FilterQuery{FromBlock: big.NewInt(followHead - 150), ToBlock: big.NewInt(followHead - 100), Addresses: []common.Address{followToken}})
	if err != nil {
		t.Fatal(err)
	}
	more, err := ec.FilterLogs(context.Background(), ethereum.FilterQuery{FromBlock: big.NewInt(followHead - 99), ToBlock: big.NewInt(followHead - 1), Addresses: []common.Address{followToken}})
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, more...)
	if len(got) != len(want) {
		t.Fatalf("Follow yielded %d logs, FilterLogs %d", len(got), len(want))
	}
	for i := range got {
		if got[i].BlockNumber != want[i].BlockNumber || got[i].Index != want[i].Index || got[i].BlockHash != want[i].BlockHash || got[i].TxHash != want[i].TxHash {
			t.Fatalf("log %d: Follow %+v, FilterLogs %+v", i, got[i], want[i])
		}
	}
}

func followNA(tb testing.TB, path string, c *followCounter) *evm.Client {
	tb.Helper()
	opts := []nodeaccess.Option{}
	if c != nil {
		opts = append(opts, nodeaccess.WithHook(c.hook))
	}
	na, err := evm.New(serverURL, benchKey, append(opts, evm.WithPathSuffix(strings.TrimPrefix(path, "/")))...)
	if err != nil {
		tb.Fatal(err)
	}
	return na
}

func followEC(tb testing.TB, path string) (*ethclient.Client, *countingTransport) {
	tb.Helper()
	ct := &countingTransport{}
	rc, err := rpc.DialOptions(context.Background(), serverURL+"/"+benchKey+path, rpc.WithHTTPClient(&http.Client{Transport: ct}))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(rc.Close)
	return ethclient.NewClient(rc), ct
}

// BenchmarkEVMFollowCatchUp reads blocks 1 to 10,000 (1,000,000 logs) with
// Follow, and with FilterLogs over fixed 100-block windows.
func BenchmarkEVMFollowCatchUp(b *testing.B) {
	total := followHead * followLogsPerBlock
	b.Run("nodeaccess", func(b *testing.B) {
		b.ReportAllocs()
		var c followCounter
		na := followNA(b, "/logs", &c)
		for b.Loop() {
			n := 0
			for _, err := range na.Follow(context.Background(), evm.FollowQuery{From: evm.FollowCursor{Number: 1}, Addresses: []common.Address{followToken}}) {
				if err != nil {
					b.Fatal(err)
				}
				if n++; n == total {
					break
				}
			}
		}
		b.ReportMetric(float64(c.requests.Load())/float64(b.N), "requests/op")
		b.ReportMetric(float64(c.units.Load())/float64(b.N), "units/op")
	})
	b.Run("ethclient", func(b *testing.B) {
		b.ReportAllocs()
		ec, ct := followEC(b, "/logs")
		for b.Loop() {
			n := 0
			for from := uint64(1); from <= followHead; from += followWindow {
				logs, err := ec.FilterLogs(context.Background(), ethereum.FilterQuery{FromBlock: new(big.Int).SetUint64(from),
					ToBlock: new(big.Int).SetUint64(min(from+followWindow-1, followHead)), Addresses: []common.Address{followToken}})
				if err != nil {
					b.Fatal(err)
				}
				n += len(logs)
			}
			if n != total {
				b.Fatalf("%d logs, want %d", n, total)
			}
		}
		b.ReportMetric(float64(ct.n.Load())/float64(b.N), "requests/op")
	})
}

// BenchmarkEVMFollowHead follows a head that moves one block every 100 ms
// for 3 s, with Poll at the block time: requests and units per block.
func BenchmarkEVMFollowHead(b *testing.B) {
	for b.Loop() {
		var c followCounter
		na := followNA(b, "/logs/live", &c)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		first, last := uint64(0), uint64(0)
		for l, err := range na.Follow(ctx, evm.FollowQuery{Addresses: []common.Address{followToken}, Poll: followBlockTime}) {
			if err != nil {
				break // the deadline
			}
			if first == 0 {
				first = l.BlockNumber
			}
			last = l.BlockNumber
		}
		cancel()
		blocks := float64(last - first + 1)
		b.ReportMetric(float64(c.requests.Load())/blocks, "requests/block")
		b.ReportMetric(float64(c.units.Load())/blocks, "units/block")
	}
}
