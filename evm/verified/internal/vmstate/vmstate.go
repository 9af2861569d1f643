// Package vmstate is the state a verified call runs over: the accounts and
// slots proven at one block, as an in-memory go-ethereum state, behind a
// vm.StateDB that records every read the proofs do not cover.
package vmstate

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/triedb"
	"github.com/holiman/uint256"
)

// maxMisses bounds the reads outside the proven state one run records:
// what the next round fetches at most.
const maxMisses = 1000

// Proven are the accounts proven at one block.
type Proven map[common.Address]*Account

// Account is one proven account, its code, and its proven slots.
type Account struct {
	Balance     *big.Int
	Nonce       uint64
	CodeHash    common.Hash
	StorageRoot common.Hash
	Code        []byte
	Slots       map[common.Hash]common.Hash
}

// Add records an account's proven state (the first time it is proven)
// and the values of some of its slots.
func (s Proven) Add(addr common.Address, acc Account, slots []common.Hash, values []*big.Int) {
	pa := s[addr]
	if pa == nil {
		acc.Slots = map[common.Hash]common.Hash{}
		pa = &acc
		s[addr] = pa
	}
	for i, k := range slots {
		pa.Slots[k] = common.BigToHash(values[i])
	}
}

// StateDB builds an in-memory go-ethereum state of the proven accounts,
// with their proven slots, and the guard over it that records each read
// of an account or slot the proofs do not cover.
func (s Proven) StateDB(rules params.Rules, number uint64) (*Guard, error) {
	db := rawdb.NewMemoryDatabase()
	sdbDB := state.NewDatabase(triedb.NewDatabase(db, nil), state.NewCodeDB(db))
	sdb, err := state.New(types.EmptyRootHash, sdbDB)
	if err != nil {
		return nil, err
	}
	for addr, pa := range s {
		if pa.Nonce == 0 && pa.Balance.Sign() == 0 && pa.CodeHash == types.EmptyCodeHash && pa.StorageRoot == types.EmptyRootHash {
			continue // absent or empty: the state holds no such account
		}
		bal, _ := uint256.FromBig(pa.Balance)
		sdb.SetBalance(addr, bal, tracing.BalanceChangeUnspecified)
		sdb.SetNonce(addr, pa.Nonce, tracing.NonceChangeUnspecified)
		if len(pa.Code) > 0 {
			sdb.SetCode(addr, pa.Code, tracing.CodeChangeUnspecified)
		}
		for k, v := range pa.Slots {
			if v != (common.Hash{}) {
				sdb.SetState(addr, k, v)
			}
		}
	}
	// Committed, so that the proven values are the committed ones (what
	// SSTORE's gas reads as the original value), not changes of this call.
	root, err := sdb.Commit(rules, number)
	if err != nil {
		return nil, err
	}
	if sdb, err = state.New(root, sdbDB); err != nil {
		return nil, err
	}
	return &Guard{StateDB: sdb, s: s, Missing: map[common.Address]map[common.Hash]bool{}}, nil
}

// Guard is the vm.StateDB a verified call runs on: the in-memory state of
// the proven accounts, reading through to it, that records every read of
// an account or a slot the proofs do not cover (the access list left it
// out), so that it is fetched with a proof and the call run again, never
// guessed. A read of storage is covered when the slot is proven, or the
// account's storage is proven empty.
type Guard struct {
	vm.StateDB
	s Proven
	// Missing are the accounts (with no slot: the account itself) and
	// slots read that the proofs do not cover; at most maxMisses.
	Missing map[common.Address]map[common.Hash]bool
	n       int
	// BlockHash is set when the call reads the hash of a block this
	// client does not prove (BLOCKHASH of a block other than the parent).
	BlockHash *big.Int
}

func (g *Guard) account(addr common.Address) {
	if _, ok := g.s[addr]; ok {
		return
	}
	if _, ok := g.Missing[addr]; !ok && g.n < maxMisses {
		g.Missing[addr] = map[common.Hash]bool{}
		g.n++
	}
}

func (g *Guard) slot(addr common.Address, key common.Hash) {
	pa, ok := g.s[addr]
	if ok {
		if pa.StorageRoot == types.EmptyRootHash {
			return
		}
		if _, ok := pa.Slots[key]; ok {
			return
		}
	}
	m := g.Missing[addr]
	if m == nil {
		if g.n >= maxMisses {
			return
		}
		m = map[common.Hash]bool{}
		g.Missing[addr] = m
		g.n++
	}
	if !m[key] && g.n < maxMisses {
		m[key] = true
		g.n++
	}
}

// The reads of the state a call's result can depend on.

func (g *Guard) GetBalance(a common.Address) *uint256.Int {
	g.account(a)
	return g.StateDB.GetBalance(a)
}

func (g *Guard) GetNonce(a common.Address) uint64 {
	g.account(a)
	return g.StateDB.GetNonce(a)
}

func (g *Guard) GetCodeHash(a common.Address) common.Hash {
	g.account(a)
	return g.StateDB.GetCodeHash(a)
}

func (g *Guard) GetCode(a common.Address) []byte {
	g.account(a)
	return g.StateDB.GetCode(a)
}

func (g *Guard) GetCodeSize(a common.Address) int {
	g.account(a)
	return g.StateDB.GetCodeSize(a)
}

func (g *Guard) Exist(a common.Address) bool {
	g.account(a)
	return g.StateDB.Exist(a)
}

func (g *Guard) Empty(a common.Address) bool {
	g.account(a)
	return g.StateDB.Empty(a)
}

func (g *Guard) GetState(a common.Address, k common.Hash) common.Hash {
	g.slot(a, k)
	return g.StateDB.GetState(a, k)
}

func (g *Guard) GetStateAndCommittedState(a common.Address, k common.Hash) (common.Hash, common.Hash) {
	g.slot(a, k)
	return g.StateDB.GetStateAndCommittedState(a, k)
}

// Describe says what the missing reads are, for an error.
func (g *Guard) Describe() string {
	slots := 0
	for _, m := range g.Missing {
		slots += len(m)
	}
	return fmt.Sprintf("%d accounts and %d storage slots", len(g.Missing), slots)
}
