package evm

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm/internal/gethcaller"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// ContractCaller is what go-ethereum's abigen bindings read through: the
// methods of bind.ContractCaller, bind.PendingContractCaller and
// bind.BlockHashContractCaller. Client.ContractCaller returns one.
type ContractCaller interface {
	CodeAt(ctx context.Context, contract common.Address, blockNumber *big.Int) ([]byte, error)
	CallContract(ctx context.Context, call ethereum.CallMsg, blockNumber *big.Int) ([]byte, error)
	PendingCodeAt(ctx context.Context, contract common.Address) ([]byte, error)
	PendingCallContract(ctx context.Context, call ethereum.CallMsg) ([]byte, error)
	CodeAtHash(ctx context.Context, contract common.Address, blockHash common.Hash) ([]byte, error)
	CallContractAtHash(ctx context.Context, call ethereum.CallMsg, blockHash common.Hash) ([]byte, error)
}

// ContractCaller returns the client as go-ethereum's abigen bindings read
// through it: pass it to a binding's NewXxxCaller, and the binding's read
// calls go through the node-access service as Call and Code, with the
// client's key, retries, budget and errors. The *big.Int block of
// go-ethereum (nil is latest; -1 pending, -2 latest, -3 finalized, -4 safe,
// -5 earliest, as go-ethereum's rpc package numbers its tags) becomes a
// Block, and every field of an ethereum.CallMsg is carried over to a
// CallMsg, none dropped (a nil To is a contract creation; GasFeeCap is
// MaxFeePerGas, GasTipCap MaxPriorityFeePerGas, BlobGasFeeCap
// MaxFeePerBlobGas). ErrorCode and ErrorData make a *RevertError a
// go-ethereum rpc.Error and rpc.DataError, as the revert errors of
// go-ethereum's own client are.
func (c *Client) ContractCaller() ContractCaller {
	return gethcaller.Caller{Call: c.gethCall, Code: c.gethCode}
}

// gethBlock is the Block of a binding's read.
func gethBlock(at gethcaller.At) (Block, error) {
	switch {
	case at.Pending:
		return Pending, nil
	case at.Hash != nil:
		return BlockHash{Hash: *at.Hash}, nil
	}
	return blockFromBig(at.Number)
}

func (c *Client) gethCall(ctx context.Context, call ethereum.CallMsg, at gethcaller.At) ([]byte, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(OpCall, err)
	}
	b, err := gethBlock(at)
	if err != nil {
		return nil, c.t.Wrap(OpCall, err)
	}
	return c.Call(ctx, fromGeth(call), b)
}

func (c *Client) gethCode(ctx context.Context, contract common.Address, at gethcaller.At) ([]byte, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(OpCode, err)
	}
	b, err := gethBlock(at)
	if err != nil {
		return nil, c.t.Wrap(OpCode, err)
	}
	return c.Code(ctx, contract, b)
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
