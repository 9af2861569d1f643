package evm

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/nodeaccess/nodeaccess"
)

// The bounds of a proof, checked before any work. A key of the state and
// storage tries is a Keccak-256 hash, 64 nibbles: on the path to it every
// node but the last consumes at least one nibble, so a path has at most 65
// nodes. The largest node a trie of fixed-length keys holds is a branch of
// 16 references of 33 bytes and an empty value, 532 bytes encoded; a leaf
// of an account is under 150. The bounds leave room above both, and a
// proof beyond them cannot hash to any real root.
const (
	maxProofNodes     = 65
	maxProofNodeBytes = 1024
)

// Verify checks the proof against stateRoot, the state root of a block
// header the caller trusts (never one the same provider sent unchecked):
// that the state trie under stateRoot holds the account with exactly this
// Balance, Nonce, CodeHash and StorageHash (or, for an account that does
// not exist, that the trie has no such account, and Balance and Nonce are
// 0 and the hashes those of an empty account or zero), and that the
// account's storage trie holds each StorageProof's Value at its Key (0: no
// such slot), each key once. It returns nil when all of it is proven, and
// otherwise an error matching nodeaccess.ErrUnverified (and so
// nodeaccess.ErrInvalidResponse) that says what does not hold: a value the
// proof contradicts, a proof for another root, account or slot, a node
// missing, malformed or left over. A proof of more than 65 nodes, or with a
// node of more than 1 KiB (no trie of Ethereum's state has either), is
// refused before any hashing.
//
// Verify reads the proof only; it may be called from many goroutines at
// once.
func (p *AccountProof) Verify(stateRoot common.Hash) error {
	if err := p.verify(stateRoot); err != nil {
		return fmt.Errorf("%w: %w", nodeaccess.ErrUnverified, err)
	}
	return nil
}

func (p *AccountProof) verify(stateRoot common.Hash) error {
	if p == nil {
		return errors.New("no proof (nil *AccountProof)")
	}
	if err := p.checkBounds(); err != nil {
		return err
	}
	enc, err := proveKey(stateRoot, crypto.Keccak256(p.Address[:]), p.AccountProof)
	if err != nil {
		return fmt.Errorf("account %s: accountProof: %w", p.Address.Hex(), err)
	}
	storageRoot := p.StorageHash
	if enc == nil {
		if err := p.checkAbsent(); err != nil {
			return fmt.Errorf("account %s: %w", p.Address.Hex(), err)
		}
		storageRoot = types.EmptyRootHash
	} else if err := p.checkAccount(enc); err != nil {
		return fmt.Errorf("account %s: %w", p.Address.Hex(), err)
	}
	for i := range p.StorageProof {
		sp := &p.StorageProof[i]
		enc, err := proveKey(storageRoot, crypto.Keccak256(sp.Key[:]), sp.Proof)
		if err != nil {
			return fmt.Errorf("account %s: storageProof[%d] (slot %s): %w", p.Address.Hex(), i, sp.Key.Hex(), err)
		}
		if err := checkSlot(enc, sp.Value); err != nil {
			return fmt.Errorf("account %s: storageProof[%d] (slot %s): %w", p.Address.Hex(), i, sp.Key.Hex(), err)
		}
	}
	return nil
}

// checkBounds refuses a proof larger than a real trie can need, and values
// no account can hold, before any work.
func (p *AccountProof) checkBounds() error {
	if err := checkNodes("accountProof", p.AccountProof); err != nil {
		return err
	}
	if p.Balance == nil || p.Balance.Sign() < 0 || p.Balance.BitLen() > 256 {
		return fmt.Errorf("account %s: balance %v is not a 256-bit amount", p.Address.Hex(), p.Balance)
	}
	seen := make(map[common.Hash]int, len(p.StorageProof))
	for i := range p.StorageProof {
		sp := &p.StorageProof[i]
		if j, ok := seen[sp.Key]; ok {
			return fmt.Errorf("storageProof[%d] is for slot %s again (storageProof[%d])", i, sp.Key.Hex(), j)
		}
		seen[sp.Key] = i
		if err := checkNodes(fmt.Sprintf("storageProof[%d].proof", i), sp.Proof); err != nil {
			return err
		}
		if sp.Value == nil || sp.Value.Sign() < 0 || sp.Value.BitLen() > 256 {
			return fmt.Errorf("storageProof[%d] (slot %s): value %v is not a 256-bit word", i, sp.Key.Hex(), sp.Value)
		}
	}
	return nil
}

// checkNodes applies the bounds to the nodes of one proof, named name.
func checkNodes(name string, nodes [][]byte) error {
	if len(nodes) > maxProofNodes {
		return fmt.Errorf("%s has %d nodes, more than the %d of the longest path a trie of 32-byte keys has", name, len(nodes), maxProofNodes)
	}
	for i, n := range nodes {
		if len(n) > maxProofNodeBytes {
			return fmt.Errorf("%s[%d] has %d bytes, more than the %d a node of the state tries can have", name, i, len(n), maxProofNodeBytes)
		}
	}
	return nil
}

// checkAbsent checks the fields of an account the state trie does not
// hold: no nonce, no balance, and the hashes of an empty account (the hash
// of no code, the root of the empty trie) or zero, which go-ethereum sends.
func (p *AccountProof) checkAbsent() error {
	if p.Nonce != 0 || p.Balance.Sign() != 0 {
		return fmt.Errorf("the state trie has no such account, but the answer says nonce %d, balance %s", p.Nonce, p.Balance)
	}
	if p.CodeHash != types.EmptyCodeHash && p.CodeHash != (common.Hash{}) {
		return fmt.Errorf("the state trie has no such account, but the answer says code hash %s", p.CodeHash.Hex())
	}
	if p.StorageHash != types.EmptyRootHash && p.StorageHash != (common.Hash{}) {
		return fmt.Errorf("the state trie has no such account, but the answer says storage hash %s", p.StorageHash.Hex())
	}
	return nil
}

// checkAccount checks the fields against the account enc, the value the
// state trie holds (the RLP of nonce, balance, storage root, code hash).
func (p *AccountProof) checkAccount(enc []byte) error {
	var acc types.StateAccount
	if err := rlp.DecodeBytes(enc, &acc); err != nil {
		return fmt.Errorf("the state trie's value is not an account: %v", err)
	}
	if len(acc.CodeHash) != common.HashLength {
		return fmt.Errorf("the state trie's account has a code hash of %d bytes", len(acc.CodeHash))
	}
	proven := acc.Balance.ToBig()
	switch {
	case acc.Nonce != p.Nonce:
		return fmt.Errorf("nonce %d, the state trie says %d", p.Nonce, acc.Nonce)
	case proven.Cmp(p.Balance) != 0:
		return fmt.Errorf("balance %s, the state trie says %s", p.Balance, proven)
	case acc.Root != p.StorageHash:
		return fmt.Errorf("storage hash %s, the state trie says %s", p.StorageHash.Hex(), acc.Root.Hex())
	case common.BytesToHash(acc.CodeHash) != p.CodeHash:
		return fmt.Errorf("code hash %s, the state trie says %s", p.CodeHash.Hex(), common.BytesToHash(acc.CodeHash).Hex())
	}
	return nil
}

// checkSlot checks value against enc, the value the storage trie holds at
// the slot (nil: none, which is 0): the RLP of the value's big-endian
// bytes without leading zeros.
func checkSlot(enc []byte, value *big.Int) error {
	proven := new(big.Int)
	if enc != nil {
		b, rest, err := rlp.SplitString(enc)
		switch {
		case err != nil:
			return fmt.Errorf("the storage trie's value is not an RLP string: %v", err)
		case len(rest) != 0:
			return fmt.Errorf("the storage trie's value has %d bytes after its RLP string", len(rest))
		case len(b) == 0 || len(b) > 32 || b[0] == 0:
			return fmt.Errorf("the storage trie's value is not a word without leading zeros: %x", b)
		}
		proven.SetBytes(b)
	}
	if proven.Cmp(value) != 0 {
		return fmt.Errorf("value %s, the storage trie says %s", value, proven)
	}
	return nil
}

// proveKey follows the path of key (32 bytes) from root through proof,
// node by node, and returns the value the trie holds there, or nil when
// the proof shows that it holds none. Each node must hash to the reference
// its parent holds (the first to root), the nodes must be exactly those of
// the path, in order, and none may be left over. The empty trie is proven
// by no node (or by the single empty node that hashes to its root).
func proveKey(root common.Hash, key []byte, proof [][]byte) ([]byte, error) {
	if root == types.EmptyRootHash {
		if len(proof) == 0 || len(proof) == 1 && bytes.Equal(proof[0], []byte{0x80}) {
			return nil, nil
		}
		return nil, fmt.Errorf("%s for the empty trie (root %s), which has none", nodeCount(len(proof)), root.Hex())
	}
	path := make([]byte, 0, 2*len(key)+1)
	for _, b := range key {
		path = append(path, b>>4, b&0x0f)
	}
	path = append(path, terminator)
	want := root[:]
	for i := 0; ; i++ {
		if i == len(proof) {
			return nil, fmt.Errorf("node %d (hash %x) is missing: the proof ends before the path does", i, want)
		}
		if h := crypto.Keccak256(proof[i]); !bytes.Equal(h, want) {
			if i == 0 {
				return nil, fmt.Errorf("node 0 hashes to %x, not to the root %x: a proof for another root", h, want)
			}
			return nil, fmt.Errorf("node %d hashes to %x, not to %x, the reference node %d holds", i, h, want, i-1)
		}
		value, next, rest, err := walkNode(proof[i], path)
		if err != nil {
			return nil, fmt.Errorf("node %d: %w", i, err)
		}
		if next == nil {
			if left := len(proof) - i - 1; left > 0 {
				return nil, fmt.Errorf("%s after node %d, where the path ends", nodeCount(left), i)
			}
			return value, nil
		}
		want, path = next, rest
	}
}

// nodeCount says n nodes in words.
func nodeCount(n int) string {
	if n == 1 {
		return "1 node"
	}
	return fmt.Sprintf("%d nodes", n)
}

// terminator ends a key's nibbles, as a leaf's path ends.
const terminator = 16

// walkNode follows path through the node enc and the nodes embedded in it.
// It returns the value found (the path ends at a leaf, or at a branch's
// value), or the hash of the next node and the rest of the path, or
// neither (the trie holds nothing at path).
func walkNode(enc, path []byte) (value, next, rest []byte, err error) {
	for {
		items, err := nodeItems(enc)
		if err != nil {
			return nil, nil, nil, err
		}
		var ref []byte
		switch len(items) {
		case 17:
			if len(path) == 0 {
				return nil, nil, nil, errors.New("a branch below the end of the path")
			}
			nib := path[0]
			path = path[1:]
			if nib == terminator {
				v, err := itemString(items[16])
				if err != nil || len(v) == 0 {
					return nil, nil, nil, err
				}
				return v, nil, nil, nil
			}
			ref = items[nib]
		case 2:
			kb, err := itemString(items[0])
			if err != nil {
				return nil, nil, nil, err
			}
			key, leaf, err := compactNibbles(kb)
			if err != nil {
				return nil, nil, nil, err
			}
			if len(path) < len(key) || !bytes.Equal(path[:len(key)], key) {
				return nil, nil, nil, nil // the path leaves the trie here
			}
			path = path[len(key):]
			if leaf {
				v, err := itemString(items[1])
				if err != nil {
					return nil, nil, nil, err
				}
				if len(v) == 0 {
					return nil, nil, nil, errors.New("a leaf with an empty value")
				}
				return v, nil, nil, nil
			}
			ref = items[1]
		default:
			return nil, nil, nil, fmt.Errorf("a list of %d items is neither a branch (17) nor a leaf or extension (2)", len(items))
		}
		kind, content, _, err := rlp.Split(ref)
		if err != nil {
			return nil, nil, nil, err
		}
		switch {
		case kind == rlp.List && len(ref) < 32:
			enc = ref // a node embedded in its parent: walk on inside
		case kind == rlp.List:
			return nil, nil, nil, fmt.Errorf("an embedded node of %d bytes (an embedded node has under 32)", len(ref))
		case len(content) == 0:
			return nil, nil, nil, nil // no child there
		case len(content) == 32:
			return nil, content, path, nil
		default:
			return nil, nil, nil, fmt.Errorf("a reference of %d bytes (want a 32-byte hash)", len(content))
		}
	}
}

// nodeItems splits a node, an RLP list, into its items (each still
// encoded); at most 17, and nothing after the list.
func nodeItems(enc []byte) ([][]byte, error) {
	content, rest, err := rlp.SplitList(enc)
	if err != nil {
		return nil, fmt.Errorf("not an RLP list: %v", err)
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("%d bytes after the node's RLP list", len(rest))
	}
	var items [][]byte
	for len(content) > 0 {
		if len(items) == 17 {
			return nil, errors.New("a list of more than 17 items")
		}
		_, _, r, err := rlp.Split(content)
		if err != nil {
			return nil, fmt.Errorf("item %d: %v", len(items), err)
		}
		items = append(items, content[:len(content)-len(r)])
		content = r
	}
	return items, nil
}

// itemString returns the content of an item that must be an RLP string.
func itemString(item []byte) ([]byte, error) {
	kind, content, _, err := rlp.Split(item)
	if err != nil {
		return nil, err
	}
	if kind == rlp.List {
		return nil, errors.New("a list where a string belongs")
	}
	return content, nil
}

// compactNibbles decodes a leaf's or an extension's path (hex-prefix
// encoding): its nibbles, ending with terminator for a leaf.
func compactNibbles(b []byte) (key []byte, leaf bool, err error) {
	if len(b) == 0 {
		return nil, false, errors.New("an empty compact path")
	}
	flag := b[0] >> 4
	if flag > 3 {
		return nil, false, fmt.Errorf("compact path flag %d (want 0 to 3)", flag)
	}
	leaf = flag >= 2
	if flag&1 == 1 {
		key = append(key, b[0]&0x0f)
	} else if b[0]&0x0f != 0 {
		return nil, false, errors.New("an even compact path with a non-zero padding nibble")
	}
	for _, c := range b[1:] {
		key = append(key, c>>4, c&0x0f)
	}
	if leaf {
		key = append(key, terminator)
	}
	return key, leaf, nil
}
