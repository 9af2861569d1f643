package evm

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// The go-ethereum adapter.
//
// The methods in this file exist so that code written for go-ethereum runs
// on a *Client unchanged. CodeAt and CallContract make it a
// bind.ContractCaller, PendingCodeAt and PendingCallContract a
// bind.PendingContractCaller, CodeAtHash and CallContractAtHash a
// bind.BlockHashContractCaller: pass it to an abigen binding's
// NewXxxCaller and the binding's read calls go through the node-access
// service. Each maps onto Code or Call: the *big.Int block of go-ethereum
// (nil is latest; -1 pending, -2 latest, -3 finalized, -4 safe, -5
// earliest, as go-ethereum's rpc package numbers its tags) becomes a
// Block, and every field of an ethereum.CallMsg is carried over to a
// CallMsg, none dropped (a nil To is a contract creation; GasFeeCap is
// MaxFeePerGas, GasTipCap MaxPriorityFeePerGas, BlobGasFeeCap
// MaxFeePerBlobGas). ErrorCode and ErrorData make a *RevertError a
// go-ethereum rpc.Error and rpc.DataError, as the revert errors of
// go-ethereum's own client are. Code of this package's own is better served
// by Call and Code, which take a Block and state and block overrides.

// CodeAt returns the code of contract at blockNumber (nil: latest), as Code
// does.
func (c *Client) CodeAt(ctx context.Context, contract common.Address, blockNumber *big.Int) ([]byte, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(OpCode, err)
	}
	b, err := blockFromBig(blockNumber)
	if err != nil {
		return nil, c.t.Wrap(OpCode, err)
	}
	return c.Code(ctx, contract, b)
}

// CallContract runs eth_call for a go-ethereum CallMsg at blockNumber (nil:
// latest), as Call does.
func (c *Client) CallContract(ctx context.Context, call ethereum.CallMsg, blockNumber *big.Int) ([]byte, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(OpCall, err)
	}
	b, err := blockFromBig(blockNumber)
	if err != nil {
		return nil, c.t.Wrap("eth_call", err)
	}
	return c.Call(ctx, fromGeth(call), b)
}

// PendingCodeAt returns the code of contract in the pending state.
func (c *Client) PendingCodeAt(ctx context.Context, contract common.Address) ([]byte, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(OpCode, err)
	}
	return c.Code(ctx, contract, Pending)
}

// PendingCallContract runs eth_call against the pending state.
func (c *Client) PendingCallContract(ctx context.Context, call ethereum.CallMsg) ([]byte, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(OpCall, err)
	}
	return c.Call(ctx, fromGeth(call), Pending)
}

// CodeAtHash returns the code of contract at the block with hash blockHash.
func (c *Client) CodeAtHash(ctx context.Context, contract common.Address, blockHash common.Hash) ([]byte, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(OpCode, err)
	}
	return c.Code(ctx, contract, BlockHash{Hash: blockHash})
}

// CallContractAtHash runs eth_call at the block with hash blockHash.
func (c *Client) CallContractAtHash(ctx context.Context, call ethereum.CallMsg, blockHash common.Hash) ([]byte, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(OpCall, err)
	}
	return c.Call(ctx, fromGeth(call), BlockHash{Hash: blockHash})
}

// ErrorCode returns the node's JSON-RPC code (3 on go-ethereum, reth and
// anvil; -32000 on Besu; -32015 on older Nethermind), or 3 when RPC is nil:
// go-ethereum's rpc.Error.
func (e *RevertError) ErrorCode() int {
	if e.RPC == nil {
		return 3
	}
	return e.RPC.Code
}

// ErrorData returns the revert data as a 0x-prefixed hex string, as
// go-ethereum's rpc.DataError does; when the node's data was not a hex
// string it returns the node's data as it came.
func (e *RevertError) ErrorData() any {
	if e.RPC != nil && e.Data == nil && e.RPC.Data != nil {
		return e.RPC.Data
	}
	return "0x" + hex.EncodeToString(e.Data)
}

// fromGeth converts a go-ethereum CallMsg to a CallMsg, field for field.
// The slices and amounts are shared, not copied.
func fromGeth(call ethereum.CallMsg) CallMsg {
	m := CallMsg{
		From: call.From, Create: call.To == nil, Gas: call.Gas,
		GasPrice: call.GasPrice, MaxFeePerGas: call.GasFeeCap, MaxPriorityFeePerGas: call.GasTipCap,
		Value: call.Value, Data: call.Data, AccessList: call.AccessList,
		MaxFeePerBlobGas: call.BlobGasFeeCap, BlobHashes: call.BlobHashes,
		AuthorizationList: call.AuthorizationList,
	}
	if call.To != nil {
		m.To = *call.To
	}
	return m
}

// blockFromBig converts go-ethereum's *big.Int block convention: nil is
// Latest, a non-negative number selects that block, and the negative
// numbers of go-ethereum's rpc package select tags (-1 pending, -2 latest,
// -3 finalized, -4 safe, -5 earliest). Any other value is an
// *nodeaccess.InputError.
func blockFromBig(n *big.Int) (Block, error) {
	switch {
	case n == nil:
		return Latest, nil
	case n.Sign() >= 0 && n.IsUint64():
		return BlockNumber(n.Uint64()), nil
	case n.Sign() >= 0:
		return nil, &nodeaccess.InputError{Arg: "block", Reason: fmt.Sprintf("block number %s does not fit in 64 bits", n)}
	case !n.IsInt64():
		return nil, &nodeaccess.InputError{Arg: "block", Reason: fmt.Sprintf("negative block number %s", n)}
	}
	switch n.Int64() {
	case -1:
		return Pending, nil
	case -2:
		return Latest, nil
	case -3:
		return Finalized, nil
	case -4:
		return Safe, nil
	case -5:
		return Earliest, nil
	}
	return nil, &nodeaccess.InputError{Arg: "block", Reason: fmt.Sprintf("negative block number %s", n)}
}
