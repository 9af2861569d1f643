package evm_test

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBlockNumberAndChainIDRecorded: the two typed calls send what the
// execution-apis conformance tests send (with params []) and decode what
// go-ethereum answered there.
func TestBlockNumberAndChainIDRecorded(t *testing.T) {
	c := gockClient(t)
	bn := readExchange(t, "eth_blockNumber.io")
	mockRPC(t, "/"+testKey, withParams(bn.request), bn.response)
	n, err := c.BlockNumber(context.Background())
	require.NoError(t, err)
	assert.Equal(t, uint64(20), n)

	id := readExchange(t, "eth_chainId.io")
	// The client's second call has id 2.
	mockRPC(t, "/"+testKey, withParams(replaceID(id.request, 2)), replaceID(id.response, 2))
	got, err := c.ChainID(context.Background())
	require.NoError(t, err)
	want, _ := new(big.Int).SetString("c72dd9d5e883e", 16)
	assert.Equal(t, want, got)
}

// replaceID gives a recorded message (id 1) another id.
func replaceID(msg string, id int) string {
	return strings.Replace(msg, `"id":1`, `"id":`+itoa(id), 1)
}

// TestBlockNumberAndChainIDAnswers: the results nodes send decode (leading
// zeros included, as servers differ); anything else is an
// ErrInvalidResponse error that shows the body, with the key masked, and a
// node's error object is an *RPCError.
func TestBlockNumberAndChainIDAnswers(t *testing.T) {
	for _, tc := range []struct {
		result string
		n      uint64
		bad    string
	}{
		{`"0x0"`, 0, ""},
		{`"0x01"`, 1, ""},
		{`"0X1b4"`, 436, ""},
		{`"0xffffffffffffffff"`, 1<<64 - 1, ""},
		{`"0x10000000000000000"`, 0, "does not fit in 64 bits"},
		{`"0x"`, 0, "want a hex quantity, got a string without 0x and digits"},
		{`"12"`, 0, "want a hex quantity, got a string without 0x and digits"},
		{`"0x-1"`, 0, "is not one"},
		{`"0xg"`, 0, "is not one"},
		{`18`, 0, "want a hex quantity, got a number"},
		{`null`, 0, "want a hex quantity, got null"},
		{`"0x\u0031"`, 1, ""},
	} {
		t.Run(tc.result, func(t *testing.T) {
			c := gockClient(t)
			mockRPC(t, "/"+testKey, `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`,
				`{"jsonrpc":"2.0","id":1,"result":`+tc.result+`}`)
			mockRPC(t, "/"+testKey, `{"jsonrpc":"2.0","id":2,"method":"eth_chainId","params":[]}`,
				`{"jsonrpc":"2.0","id":2,"result":`+tc.result+`}`)
			n, err := c.BlockNumber(context.Background())
			id, idErr := c.ChainID(context.Background())
			if tc.bad == "" {
				require.NoError(t, err)
				assert.Equal(t, tc.n, n)
				require.NoError(t, idErr)
				assert.Zero(t, new(big.Int).SetUint64(tc.n).Cmp(id), "chain id %s", id)
				return
			}
			require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			assert.Contains(t, err.Error(), "evm: eth_blockNumber: invalid response: eth_blockNumber result: ")
			assert.Contains(t, err.Error(), tc.bad)
			if tc.bad == "does not fit in 64 bits" {
				require.NoError(t, idErr) // a chain id has no such bound
				assert.Equal(t, "18446744073709551616", id.String())
				return
			}
			require.ErrorIs(t, idErr, nodeaccess.ErrInvalidResponse)
			assert.Contains(t, idErr.Error(), "evm: eth_chainId: invalid response: eth_chainId result: ")
		})
	}
	t.Run("error object", func(t *testing.T) {
		c := gockClient(t)
		mockRPC(t, "/"+testKey, `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"key `+testKey+` has no access"}}`)
		_, err := c.ChainID(context.Background())
		var re *nodeaccess.RPCError
		require.ErrorAs(t, err, &re)
		testkit.AssertErrNoKey(t, testKey, err)
	})
	t.Run("a body holding the key", func(t *testing.T) {
		c := gockClient(t)
		mockRPC(t, "/"+testKey, `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`,
			`{"jsonrpc":"2.0","id":1,"result":"`+testKey+`"}`)
		_, err := c.BlockNumber(context.Background())
		require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		testkit.AssertErrNoKey(t, testKey, err)
	})
}
