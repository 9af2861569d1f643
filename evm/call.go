package evm

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// CallMsg is the call object of eth_call. To is required; every other field
// is optional and left out of the request when unset (zero).
type CallMsg struct {
	// From is the sender; the zero address is left out (nodes then use the
	// zero address, so the effect is the same).
	From common.Address
	// To is the account called. It must not be the zero address.
	To common.Address
	// Gas caps the gas of the call; 0 is left out (the node's cap applies).
	Gas uint64
	// GasPrice in wei; nil is left out. Must not be negative.
	GasPrice *big.Int
	// Value sent with the call in wei; nil is left out. Must not be negative.
	Value *big.Int
	// Data is the call data (selector and ABI-encoded arguments); empty is
	// left out.
	Data []byte
}

// check validates the message before anything is sent.
func (m *CallMsg) check() error {
	if m.To == (common.Address{}) {
		return &nodeaccess.InputError{Arg: "to", Reason: "the zero address is not a call target (set CallMsg.To)"}
	}
	if m.GasPrice != nil && m.GasPrice.Sign() < 0 {
		return &nodeaccess.InputError{Arg: "gasPrice", Reason: fmt.Sprintf("negative gas price %s", m.GasPrice)}
	}
	if m.Value != nil && m.Value.Sign() < 0 {
		return &nodeaccess.InputError{Arg: "value", Reason: fmt.Sprintf("negative value %s", m.Value)}
	}
	return nil
}

// appendJSON appends the call object with the members that are set, in the
// execution-API spelling (gasPrice, not gasprice).
func (m *CallMsg) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if m.From != (common.Address{}) {
		dst = append(dst, `"from":"0x`...)
		dst = hex.AppendEncode(dst, m.From[:])
		dst = append(dst, `",`...)
	}
	dst = append(dst, `"to":"0x`...)
	dst = hex.AppendEncode(dst, m.To[:])
	dst = append(dst, '"')
	if m.Gas != 0 {
		dst = append(dst, `,"gas":"0x`...)
		dst = appendHexUint(dst, m.Gas)
		dst = append(dst, '"')
	}
	if m.GasPrice != nil {
		dst = append(dst, `,"gasPrice":"0x`...)
		dst = m.GasPrice.Append(dst, 16)
		dst = append(dst, '"')
	}
	if m.Value != nil {
		dst = append(dst, `,"value":"0x`...)
		dst = m.Value.Append(dst, 16)
		dst = append(dst, '"')
	}
	if len(m.Data) > 0 {
		dst = append(dst, `,"data":"0x`...)
		dst = hex.AppendEncode(dst, m.Data)
		dst = append(dst, '"')
	}
	return append(dst, '}')
}

// Call runs eth_call: it executes msg against the state at block without
// creating a transaction, and returns the output bytes. A call that returns
// nothing yields an empty, non-nil slice. A revert returns a *RevertError
// (errors.As) that matches ErrReverted (errors.Is) and carries the revert
// data and its decoded reason or panic code.
func (c *Client) Call(ctx context.Context, msg CallMsg, block Block) ([]byte, error) {
	const op = "eth_call"
	if err := msg.check(); err != nil {
		return nil, c.t.Wrap(op, err)
	}
	bp := transport.GetBuf()
	defer transport.PutBuf(bp)
	params := append((*bp)[:0], '[')
	params = msg.appendJSON(params)
	params = append(params, ',')
	params = block.appendJSON(params)
	params = append(params, ']')
	*bp = params
	out, err := rpc(ctx, c, op, params, c.callUnits(ctx, block), decodeHexBytes)
	if err != nil {
		return nil, c.t.Wrap(op, asRevert(err, c.t.Mask))
	}
	return out, nil
}

// rpc sends one JSON-RPC call to the client's endpoint and decodes its result
// with decode; a decoding failure is an ErrInvalidResponse error that shows
// the body. units is what each attempt costs, 0 for the method's cost (1
// unless the user set one). Errors are returned unwrapped.
func rpc[T any](ctx context.Context, c *Client, method string, params []byte, units int, decode func([]byte) (T, error)) (T, error) {
	var zero T
	res, err := c.t.CallRPC(ctx, &transport.RPC{Target: c.target, Method: method, Params: params, Units: units})
	if err != nil {
		return zero, err
	}
	defer res.Release()
	v, err := decode(res.Raw)
	if err != nil {
		return zero, c.t.InvalidBody(&res.Response, fmt.Errorf("%s result: %w", method, err))
	}
	return v, nil
}
