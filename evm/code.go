package evm

import (
	"context"
	"encoding/hex"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Code runs eth_getCode: the code of account at block; empty (non-nil) for
// an account without code.
func (c *Client) Code(ctx context.Context, account common.Address, block Block) ([]byte, error) {
	const op = "eth_getCode"
	bp := transport.GetBuf()
	defer transport.PutBuf(bp)
	params, err := codeParams((*bp)[:0], account, block)
	*bp = params
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	*bp = params
	out, err := rpc(ctx, c, op, params, 0, decodeHexBytes)
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	return out, nil
}

// codeParams appends eth_getCode's params to dst. An error is an
// *nodeaccess.InputError naming a bad block; nothing is to be sent.
func codeParams(dst []byte, account common.Address, block Block) ([]byte, error) {
	dst = append(dst, `["0x`...)
	dst = hex.AppendEncode(dst, account[:])
	dst = append(dst, `",`...)
	dst, err := appendBlockJSON(dst, block)
	if err != nil {
		return dst, err
	}
	return append(dst, ']'), nil
}

// The methods below make *Client a go-ethereum bind.ContractCaller (and a
// PendingContractCaller and BlockHashContractCaller), so abigen bindings run
// their read calls on it.

// CodeAt returns the code of contract at blockNumber (nil: latest; see
// BlockFromBig for negative numbers).
func (c *Client) CodeAt(ctx context.Context, contract common.Address, blockNumber *big.Int) ([]byte, error) {
	b, err := BlockFromBig(blockNumber)
	if err != nil {
		return nil, c.t.Wrap("eth_getCode", err)
	}
	return c.Code(ctx, contract, b)
}

// CallContract runs eth_call for a go-ethereum CallMsg at blockNumber (nil:
// latest). Every field of the message is sent (see FromGeth); a nil To is
// a contract creation.
func (c *Client) CallContract(ctx context.Context, call ethereum.CallMsg, blockNumber *big.Int) ([]byte, error) {
	b, err := BlockFromBig(blockNumber)
	if err != nil {
		return nil, c.t.Wrap("eth_call", err)
	}
	return c.callGeth(ctx, call, b)
}

// PendingCodeAt returns the code of contract in the pending state.
func (c *Client) PendingCodeAt(ctx context.Context, contract common.Address) ([]byte, error) {
	return c.Code(ctx, contract, Pending)
}

// PendingCallContract runs eth_call against the pending state.
func (c *Client) PendingCallContract(ctx context.Context, call ethereum.CallMsg) ([]byte, error) {
	return c.callGeth(ctx, call, Pending)
}

// CodeAtHash returns the code of contract at the block with hash blockHash.
func (c *Client) CodeAtHash(ctx context.Context, contract common.Address, blockHash common.Hash) ([]byte, error) {
	return c.Code(ctx, contract, BlockHash{Hash: blockHash})
}

// CallContractAtHash runs eth_call at the block with hash blockHash.
func (c *Client) CallContractAtHash(ctx context.Context, call ethereum.CallMsg, blockHash common.Hash) ([]byte, error) {
	return c.callGeth(ctx, call, BlockHash{Hash: blockHash})
}

// callGeth runs a go-ethereum CallMsg: every one of its fields is carried
// over (see FromGeth), none dropped.
func (c *Client) callGeth(ctx context.Context, call ethereum.CallMsg, b Block) ([]byte, error) {
	return c.Call(ctx, FromGeth(call), b)
}

// FromGeth converts a go-ethereum CallMsg to a CallMsg, field for field: a
// nil To is a contract creation (Create), GasFeeCap is MaxFeePerGas,
// GasTipCap MaxPriorityFeePerGas and BlobGasFeeCap MaxFeePerBlobGas. The
// slices and amounts are shared, not copied.
func FromGeth(call ethereum.CallMsg) CallMsg {
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
