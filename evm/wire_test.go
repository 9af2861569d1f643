package evm_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

const (
	testBase = "https://node.example"
	testKey  = "t3st-KEY"
)

// gockClient returns a client whose requests gock answers (see
// testkit.GockHTTPClient: unmatched requests and unused mocks fail the test).
func gockClient(t *testing.T, opts ...nodeaccess.Option) *evm.Client {
	t.Helper()
	opts = append([]nodeaccess.Option{nodeaccess.WithHTTPClient(testkit.GockHTTPClient(t))}, opts...)
	c, err := evm.New(testBase, testKey, opts...)
	require.NoError(t, err)
	return c
}

// mockRPC expects one JSON-RPC POST of exactly wantBody to path and answers
// it with response.
func mockRPC(t *testing.T, path, wantBody, response string) {
	gock.New(testBase).Post(".*").AddMatcher(testkit.ExactPOST(t, path, wantBody)).
		Reply(200).SetHeader("Content-Type", "application/json").BodyString(response)
}

var (
	token  = common.HexToAddress("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48")
	sender = common.HexToAddress("0x00000000219ab540356cBB839Cbe05303d7705Fa")
	word   = "0x000000000000000000000000000000000000000000000000000000000000002a"
)

func TestCallWire(t *testing.T) {
	hash := common.HexToHash("0x7d3a1c0e3f7f0c8ab2d4b9f8d8a5d9e0c5b1a2f3e4d5c6b7a8998877665544ff")
	cases := []struct {
		name   string
		msg    evm.CallMsg
		block  evm.Block
		params string
	}{
		{"to only, latest", evm.CallMsg{To: token}, evm.Latest,
			`[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"latest"]`},
		{"zero Block is latest", evm.CallMsg{To: token}, nil,
			`[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"latest"]`},
		{"safe", evm.CallMsg{To: token}, evm.Safe,
			`[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"safe"]`},
		{"finalized", evm.CallMsg{To: token}, evm.Finalized,
			`[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"finalized"]`},
		{"earliest", evm.CallMsg{To: token}, evm.Earliest,
			`[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"earliest"]`},
		{"pending", evm.CallMsg{To: token}, evm.Pending,
			`[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"pending"]`},
		{"number", evm.CallMsg{To: token}, evm.BlockNumber(436),
			`[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"0x1b4"]`},
		{"number zero", evm.CallMsg{To: token}, evm.BlockNumber(0),
			`[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"0x0"]`},
		{"hash canonical", evm.CallMsg{To: token}, evm.BlockHash{Hash: hash, RequireCanonical: true},
			`[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},{"blockHash":"0x7d3a1c0e3f7f0c8ab2d4b9f8d8a5d9e0c5b1a2f3e4d5c6b7a8998877665544ff","requireCanonical":true}]`},
		{"hash", evm.CallMsg{To: token}, evm.BlockHash{Hash: hash},
			`[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},{"blockHash":"0x7d3a1c0e3f7f0c8ab2d4b9f8d8a5d9e0c5b1a2f3e4d5c6b7a8998877665544ff","requireCanonical":false}]`},
		{"every field", evm.CallMsg{
			From: sender, To: token, Gas: 100000, GasPrice: big.NewInt(30_000_000_000),
			Value: big.NewInt(1), Data: []byte{0x70, 0xa0, 0x82, 0x31, 0x00, 0xff},
		}, evm.Latest,
			`[{"from":"0x00000000219ab540356cbb839cbe05303d7705fa","to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","gas":"0x186a0","gasPrice":"0x6fc23ac00","value":"0x1","data":"0x70a0823100ff"},"latest"]`},
		{"zero value and price are sent when set", evm.CallMsg{To: token, GasPrice: new(big.Int), Value: new(big.Int)}, evm.Latest,
			`[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","gasPrice":"0x0","value":"0x0"},"latest"]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := gockClient(t)
			mockRPC(t, "/"+testKey,
				`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":`+tc.params+`}`,
				`{"jsonrpc":"2.0","id":1,"result":"`+word+`"}`)
			out, err := c.Call(context.Background(), tc.msg, tc.block)
			require.NoError(t, err)
			assert.Equal(t, common.FromHex(word), out)
		})
	}
}

func TestCallEmptyResult(t *testing.T) {
	c := gockClient(t)
	mockRPC(t, "/"+testKey,
		`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"from":"0x00000000219ab540356cbb839cbe05303d7705fa","to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","value":"0xde0b6b3a7640000"},"latest"]}`,
		`{"jsonrpc":"2.0","id":1,"result":"0x"}`)
	out, err := c.Call(context.Background(), evm.CallMsg{From: sender, To: token, Value: big.NewInt(1e18)}, evm.Latest)
	require.NoError(t, err)
	assert.NotNil(t, out)
	assert.Empty(t, out)
}

func TestPathSuffix(t *testing.T) {
	c := gockClient(t, evm.WithPathSuffix("evm"))
	mockRPC(t, "/"+testKey+"/evm",
		`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"latest"]}`,
		`{"jsonrpc":"2.0","id":1,"result":"0x01"}`)
	out, err := c.Call(context.Background(), evm.CallMsg{To: token}, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, []byte{1}, out)
	assert.Equal(t, "evm.Client{https://node.example/REDACTED/evm}", c.String())
}

func TestBadPathSuffix(t *testing.T) {
	for _, s := range []string{"", "/", "a/../b", "a?b", "a#b", "{key}", "a b"} {
		_, err := evm.New(testBase, testKey, evm.WithPathSuffix(s))
		require.Error(t, err, "suffix %q", s)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	}
}

func TestIDsIncrease(t *testing.T) {
	c := gockClient(t)
	for id := 1; id <= 3; id++ {
		n := string(rune('0' + id))
		mockRPC(t, "/"+testKey,
			`{"jsonrpc":"2.0","id":`+n+`,"method":"eth_getCode","params":["0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","latest"]}`,
			`{"jsonrpc":"2.0","id":`+n+`,"result":"0x6000"}`)
		code, err := c.Code(context.Background(), token, evm.Latest)
		require.NoError(t, err)
		assert.Equal(t, []byte{0x60, 0x00}, code)
	}
}

func TestCodeWire(t *testing.T) {
	c := gockClient(t)
	mockRPC(t, "/"+testKey,
		`{"jsonrpc":"2.0","id":1,"method":"eth_getCode","params":["0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","0x10"]}`,
		`{"jsonrpc":"2.0","id":1,"result":"0x"}`)
	code, err := c.ContractCaller().CodeAt(context.Background(), token, big.NewInt(16))
	require.NoError(t, err)
	assert.NotNil(t, code)
	assert.Empty(t, code)
}

// TestInternalOperationsWire: the typed call, CallContext with a
// *[]InternalOperation and a batch's Add[[]InternalOperation] send the
// same request and decode the same list (hex values, unknown types kept).
func TestInternalOperationsWire(t *testing.T) {
	tx := common.HexToHash("0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060")
	const request = `{"jsonrpc":"2.0","id":1,"method":"ots_getInternalOperations","params":["0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060"]}`
	const answer = `{"jsonrpc":"2.0","id":1,"result":[` +
		`{"type":0,"from":"0x00000000219ab540356cbb839cbe05303d7705fa","to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","value":"0xde0b6b3a7640000"},` +
		`{"type":1,"from":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","to":"0x00000000219ab540356cbb839cbe05303d7705fa","value":"0x0"},` +
		`{"type":2,"from":"0x00000000219ab540356cbb839cbe05303d7705fa","to":"0x1111111111111111111111111111111111111111","value":"0x00"},` +
		`{"type":3,"from":"0x00000000219ab540356cbb839cbe05303d7705fa","to":"0x2222222222222222222222222222222222222222","value":"0xffffffffffffffffffffffffffffffffffff"},` +
		`{"type":7,"from":"0x00000000219ab540356cbb839cbe05303d7705fa","to":"0x3333333333333333333333333333333333333333","value":"0x1"}]}`
	for name, read := range map[string]func(c *evm.Client) ([]evm.InternalOperation, error){
		"InternalOperations": func(c *evm.Client) ([]evm.InternalOperation, error) {
			mockRPC(t, "/"+testKey, request, answer)
			return c.InternalOperations(context.Background(), tx)
		},
		"CallContext": func(c *evm.Client) ([]evm.InternalOperation, error) {
			mockRPC(t, "/"+testKey, request, answer)
			var ops []evm.InternalOperation
			err := c.CallContext(context.Background(), &ops, "ots_getInternalOperations", tx)
			return ops, err
		},
		"Add": func(c *evm.Client) ([]evm.InternalOperation, error) {
			mockRPC(t, "/"+testKey, "["+request+"]", "["+answer+"]")
			var b evm.Batch
			r := evm.Add[[]evm.InternalOperation](&b, "ots_getInternalOperations", tx)
			if err := c.SendBatch(context.Background(), &b); err != nil {
				return nil, err
			}
			return r.Result()
		},
	} {
		t.Run(name, func(t *testing.T) {
			c := gockClient(t)
			ops, err := read(c)
			require.NoError(t, err)
			big36, _ := new(big.Int).SetString("ffffffffffffffffffffffffffffffffffff", 16)
			want := []evm.InternalOperation{
				{Type: evm.Transfer, From: sender, To: token, Value: big.NewInt(1e18)},
				{Type: evm.SelfDestruct, From: token, To: sender, Value: new(big.Int)},
				{Type: evm.Create, From: sender, To: common.HexToAddress("0x1111111111111111111111111111111111111111"), Value: new(big.Int)},
				{Type: evm.Create2, From: sender, To: common.HexToAddress("0x2222222222222222222222222222222222222222"), Value: big36},
				{Type: evm.OperationType(7), From: sender, To: common.HexToAddress("0x3333333333333333333333333333333333333333"), Value: big.NewInt(1)},
			}
			require.Len(t, ops, len(want))
			for i := range want {
				assert.Equal(t, want[i].Type, ops[i].Type, "op %d", i)
				assert.Equal(t, want[i].From, ops[i].From, "op %d", i)
				assert.Equal(t, want[i].To, ops[i].To, "op %d", i)
				assert.Zero(t, want[i].Value.Cmp(ops[i].Value), "op %d: value %s", i, ops[i].Value)
			}
			assert.Equal(t, "type(7)", ops[4].Type.String())
		})
	}
}

func TestInternalOperationsEmptyAndErrors(t *testing.T) {
	tx := common.HexToHash("0x01")
	body := `{"jsonrpc":"2.0","id":1,"method":"ots_getInternalOperations","params":["0x0000000000000000000000000000000000000000000000000000000000000001"]}`

	t.Run("empty list (reth)", func(t *testing.T) {
		c := gockClient(t)
		mockRPC(t, "/"+testKey, body, `{"jsonrpc":"2.0","id":1,"result":[]}`)
		ops, err := c.InternalOperations(context.Background(), tx)
		require.NoError(t, err)
		assert.Empty(t, ops)
	})
	t.Run("not found (erigon)", func(t *testing.T) {
		c := gockClient(t)
		mockRPC(t, "/"+testKey, body, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"transaction 0x0000000000000000000000000000000000000000000000000000000000000001 not found"}}`)
		_, err := c.InternalOperations(context.Background(), tx)
		var re *nodeaccess.RPCError
		require.ErrorAs(t, err, &re)
		assert.Equal(t, -32000, re.Code)
		assert.Equal(t, "evm: ots_getInternalOperations: json-rpc error -32000: transaction 0x0000000000000000000000000000000000000000000000000000000000000001 not found", err.Error())
	})
	t.Run("method missing (geth)", func(t *testing.T) {
		c := gockClient(t)
		mockRPC(t, "/"+testKey, body, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"the method ots_getInternalOperations does not exist/is not available"}}`)
		_, err := c.InternalOperations(context.Background(), tx)
		var re *nodeaccess.RPCError
		require.ErrorAs(t, err, &re)
		assert.Equal(t, -32601, re.ErrorCode())
	})
	t.Run("malformed entry", func(t *testing.T) {
		c := gockClient(t)
		mockRPC(t, "/"+testKey, body, `{"jsonrpc":"2.0","id":1,"result":[{"type":0,"from":"0x00000000219ab540356cbb839cbe05303d7705fa","to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","value":"12"}]}`)
		_, err := c.InternalOperations(context.Background(), tx)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		assert.Contains(t, err.Error(), `"12" is not a hex quantity`)
	})
}

func TestRevertDecoding(t *testing.T) {
	// Error(string) "Insufficient balance", as solc encodes it.
	errData := "0x08c379a0" +
		"0000000000000000000000000000000000000000000000000000000000000020" +
		"0000000000000000000000000000000000000000000000000000000000000014" +
		"496e73756666696369656e742062616c616e6365000000000000000000000000"
	panicData := "0x4e487b71" + "0000000000000000000000000000000000000000000000000000000000000011"
	customData := "0xcf479181" + "0000000000000000000000000000000000000000000000000000000000000001"
	cases := []struct {
		name, resp string
		reason     string
		panicCode  int64
		msg        string
		data       string
	}{
		{"reason", `{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted: Insufficient balance","data":"` + errData + `"}}`,
			"Insufficient balance", -1, `evm: eth_call: execution reverted: "Insufficient balance"`, errData},
		{"panic", `{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted: arithmetic underflow or overflow","data":"` + panicData + `"}}`,
			"", 0x11, "evm: eth_call: execution reverted: panic 0x11 (arithmetic overflow or underflow)", panicData},
		{"custom", `{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted","data":"` + customData + `"}}`,
			"", -1, "evm: eth_call: execution reverted: custom error 0xcf479181 (36 bytes of data)", customData},
		{"bare revert without data", `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"execution reverted"}}`,
			"", -1, "evm: eth_call: execution reverted", "0x"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := gockClient(t)
			mockRPC(t, "/"+testKey, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"latest"]}`, tc.resp)
			_, err := c.Call(context.Background(), evm.CallMsg{To: token}, evm.Latest)
			require.Error(t, err)
			assert.Equal(t, tc.msg, err.Error())
			assert.ErrorIs(t, err, evm.ErrReverted)
			var rev *evm.RevertError
			require.ErrorAs(t, err, &rev)
			assert.Equal(t, tc.reason, rev.Reason)
			assert.Equal(t, tc.data, rev.ErrorData())
			if tc.panicCode >= 0 {
				require.NotNil(t, rev.PanicCode)
				assert.Equal(t, tc.panicCode, rev.PanicCode.Int64())
			} else {
				assert.Nil(t, rev.PanicCode)
			}
			var re *nodeaccess.RPCError
			require.ErrorAs(t, err, &re)
			var oe *nodeaccess.OpError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, "evm", oe.Chain)
			assert.Equal(t, "eth_call", oe.Op)
		})
	}
}

func TestOtherRPCErrorIsNotRevert(t *testing.T) {
	c := gockClient(t)
	mockRPC(t, "/"+testKey, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"0xf4240"]}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"header not found"}}`)
	_, err := c.Call(context.Background(), evm.CallMsg{To: token}, evm.BlockNumber(1_000_000))
	assert.NotErrorIs(t, err, evm.ErrReverted)
	var re *nodeaccess.RPCError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "header not found", re.Message)
	assert.Equal(t, "evm: eth_call: json-rpc error -32000: header not found", err.Error())
}

func TestBadResults(t *testing.T) {
	for name, result := range map[string]string{
		"odd digits":   `"0x123"`,
		"no prefix":    `"1234"`,
		"not a string": `42`,
		"null":         `null`,
		"not hex":      `"0xzz"`,
	} {
		t.Run(name, func(t *testing.T) {
			c := gockClient(t)
			mockRPC(t, "/"+testKey, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"latest"]}`,
				`{"jsonrpc":"2.0","id":1,"result":`+result+`}`)
			_, err := c.Call(context.Background(), evm.CallMsg{To: token}, evm.Latest)
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		})
	}
}

func TestBadInputSendsNothing(t *testing.T) {
	c, err := evm.New(testBase, testKey, nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))
	require.NoError(t, err)
	ctx := context.Background()
	check := func(err error, arg string) {
		t.Helper()
		oe, _ := testkit.RequireInputError(t, err, arg)
		assert.Equal(t, "evm", oe.Chain)
		testkit.AssertErrNoKey(t, testKey, err)
	}
	_, err = c.Call(ctx, evm.CallMsg{Create: true, To: token}, evm.Latest)
	check(err, "to")
	_, err = c.Call(ctx, evm.CallMsg{To: token, Value: big.NewInt(-1)}, evm.Latest)
	check(err, "value")
	_, err = c.Call(ctx, evm.CallMsg{To: token, GasPrice: big.NewInt(-5)}, evm.Latest)
	check(err, "gasPrice")
	_, err = c.ContractCaller().CallContract(ctx, gethCallMsg(token), big.NewInt(-7))
	check(err, "block")
	assert.Equal(t, "evm: eth_call: invalid input: block: negative block number -7", err.Error())
	_, err = c.ContractCaller().CodeAt(ctx, token, big.NewInt(-9))
	check(err, "block")
	_, err = c.ContractCaller().CodeAt(ctx, token, new(big.Int).Lsh(big.NewInt(1), 64))
	check(err, "block")
}

func TestParseBlock(t *testing.T) {
	good := map[string]string{
		"latest": "latest", "": "latest", "safe": "safe", "finalized": "finalized", "earliest": "earliest",
		"pending": "pending", "1234": "1234", "0x4d2": "1234", "0X4D2": "1234", "0x0": "0",
		"0x7d3a1c0e3f7f0c8ab2d4b9f8d8a5d9e0c5b1a2f3e4d5c6b7a8998877665544ff": "0x7d3a1c0e3f7f0c8ab2d4b9f8d8a5d9e0c5b1a2f3e4d5c6b7a8998877665544ff",
	}
	for in, want := range good {
		b, err := evm.ParseBlock(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, fmt.Sprint(b), in)
	}
	bad := map[string]string{
		"-1":     `negative block number "-1"`,
		"Latest": `"Latest" is not a block tag, number or hash`,
		"0x":     `"0x" is not a hex block number or a 32-byte block hash`,
		"0xg1":   `"0xg1" is not a hex block number or a 32-byte block hash`,
		"12a":    `"12a" is not a block tag, number or hash`,
		"0x7d3a1c0e3f7f0c8ab2d4b9f8d8a5d9e0c5b1a2f3e4d5c6b7a8998877665544fz": "is not a block hash",
		"0x1ffffffffffffffff": `"0x1ffffffffffffffff" is not a hex block number`,
	}
	for in, want := range bad {
		_, err := evm.ParseBlock(in)
		require.Error(t, err, in)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		assert.Contains(t, err.Error(), want)
	}
}

func TestOperationTypeString(t *testing.T) {
	assert.Equal(t, []string{"transfer", "selfdestruct", "create", "create2", "eofcreate", "type(-1)"},
		[]string{evm.Transfer.String(), evm.SelfDestruct.String(), evm.Create.String(), evm.Create2.String(), evm.EOFCreate.String(), evm.OperationType(-1).String()})
}

// Bad input sends nothing, shown with gock as well: no mock is registered,
// so any request would be an unmatched one.
func TestBadInputNothingReachesGock(t *testing.T) {
	c := gockClient(t)
	_, err := c.Call(context.Background(), evm.CallMsg{To: token, GasPrice: big.NewInt(1), MaxFeePerGas: big.NewInt(2)}, evm.Latest)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	_, err = c.ContractCaller().CallContract(context.Background(), gethCallMsg(token), big.NewInt(-9))
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.Empty(t, gock.GetUnmatchedRequests())
}

func TestZeroRevertError(t *testing.T) {
	var rev evm.RevertError
	assert.NotPanics(t, func() {
		assert.ErrorIs(t, &rev, evm.ErrReverted)
		assert.NotErrorIs(t, &rev, nodeaccess.ErrRateLimited)
		assert.Equal(t, "execution reverted", rev.Error())
		assert.Equal(t, 3, rev.ErrorCode())
		assert.Equal(t, "0x", rev.ErrorData())
	})
}

func TestMalformedErrorStringRevert(t *testing.T) {
	c := gockClient(t)
	// Error(string) selector with an offset pointing past the data.
	mockRPC(t, "/"+testKey, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"latest"]}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted","data":"0x08c379a000000000000000000000000000000000000000000000000000000000000000ff"}}`)
	_, err := c.Call(context.Background(), evm.CallMsg{To: token}, evm.Latest)
	var rev *evm.RevertError
	require.ErrorAs(t, err, &rev)
	assert.Empty(t, rev.Reason)
	assert.Equal(t, "evm: eth_call: execution reverted: Error(string) with malformed data (36 bytes)", err.Error())
}

// A result that echoes the key is never shown with the key, whole or cut.
func TestBadResultEchoingKeyIsMasked(t *testing.T) {
	for _, result := range []string{
		`"https://node.example/` + testKey + `/` + strings.Repeat("x", 60) + `"`,
		`"` + strings.Repeat("y", 75) + testKey + `"`,
		`"0x` + testKey + `"`,
	} {
		c := gockClient(t)
		mockRPC(t, "/"+testKey, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"latest"]}`,
			`{"jsonrpc":"2.0","id":1,"result":`+result+`}`)
		_, err := c.Call(context.Background(), evm.CallMsg{To: token}, evm.Latest)
		require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		msg := fmt.Sprintf("%v %+v", err, err)
		assert.NotContains(t, msg, testKey[:4], "a piece of the key shows in %s", msg)
	}
}
