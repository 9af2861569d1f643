package evm_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// simulateFixtures are the files of testdata/simulate (see
// testdata/SOURCES.md).
var simulateFixtures = []string{
	"ethSimulate-simple.io",
	"ethSimulate-logs.io",
	"ethSimulate-eth-send-should-produce-logs.io",
	"ethSimulate-eth-send-should-not-produce-logs-on-revert.io",
	"ethSimulate-eth-send-should-produce-no-logs-on-forward-revert.io",
	"ethSimulate-run-out-of-gas-in-block-38015.io",
	"ethSimulate-blocknumber-increment.io",
	"ethSimulate-block-num-order-38020.io",
	"ethSimulate-big-block-state-calls-array.io",
	"ethSimulate-simple-no-funds-with-validation.io",
	"ethSimulate-simple-validation-fulltx.io",
	"ethSimulate-make-call-with-future-block.io",
	"ethSimulate-override-storage-slots.io",
}

// readSimulateFixture reads a file of testdata/simulate: its ">> " request
// and "<< " answer lines.
func readSimulateFixture(t testing.TB, name string) (request, response string) {
	t.Helper()
	f, err := os.Open("testdata/simulate/" + name)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, ">> "):
			request = line[3:]
		case strings.HasPrefix(line, "<< "):
			response = line[3:]
		}
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, request, name)
	require.NotEmpty(t, response, name)
	return request, response
}

// fixtureSimulation turns a recorded eth_simulateV1 request into the
// Simulation and Block that say the same in Go. Every member it meets must
// be one it knows, so that nothing of the recording is dropped unseen.
func fixtureSimulation(t *testing.T, request string) (evm.Simulation, evm.Block) {
	t.Helper()
	var req struct {
		Params []json.RawMessage `json:"params"`
	}
	require.NoError(t, json.Unmarshal([]byte(request), &req))
	require.Len(t, req.Params, 2)
	block, err := evm.ParseBlock(strings.Trim(string(req.Params[1]), `"`))
	require.NoError(t, err)

	var payload map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(req.Params[0], &payload))
	var sim evm.Simulation
	for k, v := range payload {
		switch k {
		case "blockStateCalls":
			var blocks []map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(v, &blocks))
			sim.Blocks = make([]evm.SimBlock, len(blocks))
			for i, b := range blocks {
				sim.Blocks[i] = fixtureBlock(t, b)
			}
		case "traceTransfers":
			sim.TraceTransfers = string(v) == "true"
		case "validation":
			sim.Validation = string(v) == "true"
		case "returnFullTransactions":
			sim.ReturnFullTransactions = string(v) == "true"
		default:
			t.Fatalf("payload member %q", k)
		}
	}
	return sim, block
}

func fixtureBlock(t *testing.T, b map[string]json.RawMessage) evm.SimBlock {
	var sb evm.SimBlock
	for k, v := range b {
		switch k {
		case "blockOverrides":
			var o map[string]string
			require.NoError(t, json.Unmarshal(v, &o))
			sb.BlockOverride = &evm.BlockOverride{}
			for ok, ov := range o {
				switch ok {
				case "number":
					sb.BlockOverride.Number = hexutil.MustDecodeBig(ov)
				case "time":
					sb.BlockOverride.Time = ptr(hexutil.MustDecodeUint64(ov))
				case "gasLimit":
					sb.BlockOverride.GasLimit = ptr(hexutil.MustDecodeUint64(ov))
				case "baseFeePerGas":
					sb.BlockOverride.BaseFee = hexutil.MustDecodeBig(ov)
				default:
					t.Fatalf("block override %q", ok)
				}
			}
		case "stateOverrides":
			var o map[common.Address]struct {
				Balance   *hexutil.Big
				Code      *hexutil.Bytes
				State     map[common.Hash]common.Hash
				StateDiff map[common.Hash]common.Hash
			}
			dec := json.NewDecoder(strings.NewReader(string(v)))
			dec.DisallowUnknownFields()
			require.NoError(t, dec.Decode(&o))
			sb.StateOverride = evm.StateOverride{}
			for addr, a := range o {
				acc := evm.OverrideAccount{Balance: (*big.Int)(a.Balance), State: a.State, StateDiff: a.StateDiff}
				if a.Code != nil {
					acc.Code = *a.Code
				}
				sb.StateOverride[addr] = acc
			}
		case "calls":
			var calls []struct {
				From         common.Address
				To           *common.Address
				Value        *hexutil.Big
				MaxFeePerGas *hexutil.Big
				Nonce        *hexutil.Uint64
				Input        hexutil.Bytes
			}
			dec := json.NewDecoder(strings.NewReader(string(v)))
			dec.DisallowUnknownFields()
			require.NoError(t, dec.Decode(&calls))
			for _, c := range calls {
				m := evm.CallMsg{From: c.From, Value: (*big.Int)(c.Value), MaxFeePerGas: (*big.Int)(c.MaxFeePerGas), Data: c.Input}
				if c.To == nil {
					m.Create = true
				} else {
					m.To = *c.To
				}
				if c.Nonce != nil {
					m.Nonce = ptr(uint64(*c.Nonce))
				}
				sb.Calls = append(sb.Calls, m)
			}
		default:
			t.Fatalf("block member %q", k)
		}
	}
	return sb
}

// replay is a local server that answers every request with response and
// keeps the last request body.
func replay(t *testing.T, response string) (url string, last func() string) {
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, response)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() string { return string(body) }
}

// TestSimulateV1Fixtures sends each recorded simulation from Go values:
// the request must be the recording's byte for byte (the data as "input",
// the spec's name), and the recorded answer must decode to what
// go-ethereum's ethclient.SimulateV1 decodes from it, field for field,
// each call's error included.
func TestSimulateV1Fixtures(t *testing.T) {
	for _, name := range simulateFixtures {
		t.Run(name, func(t *testing.T) {
			request, response := readSimulateFixture(t, name)
			sim, block := fixtureSimulation(t, request)
			url, last := replay(t, response)
			c, err := evm.New(url, testKey, evm.WithCallDataMembers("input"), nodeaccess.WithMaxAttempts(1))
			require.NoError(t, err)
			got, err := c.SimulateV1(context.Background(), sim, block)

			if name == "ethSimulate-block-num-order-38020.io" {
				// Numbers that go down are refused before sending.
				_, ie := testkit.RequireInputError(t, err, "blockStateCalls[1].blockOverride.number")
				assert.Equal(t, "144 does not follow the number 154 of a block before it", ie.Reason)
				assert.Empty(t, last())
				return
			}
			assert.Equal(t, request, last(), "request bytes")

			// The generic call sends the same bytes and decodes the same
			// blocks into a *[]evm.SimulatedBlock.
			c, err2 := evm.New(url, testKey, evm.WithCallDataMembers("input"), nodeaccess.WithMaxAttempts(1)) // its first request is id 1 too
			require.NoError(t, err2)
			var viaCall []evm.SimulatedBlock
			callErr := c.CallContext(context.Background(), &viaCall, "eth_simulateV1", sim, block)
			assert.Equal(t, request, last(), "CallContext request bytes")
			assert.Equal(t, got, viaCall)
			assert.Equal(t, fmt.Sprint(err), fmt.Sprint(callErr))

			var want []ethclient.SimulateBlockResult
			ec, derr := ethclient.Dial(url)
			require.NoError(t, derr)
			defer ec.Close()
			bnh := rpc.BlockNumberOrHashWithNumber(rpc.LatestBlockNumber)
			if n, ok := block.(evm.BlockNumber); ok {
				bnh = rpc.BlockNumberOrHashWithNumber(rpc.BlockNumber(n))
			}
			want, wantErr := ec.SimulateV1(context.Background(), ethclient.SimulateOptions{}, &bnh)
			if wantErr != nil {
				var ge rpc.Error
				require.ErrorAs(t, wantErr, &ge)
				var re *nodeaccess.RPCError
				require.ErrorAs(t, err, &re)
				assert.Equal(t, ge.ErrorCode(), re.Code)
				assert.Equal(t, ge.Error(), re.Message)
				assert.NotErrorIs(t, err, evm.ErrReverted)
				return
			}
			require.NoError(t, err)
			assertSameSimulation(t, want, got)
		})
	}
}

// assertSameSimulation compares the decoding of this package with
// go-ethereum's.
func assertSameSimulation(t *testing.T, want []ethclient.SimulateBlockResult, got []evm.SimulatedBlock) {
	t.Helper()
	require.Len(t, got, len(want))
	for i, w := range want {
		g := got[i]
		assert.Equal(t, w.Number.Uint64(), g.Number, "block %d", i)
		assert.Equal(t, w.Hash, g.Hash)
		assert.Equal(t, w.Timestamp, g.Timestamp)
		assert.Equal(t, w.GasLimit, g.GasLimit)
		assert.Equal(t, w.GasUsed, g.GasUsed)
		assert.Equal(t, w.FeeRecipient, g.FeeRecipient)
		assert.Equal(t, 0, w.BaseFeePerGas.Cmp(g.BaseFee))
		assert.Len(t, g.TxHashes, len(w.Calls))
		require.Len(t, g.Calls, len(w.Calls))
		for j, wc := range w.Calls {
			gc := g.Calls[j]
			assert.Equal(t, wc.Status == 1, gc.Success)
			assert.Equal(t, []byte(wc.ReturnValue), gc.ReturnData)
			assert.Equal(t, wc.GasUsed, gc.GasUsed)
			assert.Equal(t, wc.MaxUsedGas, gc.MaxUsedGas)
			assert.Equal(t, wc.Logs, gc.Logs)
			if wc.Error == nil {
				assert.NoError(t, gc.Err)
				continue
			}
			var rev *evm.RevertError
			if wc.Error.Code == 3 {
				require.ErrorAs(t, gc.Err, &rev)
				assert.Equal(t, wc.Error.Message, rev.RPC.Message)
				assert.Equal(t, wc.Error.Data, hexutil.Encode(rev.Data))
				assert.Equal(t, wc.Error.Data, rev.ErrorData())
				continue
			}
			assert.NotErrorIs(t, gc.Err, evm.ErrReverted)
			var re *nodeaccess.RPCError
			require.ErrorAs(t, gc.Err, &re)
			assert.Equal(t, wc.Error.Code, re.Code)
			assert.Equal(t, wc.Error.Message, re.Message)
		}
	}
}
