package evm

import (
	"context"

	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Call runs eth_call: it executes msg against the state at block without
// creating a transaction, and returns the output bytes. With
// msg.StateOverride or msg.BlockOverride set the node runs it on the
// changed state or block, then throws the changes away. A call that returns
// nothing yields an empty, non-nil slice. A revert returns a *RevertError
// (errors.As) that matches ErrReverted (errors.Is) and carries the revert
// data and its decoded reason or panic code.
func (c *Client) Call(ctx context.Context, msg CallMsg, block Block) ([]byte, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(OpCall, err)
	}
	const op = OpCall
	bp := transport.GetBuf()
	defer transport.PutBuf(bp)
	params, err := callParams((*bp)[:0], &msg, block, c.callData)
	*bp = params
	if err == nil {
		err = c.checkLatest(notLatest(block))
	}
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	out, err := rpc(ctx, c, op, params, c.callUnits(ctx, block), decodeHexBytes)
	if err != nil {
		return nil, c.t.Wrap(op, asRevert(err, c.t.Mask))
	}
	return out, nil
}

// callParams checks msg and appends eth_call's params to dst: the call
// object (its data under the members spell names), the block, and the
// overrides when msg has any. An error is an *nodeaccess.InputError naming
// the bad member; nothing is to be sent.
func callParams(dst []byte, msg *CallMsg, block Block, spell callDataSpelling) ([]byte, error) {
	if err := msg.check(); err != nil {
		return dst, err
	}
	params, err := msg.appendJSON(append(dst, '['), spell)
	if err != nil {
		return params, err
	}
	params = append(params, ',')
	params, err = appendBlockJSON(params, block)
	if err != nil {
		return params, err
	}
	params = appendOverrides(params, msg.StateOverride, msg.BlockOverride)
	return append(params, ']'), nil
}
