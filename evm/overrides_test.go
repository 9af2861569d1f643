package evm_test

import (
	"context"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient/gethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func u64(v uint64) *uint64 { return &v }

// overrides are a call's two override fields, for the tables below.
type overrides struct {
	State evm.StateOverride
	Block *evm.BlockOverride
}

// TestCallOverridesWire pins the bytes of the third and fourth params.
func TestCallOverridesWire(t *testing.T) {
	const (
		call = `{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"latest"`
		s1   = `"0x0000000000000000000000000000000000000000000000000000000000000001"`
		s2   = `"0x0000000000000000000000000000000000000000000000000000000000000002"`
	)
	coinbase, randao := sender, slot2
	cases := []struct {
		name string
		ov   overrides
		tail string
	}{
		{"none", overrides{}, ``},
		{"empty state", overrides{State: evm.StateOverride{}}, `,{}`},
		{"block only sends an empty state", overrides{Block: &evm.BlockOverride{Number: big.NewInt(1)}}, `,{},{"number":"0x1"}`},
		{"empty block", overrides{Block: &evm.BlockOverride{}}, `,{},{}`},
		{"every account field, addresses and slots in order", overrides{State: evm.StateOverride{
			token:  {Balance: big.NewInt(0), Nonce: u64(0), Code: []byte{}, StateDiff: map[common.Hash]common.Hash{slot2: slot1, slot1: slot2}},
			sender: {Balance: big.NewInt(1000), Nonce: u64(5), Code: []byte{0x60, 0x00}, State: map[common.Hash]common.Hash{}},
		}}, `,{"0x00000000219ab540356cbb839cbe05303d7705fa":{"balance":"0x3e8","nonce":"0x5","code":"0x6000","state":{}},` +
			`"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48":{"balance":"0x0","nonce":"0x0","code":"0x","stateDiff":{` + s1 + `:` + s2 + `,` + s2 + `:` + s1 + `}}}`},
		{"an account with nothing set", overrides{State: evm.StateOverride{token: {}}}, `,{"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48":{}}`},
		{"every block field", overrides{State: evm.StateOverride{token: {State: map[common.Hash]common.Hash{slot1: slot2}}}, Block: &evm.BlockOverride{
			Number: big.NewInt(20_000_000), Time: u64(1_700_000_000), GasLimit: u64(30_000_000), FeeRecipient: &coinbase,
			PrevRandao: &randao, BaseFee: big.NewInt(7), BlobBaseFee: big.NewInt(0),
		}}, `,{"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48":{"state":{` + s1 + `:` + s2 + `}}},` +
			`{"number":"0x1312d00","time":"0x6553f100","gasLimit":"0x1c9c380","feeRecipient":"0x00000000219ab540356cbb839cbe05303d7705fa","prevRandao":` + s2 + `,"baseFeePerGas":"0x7","blobBaseFee":"0x0"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := gockClient(t)
			mockRPC(t, "/"+testKey,
				`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[`+call+tc.tail+`]}`,
				`{"jsonrpc":"2.0","id":1,"result":"`+word+`"}`)
			out, err := c.Call(context.Background(), evm.CallMsg{To: token, StateOverride: tc.ov.State, BlockOverride: tc.ov.Block}, evm.Latest)
			require.NoError(t, err)
			assert.Equal(t, common.FromHex(word), out)
		})
	}
}

// TestCallOverridesRefused: bad overrides name the member and send
// nothing.
func TestCallOverridesRefused(t *testing.T) {
	c, err := evm.New(testBase, testKey, nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))
	require.NoError(t, err)
	both := map[common.Hash]common.Hash{}
	cases := []struct {
		arg, msg string
		ov       overrides
	}{
		{"stateOverride[0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48].state", "state and stateDiff both set: state replaces the whole storage, stateDiff some slots; give one",
			overrides{State: evm.StateOverride{token: {State: both, StateDiff: both}}}},
		{"stateOverride[0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48].balance", "negative amount -1",
			overrides{State: evm.StateOverride{token: {Balance: big.NewInt(-1)}}}},
		{"blockOverride.number", "negative amount -2", overrides{Block: &evm.BlockOverride{Number: big.NewInt(-2)}}},
		{"blockOverride.baseFeePerGas", "negative amount -3", overrides{Block: &evm.BlockOverride{BaseFee: big.NewInt(-3)}}},
		{"blockOverride.blobBaseFee", "negative amount -4", overrides{Block: &evm.BlockOverride{BlobBaseFee: big.NewInt(-4)}}},
	}
	for _, tc := range cases {
		t.Run(tc.arg, func(t *testing.T) {
			_, err := c.Call(context.Background(), evm.CallMsg{To: token, StateOverride: tc.ov.State, BlockOverride: tc.ov.Block}, evm.Latest)
			testkit.RequireInputError(t, err, tc.arg)
			assert.Equal(t, "evm: eth_call: invalid input: "+tc.arg+": "+tc.msg, err.Error())
			testkit.AssertErrNoKey(t, testKey, err)
		})
	}
	// A bad message is refused before the overrides are looked at.
	_, err = c.Call(context.Background(), evm.CallMsg{Value: big.NewInt(-1)}, evm.Latest)
	testkit.RequireInputError(t, err, "value")
}

// TestOverridesMatchGethclient sends the same overrides through
// go-ethereum's gethclient and Call: the third and fourth
// params must hold the same members and values. (gethclient cannot send a
// nonce or time of 0, nor blobBaseFee, so those are left out here.)
func TestOverridesMatchGethclient(t *testing.T) {
	coinbase, randao := sender, slot2
	to := token
	gethState := map[common.Address]gethclient.OverrideAccount{
		token:  {Nonce: 3, Code: []byte{}, Balance: big.NewInt(10), StateDiff: map[common.Hash]common.Hash{slot1: slot2, slot2: slot1}},
		sender: {Code: []byte{1, 2}, State: map[common.Hash]common.Hash{}},
	}
	gethBlock := gethclient.BlockOverrides{Number: big.NewInt(99), Time: 1234, GasLimit: 5678, Coinbase: coinbase, Random: randao, BaseFee: big.NewInt(11)}
	ours := overrides{
		State: evm.StateOverride{
			token:  {Nonce: u64(3), Code: []byte{}, Balance: big.NewInt(10), StateDiff: map[common.Hash]common.Hash{slot1: slot2, slot2: slot1}},
			sender: {Code: []byte{1, 2}, State: map[common.Hash]common.Hash{}},
		},
		Block: &evm.BlockOverride{Number: big.NewInt(99), Time: u64(1234), GasLimit: u64(5678), FeeRecipient: &coinbase, PrevRandao: &randao, BaseFee: big.NewInt(11)},
	}
	want := captureParams(t, func(url string) {
		rc, err := rpc.Dial(url)
		require.NoError(t, err)
		defer rc.Close()
		_, err = gethclient.New(rc).CallContractWithBlockOverrides(context.Background(), ethereum.CallMsg{To: &to}, nil, &gethState, gethBlock)
		require.NoError(t, err)
	})
	got := captureParams(t, func(url string) {
		c, err := evm.New(url, testKey)
		require.NoError(t, err)
		_, err = c.Call(context.Background(), evm.CallMsg{To: token, StateOverride: ours.State, BlockOverride: ours.Block}, evm.Latest)
		require.NoError(t, err)
	})
	require.Len(t, want, 4)
	require.Len(t, got, 4)
	norm := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	assert.Equal(t, norm(want[2]), norm(got[2]))
	assert.Equal(t, norm(want[3]), norm(got[3]))
}
