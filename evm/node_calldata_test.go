package evm_test

import (
	"math/big"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNodeCallDataMembers: go-ethereum's EVM reads the call data under
// each spelling WithCallDataMembers offers (its TransactionArgs takes data
// and input, input first).
func TestNodeCallDataMembers(t *testing.T) {
	srv := evmtest.NewT(t, evmtest.WithoutScenario())
	for _, names := range [][]string{{"data"}, {"input"}, {"data", "input"}} {
		c, err := srv.Client(nodeaccess.WithMaxAttempts(1), evm.WithCallDataMembers(names...))
		require.NoError(t, err)
		out, err := c.Call(t.Context(), evm.CallMsg{Create: true, Data: initWord}, evm.Latest)
		require.NoError(t, err, "%v", names)
		assert.Equal(t, simWord(42), out, "%v", names)
	}
}

// TestNodeCallNonceChainIDType: go-ethereum takes a nonce and the chain's
// own id, refuses another chain's id with its own message, and ignores
// the type member.
func TestNodeCallNonceChainIDType(t *testing.T) {
	c := probeNode(t)
	msg := evm.CallMsg{Create: true, Data: initWord, Nonce: ptr(uint64(5)), ChainID: big.NewInt(evmtest.ChainID), Type: ptr(uint8(2))}
	out, err := c.Call(t.Context(), msg, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, simWord(42), out)

	msg.ChainID = big.NewInt(1)
	_, err = c.Call(t.Context(), msg, evm.Latest)
	var re *nodeaccess.RPCError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, -32000, re.Code)
	assert.Equal(t, "chainId does not match node's (have=1, want=1337)", re.Message)
}
