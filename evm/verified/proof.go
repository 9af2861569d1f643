package verified

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/trie"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/verified/internal/proofdb"
)

// The bounds of a proof, checked before any hashing. A key of the state
// and storage tries is a Keccak-256 hash, 64 nibbles: on the path to it
// every node but the last consumes at least one nibble, so a path has at
// most 65 nodes. The largest node a trie of fixed-length keys holds is a
// branch of 16 references of 33 bytes and an empty value, 532 bytes
// encoded; a leaf of an account is under 150. A proof beyond these bounds
// cannot hash to any real root.
const (
	maxProofNodes     = 65
	maxProofNodeBytes = 1024
)

// prove returns the value the trie of root holds at key (nil: none, proven
// absent), checked by go-ethereum's trie.VerifyProof over nodes: every
// node must be on the path, in the path's order (EIP-1186's: the root
// first), none missing, none left over. The empty trie is proven by no
// node, or by its single empty node.
func prove(root common.Hash, key []byte, nodes [][]byte) ([]byte, error) {
	if len(nodes) > maxProofNodes {
		return nil, fmt.Errorf("%d nodes, more than the %d of the longest path a trie of 32-byte keys has", len(nodes), maxProofNodes)
	}
	for i, n := range nodes {
		if len(n) > maxProofNodeBytes {
			return nil, fmt.Errorf("node %d has %d bytes, more than the %d a node of the state tries can have", i, len(n), maxProofNodeBytes)
		}
	}
	if root == types.EmptyRootHash {
		if len(nodes) == 0 || len(nodes) == 1 && bytes.Equal(nodes[0], []byte{0x80}) {
			return nil, nil
		}
		return nil, fmt.Errorf("%s for the empty trie (root %s), which has none", nodeCount(len(nodes)), root.Hex())
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("no node: the root node (hash %s) is missing", root.Hex())
	}
	if h := crypto.Keccak256Hash(nodes[0]); h != root {
		return nil, fmt.Errorf("the first node hashes to %s, not to the root %s: a proof for another root", h.Hex(), root.Hex())
	}
	db, err := proofdb.New(nodes)
	if err != nil {
		return nil, err
	}
	v, err := trie.VerifyProof(root, key, db)
	if err != nil {
		return nil, fmt.Errorf("trie.VerifyProof: %v", err)
	}
	for i, n := range nodes {
		switch {
		case i >= len(db.Read):
			return nil, fmt.Errorf("%s after node %d, where the path ends: left over", nodeCount(len(nodes)-i), i-1)
		case db.Read[i] != crypto.Keccak256Hash(n):
			return nil, fmt.Errorf("node %d is not the path's node %d: nodes out of the path's order", i, i)
		}
	}
	return v, nil
}

// Account is an account's state at a block, proven against the block's
// state root. An account the state does not hold is proven absent, and is
// the zero Account but for its hashes, those of no code and no storage.
type Account struct {
	// Balance is the balance in wei.
	Balance *big.Int
	// Nonce is the account's nonce.
	Nonce uint64
	// CodeHash is the Keccak-256 hash of its code (of nothing, 0xc5d2…a470,
	// for an account without code).
	CodeHash common.Hash
	// StorageRoot is the root of its storage trie (of the empty trie,
	// 0x56e8…b421, for an account without storage).
	StorageRoot common.Hash
}

// verifyProof checks p against stateRoot and returns the proven account
// and the proven value of each slot of p.StorageProof, in order: the state
// trie must hold the account with exactly p's fields (or no account, and
// p's fields then zero, its hashes those of an empty account or zero), the
// account's storage trie each slot's value (0: none), each slot once. An
// error says what does not hold; the caller wraps it in ErrUnverified.
func verifyProof(p *evm.AccountProof, stateRoot common.Hash) (Account, []*big.Int, error) {
	if p == nil {
		return Account{}, nil, errors.New("no proof")
	}
	acc, err := proveAccount(p, stateRoot)
	if err != nil {
		return Account{}, nil, fmt.Errorf("account %s: %w", p.Address.Hex(), err)
	}
	values := make([]*big.Int, len(p.StorageProof))
	seen := make(map[common.Hash]int, len(p.StorageProof))
	for i := range p.StorageProof {
		sp := &p.StorageProof[i]
		if j, ok := seen[sp.Key]; ok {
			return Account{}, nil, fmt.Errorf("account %s: storageProof[%d] is for slot %s again (storageProof[%d])", p.Address.Hex(), i, sp.Key.Hex(), j)
		}
		seen[sp.Key] = i
		enc, err := prove(acc.StorageRoot, crypto.Keccak256(sp.Key[:]), sp.Proof)
		if err == nil {
			values[i], err = checkSlot(enc, sp.Value)
		}
		if err != nil {
			return Account{}, nil, fmt.Errorf("account %s: storageProof[%d] (slot %s): %w", p.Address.Hex(), i, sp.Key.Hex(), err)
		}
	}
	return acc, values, nil
}

// proveAccount proves p's account against stateRoot.
func proveAccount(p *evm.AccountProof, stateRoot common.Hash) (Account, error) {
	if p.Balance == nil || p.Balance.Sign() < 0 || p.Balance.BitLen() > 256 {
		return Account{}, fmt.Errorf("balance %v is not a 256-bit amount", p.Balance)
	}
	enc, err := prove(stateRoot, crypto.Keccak256(p.Address[:]), p.AccountProof)
	if err != nil {
		return Account{}, fmt.Errorf("accountProof: %w", err)
	}
	if enc == nil {
		switch {
		case p.Nonce != 0 || p.Balance.Sign() != 0:
			return Account{}, fmt.Errorf("the state trie has no such account, but the answer says nonce %d, balance %s", p.Nonce, p.Balance)
		case p.CodeHash != types.EmptyCodeHash && p.CodeHash != (common.Hash{}):
			return Account{}, fmt.Errorf("the state trie has no such account, but the answer says code hash %s", p.CodeHash.Hex())
		case p.StorageHash != types.EmptyRootHash && p.StorageHash != (common.Hash{}):
			return Account{}, fmt.Errorf("the state trie has no such account, but the answer says storage hash %s", p.StorageHash.Hex())
		}
		return Account{Balance: new(big.Int), CodeHash: types.EmptyCodeHash, StorageRoot: types.EmptyRootHash}, nil
	}
	var sa types.StateAccount
	if err := rlp.DecodeBytes(enc, &sa); err != nil {
		return Account{}, fmt.Errorf("the state trie's value is not an account: %v", err)
	}
	if len(sa.CodeHash) != common.HashLength {
		return Account{}, fmt.Errorf("the state trie's account has a code hash of %d bytes", len(sa.CodeHash))
	}
	proven := sa.Balance.ToBig()
	switch {
	case sa.Nonce != p.Nonce:
		return Account{}, fmt.Errorf("nonce %d, the state trie says %d", p.Nonce, sa.Nonce)
	case proven.Cmp(p.Balance) != 0:
		return Account{}, fmt.Errorf("balance %s, the state trie says %s", p.Balance, proven)
	case sa.Root != p.StorageHash:
		return Account{}, fmt.Errorf("storage hash %s, the state trie says %s", p.StorageHash.Hex(), sa.Root.Hex())
	case common.BytesToHash(sa.CodeHash) != p.CodeHash:
		return Account{}, fmt.Errorf("code hash %s, the state trie says %s", p.CodeHash.Hex(), common.BytesToHash(sa.CodeHash).Hex())
	}
	return Account{Balance: proven, Nonce: sa.Nonce, CodeHash: p.CodeHash, StorageRoot: sa.Root}, nil
}

// checkSlot checks value against enc, the value the storage trie holds at
// the slot (nil: none, which is 0): the RLP of the value's big-endian
// bytes without leading zeros. It returns the proven value.
func checkSlot(enc []byte, value *big.Int) (*big.Int, error) {
	if value == nil || value.Sign() < 0 || value.BitLen() > 256 {
		return nil, fmt.Errorf("value %v is not a 256-bit word", value)
	}
	proven := new(big.Int)
	if enc != nil {
		b, rest, err := rlp.SplitString(enc)
		switch {
		case err != nil:
			return nil, fmt.Errorf("the storage trie's value is not an RLP string: %v", err)
		case len(rest) != 0:
			return nil, fmt.Errorf("the storage trie's value has %d bytes after its RLP string", len(rest))
		case len(b) == 0 || len(b) > 32 || b[0] == 0:
			return nil, fmt.Errorf("the storage trie's value is not a word without leading zeros: %x", b)
		}
		proven.SetBytes(b)
	}
	if proven.Cmp(value) != 0 {
		return nil, fmt.Errorf("value %s, the storage trie says %s", value, proven)
	}
	return proven, nil
}

// nodeCount says n nodes in words.
func nodeCount(n int) string {
	if n == 1 {
		return "1 node"
	}
	return fmt.Sprintf("%d nodes", n)
}
