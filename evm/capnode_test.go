package evm_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
)

// multicall3ABI is aggregate3 as Multicall3's ABI declares it, for
// go-ethereum's accounts/abi.
var multicall3ABI = func() abi.ABI {
	a, err := abi.JSON(strings.NewReader(`[{"type":"function","name":"aggregate3","stateMutability":"payable",
	"inputs":[{"name":"calls","type":"tuple[]","components":[{"name":"target","type":"address"},{"name":"allowFailure","type":"bool"},{"name":"callData","type":"bytes"}]}],
	"outputs":[{"name":"returnData","type":"tuple[]","components":[{"name":"success","type":"bool"},{"name":"returnData","type":"bytes"}]}]}]`))
	if err != nil {
		panic(err)
	}
	return a
}()

// abiCall3 is Multicall3's Call3 for go-ethereum's abi.
type abiCall3 struct {
	Target       common.Address
	AllowFailure bool
	CallData     []byte
}

// unpackAggregate3 decodes aggregate3's call data with go-ethereum's abi;
// ok is false for other call data.
func unpackAggregate3(data []byte) (calls []abiCall3, ok bool) {
	m := multicall3ABI.Methods["aggregate3"]
	if len(data) < 4 || !bytes.Equal(data[:4], m.ID) {
		return nil, false
	}
	v, err := m.Inputs.Unpack(data[4:])
	if err != nil || m.Inputs.Copy(&calls, v) != nil {
		return nil, false
	}
	return calls, true
}

// capNode is a node in front of the shared local node (go-ethereum's EVM
// and JSON-RPC server) that caps its answers at max bytes, as jsonrpsee
// servers do (HyperEVM's cap is 1 MiB): the answer to a call over the cap
// is HyperEVM's -32008 (tooBigFile) with the call's id, within a batch too,
// and a batch whose answer is still over the cap gets jsonrpsee's -32011
// with no id. With whole set, a batch's answer over the cap is that -32008
// alone with the first call's id instead (a server that caps a batch's
// answer as one, as HyperEVM was reported to). With lax set, every aggregate3 runs with every failure
// allowed, as a contract or proxy at Multicall3's address that never
// reverts would answer. It records how many calls each request carried: a
// batch's, or for an aggregate3 eth_call the aggregate's.
type capNode struct {
	t        *testing.T
	upstream string
	max      int
	whole    bool
	lax      bool

	tooBig  string // tooBigFile
	refusal string // jsonrpsee's -32011

	mu    sync.Mutex
	calls []int
}

// rpcCall is one JSON-RPC request as capNode reads it.
type rpcCall struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      json.RawMessage   `json:"id"`
	Method  string            `json:"method"`
	Params  []json.RawMessage `json:"params"`
}

// newCapNode starts a capNode and returns it with a client of it.
func newCapNode(t *testing.T, max int, whole, lax bool, opts ...nodeaccess.Option) (*capNode, *evm.Client) {
	t.Helper()
	tooBig, err := os.ReadFile(tooBigFile)
	require.NoError(t, err)
	refusal, err := os.ReadFile("testdata/batch/jsonrpsee_batch_response_too_large.json")
	require.NoError(t, err)
	n := &capNode{t: t, upstream: simNode(t).srv.Endpoint(), max: max, whole: whole, lax: lax,
		tooBig: string(tooBig), refusal: string(refusal)}
	srv := httptest.NewServer(n)
	t.Cleanup(srv.Close)
	c, err := evm.New(srv.URL, testKey, opts...)
	require.NoError(t, err)
	return n, c
}

// must ends the request when err is not nil, failing the test: the
// client sees the connection close.
func (n *capNode) must(err error) {
	if err != nil {
		n.t.Errorf("capNode: %v", err)
		panic(http.ErrAbortHandler)
	}
}

// requests returns the number of calls of each request so far.
func (n *capNode) requests() []int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]int(nil), n.calls...)
}

func (n *capNode) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/"+testKey {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(r.Body)
	n.must(err)
	batch := bytes.HasPrefix(bytes.TrimSpace(body), []byte("["))
	var reqs []rpcCall
	if batch {
		n.must(json.Unmarshal(body, &reqs))
	} else {
		reqs = make([]rpcCall, 1)
		n.must(json.Unmarshal(body, &reqs[0]))
	}
	count := len(reqs)
	for i := range reqs {
		if c := n.aggregate(&reqs[i]); !batch && c >= 0 {
			count = c
		}
	}
	n.mu.Lock()
	n.calls = append(n.calls, count)
	n.mu.Unlock()
	var out []byte
	if batch {
		out, err = json.Marshal(reqs)
	} else {
		out, err = json.Marshal(reqs[0])
	}
	n.must(err)
	resp, err := http.Post(n.upstream, "application/json", bytes.NewReader(out))
	n.must(err)
	answer, err := io.ReadAll(resp.Body)
	n.must(err)
	n.must(resp.Body.Close())
	answer = bytes.TrimSpace(answer)
	if batch {
		answer = n.capBatch(answer, reqs[0].ID)
	} else if len(answer) > n.max {
		answer = []byte(withID(n.tooBig, reqs[0].ID))
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(answer)
}

// aggregate returns the number of calls of req's aggregate3, -1 when req
// is not an aggregate3 eth_call; with lax set, it allows every failure in
// req.
func (n *capNode) aggregate(req *rpcCall) int {
	if req.Method != "eth_call" || len(req.Params) == 0 {
		return -1
	}
	var msg map[string]json.RawMessage
	n.must(json.Unmarshal(req.Params[0], &msg))
	var data hexutil.Bytes
	if msg["data"] == nil || json.Unmarshal(msg["data"], &data) != nil {
		return -1
	}
	calls, ok := unpackAggregate3(data)
	if !ok {
		return -1
	}
	if n.lax {
		for i := range calls {
			calls[i].AllowFailure = true
		}
		packed, err := multicall3ABI.Pack("aggregate3", calls)
		n.must(err)
		msg["data"], err = json.Marshal(hexutil.Bytes(packed))
		n.must(err)
		req.Params[0], err = json.Marshal(msg)
		n.must(err)
	}
	return len(calls)
}

// capBatch caps a batch's answer: with whole set, an answer over the cap
// is the -32008 alone with the first call's id; otherwise each member over
// the cap becomes the -32008 with its id, and an answer still over the cap
// jsonrpsee's refusal of the batch.
func (n *capNode) capBatch(answer []byte, firstID json.RawMessage) []byte {
	if n.whole && len(answer) > n.max {
		return []byte(withID(n.tooBig, firstID))
	}
	var members []json.RawMessage
	n.must(json.Unmarshal(answer, &members))
	for i, m := range members {
		if len(m) > n.max {
			var a struct {
				ID json.RawMessage `json:"id"`
			}
			n.must(json.Unmarshal(m, &a))
			members[i] = json.RawMessage(withID(n.tooBig, a.ID))
		}
	}
	out, err := json.Marshal(members)
	n.must(err)
	if len(out) <= n.max {
		return out
	}
	return []byte(n.refusal)
}
