package verified_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/evm/verified"
	"github.com/stretchr/testify/require"
)

// chainAnchor is an Anchor made of evmtest's own chain: the hashes its
// node gives its latest and finalized blocks, read in-process (no HTTP, no
// lie a test sets on the server's answers). A light client plays this part
// for a real chain.
type chainAnchor struct{ srv *evmtest.Server }

func (a chainAnchor) ExecutionBlocks(ctx context.Context) (head, finalized common.Hash, err error) {
	if head, err = a.hash(ctx, "latest"); err != nil {
		return common.Hash{}, common.Hash{}, err
	}
	finalized, err = a.hash(ctx, "finalized")
	return head, finalized, err
}

// hash reads the "hash" member the node gives the block tag names.
func (a chainAnchor) hash(ctx context.Context, tag string) (common.Hash, error) {
	var b struct {
		Hash common.Hash `json:"hash"`
	}
	err := a.srv.EthClient().Client().CallContext(ctx, &b, "eth_getBlockByNumber", tag, false)
	return b.Hash, err
}

// fixedAnchor backs the blocks it holds.
type fixedAnchor struct{ head, finalized common.Hash }

func (a fixedAnchor) ExecutionBlocks(context.Context) (common.Hash, common.Hash, error) {
	return a.head, a.finalized, nil
}

var (
	nodeOnce sync.Once
	nodeSrv  *evmtest.Server
	nodeErr  error
)

// node starts the chain once for the tests of the package (after the
// default scenario, whose block 5 leaves Holder 1200 LUSD).
func node(t testing.TB) *evmtest.Server {
	t.Helper()
	nodeOnce.Do(func() { nodeSrv, nodeErr = evmtest.New() })
	require.NoError(t, nodeErr)
	return nodeSrv
}

// client returns a verified client of srv anchored to its chain, its
// evm.Client made with opts.
func client(t testing.TB, srv *evmtest.Server, opts ...nodeaccess.Option) *verified.Client {
	t.Helper()
	c, err := srv.Client(opts...)
	require.NoError(t, err)
	v, err := verified.New(c, chainAnchor{srv})
	require.NoError(t, err)
	return v
}

// balanceSlot is the token's storage slot of balanceOf[holder]: the
// mapping is its slot 1.
func balanceSlot(holder common.Address) common.Hash {
	return crypto.Keccak256Hash(common.LeftPadBytes(holder[:], 32), common.LeftPadBytes([]byte{1}, 32))
}

var (
	// totalSupplySlot is the token's slot 0.
	totalSupplySlot = common.Hash{}
	// neverWritten is a slot the token never wrote.
	neverWritten = crypto.Keccak256Hash([]byte("a slot nobody wrote"))
	// nobody is an account the chain has never seen.
	nobody = common.HexToAddress("0x5157a2e5000000000000000000000000000000ff")
)

// rewrite is a provider that replaces old with new in every answer.
type rewrite struct{ old, new string }

func (r rewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil {
		return nil, err
	}
	body = bytes.ReplaceAll(body, []byte(r.old), []byte(r.new))
	res.Body, res.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	res.Header.Del("Content-Length")
	return res, nil
}
