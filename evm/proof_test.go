package evm_test

// Proofs against evmtest's chain: go-ethereum's own state and storage
// tries, so that a proof it sends verifies against the header's stateRoot,
// and every lie made of it (by a RoundTripper that edits the answer) is
// refused.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/internal/evmlatest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// proofEnv is a chain after evmtest's default scenario (the token transfer
// of block 5 leaves Holder 1200 LUSD), and what the tests read of it.
type proofEnv struct {
	srv  *evmtest.Server
	c    *evm.Client
	head uint64
}

var (
	proofOnce sync.Once
	proofSrv  *evmtest.Server
	proofErr  error
)

// proofNode starts the chain once for the tests of this file.
func proofNode(t *testing.T) proofEnv {
	t.Helper()
	proofOnce.Do(func() { proofSrv, proofErr = evmtest.New() })
	require.NoError(t, proofErr)
	c, err := proofSrv.Client()
	require.NoError(t, err)
	head, err := c.BlockNumber(context.Background())
	require.NoError(t, err)
	return proofEnv{srv: proofSrv, c: c, head: head}
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

// Proof decodes the token's and Holder's answers to what the chain holds
// (package evm/verified proves them).
func TestProofTokenAndHolder(t *testing.T) {
	t.Parallel()
	e := proofNode(t)
	ctx := context.Background()
	holder, other := evmtest.Holder(), evmtest.Accounts()[1].Address
	slots := []common.Hash{balanceSlot(holder), totalSupplySlot, balanceSlot(other), neverWritten}
	p, err := e.c.Proof(ctx, evmtest.Token(), slots, evm.BlockNumber(e.head))
	require.NoError(t, err)
	assert.Equal(t, evmtest.Token(), p.Address)
	code, err := e.c.Code(ctx, evmtest.Token(), evm.BlockNumber(e.head))
	require.NoError(t, err)
	assert.Equal(t, crypto.Keccak256Hash(code), p.CodeHash)
	assert.NotEqual(t, types.EmptyRootHash, p.StorageHash)
	require.Len(t, p.StorageProof, 4)
	// Holder had 1234.567891 LUSD and sent 34.567891 in block 5.
	assert.Equal(t, big.NewInt(1_200_000_000), p.StorageProof[0].Value)
	// Accounts()[1] had 500 LUSD and received them.
	assert.Equal(t, big.NewInt(534_567_891), p.StorageProof[2].Value)
	// The three genesis balances: 1234.567891, 500 and 0.000001 LUSD.
	assert.Equal(t, big.NewInt(1_734_567_892), p.StorageProof[1].Value)
	assert.Zero(t, p.StorageProof[3].Value.Sign(), "a slot never written is 0")
	assert.NotEmpty(t, p.StorageProof[3].Proof, "its absence is proven by the path that leaves the trie")
	for i, s := range slots {
		assert.Equal(t, s, p.StorageProof[i].Key)
	}

	h, err := e.c.Proof(ctx, holder, nil, evm.Latest)
	require.NoError(t, err)
	var bal hexutil.Big
	require.NoError(t, e.c.CallContext(ctx, &bal, "eth_getBalance", holder, evm.BlockNumber(e.head)))
	assert.Equal(t, bal.ToInt(), h.Balance)
	assert.Equal(t, uint64(5), h.Nonce, "Holder signed the scenario's five transactions")
	assert.Equal(t, types.EmptyCodeHash, h.CodeHash)
	assert.Equal(t, types.EmptyRootHash, h.StorageHash)
	assert.Empty(t, h.StorageProof)
}

// An absent account and slot come as zero, with go-ethereum's spelling
// of an absent account's hashes (zero).
func TestProofAbsentAsZero(t *testing.T) {
	t.Parallel()
	e := proofNode(t)
	p, err := e.c.Proof(context.Background(), nobody, []common.Hash{neverWritten}, evm.Latest)
	require.NoError(t, err)
	assert.Zero(t, p.Balance.Sign())
	assert.Zero(t, p.Nonce)
	assert.Equal(t, common.Hash{}, p.CodeHash)
	assert.Equal(t, common.Hash{}, p.StorageHash)
	require.Len(t, p.StorageProof, 1)
	assert.Zero(t, p.StorageProof[0].Value.Sign())
	assert.Empty(t, p.StorageProof[0].Proof)
}

// Each block selector reads the block's own state.
func TestProofAtBlock(t *testing.T) {
	t.Parallel()
	e := proofNode(t)
	ctx := context.Background()
	slots := []common.Hash{balanceSlot(evmtest.Holder())}
	var hash struct {
		Hash common.Hash `json:"hash"`
	}
	require.NoError(t, e.c.CallContext(ctx, &hash, "eth_getBlockByNumber", evm.BlockNumber(4), false))
	for _, b := range []evm.Block{evm.BlockNumber(4), evm.BlockHash{Hash: hash.Hash}, evm.BlockHash{Hash: hash.Hash, RequireCanonical: true}} {
		p, err := e.c.Proof(ctx, evmtest.Token(), slots, b)
		require.NoError(t, err, "%v", b)
		assert.Equal(t, big.NewInt(1_234_567_891), p.StorageProof[0].Value, "before the transfer of block 5")
	}
	for _, b := range []evm.Block{evm.Latest, evm.BlockNumber(e.head), nil} {
		p, err := e.c.Proof(ctx, evmtest.Token(), slots, b)
		require.NoError(t, err, "%v", b)
		assert.Equal(t, big.NewInt(1_200_000_000), p.StorageProof[0].Value, "after it")
	}
}

// lying answers eth_getProof through the real server, then edits the
// result with edit: a provider that lies.
type lying struct {
	edit func(result map[string]any)
}

func (l lying) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil {
		return nil, err
	}
	var env map[string]any
	var batch []map[string]any
	if err := json.Unmarshal(body, &env); err == nil {
		if r, ok := env["result"].(map[string]any); ok {
			l.edit(r)
			body, _ = json.Marshal(env)
		}
	} else if err := json.Unmarshal(body, &batch); err == nil {
		// A batch: each object result is edited.
		for _, env := range batch {
			if r, ok := env["result"].(map[string]any); ok {
				l.edit(r)
			}
		}
		body, _ = json.Marshal(batch)
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	res.ContentLength = int64(len(body))
	res.Header.Del("Content-Length")
	return res, nil
}

// nodes returns the member name of m, an array of hex strings.
func nodes(m map[string]any, name string) []any { return m[name].([]any) }

// An answer for another question than the one asked (another account,
// slots in another order, one left out or twice) is refused by Proof
// itself; the lies a proof must catch are package evm/verified's tests.
func TestProofOtherQuestionRefused(t *testing.T) {
	t.Parallel()
	e := proofNode(t)
	ctx := context.Background()
	holder, other := evmtest.Holder(), evmtest.Accounts()[1].Address
	slots := []common.Hash{balanceSlot(holder), neverWritten}
	for _, tc := range []struct {
		name    string
		account common.Address
		edit    func(r map[string]any)
		want    string
	}{
		{"answer for another account", holder, func(r map[string]any) { r["address"] = other.Hex() }, "is for account " + other.Hex()},
		{"slots in another order", evmtest.Token(), func(r map[string]any) {
			list := nodes(r, "storageProof")
			list[0], list[1] = list[1], list[0]
		}, "storageProof[0] is for slot " + neverWritten.Hex()},
		{"a slot left out", evmtest.Token(), func(r map[string]any) { r["storageProof"] = nodes(r, "storageProof")[:1] }, "1 storage proofs for 2 slots"},
		{"a slot twice", evmtest.Token(), func(r map[string]any) {
			list := nodes(r, "storageProof")
			r["storageProof"] = []any{list[0], list[0]}
		}, "storageProof[1] is for slot " + balanceSlot(holder).Hex()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := e.srv.Client(nodeaccess.WithRoundTripper(lying{edit: tc.edit}), nodeaccess.WithMaxAttempts(1))
			require.NoError(t, err)
			_, err = c.Proof(ctx, tc.account, slots, evm.Latest)
			require.ErrorIs(t, err, nodeaccess.ErrUnverified)
			require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			var op *nodeaccess.OpError
			require.ErrorAs(t, err, &op)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// recorder sends each request on to the server and keeps its body.
type recorder struct {
	mu     sync.Mutex
	bodies []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	b, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.bodies = append(r.bodies, string(b))
	r.mu.Unlock()
	req.Body = io.NopCloser(bytes.NewReader(b))
	return http.DefaultTransport.RoundTrip(req)
}

// The params on the wire: the address, the slots as 32-byte hex in the
// order given, the block as every state read sends it.
func TestProofWire(t *testing.T) {
	t.Parallel()
	e := proofNode(t)
	rec := &recorder{}
	c, err := e.srv.Client(nodeaccess.WithRoundTripper(rec))
	require.NoError(t, err)
	ctx := context.Background()
	h := common.HexToHash("0x00000000000000000000000000000000000000000000000000000000000000ff")
	for _, tc := range []struct {
		slots  []common.Hash
		block  evm.Block
		params string
	}{
		{[]common.Hash{neverWritten, totalSupplySlot}, evm.BlockNumber(4),
			`["0x000000000000000000000000000000000000e020",["` + neverWritten.Hex() + `","0x0000000000000000000000000000000000000000000000000000000000000000"],"0x4"]`},
		{nil, evm.Finalized, `["0x000000000000000000000000000000000000e020",[],"finalized"]`},
		{[]common.Hash{}, nil, `["0x000000000000000000000000000000000000e020",[],"latest"]`},
		{nil, evm.BlockHash{Hash: h, RequireCanonical: true},
			`["0x000000000000000000000000000000000000e020",[],{"blockHash":"` + h.Hex() + `","requireCanonical":true}]`},
	} {
		rec.bodies = nil
		_, _ = c.Proof(ctx, evmtest.Token(), tc.slots, tc.block)
		require.Len(t, rec.bodies, 1)
		assert.Contains(t, rec.bodies[0], `"method":"eth_getProof","params":`+tc.params, "%v", tc.block)
	}
}

// Bad input is refused before anything is sent, naming it.
func TestProofRefusedInput(t *testing.T) {
	t.Parallel()
	c, err := evm.New("https://node.example", "k3y", nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))
	require.NoError(t, err)
	ctx := context.Background()
	_, err = c.Proof(ctx, evmtest.Token(), []common.Hash{neverWritten, totalSupplySlot, neverWritten}, evm.Latest)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	var ie *nodeaccess.InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "slots[2]", ie.Arg)
	assert.Contains(t, ie.Reason, "is slots[0] again")
	_, err = c.Proof(ctx, evmtest.Token(), nil, evm.Tag("newest"))
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "block", ie.Arg)
}

// A client that reads the latest state only (HyperEVM's) refuses a proof
// at another block before sending, as it refuses every state read there.
func TestProofLatestOnly(t *testing.T) {
	t.Parallel()
	e := proofNode(t)
	why := "this chain answers every block from its latest state"
	c, err := evm.New("https://node.example", "k3y", nodeaccess.WithRoundTripper(testkit.Refuse{T: t}), evmlatest.Option(why))
	require.NoError(t, err)
	_, err = c.Proof(context.Background(), evmtest.Token(), nil, evm.BlockNumber(4))
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	var ie *nodeaccess.InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "block", ie.Arg)
	assert.Equal(t, "block number 4 refused: "+why, ie.Reason)
	latest, err := e.srv.Client(evmlatest.Option(why))
	require.NoError(t, err)
	p, err := latest.Proof(context.Background(), evmtest.Token(), nil, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, evmtest.Token(), p.Address)
}

// A malformed member is an invalid response naming it, not an unverified
// one: nothing was proven or disproven.
func TestProofMalformedAnswer(t *testing.T) {
	t.Parallel()
	e := proofNode(t)
	c, err := e.srv.Client(nodeaccess.WithRoundTripper(lying{edit: func(r map[string]any) { r["balance"] = 12 }}), nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	_, err = c.Proof(context.Background(), evmtest.Holder(), nil, evm.Latest)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.NotErrorIs(t, err, nodeaccess.ErrUnverified)
	assert.Contains(t, err.Error(), "balance: want a string, got a number")
}
