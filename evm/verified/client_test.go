package verified_test

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/evm/verified"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// New refuses a HyperEVM client (no light client anchors its chain), with
// or without history, and nil arguments; it sends nothing.
func TestNewRefuses(t *testing.T) {
	a := fixedAnchor{}
	for _, opts := range [][]evm.Option{nil, {hypercore.WithHistory()}} {
		c, err := hypercore.New("https://node.example", "k3y", append(opts, nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))...)
		require.NoError(t, err)
		_, err = verified.New(c, a)
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie)
		assert.Equal(t, "c", ie.Arg)
		assert.Contains(t, ie.Reason, "HyperEVM has no light client")
	}
	c, err := evm.New("https://node.example", "k3y", nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))
	require.NoError(t, err)
	_, err = verified.New(nil, a)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	_, err = verified.New(c, nil)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	_, err = verified.New(c, a)
	require.NoError(t, err)
}

// The selectors no anchor backs are refused, naming them, before anything
// is sent (the anchor is not even asked).
func TestBlockSelectorsRefused(t *testing.T) {
	c, err := evm.New("https://node.example", "k3y", nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))
	require.NoError(t, err)
	v, err := verified.New(c, fixedAnchor{})
	require.NoError(t, err)
	ctx := context.Background()
	for _, b := range []evm.Block{evm.Pending, evm.Safe, evm.Earliest, evm.Tag("newest")} {
		_, err := v.Balance(ctx, evmtest.Holder(), b)
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie, "%v", b)
		assert.Equal(t, "block", ie.Arg)
		assert.Contains(t, ie.Reason, `tag "`+string(b.(evm.Tag))+`" refused`)
		var oe *nodeaccess.OpError
		require.ErrorAs(t, err, &oe)
	}
	//lint:ignore SA1012 a nil context is what is tested
	_, err = v.Code(nil, evmtest.Holder(), evm.Latest)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
}

// A block number or hash below the head is read when the parent-hash
// chain from the head reaches it (256 blocks at most); past the head, or
// further down, it is refused.
func TestRecentBlocks(t *testing.T) {
	t.Parallel()
	srv := node(t)
	ctx := context.Background()
	head, err := srv.EthClient().HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	top := head.Number.Uint64()
	require.GreaterOrEqual(t, top, uint64(5))
	b4, err := srv.EthClient().HeaderByNumber(ctx, big.NewInt(4))
	require.NoError(t, err)
	c, err := srv.Client()
	require.NoError(t, err)
	v, err := verified.New(c, fixedAnchor{head: head.Hash(), finalized: head.Hash()})
	require.NoError(t, err)
	slot := balanceSlot(evmtest.Holder())
	for _, b := range []evm.Block{evm.BlockNumber(4), evm.BlockHash{Hash: b4.Hash()}} {
		w, err := v.StorageAt(ctx, evmtest.Token(), slot, b)
		require.NoError(t, err, "%v", b)
		assert.Equal(t, common.BigToHash(big.NewInt(1_234_567_891)), w, "before the transfer of block 5 (%v)", b)
	}
	w, err := v.StorageAt(ctx, evmtest.Token(), slot, evm.BlockNumber(top))
	require.NoError(t, err)
	assert.Equal(t, common.BigToHash(big.NewInt(1_200_000_000)), w)
	_, err = v.Balance(ctx, evmtest.Holder(), evm.BlockNumber(top+1))
	var ie *nodeaccess.InputError
	require.ErrorAs(t, err, &ie)
	assert.Contains(t, ie.Reason, "the anchor's head is block")
	// The anchor says block 4 is its head: block 5 is past it, and a hash
	// of a block above it is not on its chain.
	v4, err := verified.New(c, fixedAnchor{head: b4.Hash(), finalized: b4.Hash()})
	require.NoError(t, err)
	_, err = v4.Balance(ctx, evmtest.Holder(), evm.BlockHash{Hash: head.Hash()})
	require.ErrorIs(t, err, nodeaccess.ErrUnverified)
	assert.Contains(t, err.Error(), "not below the anchor's head")
}

// A block more than 256 below the head is refused, naming it, once the
// head's number is known; the 256th is read, its chain of 255 headers
// checked in one batch.
func TestRecentBlocksWindow(t *testing.T) {
	t.Parallel()
	srv := evmtest.NewT(t, evmtest.WithoutScenario())
	for range 260 {
		srv.Commit()
	}
	ctx := context.Background()
	head, err := srv.EthClient().HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	top := head.Number.Uint64()
	c, err := srv.Client()
	require.NoError(t, err)
	v, err := verified.New(c, fixedAnchor{head: head.Hash(), finalized: head.Hash()})
	require.NoError(t, err)
	before := srv.RequestCount()
	_, err = v.Balance(ctx, evmtest.Holder(), evm.BlockNumber(top-256))
	require.NoError(t, err)
	// The head's header, the 256 headers below it (in batches of at most
	// 100 calls, evm's default), and the proof.
	assert.Equal(t, 1+3+1, srv.RequestCount()-before)
	_, err = v.Balance(ctx, evmtest.Holder(), evm.BlockNumber(top-257))
	var ie *nodeaccess.InputError
	require.ErrorAs(t, err, &ie)
	assert.Contains(t, ie.Reason, "more than 256 blocks below the anchor's head")
}

// An anchor that has verified nothing yet (zero hashes), or that fails,
// makes every read fail before anything is sent: nothing to prove against.
func TestAnchorNotReady(t *testing.T) {
	c, err := evm.New("https://node.example", "k3y", nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))
	require.NoError(t, err)
	v, err := verified.New(c, fixedAnchor{})
	require.NoError(t, err)
	_, err = v.Balance(context.Background(), evmtest.Holder(), evm.Latest)
	require.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.Contains(t, err.Error(), "the anchor has no verified execution block yet")
	v, err = verified.New(c, failingAnchor{})
	require.NoError(t, err)
	_, err = v.Call(context.Background(), evm.CallMsg{To: evmtest.Token()}, evm.Finalized)
	require.ErrorIs(t, err, errAnchor)
	var oe *nodeaccess.OpError
	require.ErrorAs(t, err, &oe)
}

var errAnchor = errors.New("light client: no update yet")

type failingAnchor struct{}

func (failingAnchor) ExecutionBlocks(context.Context) (common.Hash, common.Hash, error) {
	return common.Hash{}, common.Hash{}, errAnchor
}
