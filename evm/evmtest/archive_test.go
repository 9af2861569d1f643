package evmtest_test

import (
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The chain is an archive node, as node-access services are: long after
// the 128 blocks whose state go-ethereum keeps by default, the state of
// every block can still be read and every transaction traced.
func TestArchiveState(t *testing.T) {
	t.Parallel()
	s := fresh(t)
	start := time.Now()
	for range 200 {
		s.Commit()
	}
	t.Logf("200 commits: %v", time.Since(start))
	ctx := t.Context()
	n, err := s.EthClient().BlockNumber(ctx)
	require.NoError(t, err)
	require.Equal(t, uint64(205), n)

	c := client(t, s)
	sc := s.Scenario()
	for _, tx := range sc.Transactions() {
		ops, err := c.InternalOperations(ctx, tx.Hash)
		require.NoError(t, err, "block %d", tx.Block)
		assert.Equal(t, view(tx.Operations), view(ops), "block %d", tx.Block)
	}
	status, _, body := post(t, s, "/"+testKey, rpcBody("ots_getInternalOperations", `["`+sc.Transfer.Hash.Hex()+`"]`))
	assert.Equal(t, 200, status)
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":[{"type":0,"from":"0x000000000000000000000000000000000000f044","to":"0x00000000000000000000000000000000000beef1","value":"0x14d1120d7b160000"}]}`, body)

	// eth_call at old blocks: Holder's balance before and after the token
	// transfer of block 5.
	for _, b := range []evm.Block{evm.Earliest, evm.BlockNumber(0), evm.BlockNumber(1), evm.BlockNumber(4)} {
		assert.Equal(t, "1234567891", tokenBig(t, c, evmtest.Token(), b, "balanceOf", evmtest.Holder()), "at %v", b)
	}
	for _, b := range []evm.Block{evm.BlockNumber(5), evm.BlockNumber(77), evm.Latest} {
		assert.Equal(t, "1200000000", tokenBig(t, c, evmtest.Token(), b, "balanceOf", evmtest.Holder()), "at %v", b)
	}
	// eth_getBalance at old blocks: Recipient is paid in block 1.
	for _, tt := range []struct{ block, want string }{
		{"earliest", "0x0"}, {"0x0", "0x0"}, {"0x1", "0x14d1120d7b160000"}, {"0x64", "0x14d1120d7b160000"},
	} {
		_, _, body := post(t, s, "/"+testKey, rpcBody("eth_getBalance", `["0x00000000000000000000000000000000000beef1","`+tt.block+`"]`))
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"`+tt.want+`"}`, body, tt.block)
	}
}
