package evm

import (
	"context"
	"encoding/hex"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Code runs eth_getCode: the code of account at block; empty (non-nil) for
// an account without code.
func (c *Client) Code(ctx context.Context, account common.Address, block Block) ([]byte, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(OpCode, err)
	}
	const op = OpCode
	bp := transport.GetBuf()
	defer transport.PutBuf(bp)
	params, err := codeParams((*bp)[:0], account, block)
	*bp = params
	if err == nil {
		err = c.checkLatest(notLatest(block))
	}
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
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
