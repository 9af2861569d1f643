package verified

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/trie"
	"github.com/ethereum/go-ethereum/triedb"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixtureRoot is the stateRoot of block 5 of the evmtest run that wrote
// testdata/proof/evmtest_token_block5.json.
var fixtureRoot = common.HexToHash("0x1dcb20a2ac98fb2896410e87451b9db537bb19edeaf1cc0f7af7a3677836927e")

// fixtureProof decodes the recorded answer (go-ethereum's spelling).
func fixtureProof(t testing.TB) *evm.AccountProof {
	t.Helper()
	raw, err := os.ReadFile("testdata/proof/evmtest_token_block5.json")
	require.NoError(t, err)
	var w struct {
		Address      common.Address
		Balance      hexutil.Big
		Nonce        hexutil.Uint64
		CodeHash     common.Hash
		StorageHash  common.Hash
		AccountProof []hexutil.Bytes
		StorageProof []struct {
			Key   common.Hash
			Value hexutil.Big
			Proof []hexutil.Bytes
		}
	}
	require.NoError(t, json.Unmarshal(raw, &w))
	p := &evm.AccountProof{Address: w.Address, Balance: w.Balance.ToInt(), Nonce: uint64(w.Nonce), CodeHash: w.CodeHash, StorageHash: w.StorageHash}
	for _, n := range w.AccountProof {
		p.AccountProof = append(p.AccountProof, n)
	}
	for _, s := range w.StorageProof {
		sp := evm.StorageProof{Key: s.Key, Value: s.Value.ToInt()}
		for _, n := range s.Proof {
			sp.Proof = append(sp.Proof, n)
		}
		p.StorageProof = append(p.StorageProof, sp)
	}
	return p
}

// The recorded answer verifies against its block's root, and against no
// other.
func TestVerifyFixture(t *testing.T) {
	acc, values, err := verifyProof(fixtureProof(t), fixtureRoot)
	require.NoError(t, err)
	assert.Equal(t, big.NewInt(1_200_000_000), values[0])
	assert.Zero(t, values[1].Sign())
	assert.NotEqual(t, types.EmptyCodeHash, acc.CodeHash)
	_, _, err = verifyProof(fixtureProof(t), types.EmptyRootHash)
	assert.ErrorContains(t, err, "nodes for the empty trie")
}

// verifyProof refuses, before any hashing, a proof no trie of Ethereum's
// state needs, and values no account holds; never a panic on a nil field.
func TestVerifyBounds(t *testing.T) {
	big1 := bytes.Repeat([]byte{0xc0}, maxProofNodeBytes+1)
	for _, tc := range []struct {
		name string
		edit func(p *evm.AccountProof)
		want string
	}{
		{"66 account nodes", func(p *evm.AccountProof) { p.AccountProof = make([][]byte, 66) }, "accountProof: 66 nodes, more than the 65"},
		{"66 storage nodes", func(p *evm.AccountProof) { p.StorageProof[1].Proof = make([][]byte, 66) }, "storageProof[1] (slot 0x952e"},
		{"a node of 1025 bytes", func(p *evm.AccountProof) { p.AccountProof[0] = big1 }, "node 0 has 1025 bytes, more than the 1024"},
		{"a storage node of 1025 bytes", func(p *evm.AccountProof) { p.StorageProof[0].Proof[0] = big1 }, "node 0 has 1025 bytes"},
		{"nil balance", func(p *evm.AccountProof) { p.Balance = nil }, "balance <nil>"},
		{"negative balance", func(p *evm.AccountProof) { p.Balance = big.NewInt(-1) }, "balance -1"},
		{"nil value", func(p *evm.AccountProof) { p.StorageProof[1].Value = nil }, "value <nil>"},
		{"a 257-bit value", func(p *evm.AccountProof) { p.StorageProof[1].Value = new(big.Int).Lsh(big.NewInt(1), 256) }, "is not a 256-bit word"},
		{"a slot twice", func(p *evm.AccountProof) { p.StorageProof[1] = p.StorageProof[0] }, "storageProof[1] is for slot 0x7dff"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := fixtureProof(t)
			tc.edit(p)
			_, _, err := verifyProof(p, fixtureRoot)
			assert.ErrorContains(t, err, tc.want)
		})
	}
	_, _, err := verifyProof(nil, fixtureRoot)
	assert.Error(t, err)
}

var (
	liveOnce sync.Once
	liveSrv  *evmtest.Server
	liveErr  error
)

// live is evmtest's chain after the default scenario, its client, and
// the state root of its head.
func live(t *testing.T) (*evm.Client, common.Hash, common.Hash) {
	t.Helper()
	liveOnce.Do(func() { liveSrv, liveErr = evmtest.New() })
	require.NoError(t, liveErr)
	c, err := liveSrv.Client()
	require.NoError(t, err)
	head, err := liveSrv.EthClient().HeaderByNumber(context.Background(), nil)
	require.NoError(t, err)
	before, err := liveSrv.EthClient().HeaderByNumber(context.Background(), big.NewInt(4))
	require.NoError(t, err)
	return c, head.Root, before.Root
}

func balanceSlot(holder common.Address) common.Hash {
	return crypto.Keccak256Hash(common.LeftPadBytes(holder[:], 32), common.LeftPadBytes([]byte{1}, 32))
}

var (
	neverWritten = crypto.Keccak256Hash([]byte("a slot nobody wrote"))
	nobody       = common.HexToAddress("0x5157a2e5000000000000000000000000000000ff")
)

func flip(b []byte) []byte {
	c := common.CopyBytes(b)
	c[len(c)/2] ^= 1
	return c
}

// Every lie a proof can tell is refused, saying what was wrong: the lies
// package evm's hand-written walker was tested with, now against
// go-ethereum's trie.VerifyProof.
func TestVerifyLiesRefused(t *testing.T) {
	c, root, before := live(t)
	ctx := context.Background()
	holder, other := evmtest.Holder(), evmtest.Accounts()[1].Address
	slots := []common.Hash{balanceSlot(holder), neverWritten}
	get := func(a common.Address) *evm.AccountProof {
		p, err := c.Proof(ctx, a, slots, evm.Latest)
		require.NoError(t, err)
		_, _, err = verifyProof(p, root)
		require.NoError(t, err, "the honest answer verifies")
		return p
	}
	theirs := get(other)
	for _, tc := range []struct {
		name    string
		account common.Address
		edit    func(p *evm.AccountProof)
		root    common.Hash
		want    string
	}{
		{"wrong balance", holder, func(p *evm.AccountProof) { p.Balance = big.NewInt(1) }, root, "balance 1, the state trie says"},
		{"wrong nonce", holder, func(p *evm.AccountProof) { p.Nonce = 4 }, root, "nonce 4, the state trie says 5"},
		{"wrong code hash", evmtest.Token(), func(p *evm.AccountProof) { p.CodeHash = types.EmptyCodeHash }, root, "code hash"},
		{"wrong storage hash", evmtest.Token(), func(p *evm.AccountProof) { p.StorageHash = types.EmptyRootHash }, root, "storage hash"},
		{"storage value", evmtest.Token(), func(p *evm.AccountProof) { p.StorageProof[0].Value = big.NewInt(1_200_000_001) }, root, "value 1200000001, the storage trie says 1200000000"},
		{"absent slot said to hold a value", evmtest.Token(), func(p *evm.AccountProof) { p.StorageProof[1].Value = big.NewInt(1) }, root, "value 1, the storage trie says 0"},
		{"absent account with a balance", nobody, func(p *evm.AccountProof) { p.Balance = big.NewInt(1) }, root, "no such account"},
		{"absent account with code", nobody, func(p *evm.AccountProof) { p.CodeHash = crypto.Keccak256Hash([]byte{1}) }, root, "no such account"},
		{"account proof missing its last node", evmtest.Token(), func(p *evm.AccountProof) { p.AccountProof = p.AccountProof[:len(p.AccountProof)-1] }, root, "missing"},
		{"account proof missing a middle node", evmtest.Token(), func(p *evm.AccountProof) {
			p.AccountProof = append(append([][]byte{}, p.AccountProof[:1]...), p.AccountProof[2:]...)
		}, root, "missing"},
		{"account proof empty", evmtest.Token(), func(p *evm.AccountProof) { p.AccountProof = nil }, root, "the root node"},
		{"account proof with its last node again", evmtest.Token(), func(p *evm.AccountProof) {
			p.AccountProof = append(p.AccountProof, p.AccountProof[len(p.AccountProof)-1])
		}, root, "given twice"},
		{"account proof with a node of another path", holder, func(p *evm.AccountProof) {
			p.AccountProof = append(p.AccountProof, theirs.AccountProof[len(theirs.AccountProof)-1])
		}, root, "1 node after node 2, where the path ends: left over"},
		{"account proof out of order", evmtest.Token(), func(p *evm.AccountProof) {
			n := len(p.AccountProof)
			p.AccountProof[n-1], p.AccountProof[n-2] = p.AccountProof[n-2], p.AccountProof[n-1]
		}, root, "out of the path's order"},
		{"account node changed", evmtest.Token(), func(p *evm.AccountProof) {
			p.AccountProof[len(p.AccountProof)-1] = flip(p.AccountProof[len(p.AccountProof)-1])
		}, root, "missing"},
		{"root node changed", evmtest.Token(), func(p *evm.AccountProof) { p.AccountProof[0] = flip(p.AccountProof[0]) }, root, "a proof for another root"},
		{"a proof for another block's root", evmtest.Token(), func(*evm.AccountProof) {}, before, "a proof for another root"},
		{"storage proof truncated", evmtest.Token(), func(p *evm.AccountProof) {
			p.StorageProof[0].Proof = p.StorageProof[0].Proof[:len(p.StorageProof[0].Proof)-1]
		}, root, "storageProof[0]"},
		{"storage proof with an extra node", evmtest.Token(), func(p *evm.AccountProof) {
			p.StorageProof[0].Proof = append(p.StorageProof[0].Proof, p.StorageProof[0].Proof[0])
		}, root, "given twice"},
		{"storage proof of the other slot", evmtest.Token(), func(p *evm.AccountProof) { p.StorageProof[0].Proof = p.StorageProof[1].Proof }, root, "storageProof[0]"},
		{"account proof of another account", holder, func(p *evm.AccountProof) { p.AccountProof = theirs.AccountProof }, root, "account " + holder.Hex()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := get(tc.account)
			tc.edit(p)
			_, _, err := verifyProof(p, tc.root)
			t.Log(err)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// proofList collects the nodes go-ethereum's Prove writes, in order.
type proofList [][]byte

func (l *proofList) Put(_ []byte, v []byte) error {
	*l = append(*l, common.CopyBytes(v))
	return nil
}

func (l *proofList) Delete([]byte) error { return errors.New("no delete") }

// testTrie builds a trie of 32-byte keys with go-ethereum's trie package:
// random keys and values, and clusters of keys that share all but their
// last nibbles with one-byte values, whose leaves are small enough to be
// embedded in their branch (no hash of their own).
func testTrie(t *testing.T) (*trie.Trie, [][]byte, [][]byte) {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	tr := trie.NewEmpty(triedb.NewDatabase(rawdb.NewMemoryDatabase(), triedb.HashDefaults))
	var keys, values [][]byte
	put := func(k, v []byte) {
		require.NoError(t, tr.Update(k, v))
		keys, values = append(keys, k), append(values, v)
	}
	fill := func(b []byte) {
		for i := range b {
			b[i] = byte(r.Uint32())
		}
	}
	for range 300 {
		k, v := make([]byte, 32), make([]byte, 1+r.IntN(40))
		fill(k)
		fill(v)
		v[0] |= 1
		put(k, v)
	}
	for c := range 4 {
		base := make([]byte, 32)
		fill(base)
		for i := range 6 {
			k := common.CopyBytes(base)
			k[31] = byte(i*16 + c)
			put(k, []byte{byte(i + 1)})
		}
	}
	return tr, keys, values
}

// prove on go-ethereum's own proofs of a trie with embedded nodes: each
// key's value, absent keys none; a proof with a node dropped, changed,
// left over or out of order is refused.
func TestProveTrie(t *testing.T) {
	tr, keys, values := testTrie(t)
	root := tr.Hash()
	r := rand.New(rand.NewPCG(3, 4))
	absent := make([][]byte, 0, 40)
	for i := range 20 { // near the clusters: the path ends at an embedded leaf
		k := common.CopyBytes(keys[300+i])
		k[31] ^= 0x0f
		absent = append(absent, k)
		k = make([]byte, 32)
		for j := range k {
			k[j] = byte(r.Uint32())
		}
		absent = append(absent, k)
	}
	for i, k := range append(append([][]byte{}, keys...), absent...) {
		var proof proofList
		require.NoError(t, tr.Prove(k, &proof))
		got, err := prove(root, k, proof)
		require.NoError(t, err, "key %x", k)
		if i < len(keys) {
			require.Equal(t, values[i], got)
		} else {
			require.Nil(t, got)
		}
		for j := range proof {
			dropped := append(append(proofList{}, proof[:j]...), proof[j+1:]...)
			_, err := prove(root, k, dropped)
			assert.Error(t, err, "node %d dropped", j)
			changed := append(proofList{}, proof...)
			changed[j] = common.CopyBytes(proof[j])
			changed[j][r.IntN(len(changed[j]))] ^= 1 << r.IntN(8)
			_, err = prove(root, k, changed)
			assert.Error(t, err, "node %d changed", j)
		}
		if len(proof) > 1 {
			swapped := append(proofList{}, proof...)
			swapped[0], swapped[1] = swapped[1], swapped[0]
			_, err = prove(root, k, swapped)
			assert.Error(t, err)
		}
	}
	_, err := prove(types.EmptyRootHash, keys[0], nil)
	require.NoError(t, err)
	_, err = prove(types.EmptyRootHash, keys[0], [][]byte{{0x80}, {0x80}})
	assert.ErrorContains(t, err, "2 nodes for the empty trie")
}

// FuzzVerifyProof: whatever a provider puts in a proof, verifyProof never
// panics and never proves a value other than the true one: it either
// refuses, or returns the fixture's own values.
func FuzzVerifyProof(f *testing.F) {
	f.Add(0, []byte{}, false)
	f.Add(1, []byte{0xc0}, true)
	f.Add(2, []byte{0x80}, false)
	f.Fuzz(func(t *testing.T, at int, node []byte, replace bool) {
		p := fixtureProof(t)
		nodes := &p.AccountProof
		if at < 0 {
			at = -at
			nodes = &p.StorageProof[at%2].Proof
		}
		if replace && len(*nodes) > 0 {
			(*nodes)[at%len(*nodes)] = node
		} else {
			i := at % (len(*nodes) + 1)
			*nodes = append((*nodes)[:i], append([][]byte{node}, (*nodes)[i:]...)...)
		}
		acc, values, err := verifyProof(p, fixtureRoot)
		if err != nil {
			return
		}
		want := fixtureProof(t)
		if acc.Balance.Cmp(want.Balance) != 0 || acc.Nonce != want.Nonce || acc.CodeHash != want.CodeHash || acc.StorageRoot != want.StorageHash ||
			values[0].Cmp(want.StorageProof[0].Value) != 0 || values[1].Cmp(want.StorageProof[1].Value) != 0 {
			t.Fatalf("proved another value: %+v %v", acc, values)
		}
	})
}
