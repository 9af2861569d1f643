// Package gethcaller is the adapter that lets go-ethereum's abigen bindings
// read through an evm.Client: the six methods of bind.ContractCaller,
// bind.PendingContractCaller and bind.BlockHashContractCaller, each mapped
// onto the client's one way to call and one way to get code.
package gethcaller

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

// At is the state a read is at, in go-ethereum's forms: a block number
// (nil: latest; negative: a tag, as go-ethereum's rpc package numbers
// them), a block hash, or the pending state.
type At struct {
	Number  *big.Int
	Hash    *common.Hash
	Pending bool
}

// Caller maps the bindings' methods onto Call and Code.
type Caller struct {
	Call func(ctx context.Context, msg ethereum.CallMsg, at At) ([]byte, error)
	Code func(ctx context.Context, account common.Address, at At) ([]byte, error)
}

// CodeAt returns the code of contract at blockNumber.
func (c Caller) CodeAt(ctx context.Context, contract common.Address, blockNumber *big.Int) ([]byte, error) {
	return c.Code(ctx, contract, At{Number: blockNumber})
}

// CallContract runs a call at blockNumber.
func (c Caller) CallContract(ctx context.Context, call ethereum.CallMsg, blockNumber *big.Int) ([]byte, error) {
	return c.Call(ctx, call, At{Number: blockNumber})
}

// PendingCodeAt returns the code of contract in the pending state.
func (c Caller) PendingCodeAt(ctx context.Context, contract common.Address) ([]byte, error) {
	return c.Code(ctx, contract, At{Pending: true})
}

// PendingCallContract runs a call against the pending state.
func (c Caller) PendingCallContract(ctx context.Context, call ethereum.CallMsg) ([]byte, error) {
	return c.Call(ctx, call, At{Pending: true})
}

// CodeAtHash returns the code of contract at the block with hash blockHash.
func (c Caller) CodeAtHash(ctx context.Context, contract common.Address, blockHash common.Hash) ([]byte, error) {
	return c.Code(ctx, contract, At{Hash: &blockHash})
}

// CallContractAtHash runs a call at the block with hash blockHash.
func (c Caller) CallContractAtHash(ctx context.Context, call ethereum.CallMsg, blockHash common.Hash) ([]byte, error) {
	return c.Call(ctx, call, At{Hash: &blockHash})
}
