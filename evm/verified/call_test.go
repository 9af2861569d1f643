package verified_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/evm/verified"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// selector is the first 4 bytes of keccak256(sig).
func selector(sig string) []byte { return crypto.Keccak256([]byte(sig))[:4] }

// balanceOf is the token's balanceOf(who) call data.
func balanceOf(who common.Address) []byte {
	return append(selector("balanceOf(address)"), common.LeftPadBytes(who[:], 32)...)
}

// The differential check: a verified call returns exactly what evmtest's
// own eth_call returns, for the token's views, at the head and at the
// finalized block, and a revert as an *evm.RevertError.
func TestCallEqualsNode(t *testing.T) {
	t.Parallel()
	srv := node(t)
	v := client(t, srv)
	plain, err := srv.Client()
	require.NoError(t, err)
	ctx := context.Background()
	calls := []evm.CallMsg{
		{To: evmtest.Token(), Data: balanceOf(evmtest.Holder())},
		{To: evmtest.Token(), Data: balanceOf(evmtest.Accounts()[1].Address)},
		{To: evmtest.Token(), Data: balanceOf(nobody)},
		{To: evmtest.Token(), Data: selector("totalSupply()")},
		{To: evmtest.Token(), Data: selector("name()")},
		{To: evmtest.Token(), Data: selector("decimals()")},
		{From: evmtest.Holder(), To: evmtest.Token(), Data: append(selector("transfer(address,uint256)"), append(common.LeftPadBytes(nobody[:], 32), common.LeftPadBytes(big.NewInt(5).Bytes(), 32)...)...)},
		{To: nobody}, // no code: empty
		{To: evm.Multicall3Address(), Data: selector("getBlockNumber()")},
		{To: evm.Multicall3Address(), Data: selector("getBasefee()")},
		{To: evm.Multicall3Address(), Data: selector("getCurrentBlockTimestamp()")},
		{To: evm.Multicall3Address(), Data: append(selector("getEthBalance(address)"), common.LeftPadBytes(evmtest.Holder().Bytes(), 32)...)},
	}
	for _, b := range []evm.Block{evm.Latest, evm.Finalized} {
		for i, msg := range calls {
			want, werr := plain.Call(ctx, msg, verifiedAt(t, srv, b))
			got, err := v.Call(ctx, msg, b)
			require.NoError(t, werr, "call %d at %v", i, b)
			require.NoError(t, err, "call %d at %v", i, b)
			assert.Equal(t, want, got, "call %d at %v", i, b)
		}
	}
	// 1234.567891 LUSD less the 34.567891 sent in block 5.
	out, err := v.Call(ctx, calls[0], evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, big.NewInt(1_200_000_000), new(big.Int).SetBytes(out))

	// A revert: a transfer of more than the sender holds.
	over := evm.CallMsg{From: nobody, To: evmtest.Token(), Data: append(selector("transfer(address,uint256)"), append(common.LeftPadBytes(nobody[:], 32), common.LeftPadBytes(big.NewInt(5).Bytes(), 32)...)...)}
	_, werr := plain.Call(ctx, over, evm.Latest)
	_, err = v.Call(ctx, over, evm.Latest)
	var wrev, rev *evm.RevertError
	require.ErrorAs(t, werr, &wrev)
	require.ErrorAs(t, err, &rev)
	assert.Equal(t, wrev.Data, rev.Data)
	assert.Equal(t, wrev.Reason, rev.Reason)
	assert.ErrorIs(t, err, evm.ErrReverted)
}

// verifiedAt is the block b selects on srv, by number, for the plain call.
func verifiedAt(t *testing.T, srv *evmtest.Server, b evm.Block) evm.Block {
	t.Helper()
	head, fin, err := chainAnchor{srv}.ExecutionBlocks(context.Background())
	require.NoError(t, err)
	if b == evm.Finalized {
		return evm.BlockHash{Hash: fin}
	}
	return evm.BlockHash{Hash: head}
}

// A call touching 10 accounts costs 2 round trips: the access list (with
// the header and the chain id), then one batch of proofs and code.
func TestCallRoundTrips(t *testing.T) {
	t.Parallel()
	srv := evmtest.NewT(t) // its own: RequestCount counts this test's requests only
	v := client(t, srv)
	ctx := context.Background()
	msg := tenAccounts()
	_, err := v.Call(ctx, msg, evm.Latest) // learns the chain id
	require.NoError(t, err)
	before := srv.RequestCount()
	out, err := v.Call(ctx, msg, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, 2, srv.RequestCount()-before, "HTTP requests")
	plain, err := srv.Client()
	require.NoError(t, err)
	want, err := plain.Call(ctx, msg, verifiedAt(t, srv, evm.Latest))
	require.NoError(t, err)
	assert.Equal(t, want, out)
	// balanceOf: the access list names the callee's slot.
	before = srv.RequestCount()
	_, err = v.Call(ctx, evm.CallMsg{To: evmtest.Token(), Data: balanceOf(evmtest.Holder())}, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, 2, srv.RequestCount()-before, "HTTP requests of balanceOf")
}

// tenAccounts is a Multicall3 aggregate3 reading the ether balance of 9
// accounts through Multicall3 (which the call touches too): a call that
// touches 10 accounts, and the sender.
func tenAccounts() evm.CallMsg {
	call3, _ := abi.NewType("tuple[]", "", []abi.ArgumentMarshaling{
		{Name: "target", Type: "address"}, {Name: "allowFailure", Type: "bool"}, {Name: "callData", Type: "bytes"}})
	type c3 struct {
		Target       common.Address
		AllowFailure bool
		CallData     []byte
	}
	var calls []c3
	for i := range 9 {
		a := common.BigToAddress(big.NewInt(int64(0x1000 + i)))
		if i < 4 {
			a = evmtest.Accounts()[i].Address
		}
		calls = append(calls, c3{Target: evm.Multicall3Address(), CallData: append(selector("getEthBalance(address)"), common.LeftPadBytes(a[:], 32)...)})
	}
	args, err := abi.Arguments{{Type: call3}}.Pack(calls)
	if err != nil {
		panic(err)
	}
	return evm.CallMsg{From: evmtest.Holder(), To: evm.Multicall3Address(), Data: append(selector("aggregate3((address,bool,bytes)[])"), args...)}
}

var _ = nodeaccess.ErrUnverified

// The chain id is the provider's word: one whose fork schedule the
// anchored header does not follow is refused as a lie, one of no known
// chain as input the call cannot run on.
func TestCallChainID(t *testing.T) {
	t.Parallel()
	srv := node(t)
	ctx := context.Background()
	call := evm.CallMsg{To: evmtest.Token(), Data: balanceOf(evmtest.Holder())}
	v := client(t, srv, nodeaccess.WithRoundTripper(rewrite{`"result":"0x539"`, `"result":"0x1"`}))
	_, err := v.Call(ctx, call, evm.Latest)
	require.ErrorIs(t, err, nodeaccess.ErrUnverified)
	assert.Contains(t, err.Error(), "the chain id the provider gives (1) has London active at block")
	v = client(t, srv, nodeaccess.WithRoundTripper(rewrite{`"result":"0x539"`, `"result":"0x2"`}))
	_, err = v.Call(ctx, call, evm.Latest)
	var ie *nodeaccess.InputError
	require.ErrorAs(t, err, &ie)
	assert.Contains(t, ie.Reason, "chain id 2: no fork schedule known")
}

// Overrides cannot be proven: refused before anything is sent.
func TestCallRefusedInput(t *testing.T) {
	c, err := evm.New("https://node.example", "k3y", nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))
	require.NoError(t, err)
	v, err := verified.New(c, fixedAnchor{})
	require.NoError(t, err)
	ctx := context.Background()
	for _, tc := range []struct {
		msg evm.CallMsg
		arg string
	}{
		{evm.CallMsg{To: evmtest.Token(), StateOverride: evm.StateOverride{}}, "msg.StateOverride"},
		{evm.CallMsg{To: evmtest.Token(), BlockOverride: &evm.BlockOverride{}}, "msg.BlockOverride"},
		{evm.CallMsg{To: evmtest.Token(), Create: true}, "msg.To"},
	} {
		_, err := v.Call(ctx, tc.msg, evm.Latest)
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie)
		assert.Equal(t, tc.arg, ie.Arg)
	}
	_, err = v.Call(ctx, evm.CallMsg{To: evmtest.Token()}, evm.Pending)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
}

// BLOCKHASH of the parent is the anchored header's parent hash; of any
// other block it is not proven here, and the call is refused, not guessed.
func TestCallBlockHash(t *testing.T) {
	t.Parallel()
	srv := node(t)
	v := client(t, srv)
	ctx := context.Background()
	head, err := srv.EthClient().HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	getBlockHash := func(n uint64) evm.CallMsg {
		return evm.CallMsg{To: evm.Multicall3Address(), Data: append(selector("getBlockHash(uint256)"), common.LeftPadBytes(new(big.Int).SetUint64(n).Bytes(), 32)...)}
	}
	out, err := v.Call(ctx, getBlockHash(head.Number.Uint64()-1), evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, head.ParentHash, common.BytesToHash(out))
	_, err = v.Call(ctx, getBlockHash(head.Number.Uint64()-2), evm.Latest)
	require.ErrorIs(t, err, nodeaccess.ErrUnverified)
	assert.Contains(t, err.Error(), "reads the hash of block")
}
