package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/nodeaccess/nodeaccess/internal/jsontext"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// BlockNumber runs eth_blockNumber: the number of the most recent block the
// node has.
func (c *Client) BlockNumber(ctx context.Context) (uint64, error) {
	if err := transport.NilContext(ctx); err != nil {
		return 0, c.t.Wrap(OpBlockNumber, err)
	}
	n, err := rpc(ctx, c, OpBlockNumber, []byte("[]"), 0, decodeUint64)
	if err != nil {
		return 0, c.t.Wrap(OpBlockNumber, err)
	}
	return n, nil
}

// ChainID runs eth_chainId: the chain id of EIP-155 that the node's chain
// signs transactions with (1 for Ethereum mainnet). It is asked for on
// every call, as go-ethereum's ethclient does.
func (c *Client) ChainID(ctx context.Context) (*big.Int, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(OpChainID, err)
	}
	id, err := rpc(ctx, c, OpChainID, []byte("[]"), 0, decodeBigQuantity)
	if err != nil {
		return nil, c.t.Wrap(OpChainID, err)
	}
	return id, nil
}

// decodeBigQuantity decodes a JSON string holding a hex quantity ("0x1b4");
// leading zeros are tolerated, because servers differ. Its errors describe
// the value without quoting it: the caller shows the (masked) body beside
// them.
func decodeBigQuantity(raw []byte) (*big.Int, error) {
	raw = jsontext.Unescaped(raw)
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, fmt.Errorf("want a hex quantity, got %s", jsonKind(raw))
	}
	s := raw[1 : len(raw)-1]
	if len(s) < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return nil, errors.New("want a hex quantity, got a string without 0x and digits")
	}
	v, ok := new(big.Int).SetString(string(s[2:]), 16)
	if !ok || s[2] == '-' || s[2] == '+' {
		return nil, fmt.Errorf("want a hex quantity, got a string of %d bytes that is not one", len(s))
	}
	return v, nil
}

// decodeUint64 decodes a hex quantity that fits in 64 bits.
func decodeUint64(raw []byte) (uint64, error) {
	v, err := decodeBigQuantity(raw)
	if err != nil {
		return 0, err
	}
	if !v.IsUint64() {
		return 0, fmt.Errorf("quantity 0x%x does not fit in 64 bits", v)
	}
	return v.Uint64(), nil
}
