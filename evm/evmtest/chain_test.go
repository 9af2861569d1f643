package evmtest_test

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tokenCall runs a token view function through the evm client and unpacks
// its one result.
func tokenCall(t *testing.T, c *evm.Client, token common.Address, b evm.Block, method string, args ...any) any {
	t.Helper()
	data, err := evmtest.TokenABI().Pack(method, args...)
	require.NoError(t, err)
	out, err := c.Call(t.Context(), evm.CallMsg{To: token, Data: data}, b)
	require.NoError(t, err, method)
	res, err := evmtest.TokenABI().Unpack(method, out)
	require.NoError(t, err, method)
	require.Len(t, res, 1)
	return res[0]
}

// tokenBig is tokenCall for a uint256 result, as a decimal string.
func tokenBig(t *testing.T, c *evm.Client, token common.Address, b evm.Block, method string, args ...any) string {
	t.Helper()
	v, ok := tokenCall(t, c, token, b, method, args...).(*big.Int)
	require.True(t, ok, "%s does not return a uint256", method)
	return v.String()
}

// eth_call is answered by the chain: the genesis token's constants and
// balances, before and after the scenario's token transfer.
func TestTokenThroughEthCall(t *testing.T) {
	t.Parallel()
	s := shared(t)
	c := client(t, s)
	acc := evmtest.Accounts()
	assert.Equal(t, "Local USD", tokenCall(t, c, evmtest.Token(), evm.Latest, "name"))
	assert.Equal(t, "LUSD", tokenCall(t, c, evmtest.Token(), evm.Latest, "symbol"))
	assert.Equal(t, uint8(6), tokenCall(t, c, evmtest.Token(), evm.Latest, "decimals"))
	assert.Equal(t, "1734567892", tokenBig(t, c, evmtest.Token(), evm.Latest, "totalSupply"))

	balances := []struct {
		who           common.Address
		atGenesis     int64
		afterTransfer int64
	}{
		{evmtest.Holder(), 1_234_567_891, 1_200_000_000},
		{acc[1].Address, 500_000_000, 534_567_891},
		{acc[2].Address, 1, 1},
		{acc[3].Address, 0, 0},
	}
	for _, b := range balances {
		for _, blk := range []evm.Block{evm.Earliest, evm.BlockNumber(0), evm.BlockNumber(4)} {
			assert.Equal(t, big.NewInt(b.atGenesis).String(), tokenBig(t, c, evmtest.Token(), blk, "balanceOf", b.who), "%s at %v", b.who, blk)
		}
		for _, blk := range []evm.Block{evm.Latest, evm.BlockNumber(5), evm.Pending} {
			assert.Equal(t, big.NewInt(b.afterTransfer).String(), tokenBig(t, c, evmtest.Token(), blk, "balanceOf", b.who), "%s at %v", b.who, blk)
		}
	}
	assert.Equal(t, big.NewInt(1_234_567_891), evmtest.HolderBalance())
}

// eth_getCode is answered by the chain: the genesis contracts' code, the
// children the scenario made, nothing for accounts.
func TestCodeFromChain(t *testing.T) {
	t.Parallel()
	s := shared(t)
	c := client(t, s)
	ctx := t.Context()
	code, err := c.Code(ctx, evmtest.Token(), evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, evmtest.TokenCode(), code)
	assert.Len(t, code, 1448)

	sc := s.Scenario()
	// The CREATE2 child exists from block 3, not before.
	code, err = c.Code(ctx, sc.Created2, evm.BlockNumber(2))
	require.NoError(t, err)
	assert.Equal(t, []byte{}, code)
	code2, err := c.Code(ctx, sc.Created2, evm.BlockNumber(3))
	require.NoError(t, err)
	assert.NotEmpty(t, code2)
	// Since Cancun a SELFDESTRUCT in a later transaction than the creation
	// keeps the code: the CREATE child still has its code after block 4,
	// the same as its CREATE2 sibling's but for the immutable owner, which
	// is the same too.
	code, err = c.Code(ctx, sc.Created, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, code2, code)

	for _, a := range []common.Address{evmtest.Holder(), evmtest.Recipient(), evmtest.Beneficiary()} {
		code, err := c.Code(ctx, a, evm.Latest)
		require.NoError(t, err)
		assert.Equal(t, []byte{}, code)
	}

	// The value moved: balances read through the in-process client.
	ec := s.EthClient()
	for _, b := range []struct {
		who  common.Address
		want *big.Int
	}{
		{evmtest.Recipient(), evmtest.TransferValue()},
		{evmtest.Beneficiary(), evmtest.CreateValue()},
		{sc.Created, new(big.Int)},
		{evmtest.Forwarder(), new(big.Int)},
	} {
		got, err := ec.BalanceAt(ctx, b.who, nil)
		require.NoError(t, err)
		assert.Equal(t, 0, b.want.Cmp(got), "%s: %s", b.who, got)
	}
}

// WithAlloc adds a token of the user's with balances of the user's.
func TestWithAllocToken(t *testing.T) {
	t.Parallel()
	mine := common.HexToAddress("0x00000000000000000000000000000000000a110c")
	alice := common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	bob := common.HexToAddress("0x0000000000000000000000000000000000000b0b")
	s := fresh(t, evmtest.WithoutScenario(), evmtest.WithAlloc(types.GenesisAlloc{
		mine:  evmtest.TokenAccount(map[common.Address]*big.Int{alice: big.NewInt(7), bob: big.NewInt(3_000_000)}),
		alice: {Balance: big.NewInt(42)},
	}))
	c := client(t, s)
	assert.Equal(t, "7", tokenBig(t, c, mine, evm.Latest, "balanceOf", alice))
	assert.Equal(t, "3000000", tokenBig(t, c, mine, evm.Latest, "balanceOf", bob))
	assert.Equal(t, "3000007", tokenBig(t, c, mine, evm.Latest, "totalSupply"))
	bal, err := s.EthClient().BalanceAt(t.Context(), alice, nil)
	require.NoError(t, err)
	assert.Equal(t, big.NewInt(42), bal)
	// The default token is still there, and the chain is at genesis.
	assert.Equal(t, "1234567891", tokenBig(t, c, evmtest.Token(), evm.Latest, "balanceOf", evmtest.Holder()))
	n, err := s.EthClient().BlockNumber(t.Context())
	require.NoError(t, err)
	assert.Equal(t, uint64(0), n)
}

func TestTransact(t *testing.T) {
	t.Parallel()
	s := fresh(t, evmtest.WithoutScenario())
	ctx := t.Context()
	acc := evmtest.Accounts()
	ec := s.EthClient()

	// A token transfer, mined in block 1.
	tok := evmtest.Token()
	data, err := evmtest.TokenABI().Pack("transfer", acc[3].Address, big.NewInt(1_000_000))
	require.NoError(t, err)
	r, err := s.Transact(ctx, acc[1], &tok, nil, data)
	require.NoError(t, err)
	assert.Equal(t, uint64(1), r.BlockNumber.Uint64())
	assert.Len(t, r.Logs, 1)
	c := client(t, s)
	assert.Equal(t, "1000000", tokenBig(t, c, tok, evm.Latest, "balanceOf", acc[3].Address))
	assert.Equal(t, "0", tokenBig(t, c, tok, evm.BlockNumber(0), "balanceOf", acc[3].Address))

	// A call that reverts is not sent: the estimate fails, no block is made.
	back, err := evmtest.TokenABI().Pack("transfer", acc[2].Address, big.NewInt(1_000_000))
	require.NoError(t, err)
	_, err = s.Transact(ctx, acc[3], &tok, nil, back) // acc[3] holds 1 LUSD, sends 1 LUSD: fine
	require.NoError(t, err)
	_, err = s.Transact(ctx, acc[3], &tok, nil, back) // now it holds none
	assert.ErrorContains(t, err, "evmtest: estimating gas: execution reverted: LUSD: insufficient balance")
	n, err := ec.BlockNumber(ctx)
	require.NoError(t, err)
	assert.Equal(t, uint64(2), n)

	// Factory.create with value, then a bound contract's transact with
	// TransactOpts, mined by Commit.
	factory := evmtest.Factory()
	create, err := evmtest.FactoryABI().Pack("create")
	require.NoError(t, err)
	r, err = s.Transact(ctx, acc[0], &factory, big.NewInt(5), create)
	require.NoError(t, err)
	require.Len(t, r.Logs, 1)
	bound := bind.NewBoundContract(tok, evmtest.TokenABI(), ec, ec, ec)
	opts, err := bind.NewKeyedTransactorWithChainID(acc[1].Key, big.NewInt(evmtest.ChainID))
	require.NoError(t, err)
	opts.Context = ctx
	assert.Equal(t, acc[1].Address, opts.From)
	tx, err := bound.Transact(opts, "transfer", acc[2].Address, big.NewInt(2))
	require.NoError(t, err)
	s.Commit()
	r, err = ec.TransactionReceipt(ctx, tx.Hash())
	require.NoError(t, err)
	assert.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	assert.Equal(t, "1000003", tokenBig(t, c, tok, evm.Latest, "balanceOf", acc[2].Address))

	// SendTransaction + Commit: a signed transfer.
	nonce, err := ec.PendingNonceAt(ctx, acc[2].Address)
	require.NoError(t, err)
	to := acc[3].Address
	tx, err = types.SignNewTx(acc[2].Key, types.LatestSignerForChainID(big.NewInt(evmtest.ChainID)), &types.LegacyTx{
		Nonce: nonce, GasPrice: big.NewInt(10_000_000_000), Gas: 21000, To: &to, Value: big.NewInt(99),
	})
	require.NoError(t, err)
	require.NoError(t, s.SendTransaction(ctx, tx))
	head := s.Commit()
	rc, err := ec.TransactionReceipt(ctx, tx.Hash())
	require.NoError(t, err)
	assert.Equal(t, head, rc.BlockHash)
	assert.Equal(t, types.ReceiptStatusSuccessful, rc.Status)

	// A wrong Account is refused before anything is sent.
	_, err = s.Transact(ctx, evmtest.Account{Key: acc[0].Key, Address: acc[1].Address}, &to, nil, nil)
	assert.EqualError(t, err, "evmtest: Transact: from.Address is not the key's address")
	_, err = s.Transact(ctx, evmtest.Account{Address: acc[1].Address}, &to, nil, nil)
	assert.EqualError(t, err, "evmtest: Transact: from has no key")
}

// The amounts are new big.Ints on every call: a caller that changes one
// changes neither the next call's nor a server's.
func TestAmountsAreCopies(t *testing.T) {
	t.Parallel()
	amounts := []struct {
		name string
		f    func() *big.Int
		want string
	}{
		{"AccountBalance", evmtest.AccountBalance, "10000000000000000000000"},
		{"HolderBalance", evmtest.HolderBalance, "1234567891"},
		{"TransferValue", evmtest.TransferValue, "1500000000000000000"},
		{"CreateValue", evmtest.CreateValue, "250000000000000000"},
		{"TokenTransferAmount", evmtest.TokenTransferAmount, "34567891"},
	}
	for _, a := range amounts {
		v := a.f()
		assert.Equal(t, a.want, v.String(), a.name)
		v.Mul(v, big.NewInt(3))
		assert.NotSame(t, v, a.f(), a.name)
		assert.Equal(t, a.want, a.f().String(), a.name)
	}

	// A server started after that has the amounts of the documentation.
	s := fresh(t)
	ctx := t.Context()
	ec := s.EthClient()
	acc := evmtest.Accounts()
	for _, b := range []struct {
		who  common.Address
		want string
	}{
		{acc[3].Address, "10000000000000000000000"}, // no transaction of its own
		{evmtest.Recipient(), "1500000000000000000"},
		{evmtest.Beneficiary(), "250000000000000000"},
	} {
		got, err := ec.BalanceAt(ctx, b.who, nil)
		require.NoError(t, err)
		assert.Equal(t, b.want, got.String(), b.who.Hex())
	}
	c := client(t, s)
	assert.Equal(t, "1234567891", tokenBig(t, c, evmtest.Token(), evm.Earliest, "balanceOf", evmtest.Holder()))
	assert.Equal(t, "534567891", tokenBig(t, c, evmtest.Token(), evm.Latest, "balanceOf", acc[1].Address))
}

// The pool checks a transaction sent right after a block against that
// block's state, as a node's pool does once it has reset to the new head:
// the nonce just mined is "too low" at once, never "already known" or
// accepted as a replacement for a transaction the block already holds.
// Before Seal waited for the pool's reset, the reset ran in the background
// and CI saw "next nonce 4" for a sender whose fifth transaction the last
// block had mined.
func TestPoolSeesEachNewHead(t *testing.T) {
	t.Parallel()
	s := fresh(t)
	ctx := t.Context()
	acc := evmtest.Accounts()
	from, to := acc[3], acc[2].Address
	signer := types.LatestSignerForChainID(big.NewInt(evmtest.ChainID))
	start, err := s.EthClient().NonceAt(ctx, from.Address, nil)
	require.NoError(t, err)
	for i := range uint64(40) {
		nonce := start + i
		tx, err := types.SignNewTx(from.Key, signer, &types.LegacyTx{Nonce: nonce, GasPrice: big.NewInt(10_000_000_000), Gas: 21000, To: &to, Value: big.NewInt(1)})
		require.NoError(t, err)
		require.NoError(t, s.SendTransaction(ctx, tx))
		s.Commit()
		// The same nonce again, paying more: a replacement while the
		// pool still holds the mined transaction.
		again, err := types.SignNewTx(from.Key, signer, &types.LegacyTx{Nonce: nonce, GasPrice: big.NewInt(20_000_000_000), Gas: 21000, To: &to, Value: big.NewInt(2)})
		require.NoError(t, err)
		err = s.SendTransaction(ctx, again)
		require.EqualError(t, err, fmt.Sprintf("nonce too low: next nonce %d, tx nonce %d", nonce+1, nonce), "block %d", i)
	}
}
