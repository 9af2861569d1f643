package evmtest_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each lie changes what its methods answer over HTTP, single or batched,
// and Lie(evmtest.Lie{}) tells the truth again; the chain is unchanged.
func TestLie(t *testing.T) {
	t.Parallel()
	srv := evmtest.NewT(t)
	c, err := srv.Client()
	require.NoError(t, err)
	ctx := context.Background()
	holder := evmtest.Holder()
	truth := func() (bal *big.Int, code []byte, p *evm.AccountProof, head hexutil.Uint64) {
		var b evm.Batch
		br := evm.Add[hexutil.Big](&b, "eth_getBalance", holder, evm.Latest)
		cr := evm.Add[hexutil.Bytes](&b, "eth_getCode", evmtest.Token(), evm.Latest)
		pr := evm.Add[*evm.AccountProof](&b, "eth_getProof", evmtest.Token(), []common.Hash{{}}, evm.Latest)
		hr := evm.Add[struct {
			Number hexutil.Uint64 `json:"number"`
		}](&b, "eth_getBlockByNumber", evm.Latest, false)
		require.NoError(t, c.SendBatch(ctx, &b))
		bv, err := br.Result()
		require.NoError(t, err)
		cv, err := cr.Result()
		require.NoError(t, err)
		pv, err := pr.Result()
		require.NoError(t, err)
		hv, err := hr.Result()
		require.NoError(t, err)
		return bv.ToInt(), cv, pv, hv.Number
	}
	bal, code, p, head := truth()
	srv.Lie(evmtest.Lie{Balance: true, Slot: true, Code: true, DropNode: true, Header: true})
	lbal, lcode, lp, lhead := truth()
	assert.Equal(t, new(big.Int).Add(bal, big.NewInt(1)), lbal)
	assert.Equal(t, append(code, 0), lcode)
	assert.Equal(t, new(big.Int).Add(p.Balance, big.NewInt(1)), lp.Balance)
	assert.Equal(t, new(big.Int).Add(p.StorageProof[0].Value, big.NewInt(1)), lp.StorageProof[0].Value)
	assert.Equal(t, p.AccountProof[:len(p.AccountProof)-1], lp.AccountProof)
	assert.Equal(t, head-1, lhead, "the header of the block before")
	srv.Lie(evmtest.Lie{ExtraNode: true, OtherRoot: true})
	_, _, lp, _ = truth()
	assert.Equal(t, lp.AccountProof[0], lp.AccountProof[len(lp.AccountProof)-1])
	assert.NotEqual(t, p.AccountProof[0], lp.AccountProof[0], "the root node of the block before")
	srv.Lie(evmtest.Lie{AccessList: true})
	var res struct {
		AccessList []struct {
			StorageKeys []common.Hash `json:"storageKeys"`
		} `json:"accessList"`
	}
	data := append(crypto.Keccak256([]byte("balanceOf(address)"))[:4], common.LeftPadBytes(holder[:], 32)...)
	require.NoError(t, c.CallContext(ctx, &res, "eth_createAccessList", evm.CallMsg{To: evmtest.Token(), Data: data}, evm.Latest))
	require.Len(t, res.AccessList, 1)
	assert.Empty(t, res.AccessList[0].StorageKeys, "the slot balanceOf reads is left out")
	srv.Lie(evmtest.Lie{})
	b2, c2, p2, h2 := truth()
	assert.Equal(t, bal, b2)
	assert.Equal(t, code, c2)
	assert.Equal(t, p, p2)
	assert.Equal(t, head, h2)
	got, err := srv.EthClient().BalanceAt(ctx, holder, nil)
	require.NoError(t, err)
	assert.Equal(t, bal, got, "the chain itself never lied")
}
