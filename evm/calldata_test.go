package evm_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

func ptr[T any](v T) *T { return &v }

// TestCallMsgNonceChainIDType pins the bytes of the spec's nonce, chainId
// and type members: sent when set (a nonce and a type of 0 included), left
// out when nil.
func TestCallMsgNonceChainIDType(t *testing.T) {
	const to = `"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"`
	cases := []struct {
		name string
		msg  evm.CallMsg
		obj  string
	}{
		{"nonce 0 is sent", evm.CallMsg{To: token, Nonce: ptr(uint64(0))}, `{` + to + `,"nonce":"0x0"}`},
		{"nonce", evm.CallMsg{To: token, Nonce: ptr(uint64(255))}, `{` + to + `,"nonce":"0xff"}`},
		{"chain id", evm.CallMsg{To: token, ChainID: big.NewInt(999)}, `{` + to + `,"chainId":"0x3e7"}`},
		{"legacy type 0 is sent", evm.CallMsg{To: token, Type: ptr(uint8(0))}, `{` + to + `,"type":"0x0"}`},
		{"EIP-1559 type", evm.CallMsg{To: token, Type: ptr(uint8(2)), MaxFeePerGas: big.NewInt(1)}, `{` + to + `,"maxFeePerGas":"0x1","type":"0x2"}`},
		{"all three with data", evm.CallMsg{To: token, Data: []byte{1}, Nonce: ptr(uint64(7)), ChainID: big.NewInt(1), Type: ptr(uint8(0x7f))},
			`{` + to + `,"data":"0x01","nonce":"0x7","chainId":"0x1","type":"0x7f"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := gockClient(t)
			mockRPC(t, "/"+testKey,
				`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[`+tc.obj+`,"latest"]}`,
				`{"jsonrpc":"2.0","id":1,"result":"0x"}`)
			_, err := c.Call(context.Background(), tc.msg, evm.Latest)
			require.NoError(t, err)
		})
	}
}

// TestCallMsgNonceChainIDTypeRefused: a type outside EIP-2718's range and
// a negative chain id are refused, naming the member, nothing sent.
func TestCallMsgNonceChainIDTypeRefused(t *testing.T) {
	c, err := evm.New(testBase, testKey, nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))
	require.NoError(t, err)
	for arg, tc := range map[string]struct {
		msg    evm.CallMsg
		reason string
	}{
		"type":    {evm.CallMsg{Type: ptr(uint8(0x80))}, "0x80 is not an EIP-2718 transaction type (0x0 to 0x7f)"},
		"chainId": {evm.CallMsg{ChainID: big.NewInt(-1)}, "negative amount -1"},
	} {
		_, err := c.Call(context.Background(), tc.msg, evm.Latest)
		_, ie := testkit.RequireInputError(t, err, arg)
		assert.Equal(t, tc.reason, ie.Reason)
	}
}

// TestWithCallDataMembers: each spelling reaches every call object the
// client sends, alone, in a batch and in a Multicall's aggregate, with the
// same bytes under each name; without the option the data goes as "data".
func TestWithCallDataMembers(t *testing.T) {
	const to = `"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"`
	for _, tc := range []struct {
		opts []nodeaccess.Option
		data string
	}{
		{nil, `"data":"0xabcd"`},
		{[]nodeaccess.Option{evm.WithCallDataMembers("data")}, `"data":"0xabcd"`},
		{[]nodeaccess.Option{evm.WithCallDataMembers("input")}, `"input":"0xabcd"`},
		{[]nodeaccess.Option{evm.WithCallDataMembers("data", "input")}, `"data":"0xabcd","input":"0xabcd"`},
		{[]nodeaccess.Option{evm.WithCallDataMembers("input", "data")}, `"data":"0xabcd","input":"0xabcd"`},
	} {
		t.Run(tc.data, func(t *testing.T) {
			msg := evm.CallMsg{To: token, Data: []byte{0xab, 0xcd}}
			c := gockClient(t, tc.opts...)
			mockRPC(t, "/"+testKey,
				`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{`+to+`,`+tc.data+`},"latest"]}`,
				`{"jsonrpc":"2.0","id":1,"result":"0x"}`)
			_, err := c.Call(context.Background(), msg, evm.Latest)
			require.NoError(t, err)

			// In a batch, made before the client was known.
			var b evm.Batch
			r := b.Call(msg, evm.Latest)
			mockRPC(t, "/"+testKey,
				`[{"jsonrpc":"2.0","id":2,"method":"eth_call","params":[{`+to+`,`+tc.data+`},"latest"]}]`,
				`[{"jsonrpc":"2.0","id":2,"result":"0x01"}]`)
			require.NoError(t, c.SendBatch(context.Background(), &b))
			out, err := r.Result()
			require.NoError(t, err)
			assert.Equal(t, []byte{1}, out)

			// A Multicall's aggregate (aggregate3 of one call of
			// 0xabcd to Multicall3 itself, allowed to fail): no data in
			// the answer is the not-deployed error.
			mockRPC(t, "/"+testKey,
				`{"jsonrpc":"2.0","id":3,"method":"eth_call","params":[{"to":"0xca11bde05977b3631167028862be2a173976ca11",`+
					dataMember(tc.data, "0x82ad56cb000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000020000000000000000000000000ca11bde05977b3631167028862be2a173976ca11000000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000000000600000000000000000000000000000000000000000000000000000000000000002abcd000000000000000000000000000000000000000000000000000000000000")+
					`},"latest"]}`,
				`{"jsonrpc":"2.0","id":3,"result":"0x"}`)
			_, err = c.Multicall(context.Background(), []evm.Call3{{Target: evm.Multicall3Address(), Data: msg.Data, AllowFailure: true}}, evm.Latest, evm.MulticallOptions{})
			require.ErrorIs(t, err, evm.ErrMulticallNotDeployed)
		})
	}
}

// dataMember rewrites the call data members of spelling (as in
// TestWithCallDataMembers) to hold hex.
func dataMember(spelling, hex string) string {
	switch spelling {
	case `"input":"0xabcd"`:
		return `"input":"` + hex + `"`
	case `"data":"0xabcd","input":"0xabcd"`:
		return `"data":"` + hex + `","input":"` + hex + `"`
	}
	return `"data":"` + hex + `"`
}

// TestWithCallDataMembersRefused: a name that is not a call data member,
// none, or one twice fails New with an input error naming the option.
func TestWithCallDataMembersRefused(t *testing.T) {
	for names, want := range map[string][]string{
		`"Data" is not a call data member: give "data", "input" or both`: {"Data"},
		`no member name: give "data", "input" or both`:                   {},
		`"input" given twice`: {"input", "data", "input"},
	} {
		_, err := evm.New(testBase, testKey, evm.WithCallDataMembers(want...))
		require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie)
		assert.Equal(t, "option", ie.Arg)
		assert.Contains(t, ie.Reason, "WithCallDataMembers: "+names)
	}
}

// TestInputSpellingMatchesEthclient: with WithCallDataMembers("input"),
// CallContract sends the call object go-ethereum's ethclient sends, member
// for member, the data as "input" (ethclient also sends a zero from and a
// null to, which the node reads as absent).
func TestInputSpellingMatchesEthclient(t *testing.T) {
	to := token
	for name, msg := range map[string]ethereum.CallMsg{
		"data":     {To: &to, Data: []byte{1, 2}},
		"creation": {From: sender, Data: []byte{0x60, 0x00}, Value: big.NewInt(5)},
		"no data":  {From: sender, To: &to, Gas: 50000, GasPrice: big.NewInt(7)},
	} {
		t.Run(name, func(t *testing.T) {
			want := captureParams(t, func(url string) {
				ec, err := ethclient.Dial(url)
				require.NoError(t, err)
				defer ec.Close()
				_, err = ec.CallContract(context.Background(), msg, nil)
				require.NoError(t, err)
			})
			got := captureParams(t, func(url string) {
				c, err := evm.New(url, testKey, evm.WithCallDataMembers("input"))
				require.NoError(t, err)
				_, err = c.ContractCaller().CallContract(context.Background(), msg, nil)
				require.NoError(t, err)
			})
			wantObj := want[0].(map[string]any)
			if wantObj["from"] == (common.Address{}).Hex() || wantObj["from"] == "0x0000000000000000000000000000000000000000" {
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
