package evm

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/trie"
	"github.com/ethereum/go-ethereum/triedb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// proofList collects the nodes go-ethereum's Prove writes, in order.
type proofList [][]byte

func (l *proofList) Put(_ []byte, v []byte) error {
	*l = append(*l, common.CopyBytes(v))
	return nil
}

func (l *proofList) Delete([]byte) error { return errors.New("no delete") }

// byHash is a proof as go-ethereum's VerifyProof reads it.
type byHash [][]byte

func (db byHash) Has(k []byte) (bool, error) { v, _ := db.Get(k); return v != nil, nil }

func (db byHash) Get(k []byte) ([]byte, error) {
	for _, n := range db {
		if bytes.Equal(crypto.Keccak256(n), k) {
			return n, nil
		}
	}
	return nil, errors.New("not found")
}

// testTrie builds a trie of 32-byte keys with go-ethereum's trie package:
// random keys and values, and clusters of keys that share all but their
// last nibbles with one-byte values, whose leaves are small enough to be
// embedded in their branch (no hash of their own).
func testTrie(t *testing.T) (*trie.Trie, [][]byte) {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	tr := trie.NewEmpty(triedb.NewDatabase(rawdb.NewMemoryDatabase(), triedb.HashDefaults))
	var keys [][]byte
	put := func(k, v []byte) {
		require.NoError(t, tr.Update(k, v))
		keys = append(keys, k)
	}
	for range 300 {
		k, v := make([]byte, 32), make([]byte, 1+r.IntN(40))
		fill(r, k)
		fill(r, v)
		v[0] |= 1
		put(k, v)
	}
	for c := range 4 {
		base := make([]byte, 32)
		fill(r, base)
		for i := range 6 {
			k := common.CopyBytes(base)
			k[31] = byte(i*16 + c)
			put(k, []byte{byte(i + 1)})
		}
	}
	return tr, keys
}

func fill(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

// proveKey against go-ethereum's VerifyProof on the same proofs: the same
// value for every key in the trie, none for keys outside it, both refusing
// a proof with a node dropped or changed; proveKey also refuses the nodes
// out of their order and a node left over, which VerifyProof (reading the
// proof as a set) lets pass.
func TestProveKeyAgainstGeth(t *testing.T) {
	tr, keys := testTrie(t)
	root := tr.Hash()
	r := rand.New(rand.NewPCG(3, 4))
	absent := make([][]byte, 0, 100)
	for range 100 {
		k := make([]byte, 32)
		fill(r, k)
		absent = append(absent, k)
	}
	for i := range 20 { // near the clusters: the path ends at an embedded leaf
		k := common.CopyBytes(keys[300+i])
		k[31] ^= 0x0f
		absent = append(absent, k)
	}
	embedded := 0
	for i, k := range append(append([][]byte{}, keys...), absent...) {
		var proof proofList
		require.NoError(t, tr.Prove(k, &proof))
		want, err := trie.VerifyProof(root, k, byHash(proof))
		require.NoError(t, err)
		got, err := proveKey(root, k, proof)
		require.NoError(t, err, "key %x", k)
		assert.Equal(t, want, got, "key %x", k)
		if i < len(keys) {
			require.NotNil(t, got)
		} else {
			require.Nil(t, got)
		}
		if hasEmbedded(proof) {
			embedded++
		}
		for j := range proof {
			dropped := append(append(proofList{}, proof[:j]...), proof[j+1:]...)
			_, gerr := trie.VerifyProof(root, k, byHash(dropped))
			_, err := proveKey(root, k, dropped)
			assert.Error(t, gerr)
			assert.Error(t, err, "node %d dropped", j)
			changed := append(proofList{}, proof...)
			changed[j] = common.CopyBytes(proof[j])
			changed[j][r.IntN(len(changed[j]))] ^= 1 << r.IntN(8)
			_, err = proveKey(root, k, changed)
			assert.Error(t, err, "node %d changed", j)
		}
		_, err = proveKey(root, k, append(append(proofList{}, proof...), proof[0]))
		assert.ErrorContains(t, err, "1 node after node")
		if len(proof) > 1 {
			swapped := append(proofList{}, proof...)
			swapped[0], swapped[1] = swapped[1], swapped[0]
			_, err = proveKey(root, k, swapped)
			assert.Error(t, err)
		}
	}
	assert.Positive(t, embedded, "no proof walked an embedded node")
}

// hasEmbedded reports whether a node of proof holds another node inline.
func hasEmbedded(proof [][]byte) bool {
	for _, n := range proof {
		items, err := nodeItems(n)
		if err != nil {
			continue
		}
		for _, it := range items {
			if k, _, _, err := rlp.Split(it); err == nil && k == rlp.List {
				return true
			}
		}
	}
	return false
}

// The empty trie: no node, or the one empty node, proves every key absent.
func TestProveKeyEmptyTrie(t *testing.T) {
	k := crypto.Keccak256([]byte("k"))
	for _, proof := range [][][]byte{nil, {{0x80}}} {
		v, err := proveKey(types.EmptyRootHash, k, proof)
		require.NoError(t, err)
		assert.Nil(t, v)
	}
	_, err := proveKey(types.EmptyRootHash, k, [][]byte{{0x80}, {0x80}})
	assert.ErrorContains(t, err, "2 nodes for the empty trie")
	_, err = proveKey(common.Hash{1}, k, nil)
	assert.ErrorContains(t, err, "node 0 (hash 01")
}

// Malformed nodes that hash to the reference (the root here) are refused
// with what is wrong, never a panic.
func TestProveKeyMalformedNodes(t *testing.T) {
	key := make([]byte, 32)
	hash32 := bytes.Repeat([]byte{0xab}, 32)
	branch := func(i int, child []byte) []byte {
		items := make([]any, 17)
		for j := range items {
			items[j] = []byte{}
		}
		items[i] = child
		b, _ := rlp.EncodeToBytes(items)
		return b
	}
	enc := func(v any) []byte { b, _ := rlp.EncodeToBytes(v); return b }
	for _, tc := range []struct {
		name, want string
		node       []byte
	}{
		{"a string", "not an RLP list", enc([]byte("node"))},
		{"trailing bytes", "bytes after the node's RLP list", append(enc([][]byte{{0x20}, {1}}), 0)},
		{"three items", "a list of 3 items", enc([][]byte{{1}, {2}, {3}})},
		{"eighteen items", "more than 17 items", enc(make([][]byte, 18))},
		{"a reference of 5 bytes", "a reference of 5 bytes", branch(0, []byte{1, 2, 3, 4, 5})},
		{"an empty compact path", "an empty compact path", enc([][]byte{{}, hash32})},
		{"flag 4", "compact path flag 4", enc([][]byte{{0x40}, hash32})},
		{"padding", "non-zero padding nibble", enc([][]byte{{0x01}, hash32})},
		{"a list as a path", "a list where a string belongs", enc([]any{[][]byte{{1}}, hash32})},
		{"a leaf with an empty value", "a leaf with an empty value", enc([][]byte{append([]byte{0x20}, key...), {}})},
		{"a list as a leaf's value", "a list where a string belongs", enc([]any{append([]byte{0x20}, key...), [][]byte{{1}}})},
		{"an oversized embedded node", "an embedded node of", enc([]any{[]byte{0x00}, [][]byte{bytes.Repeat([]byte{1}, 40)}})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := proveKey(crypto.Keccak256Hash(tc.node), key, [][]byte{tc.node})
			assert.ErrorContains(t, err, tc.want)
		})
	}
}
