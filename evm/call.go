package evm

import (
	"context"
	"fmt"

	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Call runs eth_call: it executes msg against the state at block without
// creating a transaction, and returns the output bytes. A call that returns
// nothing yields an empty, non-nil slice. A revert returns a *RevertError
// (errors.As) that matches ErrReverted (errors.Is) and carries the revert
// data and its decoded reason or panic code.
func (c *Client) Call(ctx context.Context, msg CallMsg, block Block) ([]byte, error) {
	return c.call(ctx, msg, block, nil)
}

// call is Call with optional overrides (nil: none).
func (c *Client) call(ctx context.Context, msg CallMsg, block Block, ov *Overrides) ([]byte, error) {
	const op = "eth_call"
	bp := transport.GetBuf()
	defer transport.PutBuf(bp)
	params, err := callParams((*bp)[:0], &msg, block, ov)
	*bp = params
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	out, err := rpc(ctx, c, op, params, c.callUnits(ctx, block), decodeHexBytes)
	if err != nil {
		return nil, c.t.Wrap(op, asRevert(err, c.t.Mask))
	}
	return out, nil
}

// callParams checks msg and ov and appends eth_call's params to dst: the
// call object, the block, and the overrides when ov is not nil. An error is
// an *nodeaccess.InputError naming the bad member; nothing is to be sent.
func callParams(dst []byte, msg *CallMsg, block Block, ov *Overrides) ([]byte, error) {
	if err := msg.check(); err != nil {
		return dst, err
	}
	if ov != nil {
		if err := ov.check(); err != nil {
			return dst, err
		}
	}
	params, err := msg.appendJSON(append(dst, '['))
	if err != nil {
		return params, err
	}
	params = append(params, ',')
	params, err = appendBlockJSON(params, block)
	if err != nil {
		return params, err
	}
	if ov != nil {
		params = ov.appendJSON(params)
	}
	return append(params, ']'), nil
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
