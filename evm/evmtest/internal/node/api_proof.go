package node

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
)

// maxProofKeys is the most storage keys go-ethereum's eth_getProof
// answers for in one call.
const maxProofKeys = 1024

// accountProof is eth_getProof's result, with go-ethereum's members.
type accountProof struct {
	Address      common.Address  `json:"address"`
	AccountProof []string        `json:"accountProof"`
	Balance      *hexutil.Big    `json:"balance"`
	CodeHash     common.Hash     `json:"codeHash"`
	Nonce        hexutil.Uint64  `json:"nonce"`
	StorageHash  common.Hash     `json:"storageHash"`
	StorageProof []storageResult `json:"storageProof"`
}

// storageResult is one slot of eth_getProof's result.
type storageResult struct {
	Key   string       `json:"key"`
	Value *hexutil.Big `json:"value"`
	Proof []string     `json:"proof"`
}

// nodeList collects the nodes a trie's Prove writes, as hex, in the order
// written: the root first.
type nodeList []string

// Put adds a node.
func (l *nodeList) Put(_ []byte, value []byte) error {
	*l = append(*l, hexutil.Encode(value))
	return nil
}

// Delete is never called by Prove.
func (l *nodeList) Delete([]byte) error { return errors.New("evmtest: a proof list deletes nothing") }

// GetProof is eth_getProof (EIP-1186), as go-ethereum answers it: the
// account at the block selected (latest when left out) with the proof of
// its path in the state trie at the block's root, and each storage key
// with the proof of its path in the account's storage trie. A 32-byte key
// comes back as sent, a shorter one as a quantity; an account that does
// not exist has zero code and storage hashes, a slot of an account without
// storage an empty proof.
func (api *ethAPI) GetProof(ctx context.Context, address common.Address, storageKeys []string, block *rpc.BlockNumberOrHash) (*accountProof, error) {
	if len(storageKeys) > maxProofKeys {
		return nil, &invalidParamsError{fmt.Sprintf("too many storage keys requested (max %d, got %d)", maxProofKeys, len(storageKeys))}
	}
	keys := make([]common.Hash, len(storageKeys))
	res := &accountProof{Address: address, StorageProof: make([]storageResult, len(storageKeys))}
	for i, s := range storageKeys {
		k, n, err := storageKey(s)
		if err != nil {
			return nil, err
		}
		keys[i] = k
		res.StorageProof[i].Key = hexutil.Encode(k[:])
		if n != common.HashLength {
			res.StorageProof[i].Key = hexutil.EncodeBig(k.Big())
		}
	}
	st, header, err := api.c.stateAndHeader(orLatest(block))
	if err != nil {
		return nil, err
	}
	res.CodeHash = st.GetCodeHash(address)
	res.StorageHash = st.GetStorageRoot(address)
	res.Balance = (*hexutil.Big)(st.GetBalance(address).ToBig())
	res.Nonce = hexutil.Uint64(st.GetNonce(address))
	var storage state.Trie // nil: the account has no storage, and each proof is empty
	if len(keys) > 0 && res.StorageHash != types.EmptyRootHash && res.StorageHash != (common.Hash{}) {
		if storage, err = st.Database().OpenStorageTrie(header.Root, address, res.StorageHash, nil); err != nil {
			return nil, err
		}
	}
	for i, k := range keys {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sp := &res.StorageProof[i]
		sp.Value = (*hexutil.Big)(st.GetState(address, k).Big())
		sp.Proof = []string{}
		if storage == nil {
			continue
		}
		var proof nodeList
		if err := storage.Prove(crypto.Keccak256(k[:]), &proof); err != nil {
			return nil, err
		}
		sp.Proof = proof
	}
	tr, err := st.Database().OpenTrie(header.Root)
	if err != nil {
		return nil, err
	}
	var proof nodeList
	if err := tr.Prove(crypto.Keccak256(address[:]), &proof); err != nil {
		return nil, err
	}
	res.AccountProof = proof
	return res, st.Error()
}

// storageKey reads a storage key as go-ethereum does: hex of at most 32
// bytes, with or without 0x, left-padded; it returns the key and the
// number of bytes given. A bad key is a -32602 error quoting it.
func storageKey(hexKey string) (common.Hash, int, error) {
	s := hexKey
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		s = s[2:]
	}
	if len(s)%2 == 1 {
		s = "0" + s
	}
	if len(s) > 64 {
		return common.Hash{}, 0, &invalidParamsError{fmt.Sprintf("storage key too long (want at most 32 bytes): %q", hexKey)}
	}
	key, err := hex.DecodeString(s)
	if err != nil {
		return common.Hash{}, 0, &invalidParamsError{fmt.Sprintf("invalid hex in storage key: %q", hexKey)}
	}
	return common.BytesToHash(key), len(key), nil
}
