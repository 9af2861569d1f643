package evm_test

// Proofs against evmtest's chain: go-ethereum's own state and storage
// tries, so that a proof it sends verifies against the header's stateRoot,
// and every lie made of it (by a RoundTripper that edits the answer) is
// refused.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/trie"
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

// stateRoot reads the stateRoot of block n with eth_getBlockByNumber.
func (e proofEnv) stateRoot(t *testing.T, n uint64) common.Hash {
	t.Helper()
	var h struct {
		StateRoot common.Hash `json:"stateRoot"`
	}
	require.NoError(t, e.c.CallContext(context.Background(), &h, "eth_getBlockByNumber", evm.BlockNumber(n), false))
	require.NotEqual(t, common.Hash{}, h.StateRoot)
	return h.StateRoot
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

func TestProofTokenAndHolderVerify(t *testing.T) {
	t.Parallel()
	e := proofNode(t)
	ctx := context.Background()
	root := e.stateRoot(t, e.head)
	holder, other := evmtest.Holder(), evmtest.Accounts()[1].Address
	slots := []common.Hash{balanceSlot(holder), totalSupplySlot, balanceSlot(other), neverWritten}
	p, err := e.c.Proof(ctx, evmtest.Token(), slots, evm.BlockNumber(e.head))
	require.NoError(t, err)
	require.NoError(t, p.Verify(root))

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
	require.NoError(t, h.Verify(root))
	var bal hexutil.Big
	require.NoError(t, e.c.CallContext(ctx, &bal, "eth_getBalance", holder, evm.BlockNumber(e.head)))
	assert.Equal(t, bal.ToInt(), h.Balance)
	assert.Equal(t, uint64(5), h.Nonce, "Holder signed the scenario's five transactions")
	assert.Equal(t, types.EmptyCodeHash, h.CodeHash)
	assert.Equal(t, types.EmptyRootHash, h.StorageHash)
	assert.Empty(t, h.StorageProof)
}

func TestProofAbsentVerifiesAsZero(t *testing.T) {
	t.Parallel()
	e := proofNode(t)
	root := e.stateRoot(t, e.head)
	p, err := e.c.Proof(context.Background(), nobody, []common.Hash{neverWritten}, evm.Latest)
	require.NoError(t, err)
	require.NoError(t, p.Verify(root))
	assert.Zero(t, p.Balance.Sign())
	assert.Zero(t, p.Nonce)
	// go-ethereum spells an absent account's hashes as zero; the
	// empty-account hashes verify too.
	assert.Equal(t, common.Hash{}, p.CodeHash)
	assert.Equal(t, common.Hash{}, p.StorageHash)
	require.Len(t, p.StorageProof, 1)
	assert.Zero(t, p.StorageProof[0].Value.Sign())
	assert.Empty(t, p.StorageProof[0].Proof)
	p.CodeHash, p.StorageHash = types.EmptyCodeHash, types.EmptyRootHash
	require.NoError(t, p.Verify(root))

	// An absent slot of an account without storage (Holder).
	h, err := e.c.Proof(context.Background(), evmtest.Holder(), []common.Hash{neverWritten}, evm.Latest)
	require.NoError(t, err)
	require.NoError(t, h.Verify(root))
	assert.Zero(t, h.StorageProof[0].Value.Sign())
}

// Each block selector reads the block's own state: a proof verifies
// against its block's stateRoot, and is refused against another block's.
func TestProofAtBlockAndAnotherRoot(t *testing.T) {
	t.Parallel()
	e := proofNode(t)
	ctx := context.Background()
	slots := []common.Hash{balanceSlot(evmtest.Holder())}
	before, after := e.stateRoot(t, 4), e.stateRoot(t, 5)
	require.NotEqual(t, before, after)
	var hash struct {
		Hash common.Hash `json:"hash"`
	}
	require.NoError(t, e.c.CallContext(ctx, &hash, "eth_getBlockByNumber", evm.BlockNumber(4), false))
	for _, b := range []evm.Block{evm.BlockNumber(4), evm.BlockHash{Hash: hash.Hash}, evm.BlockHash{Hash: hash.Hash, RequireCanonical: true}} {
		p, err := e.c.Proof(ctx, evmtest.Token(), slots, b)
		require.NoError(t, err, "%v", b)
		require.NoError(t, p.Verify(before), "%v", b)
		assert.Equal(t, big.NewInt(1_234_567_891), p.StorageProof[0].Value, "before the transfer of block 5")
		err = p.Verify(after)
		require.ErrorIs(t, err, nodeaccess.ErrUnverified, "%v", b)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		assert.Contains(t, err.Error(), "a proof for another root")
	}
	for _, b := range []evm.Block{evm.Latest, evm.BlockNumber(e.head), nil} {
		p, err := e.c.Proof(ctx, evmtest.Token(), slots, b)
		require.NoError(t, err, "%v", b)
		require.NoError(t, p.Verify(e.stateRoot(t, e.head)), "%v", b)
		require.ErrorIs(t, p.Verify(before), nodeaccess.ErrUnverified, "%v", b)
	}
}

// The independent check: go-ethereum's own trie.VerifyProof, not this
// package's, proves the account and the slot the client decoded.
func TestProofGethVerifies(t *testing.T) {
	t.Parallel()
	e := proofNode(t)
	root := e.stateRoot(t, e.head)
	p, err := e.c.Proof(context.Background(), evmtest.Token(), []common.Hash{balanceSlot(evmtest.Holder())}, evm.Latest)
	require.NoError(t, err)
	enc, err := trie.VerifyProof(root, crypto.Keccak256(p.Address[:]), proofDB(p.AccountProof))
	require.NoError(t, err)
	var acc types.StateAccount
	require.NoError(t, rlp.DecodeBytes(enc, &acc))
	assert.Equal(t, p.Nonce, acc.Nonce)
	assert.Equal(t, p.Balance, acc.Balance.ToBig())
	assert.Equal(t, p.StorageHash, acc.Root)
	assert.Equal(t, p.CodeHash[:], acc.CodeHash)
	sp := p.StorageProof[0]
	enc, err = trie.VerifyProof(acc.Root, crypto.Keccak256(sp.Key[:]), proofDB(sp.Proof))
	require.NoError(t, err)
	var v []byte
	require.NoError(t, rlp.DecodeBytes(enc, &v))
	assert.Equal(t, sp.Value, new(big.Int).SetBytes(v))
	assert.Equal(t, big.NewInt(1_200_000_000), sp.Value)
}

// proofDB is a proof as go-ethereum's VerifyProof reads it: each node
// under its hash.
type proofDB [][]byte

func (db proofDB) Has(key []byte) (bool, error) {
	v, _ := db.Get(key)
	return v != nil, nil
}

func (db proofDB) Get(key []byte) ([]byte, error) {
	for _, n := range db {
		if bytes.Equal(crypto.Keccak256(n), key) {
			return n, nil
		}
	}
	return nil, errors.New("not found")
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

// slot returns storage proof i of result r.
func slot(r map[string]any, i int) map[string]any {
	return nodes(r, "storageProof")[i].(map[string]any)
}

// flip changes one byte in the middle of the hex node s.
func flip(s string) string {
	b := hexutil.MustDecode(s)
	b[len(b)/2] ^= 0x01
	return hexutil.Encode(b)
}

func TestProofLiesRefused(t *testing.T) {
	t.Parallel()
	e := proofNode(t)
	ctx := context.Background()
	root := e.stateRoot(t, e.head)
	holder, other := evmtest.Holder(), evmtest.Accounts()[1].Address
	slots := []common.Hash{balanceSlot(holder), neverWritten}
	// Another account's honest answer, to splice into the token's.
	theirs, err := e.c.Proof(ctx, other, nil, evm.Latest)
	require.NoError(t, err)
	theirProof := make([]any, len(theirs.AccountProof))
	for i, n := range theirs.AccountProof {
		theirProof[i] = hexutil.Encode(n)
	}
	oneMore := func(name string) func(r map[string]any) {
		return func(r map[string]any) {
			list := nodes(r, name)
			r[name] = append(list, list[len(list)-1])
		}
	}
	for _, tc := range []struct {
		name    string
		account common.Address
		edit    func(r map[string]any)
		// atProof: Proof itself refuses the answer (it is not for the
		// question asked); otherwise Verify does.
		atProof bool
		want    string
	}{
		{"wrong balance", holder, func(r map[string]any) { r["balance"] = "0x1" }, false, "balance 1, the state trie says"},
		{"wrong nonce", holder, func(r map[string]any) { r["nonce"] = "0x4" }, false, "nonce 4, the state trie says 5"},
		{"wrong code hash", evmtest.Token(), func(r map[string]any) { r["codeHash"] = types.EmptyCodeHash.Hex() }, false, "code hash"},
		{"wrong storage hash", evmtest.Token(), func(r map[string]any) { r["storageHash"] = types.EmptyRootHash.Hex() }, false, "storage hash"},
		{"storage value", evmtest.Token(), func(r map[string]any) { slot(r, 0)["value"] = "0x47868c01" }, false, "value 1200000001, the storage trie says 1200000000"},
		{"absent slot said to hold a value", evmtest.Token(), func(r map[string]any) { slot(r, 1)["value"] = "0x1" }, false, "value 1, the storage trie says 0"},
		{"absent account with a balance", nobody, func(r map[string]any) { r["balance"] = "0x1" }, false, "no such account"},
		{"absent account with code", nobody, func(r map[string]any) { r["codeHash"] = crypto.Keccak256Hash([]byte{1}).Hex() }, false, "no such account"},
		{"account proof missing its last node", evmtest.Token(), func(r map[string]any) {
			list := nodes(r, "accountProof")
			r["accountProof"] = list[:len(list)-1]
		}, false, "is missing"},
		{"account proof missing a middle node", evmtest.Token(), func(r map[string]any) {
			list := nodes(r, "accountProof")
			r["accountProof"] = append(append([]any{}, list[:1]...), list[2:]...)
		}, false, "not to"},
		{"account proof empty", evmtest.Token(), func(r map[string]any) { r["accountProof"] = []any{} }, false, "node 0"},
		{"account proof with an extra node", evmtest.Token(), oneMore("accountProof"), false, "1 node after node"},
		{"account node changed", evmtest.Token(), func(r map[string]any) {
			list := nodes(r, "accountProof")
			list[len(list)-1] = flip(list[len(list)-1].(string))
		}, false, "hashes to"},
		{"root node changed", evmtest.Token(), func(r map[string]any) {
			list := nodes(r, "accountProof")
			list[0] = flip(list[0].(string))
		}, false, "a proof for another root"},
		{"storage proof truncated", evmtest.Token(), func(r map[string]any) {
			s := slot(r, 0)
			list := s["proof"].([]any)
			s["proof"] = list[:len(list)-1]
		}, false, "storageProof[0]"},
		{"storage proof with an extra node", evmtest.Token(), func(r map[string]any) {
			s := slot(r, 0)
			list := s["proof"].([]any)
			s["proof"] = append(list, list[0])
		}, false, "1 node after node"},
		{"storage proof of the other slot", evmtest.Token(), func(r map[string]any) {
			slot(r, 0)["proof"] = slot(r, 1)["proof"]
		}, false, "storageProof[0]"},
		{"account proof of another account", holder, func(r map[string]any) { r["accountProof"] = theirProof }, false, "account " + holder.Hex()},
		{"answer for another account", holder, func(r map[string]any) { r["address"] = other.Hex() }, true, "is for account " + other.Hex()},
		{"slots in another order", evmtest.Token(), func(r map[string]any) {
			list := nodes(r, "storageProof")
			list[0], list[1] = list[1], list[0]
		}, true, "storageProof[0] is for slot " + neverWritten.Hex()},
		{"a slot left out", evmtest.Token(), func(r map[string]any) { r["storageProof"] = nodes(r, "storageProof")[:1] }, true, "1 storage proofs for 2 slots"},
		{"a slot twice", evmtest.Token(), func(r map[string]any) {
			list := nodes(r, "storageProof")
			r["storageProof"] = []any{list[0], list[0]}
		}, true, "storageProof[1] is for slot " + balanceSlot(holder).Hex()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := e.srv.Client(nodeaccess.WithRoundTripper(lying{edit: tc.edit}), nodeaccess.WithMaxAttempts(1))
			require.NoError(t, err)
			p, err := c.Proof(ctx, tc.account, slots, evm.Latest)
			if tc.atProof {
				require.ErrorIs(t, err, nodeaccess.ErrUnverified)
				require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
				var op *nodeaccess.OpError
				require.ErrorAs(t, err, &op)
				t.Log(err)
				assert.Contains(t, err.Error(), tc.want)
				return
			}
			require.NoError(t, err)
			err = p.Verify(root)
			t.Log(err)
			require.ErrorIs(t, err, nodeaccess.ErrUnverified)
			require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
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
	require.NoError(t, p.Verify(e.stateRoot(t, e.head)))
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
