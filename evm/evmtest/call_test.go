package evmtest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// eth_call's and eth_estimateGas's refusals, answered with go-ethereum's
// codes and messages (these bodies are what go-ethereum's own eth API
// answers: the test passes unchanged against the node-stack server this
// package used before).
func TestCallErrors(t *testing.T) {
	t.Parallel()
	s := shared(t)
	const token = `"0x000000000000000000000000000000000000e020"`
	const sha256 = `"0x0000000000000000000000000000000000000002"`
	tests := []struct{ name, method, params, want string }{
		{"both fee styles", "eth_call", `[{"to":` + token + `,"gasPrice":"0x1","maxFeePerGas":"0x2"},"latest"]`,
			`{"code":-32000,"message":"both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified"}`},
		{"another chain id", "eth_call", `[{"to":` + token + `,"chainId":"0x1"},"latest"]`,
			`{"code":-32000,"message":"chainId does not match node's (have=1, want=1337)"}`},
		{"blob fee cap alone", "eth_call", `[{"to":` + token + `,"maxFeePerBlobGas":"0x1"},"latest"]`,
			`{"code":-32000,"message":"maxFeePerBlobGas specified without blobVersionedHashes"}`},
		{"state and stateDiff", "eth_call", `[{"to":` + token + `},"latest",{` + token + `:{"state":{},"stateDiff":{}}}]`,
			`{"code":-32000,"message":"account 0x000000000000000000000000000000000000E020 has both 'state' and 'stateDiff'"}`},
		{"move a non-precompile", "eth_call", `[{"to":` + token + `},"latest",{` + token + `:{"movePrecompileToAddress":"0x00000000000000000000000000000000000000ff"}}]`,
			`{"code":-32000,"message":"account 0x000000000000000000000000000000000000E020 is not a precompile"}`},
		{"move onto an overridden account", "eth_call", `[{"to":` + token + `},"latest",{` + sha256 + `:{"movePrecompileToAddress":` + token + `},` + token + `:{"balance":"0x1"}}]`,
			`{"code":-32000,"message":"account 0x000000000000000000000000000000000000E020 is already overridden"}`},
		{"beacon root override", "eth_call", `[{"to":` + token + `},"latest",{},{"beaconRoot":"0x0000000000000000000000000000000000000000000000000000000000000001"}]`,
			`{"code":-32000,"message":"block override \"beaconRoot\" is not supported for this RPC method"}`},
		{"withdrawals override", "eth_call", `[{"to":` + token + `},"latest",{},{"withdrawals":[]}]`,
			`{"code":-32000,"message":"block override \"withdrawals\" is not supported for this RPC method"}`},
		{"no funds for the value", "eth_call", `[{"from":"0x00000000000000000000000000000000000a11ce","to":` + token + `,"value":"0x1"},"latest"]`,
			`{"code":-32000,"message":"err: insufficient funds for gas * price + value: address 0x00000000000000000000000000000000000A11cE have 0 want 1 (supplied gas 50000000)"}`},
		{"under the intrinsic gas", "eth_call", `[{"to":` + token + `,"gas":"0x5209","data":"0x06fdde03"},"latest"]`,
			`{"code":-32000,"message":"err: intrinsic gas too low: have 21001, want 21064 (supplied gas 21001)"}`},
		{"under the calldata floor (EIP-7623)", "eth_call", `[{"to":` + token + `,"gas":"0x5500","data":"0x70a082310000000000000000000000009e477782bc5cfff0752bfac6c40dbebf146d27f9"},"latest"]`,
			`{"code":-32000,"message":"err: insufficient gas for floor data gas cost: have 21760, want 22080 (supplied gas 21760)"}`},
		{"out of gas", "eth_call", `[{"to":` + token + `,"gas":"0x5700","data":"0x70a082310000000000000000000000009e477782bc5cfff0752bfac6c40dbebf146d27f9"},"latest"]`,
			`{"code":-32000,"message":"out of gas"}`},
		{"a block past the head", "eth_call", `[{"to":` + token + `},"0x64"]`,
			`{"code":-32000,"message":"header not found"}`},
		{"a revert, with its data", "eth_call", `[{"from":"0x00000000000000000000000000000000000a11ce","to":` + token + `,"data":"0xa9059cbb00000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000001"},"latest"]`,
			`{"code":3,"message":"execution reverted: LUSD: insufficient balance","data":"0x08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000001a4c5553443a20696e73756666696369656e742062616c616e6365000000000000"}`},
		{"estimate of a revert", "eth_estimateGas", `[{"from":"0x00000000000000000000000000000000000a11ce","to":` + token + `,"data":"0xa9059cbb00000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000001"}]`,
			`{"code":3,"message":"execution reverted: LUSD: insufficient balance","data":"0x08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000001a4c5553443a20696e73756666696369656e742062616c616e6365000000000000"}`},
	}
	for _, tt := range tests {
		_, _, body := post(t, s, "/"+testKey, rpcBody(tt.method, tt.params))
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":`+tt.want+`}`, body, tt.name)
	}

	// What succeeds: a precompile moved away answers at its new address,
	// and its old address runs nothing; a plain transfer's estimate.
	_, _, body := post(t, s, "/"+testKey, rpcBody("eth_call",
		`[{"to":"0x00000000000000000000000000000000000000ff","data":"0x616263"},"latest",{`+sha256+`:{"movePrecompileToAddress":"0x00000000000000000000000000000000000000ff"}}]`))
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}`, body, "sha256 of abc at the new address")
	_, _, body = post(t, s, "/"+testKey, rpcBody("eth_call",
		`[{"to":`+sha256+`,"data":"0x616263"},"latest",{`+sha256+`:{"movePrecompileToAddress":"0x00000000000000000000000000000000000000ff"}}]`))
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"0x"}`, body)
	_, _, body = post(t, s, "/"+testKey, rpcBody("eth_estimateGas",
		`[{"from":"0x9e477782bc5cfff0752bfac6c40dbebf146d27f9","to":"0x00000000000000000000000000000000000beef1","value":"0x1"}]`))
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"0x5208"}`, body)
}
