package evmtest

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/nodeaccess/nodeaccess/evm"
)

// The addresses the default scenario pays. Neither has code or a key.

// recipient returns the address that receives the value forwarder() passes
// on in the Transfer transaction.
func recipient() common.Address {
	return common.HexToAddress("0x00000000000000000000000000000000000bEEF1")
}

// beneficiary returns the address that receives the balance of the Child
// destroyed in the SelfDestruct transaction.
func beneficiary() common.Address {
	return common.HexToAddress("0x00000000000000000000000000000000000bEEF2")
}

// The default scenario's amounts. Each function returns a new big.Int on
// every call, so that no caller can change what another one, or the next
// New, sees.

// transferValue returns the value of the Transfer transaction, forwarded
// to recipient: 1.5 ether, in wei.
func transferValue() *big.Int { return big.NewInt(15 * params.Ether / 10) }

// createValue returns the value the CREATE child is made with, and later
// sends to beneficiary: 0.25 ether, in wei.
func createValue() *big.Int { return big.NewInt(params.Ether / 4) }

// tokenTransferAmount returns what Holder sends to Accounts()[1] in the
// TokenTransfer transaction, in the token's smallest unit: 34.567891 LUSD,
// leaving Holder 1200 LUSD.
func tokenTransferAmount() *big.Int { return big.NewInt(34_567_891) }

// create2Salt returns the salt of the CREATE2 child.
func create2Salt() common.Hash { return crypto.Keccak256Hash([]byte("nodeaccess evmtest salt")) }

// Scenario is the default scenario: five transactions signed by Holder, one
// per block in blocks 1 to 5, so that ots_getInternalOperations has every
// operation type to list. Their hashes are the same on every run, and each
// ScenarioTx holds what the node lists for it.
type Scenario struct {
	// Transfer (block 1) sends 1.5 ether to a forwarding contract (at
	// 0x000000000000000000000000000000000000F044), which passes it on with
	// a CALL to 0x00000000000000000000000000000000000bEEF1: one Transfer.
	Transfer ScenarioTx
	// Create (block 2) has a factory contract (at
	// 0x000000000000000000000000000000000000FAC7) make a child contract
	// with CREATE and 0.25 ether: one Create from the factory to Created.
	Create ScenarioTx
	// Create2 (block 3) has the factory make a child with CREATE2 and no
	// value: one Create2 from the factory to Created2, value 0 (Erigon
	// lists zero-value creations).
	Create2 ScenarioTx
	// SelfDestruct (block 4) has Created destroy itself in favour of
	// 0x00000000000000000000000000000000000bEEF2: one SelfDestruct from
	// Created to that address with its 0.25 ether.
	SelfDestruct ScenarioTx
	// TokenTransfer (block 5) sends 34.567891 LUSD of Token from Holder to
	// Accounts()[1], leaving Holder 1200 LUSD: an ERC-20 transfer moves no
	// ether, so it has no internal operations (an empty list).
	TokenTransfer ScenarioTx
	// Created is the child made by CREATE.
	Created common.Address
	// Created2 is the child made by CREATE2.
	Created2 common.Address
}

// ScenarioTx is one transaction of the scenario.
type ScenarioTx struct {
	// Hash is the transaction's hash.
	Hash common.Hash
	// Block is the number of the block it is in.
	Block uint64
	// Operations is what ots_getInternalOperations returns for it, in
	// order (never nil; empty when the transaction has none).
	Operations []evm.InternalOperation
}

// Transactions returns the scenario's transactions in block order.
func (sc Scenario) Transactions() []ScenarioTx {
	return []ScenarioTx{sc.Transfer, sc.Create, sc.Create2, sc.SelfDestruct, sc.TokenTransfer}
}

func (sc Scenario) clone() Scenario {
	for _, tx := range []*ScenarioTx{&sc.Transfer, &sc.Create, &sc.Create2, &sc.SelfDestruct, &sc.TokenTransfer} {
		if tx.Operations == nil {
			continue
		}
		ops := make([]evm.InternalOperation, len(tx.Operations))
		for i, op := range tx.Operations {
			op.Value = new(big.Int).Set(op.Value)
			ops[i] = op
		}
		tx.Operations = ops
	}
	return sc
}

// runScenario mines the scenario's transactions and says what each one's
// internal operations are. The expectations are worked out from the
// contracts' code, not read back from the tracer.
func (s *Server) runScenario(ctx context.Context) (Scenario, error) {
	holder := devAccounts[0]
	var sc Scenario
	factoryNonce, err := s.ec.NonceAt(ctx, factory(), nil)
	if err != nil {
		return sc, fmt.Errorf("evmtest: scenario: %w", err)
	}
	sc.Created = crypto.CreateAddress(factory(), factoryNonce)
	sc.Created2 = crypto.CreateAddress2(factory(), create2Salt(), crypto.Keccak256(childInitCode(holder.Address)))

	steps := []struct {
		name  string
		tx    *ScenarioTx
		to    common.Address
		value *big.Int
		data  []byte
		ops   []evm.InternalOperation
	}{
		{"transfer", &sc.Transfer, forwarder(), transferValue(), pack(forwarderABI().Pack("forward", recipient())),
			[]evm.InternalOperation{{Type: evm.Transfer, From: forwarder(), To: recipient(), Value: transferValue()}}},
		{"create", &sc.Create, factory(), createValue(), pack(factoryABI().Pack("create")),
			[]evm.InternalOperation{{Type: evm.Create, From: factory(), To: sc.Created, Value: createValue()}}},
		{"create2", &sc.Create2, factory(), nil, pack(factoryABI().Pack("create2", create2Salt())),
			[]evm.InternalOperation{{Type: evm.Create2, From: factory(), To: sc.Created2, Value: new(big.Int)}}},
		{"selfdestruct", &sc.SelfDestruct, sc.Created, nil, pack(childABI().Pack("destroy", beneficiary())),
			[]evm.InternalOperation{{Type: evm.SelfDestruct, From: sc.Created, To: beneficiary(), Value: createValue()}}},
		{"token transfer", &sc.TokenTransfer, Token(), nil, pack(TokenABI().Pack("transfer", devAccounts[1].Address, tokenTransferAmount())),
			[]evm.InternalOperation{}},
	}
	for _, st := range steps {
		to := st.to
		r, err := s.Transact(ctx, holder, &to, st.value, st.data)
		if err != nil {
			return Scenario{}, fmt.Errorf("evmtest: scenario %s: %w", st.name, err)
		}
		*st.tx = ScenarioTx{Hash: r.TxHash, Block: r.BlockNumber.Uint64(), Operations: st.ops}
	}
	return sc.clone(), nil
}

// pack returns the packed call data; the ABIs and arguments are the
// package's own, so an error is a bug.
func pack(data []byte, err error) []byte {
	if err != nil {
		panic("evmtest: packing a scenario call: " + err.Error())
	}
	return data
}
