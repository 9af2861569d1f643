package hypertest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// word is v as one ABI word, in hex without 0x.
func word(v string) string {
	v = strings.TrimPrefix(v, "0x")
	return strings.Repeat("0", 64-len(v)) + v
}

func evmCall(t *testing.T, srv *hypertest.Server, body string) answer {
	t.Helper()
	return postJSON(t, srv.URL+"/"+testKey+"/evm", body)
}

// ethCall is the JSON-RPC eth_call of data to the precompile 0x…<pc>.
func ethCall(id int, pc, data, gas string) string {
	obj := `{"to":"0x` + strings.Repeat("0", 36) + pc + `","data":"0x` + data + `"`
	if gas != "" {
		obj += `,"gas":"` + gas + `"`
	}
	return `{"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `,"method":"eth_call","params":[` + obj + `},"latest"]}`
}

// The answers built from the server's data are the bytes written by hand,
// independently, from hyper-evm-lib's struct layouts (the vectors of
// hyper's testdata: userVaultEquity of the recorded vault, spotInfo(107),
// perpAssetInfo(0) = BTC).
func TestEVMAnswersMatchHandBuiltVectors(t *testing.T) {
	srv := start(t)
	for _, tc := range []struct{ name, pc, data, want string }{
		{"vault equity", "0802", word(defaultUserText) + word("07fd993f0fa3a185f7207adccd29f7a87404689d"),
			"0x000000000000000000000000000000000000000000000000000000a04ff211000000000000000000000000000000000000000000000000000000019496db251d"},
		{"spotInfo(107)", "080b", word("6b"),
			"0x000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000600000000000000000000000000000000000000000000000000000000000000096000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000044031303700000000000000000000000000000000000000000000000000000000"},
		{"perpAssetInfo(BTC)", "080a", word("0"),
			"0x000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000a0000000000000000000000000000000000000000000000000000000000000003800000000000000000000000000000000000000000000000000000000000000050000000000000000000000000000000000000000000000000000000000000028000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000034254430000000000000000000000000000000000000000000000000000000000"},
	} {
		got := evmCall(t, srv, ethCall(1, tc.pc, tc.data, "0x30000"))
		assert.Equal(t, 200, got.status, tc.name)
		assert.JSONEq(t, `{"jsonrpc":"2.0","id":1,"result":"`+tc.want+`"}`, got.body, tc.name)
	}
}

// The JSON-RPC wire: batches, the call data as "data" or "input", the gas
// the precompile costs, and the node's errors.
func TestEVMWire(t *testing.T) {
	srv := start(t)
	l1 := ethCall(1, "0809", "", "0x5208")
	for _, tc := range []struct {
		name, body, want string
	}{
		{"L1 block number", ethCall(1, "0809", "", ""), `{"jsonrpc":"2.0","id":1,"result":"0x` + word("2faf0800") + `"}`},
		{"call data as input", strings.Replace(ethCall(2, "0806", word("0"), ""), `"data"`, `"input"`, 1), `{"jsonrpc":"2.0","id":2,"result":"0x` + word("db8c1") + `"}`},
		{"data and input that differ", strings.Replace(ethCall(2, "0806", word("0"), ""), `"data"`, `"input":"0x01","data"`, 1),
			`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid params: \"data\" and \"input\" differ"}}`},
		// ETH: its mid 3102.75 at 6 - 4 decimals, 310275 = 0x4bc03.
		{"a batch", "[" + ethCall(1, "0809", "", "") + "," + ethCall(2, "0806", word("1"), "") + "]",
			`[{"jsonrpc":"2.0","id":1,"result":"0x` + word("2faf0800") + `"},{"jsonrpc":"2.0","id":2,"result":"0x` + word("4bc03") + `"}]`},
		// 21000 + 2000 + 65 * 32 = 25080 for an empty call: 21000 is too little.
		{"gas below the precompile's cost", l1, `{"jsonrpc":"2.0","id":1,"error":{"code":-32003,"message":"out of gas: gas exhausted during precompiled contract execution: 21000"}}`},
		{"gas of the cost", ethCall(1, "0809", "", "0x61f8"), `{"jsonrpc":"2.0","id":1,"result":"0x` + word("2faf0800") + `"}`},
		{"gas one short", ethCall(1, "0809", "", "0x61f7"), `{"jsonrpc":"2.0","id":1,"error":{"code":-32003,"message":"out of gas: gas exhausted during precompiled contract execution: 25079"}}`},
		{"invalid perp, no gas: the node's cap", ethCall(1, "0806", word("270f"), ""), `{"jsonrpc":"2.0","id":1,"error":{"code":-32003,"message":"out of gas: gas exhausted during precompiled contract execution: 30000000"}}`},
		{"uint16 position of a perp beyond", ethCall(1, "0800", word(defaultUserText)+word("10003"), ""), `{"jsonrpc":"2.0","id":1,"error":{"code":-32003,"message":"out of gas: gas exhausted during precompiled contract execution: 30000000"}}`},
		{"dirty high bits", ethCall(1, "0806", "01"+word("0")[2:], ""), `{"jsonrpc":"2.0","id":1,"error":{"code":-32003,"message":"out of gas: gas exhausted during precompiled contract execution: 30000000"}}`},
		{"not a precompile", strings.Replace(l1, "0809", "0899", 1), `{"jsonrpc":"2.0","id":1,"result":"0x"}`},
		{"the unmodelled tokenSupply", ethCall(1, "080d", word("0"), ""), `{"jsonrpc":"2.0","id":1,"error":{"code":-32003,"message":"out of gas: gas exhausted during precompiled contract execution: 30000000"}}`},
		{"another method", `{"jsonrpc":"2.0","id":7,"method":"eth_chainId","params":[]}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"the method eth_chainId does not exist/is not available"}}`},
		{"no version", `{"id":7,"method":"eth_call","params":[]}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"invalid request"}}`},
		{"not JSON", `{`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`},
		{"empty batch", `[]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: want one call or a non-empty batch"}}`},
		{"no to", `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"data":"0x"},"latest"]}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid params: the call object has no \"to\""}}`},
		{"gas not hex", strings.Replace(l1, `"0x5208"`, `"21000"`, 1), `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid params: \"gas\" is not a hex quantity"}}`},
	} {
		got := evmCall(t, srv, tc.body)
		assert.Equal(t, 200, got.status, tc.name)
		assert.Equal(t, "application/json", got.ctype, tc.name)
		assert.JSONEq(t, tc.want, got.body, tc.name)
	}
}

// SetPrecompile answers a read byte for byte (an empty answer included)
// until taken back; the gas is counted with its length.
func TestSetPrecompile(t *testing.T) {
	srv := start(t)
	pos := common.HexToAddress("0x0000000000000000000000000000000000000813")
	input := common.FromHex(word(defaultUserText) + word("0"))
	args := abi.Arguments{{Type: mustType(t, "tuple", `[{"name":"szi","type":"int64"},{"name":"entryNtl","type":"uint64"},{"name":"isolatedRawUsd","type":"int64"},{"name":"leverage","type":"uint32"},{"name":"isIsolated","type":"bool"}]`)}}
	out, err := args.Pack(struct {
		Szi            int64
		EntryNtl       uint64
		IsolatedRawUsd int64
		Leverage       uint32
		IsIsolated     bool
	}{-4321, 75000, -1000, 5, true})
	require.NoError(t, err)
	require.NoError(t, srv.SetPrecompile(pos, input, out))
	call := ethCall(1, "0813", common.Bytes2Hex(input), "")
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":1,"result":"0x`+common.Bytes2Hex(out)+`"}`, evmCall(t, srv, call).body)
	// The gas of its 160 bytes: the transaction's, the call data's and
	// the precompile's 2000 + 65 * (64 + 160).
	need := uint64(21000 + 2000 + 65*(64+160))
	for _, b := range input {
		need += map[bool]uint64{true: 4, false: 16}[b == 0]
	}
	assert.Contains(t, evmCall(t, srv, ethCall(1, "0813", common.Bytes2Hex(input), hexutil.EncodeUint64(need-1))).body, "out of gas")
	assert.Contains(t, evmCall(t, srv, ethCall(1, "0813", common.Bytes2Hex(input), hexutil.EncodeUint64(need))).body, `"result"`)

	require.NoError(t, srv.SetPrecompile(pos, input, []byte{}))
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":1,"result":"0x"}`, evmCall(t, srv, call).body)
	require.NoError(t, srv.SetPrecompile(pos, input, nil))
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":1,"result":"0x`+strings.Repeat("0", 320)+`"}`, evmCall(t, srv, call).body, "back to the server's zeros")

	assert.EqualError(t, srv.SetPrecompile(common.HexToAddress("0x0814"), nil, []byte{1}),
		"hypertest: SetPrecompile: 0x0000000000000000000000000000000000000814 is not a read precompile (0x…0800 to 0x…0813)")
}

func mustType(t *testing.T, typ, components string) abi.Type {
	t.Helper()
	var c []abi.ArgumentMarshaling
	require.NoError(t, json.Unmarshal([]byte(components), &c))
	ty, err := abi.NewType(typ, "", c)
	require.NoError(t, err)
	return ty
}

// A test's own EVM handler still takes the endpoint over, as before the
// server answered it, behind the same key check.
func TestOwnEVMHandlerTakesOver(t *testing.T) {
	srv := start(t)
	srv.HandleFunc("POST /{key}/evm", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"0x01"}`)
	})
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"0x01"}`, evmCall(t, srv, ethCall(1, "0809", "", "")).body)
	assert.Equal(t, 403, postJSON(t, srv.URL+"/wrong-key/evm", `{}`).status)
}
