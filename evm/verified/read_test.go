package verified_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReads(t *testing.T) {
	t.Parallel()
	srv := node(t)
	v := client(t, srv)
	ctx := context.Background()
	holder, other := evmtest.Holder(), evmtest.Accounts()[1].Address

	var bal hexutil.Big
	require.NoError(t, srv.EthClient().Client().CallContext(ctx, &bal, "eth_getBalance", holder, "latest"))
	got, err := v.Balance(ctx, holder, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, bal.ToInt(), got)

	acc, err := v.Account(ctx, holder, nil)
	require.NoError(t, err)
	assert.Equal(t, uint64(5), acc.Nonce, "Holder signed the scenario's five transactions")
	assert.Equal(t, types.EmptyCodeHash, acc.CodeHash)
	assert.Equal(t, types.EmptyRootHash, acc.StorageRoot)

	w, err := v.StorageAt(ctx, evmtest.Token(), balanceSlot(holder), evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, common.BigToHash(big.NewInt(1_200_000_000)), w, "Holder had 1234.567891 LUSD and sent 34.567891 in block 5")
	w, err = v.StorageAt(ctx, evmtest.Token(), balanceSlot(other), evm.Finalized)
	require.NoError(t, err)
	assert.Equal(t, common.BigToHash(big.NewInt(500_000_000)), w, "at the finalized block (genesis) Accounts()[1] holds 500 LUSD")
	w, err = v.StorageAt(ctx, evmtest.Token(), totalSupplySlot, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, common.BigToHash(big.NewInt(1_734_567_892)), w)
	w, err = v.StorageAt(ctx, evmtest.Token(), neverWritten, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, common.Hash{}, w, "a slot never written is proven zero")

	code, err := v.Code(ctx, evmtest.Token(), evm.Latest)
	require.NoError(t, err)
	want, err := srv.EthClient().CodeAt(ctx, evmtest.Token(), nil)
	require.NoError(t, err)
	assert.Equal(t, want, code)
	tok, err := v.Account(ctx, evmtest.Token(), evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, crypto.Keccak256Hash(code), tok.CodeHash)

	// An account the chain has never seen: proven absent, so empty.
	acc, err = v.Account(ctx, nobody, evm.Latest)
	require.NoError(t, err)
	assert.Zero(t, acc.Balance.Sign())
	assert.Equal(t, types.EmptyCodeHash, acc.CodeHash)
	code, err = v.Code(ctx, nobody, evm.Latest)
	require.NoError(t, err)
	assert.Empty(t, code)
	w, err = v.StorageAt(ctx, nobody, neverWritten, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, common.Hash{}, w)
}
