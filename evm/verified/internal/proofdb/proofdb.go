// Package proofdb holds one Merkle proof as go-ethereum's trie.VerifyProof
// reads it (an ethdb.KeyValueReader of its nodes by hash), and records
// which nodes were read, in order, so that a node the path does not use
// can be refused: VerifyProof itself ignores what it does not read.
package proofdb

import (
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// DB is one proof's nodes by hash.
type DB struct {
	nodes map[common.Hash][]byte
	// Read holds the hashes of the nodes read, in the order read.
	Read []common.Hash
}

// New indexes nodes by their hash; a node given twice is an error naming
// its index.
func New(nodes [][]byte) (*DB, error) {
	db := &DB{nodes: make(map[common.Hash][]byte, len(nodes)), Read: make([]common.Hash, 0, len(nodes))}
	for i, n := range nodes {
		h := crypto.Keccak256Hash(n)
		if _, ok := db.nodes[h]; ok {
			return nil, fmt.Errorf("node %d is given twice", i)
		}
		db.nodes[h] = n
	}
	return db, nil
}

// Has reports whether the proof has the node of hash key.
func (db *DB) Has(key []byte) (bool, error) {
	_, ok := db.nodes[common.BytesToHash(key)]
	return ok, nil
}

// Get returns the node of hash key, and records that it was read.
func (db *DB) Get(key []byte) ([]byte, error) {
	h := common.BytesToHash(key)
	n, ok := db.nodes[h]
	if !ok {
		return nil, errors.New("not in the proof")
	}
	db.Read = append(db.Read, h)
	return n, nil
}
