package evmtest_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/consensus/misc/eip1559"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The spec's recordings (testdata/SOURCES.md) ran on a chain whose head
// was block 0x36 at time 0x21c, with a gas limit of 0xbebc200.
const (
	specHead     = 0x36
	specHeadTime = 0x21c
	specGasLimit = 0xbebc200
)

// TestSimulateV1MatchesSpecFixtures runs each execution-apis eth_simulateV1
// recording (made against go-ethereum) on evmtest's chain and compares the
// answers member by member. The recordings ran on another chain, so the
// request's absolute block numbers and times are moved by the distance
// between the two heads, and the answer is compared after the same move;
// what only the other chain can give (hashes, state roots, its chain id in
// transactions, its gas limit, its base fee) is compared by rule: each
// log's block hash and transaction hash are its own block's, each block's
// gas limit is the head's unless overridden, a validating block's base fee
// is the head's next one.
//
// One difference is the fork's: evmtest's dev chain runs go-ethereum's
// latest instruction set (EIP-8037/8038's repricing of state access, with
// Bogota), the spec's chain Osaka's, so a call that writes storage uses
// more gas here (ethSimulate-override-storage-slots.io, its first two
// calls). For those the gas is compared by go-ethereum's rules instead:
// each block's gas is its calls', and a transaction's gas is what the
// request-wide budget of 50,000,000 had left.
func TestSimulateV1MatchesSpecFixtures(t *testing.T) {
	files, err := os.ReadDir("testdata/simulate")
	require.NoError(t, err)
	require.Len(t, files, 13)
	for _, f := range files {
		t.Run(f.Name(), func(t *testing.T) {
			t.Parallel()
			s := fresh(t)
			head := headOf(t, s)
			dn, dt := int64(head.Number.Uint64())-specHead, int64(head.Time)-specHeadTime
			request, response := readFixture(t, "testdata/simulate/"+f.Name())
			_, _, body := post(t, s, "/"+testKey, shiftRequest(t, request, dn, dt))

			var want, got struct {
				Result []map[string]any
				Error  *struct {
					Code    int
					Message string
				}
			}
			require.NoError(t, json.Unmarshal([]byte(response), &want))
			require.NoError(t, json.Unmarshal([]byte(body), &got), body)
			if want.Error != nil {
				require.NotNil(t, got.Error, body)
				assert.Equal(t, want.Error.Code, got.Error.Code)
				wantMsg := shiftNumbers(want.Error.Message, dn)
				if strings.Contains(wantMsg, "baseFee: ") {
					// The base fee is the head's next one, on each chain.
					next := eip1559.CalcBaseFee(params.AllDevChainProtocolChanges, head)
					wantMsg = regexp.MustCompile(`baseFee: \d+`).ReplaceAllString(wantMsg, "baseFee: "+next.String())
				}
				assert.Equal(t, wantMsg, got.Error.Message)
				return
			}
			require.Nil(t, got.Error, body)
			require.Len(t, got.Result, len(want.Result))
			if f.Name() == "ethSimulate-override-storage-slots.io" {
				gasByRule(t, want.Result, got.Result)
			}
			for i := range want.Result {
				compareSimBlock(t, i, want.Result[i], got.Result[i], head, dn, dt)
			}
		})
	}
}

// compareSimBlock compares block i of the recording, w, with evmtest's, g.
func compareSimBlock(t *testing.T, i int, w, g map[string]any, head *types.Header, dn, dt int64) {
	t.Helper()
	assert.Equal(t, shiftHex(w["number"], dn), g["number"], "block %d number", i)
	assert.Equal(t, shiftHex(w["timestamp"], dt), g["timestamp"], "block %d timestamp", i)
	if w["gasLimit"] == hexutil.EncodeUint64(specGasLimit) {
		w["gasLimit"] = hexutil.EncodeUint64(head.GasLimit)
	}
	if w["parentHash"] == g["parentHash"] {
		t.Errorf("block %d: the parent hash of another chain", i)
	}
	for _, k := range []string{"gasLimit", "gasUsed", "baseFeePerGas", "miner", "difficulty", "blobGasUsed", "excessBlobGas",
		"extraData", "mixHash", "nonce", "parentBeaconBlockRoot", "requestsHash", "sha3Uncles", "uncles", "withdrawals",
		"withdrawalsRoot", "logsBloom"} {
		assert.Equal(t, w[k], g[k], "block %d %s", i, k)
	}
	if i > 0 {
		assert.NotEqual(t, w["hash"], g["hash"])
	}
	gotTxs, wantTxs := g["transactions"].([]any), w["transactions"].([]any)
	require.Len(t, gotTxs, len(wantTxs), "block %d transactions", i)
	var hashes []any
	for j := range wantTxs {
		if tx, ok := gotTxs[j].(map[string]any); ok {
			wtx := wantTxs[j].(map[string]any)
			assert.Equal(t, g["hash"], tx["blockHash"])
			assert.Equal(t, hexutil.EncodeBig(big.NewInt(1337)), tx["chainId"])
			for _, k := range []string{"blockNumber", "blockTimestamp"} {
				wtx[k] = shiftHex(wtx[k], map[string]int64{"blockNumber": dn, "blockTimestamp": dt}[k])
			}
			for _, k := range []string{"hash", "blockHash", "chainId"} {
				delete(wtx, k)
			}
			hashes = append(hashes, tx["hash"])
			for _, k := range []string{"hash", "blockHash", "chainId"} {
				delete(tx, k)
			}
			assert.Equal(t, wtx, tx, "block %d transaction %d", i, j)
			continue
		}
		hashes = append(hashes, gotTxs[j])
	}
	wantCalls, gotCalls := w["calls"].([]any), g["calls"].([]any)
	require.Len(t, gotCalls, len(wantCalls), "block %d calls", i)
	for j := range wantCalls {
		wc, gc := wantCalls[j].(map[string]any), gotCalls[j].(map[string]any)
		for k, l := range wc["logs"].([]any) {
			wl := l.(map[string]any)
			wl["blockNumber"], wl["blockTimestamp"] = shiftHex(wl["blockNumber"], dn), shiftHex(wl["blockTimestamp"], dt)
			wl["blockHash"], wl["transactionHash"] = g["hash"], hashes[j]
			_ = k
		}
		assert.Equal(t, wc, gc, "block %d call %d", i, j)
	}
}

// headOf returns the head of s's chain.
func headOf(t *testing.T, s *evmtest.Server) *types.Header {
	t.Helper()
	_, _, body := post(t, s, "/"+testKey, rpcBody("eth_getBlockByNumber", `["latest",false]`))
	var resp struct{ Result *types.Header }
	require.NoError(t, json.Unmarshal([]byte(body), &resp), body)
	require.NotNil(t, resp.Result)
	return resp.Result
}

// gasByRule checks the gas of a simulation that stores (got) by
// go-ethereum's rules, and writes got's gas into want, so that the rest
// is compared as is: a storing call uses more gas than on the spec's
// chain, the others the same; a block's gas is the sum of its calls'; a
// transaction's gas is the request-wide budget left before it.
func gasByRule(t *testing.T, want, got []map[string]any) {
	t.Helper()
	used := uint64(0)
	for i := range got {
		blockGas := uint64(0)
		wantCalls, gotCalls := want[i]["calls"].([]any), got[i]["calls"].([]any)
		txs, _ := got[i]["transactions"].([]any)
		for j := range gotCalls {
			wc, gc := wantCalls[j].(map[string]any), gotCalls[j].(map[string]any)
			w, g := hexutil.MustDecodeUint64(wc["gasUsed"].(string)), hexutil.MustDecodeUint64(gc["gasUsed"].(string))
			assert.GreaterOrEqual(t, g, w, "block %d call %d", i, j)
			if tx, ok := txs[j].(map[string]any); ok {
				assert.Equal(t, hexutil.EncodeUint64(50_000_000-used), tx["gas"], "block %d transaction %d", i, j)
				want[i]["transactions"].([]any)[j].(map[string]any)["gas"] = tx["gas"]
			}
			wc["gasUsed"], wc["maxUsedGas"] = gc["gasUsed"], gc["maxUsedGas"]
			used += g
			blockGas += g
		}
		assert.Equal(t, hexutil.EncodeUint64(blockGas), got[i]["gasUsed"], "block %d", i)
		want[i]["gasUsed"] = got[i]["gasUsed"]
	}
}

// readFixture reads a recording: its ">> " request and "<< " answer.
func readFixture(t *testing.T, path string) (request, response string) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		if l, ok := strings.CutPrefix(sc.Text(), ">> "); ok {
			request = l
		}
		if l, ok := strings.CutPrefix(sc.Text(), "<< "); ok {
			response = l
		}
	}
	require.NoError(t, sc.Err())
	return request, response
}

// shiftRequest moves the request's block numbers (overrides and a
// numbered block parameter) by dn and its times by dt.
func shiftRequest(t *testing.T, request string, dn, dt int64) string {
	t.Helper()
	var req map[string]any
	require.NoError(t, json.Unmarshal([]byte(request), &req))
	params := req["params"].([]any)
	for _, b := range params[0].(map[string]any)["blockStateCalls"].([]any) {
		o, ok := b.(map[string]any)["blockOverrides"].(map[string]any)
		if !ok {
			continue
		}
		if n, ok := o["number"]; ok {
			o["number"] = shiftHex(n, dn)
		}
		if tm, ok := o["time"]; ok {
			o["time"] = shiftHex(tm, dt)
		}
	}
	if s, ok := params[1].(string); ok && strings.HasPrefix(s, "0x") {
		params[1] = shiftHex(s, dn)
	}
	out, err := json.Marshal(req)
	require.NoError(t, err)
	return string(out)
}

// shiftHex adds d to a hex quantity.
func shiftHex(v any, d int64) any {
	n := new(big.Int).Add(hexutil.MustDecodeBig(v.(string)), big.NewInt(d))
	return hexutil.EncodeBig(n)
}

// shiftNumbers adds d to every decimal number of msg ("block numbers must
// be in order: 144 <= 154").
func shiftNumbers(msg string, d int64) string {
	if !strings.HasPrefix(msg, "block numbers") {
		return msg
	}
	return regexp.MustCompile(`\d+`).ReplaceAllStringFunc(msg, func(s string) string {
		n, _ := strconv.ParseInt(s, 10, 64)
		return fmt.Sprint(n + d)
	})
}
