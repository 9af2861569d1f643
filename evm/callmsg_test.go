package evm_test

import (
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/holiman/uint256"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	slot1    = common.HexToHash("0x01")
	slot2    = common.HexToHash("0x02")
	blobHash = common.HexToHash("0x01a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f")
	auth     = types.SetCodeAuthorization{ChainID: *uint256.NewInt(1), Address: token, Nonce: 7, V: 1, R: *uint256.NewInt(2), S: *uint256.NewInt(3)}
)

// TestCallMsgWire pins the bytes of every member of the call object.
func TestCallMsgWire(t *testing.T) {
	const to = `"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"`
	cases := []struct {
		name string
		msg  evm.CallMsg
		obj  string
	}{
		{"zero address is a target", evm.CallMsg{}, `{"to":"0x0000000000000000000000000000000000000000"}`},
		{"creation sends no to", evm.CallMsg{Create: true, Data: []byte{0x60, 0x00}}, `{"data":"0x6000"}`},
		{"creation with nothing else", evm.CallMsg{Create: true}, `{}`},
		{"creation from a sender", evm.CallMsg{Create: true, From: sender, Gas: 9},
			`{"from":"0x00000000219ab540356cbb839cbe05303d7705fa","gas":"0x9"}`},
		{"EIP-1559 fees", evm.CallMsg{To: token, MaxFeePerGas: big.NewInt(30_000_000_000), MaxPriorityFeePerGas: big.NewInt(0)},
			`{` + to + `,"maxFeePerGas":"0x6fc23ac00","maxPriorityFeePerGas":"0x0"}`},
		{"fee cap alone", evm.CallMsg{To: token, MaxFeePerGas: big.NewInt(1)}, `{` + to + `,"maxFeePerGas":"0x1"}`},
		{"tip alone", evm.CallMsg{To: token, MaxPriorityFeePerGas: big.NewInt(2)}, `{` + to + `,"maxPriorityFeePerGas":"0x2"}`},
		{"empty access list is sent", evm.CallMsg{To: token, AccessList: types.AccessList{}}, `{` + to + `,"accessList":[]}`},
		{"access list", evm.CallMsg{To: token, AccessList: types.AccessList{
			{Address: token, StorageKeys: []common.Hash{slot1, slot2}}, {Address: sender},
		}}, `{` + to + `,"accessList":[{"address":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","storageKeys":["0x0000000000000000000000000000000000000000000000000000000000000001","0x0000000000000000000000000000000000000000000000000000000000000002"]},{"address":"0x00000000219ab540356cbb839cbe05303d7705fa","storageKeys":[]}]}`},
		{"blob fields", evm.CallMsg{To: token, MaxFeePerBlobGas: big.NewInt(3), BlobHashes: []common.Hash{blobHash, slot1}},
			`{` + to + `,"maxFeePerBlobGas":"0x3","blobVersionedHashes":["0x01a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f","0x0000000000000000000000000000000000000000000000000000000000000001"]}`},
		{"authorization list", evm.CallMsg{To: token, AuthorizationList: []types.SetCodeAuthorization{auth}},
			`{` + to + `,"authorizationList":[{"chainId":"0x1","address":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","nonce":"0x7","yParity":"0x1","r":"0x2","s":"0x3"}]}`},
		{"every field", evm.CallMsg{
			From: sender, To: token, Gas: 21000, MaxFeePerGas: big.NewInt(10), MaxPriorityFeePerGas: big.NewInt(1),
			Value: big.NewInt(255), Data: []byte{0xab}, AccessList: types.AccessList{{Address: token, StorageKeys: []common.Hash{slot1}}},
			MaxFeePerBlobGas: big.NewInt(4), BlobHashes: []common.Hash{blobHash},
		}, `{"from":"0x00000000219ab540356cbb839cbe05303d7705fa",` + to + `,"gas":"0x5208","maxFeePerGas":"0xa","maxPriorityFeePerGas":"0x1","value":"0xff","data":"0xab","accessList":[{"address":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","storageKeys":["0x0000000000000000000000000000000000000000000000000000000000000001"]}],"maxFeePerBlobGas":"0x4","blobVersionedHashes":["0x01a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f"]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := gockClient(t)
			mockRPC(t, "/"+testKey,
				`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[`+tc.obj+`,"latest"]}`,
				`{"jsonrpc":"2.0","id":1,"result":"`+word+`"}`)
			out, err := c.Call(context.Background(), tc.msg, evm.Latest)
			require.NoError(t, err)
			assert.Equal(t, common.FromHex(word), out)
		})
	}
}

// TestCallMsgRefused: a message that cannot be sent as it is fails with an
// InputError naming the member, and nothing is sent.
func TestCallMsgRefused(t *testing.T) {
	c, err := evm.New(testBase, testKey, nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))
	require.NoError(t, err)
	cases := []struct {
		arg, msg string
		call     evm.CallMsg
	}{
		{"to", "a contract creation (Create) has no target, but To is 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", evm.CallMsg{Create: true, To: token}},
		{"gasPrice", "negative amount -1", evm.CallMsg{GasPrice: big.NewInt(-1)}},
		{"maxFeePerGas", "negative amount -2", evm.CallMsg{MaxFeePerGas: big.NewInt(-2)}},
		{"maxPriorityFeePerGas", "negative amount -3", evm.CallMsg{MaxPriorityFeePerGas: big.NewInt(-3)}},
		{"value", "negative amount -4", evm.CallMsg{Value: big.NewInt(-4)}},
		{"maxFeePerBlobGas", "negative amount -5", evm.CallMsg{MaxFeePerBlobGas: big.NewInt(-5)}},
		{"gasPrice", "set together with maxFeePerGas or maxPriorityFeePerGas: give a legacy gas price or EIP-1559 fees, not both",
			evm.CallMsg{GasPrice: big.NewInt(1), MaxFeePerGas: big.NewInt(1)}},
		{"gasPrice", "set together with maxFeePerGas or maxPriorityFeePerGas: give a legacy gas price or EIP-1559 fees, not both",
			evm.CallMsg{GasPrice: big.NewInt(1), MaxPriorityFeePerGas: big.NewInt(0)}},
		{"maxPriorityFeePerGas", "11 is above maxFeePerGas 10", evm.CallMsg{MaxFeePerGas: big.NewInt(10), MaxPriorityFeePerGas: big.NewInt(11)}},
		{"blobVersionedHashes", "a blob call cannot be a contract creation (Create)", evm.CallMsg{Create: true, BlobHashes: []common.Hash{}}},
		{"authorizationList", "a call with an authorization list cannot be a contract creation (Create)",
			evm.CallMsg{Create: true, AuthorizationList: []types.SetCodeAuthorization{}}},
	}
	for _, tc := range cases {
		t.Run(tc.arg+" "+tc.msg, func(t *testing.T) {
			_, err := c.Call(context.Background(), tc.call, evm.Latest)
			oe, _ := testkit.RequireInputError(t, err, tc.arg)
			assert.Equal(t, "evm", oe.Chain)
			assert.Equal(t, "evm: eth_call: invalid input: "+tc.arg+": "+tc.msg, err.Error())
			testkit.AssertErrNoKey(t, testKey, err)
		})
	}
	// The go-ethereum path refuses the same way.
	to := token
	_, err = c.ContractCaller().CallContract(context.Background(), ethereum.CallMsg{To: &to, GasPrice: big.NewInt(1), GasFeeCap: big.NewInt(2)}, nil)
	testkit.RequireInputError(t, err, "gasPrice")
}

// captureParams returns the params of the one JSON-RPC request do sends to a
// local server, as a generic JSON value.
func captureParams(t *testing.T, do func(url string)) []any {
	t.Helper()
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"0x"}`)
	}))
	defer srv.Close()
	do(srv.URL)
	var req struct{ Params []any }
	require.NoError(t, json.Unmarshal(body, &req), "%s", body)
	return req.Params
}

// TestCallContractMatchesEthclient sends the same go-ethereum CallMsgs
// through go-ethereum's own ethclient and through CallContract: the call
// objects must hold the same members with the same values (ethclient sends
// the call data as "input", this package as "data"; see the package doc).
func TestCallContractMatchesEthclient(t *testing.T) {
	to, zero := token, common.Address{}
	msgs := map[string]ethereum.CallMsg{
		"to and data":   {To: &to, Data: []byte{1, 2}},
		"zero address":  {To: &zero},
		"creation":      {From: sender, Data: []byte{0x60, 0x00}, Value: big.NewInt(5)},
		"legacy":        {From: sender, To: &to, Gas: 50000, GasPrice: big.NewInt(7), Value: big.NewInt(0)},
		"EIP-1559":      {To: &to, GasFeeCap: big.NewInt(100), GasTipCap: big.NewInt(2), AccessList: types.AccessList{{Address: sender, StorageKeys: []common.Hash{slot2}}}},
		"blob":          {To: &to, GasFeeCap: big.NewInt(1), BlobGasFeeCap: big.NewInt(9), BlobHashes: []common.Hash{blobHash}},
		"authorization": {To: &to, AuthorizationList: []types.SetCodeAuthorization{auth}},
	}
	for name, msg := range msgs {
		t.Run(name, func(t *testing.T) {
			want := captureParams(t, func(url string) {
				ec, err := ethclient.Dial(url)
				require.NoError(t, err)
				defer ec.Close()
				_, err = ec.CallContract(context.Background(), msg, nil)
				require.NoError(t, err)
			})
			got := captureParams(t, func(url string) {
				c, err := evm.New(url, testKey)
				require.NoError(t, err)
				_, err = c.ContractCaller().CallContract(context.Background(), msg, nil)
				require.NoError(t, err)
			})
			wantObj := want[0].(map[string]any)
			if in, ok := wantObj["input"]; ok {
				delete(wantObj, "input")
				wantObj["data"] = in
			}
			// ethclient always sends from and to, null or the zero address
			// when unset; a missing from is the zero address for the node.
			if wantObj["from"] == "0x0000000000000000000000000000000000000000" {
				delete(wantObj, "from")
			}
			if wantObj["to"] == nil {
				delete(wantObj, "to")
			}
			assert.Equal(t, wantObj, got[0])
			assert.Equal(t, want[1], got[1])
		})
	}
}
