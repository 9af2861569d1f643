package evm

import (
	"context"
	"encoding/hex"
	"errors"
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
	out, err := rpc(ctx, c, op, params, decodeHexBytes)
	if err != nil {
		return nil, c.t.Wrap(op, asRevert(err))
	}
	return out, nil
}

// rpc sends one JSON-RPC call to the client's endpoint and decodes its result
// with decode; a decoding failure is an ErrInvalidResponse error that shows
// the body. Errors are returned unwrapped.
func rpc[T any](ctx context.Context, c *Client, method string, params []byte, decode func([]byte) (T, error)) (T, error) {
	var zero T
	res, err := c.t.CallRPC(ctx, &transport.RPC{Target: c.target, Method: method, Params: params})
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

// ErrReverted matches every *RevertError.
var ErrReverted = errors.New("execution reverted")

// RevertError is a call that the EVM reverted. Reach it with errors.As; its
// cause is the node's *nodeaccess.RPCError.
type RevertError struct {
	// Data is the revert data: empty for a bare revert, ABI-encoded
	// Error(string), Panic(uint256), or a custom error otherwise.
	Data []byte
	// Reason is the message of an Error(string) revert, "" otherwise.
	Reason string
	// PanicCode is the code of a Panic(uint256) revert (such as 0x11 for an
	// arithmetic overflow), nil otherwise.
	PanicCode *big.Int
	// RPC is the node's error.
	RPC *nodeaccess.RPCError
}

// The selectors of the two revert forms that Solidity defines.
var (
	errorSelector = [4]byte{0x08, 0xc3, 0x79, 0xa0} // Error(string)
	panicSelector = [4]byte{0x4e, 0x48, 0x7b, 0x71} // Panic(uint256)
)

// Error describes the revert: its reason, its panic code, or the custom
// error's selector.
func (e *RevertError) Error() string {
	switch {
	case e.Reason != "":
		return fmt.Sprintf("execution reverted: %q", e.Reason)
	case len(e.Data) >= 4 && [4]byte(e.Data[:4]) == errorSelector:
		if r, ok := decodeErrorString(e.Data[4:]); ok {
			return fmt.Sprintf("execution reverted: %q", r) // an empty reason
		}
		return fmt.Sprintf("execution reverted: Error(string) with malformed data (%d bytes)", len(e.Data))
	case e.PanicCode != nil:
		return fmt.Sprintf("execution reverted: panic 0x%x (%s)", e.PanicCode, panicMeaning(e.PanicCode))
	case len(e.Data) >= 4:
		return fmt.Sprintf("execution reverted: custom error 0x%x (%d bytes of data)", e.Data[:4], len(e.Data))
	}
	return "execution reverted"
}

// Unwrap returns the node's error (nil when RPC is nil).
func (e *RevertError) Unwrap() error {
	if e.RPC == nil {
		return nil
	}
	return e.RPC
}

// Is matches ErrReverted.
func (e *RevertError) Is(target error) bool { return target == ErrReverted }

// ErrorCode returns the JSON-RPC code (3 on go-ethereum based nodes), or 3
// when RPC is nil.
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

// panicMeaning names Solidity's panic codes.
func panicMeaning(code *big.Int) string {
	if !code.IsUint64() {
		return "unknown panic code"
	}
	switch code.Uint64() {
	case 0x00:
		return "generic compiler panic"
	case 0x01:
		return "assertion failed"
	case 0x11:
		return "arithmetic overflow or underflow"
	case 0x12:
		return "division or modulo by zero"
	case 0x21:
		return "invalid enum value"
	case 0x22:
		return "invalid storage byte array encoding"
	case 0x31:
		return "pop on an empty array"
	case 0x32:
		return "array index out of bounds"
	case 0x41:
		return "out of memory"
	case 0x51:
		return "call to an uninitialised function"
	}
	return "unknown panic code"
}

// asRevert turns a node's revert error (code 3, or a message starting with
// "execution reverted") into a *RevertError; other errors pass unchanged.
func asRevert(err error) error {
	var re *nodeaccess.RPCError
	if !errors.As(err, &re) {
		return err
	}
	if re.Code != 3 && !hasPrefix(re.Message, "execution reverted") {
		return err
	}
	rev := &RevertError{RPC: re}
	if s, ok := re.Data.(string); ok {
		if b, derr := decodeHex(s); derr == nil {
			rev.Data = b
		}
	}
	rev.Reason, rev.PanicCode = decodeRevertData(rev.Data)
	return rev
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// decodeRevertData decodes Error(string) and Panic(uint256) revert data.
func decodeRevertData(data []byte) (reason string, panicCode *big.Int) {
	if len(data) < 4 {
		return "", nil
	}
	body := data[4:]
	switch [4]byte(data[:4]) {
	case panicSelector:
		if len(body) == 32 {
			return "", new(big.Int).SetBytes(body)
		}
	case errorSelector:
		r, _ := decodeErrorString(body)
		return r, nil
	}
	return "", nil
}

// decodeErrorString decodes the ABI encoding of one string (the arguments
// of Error(string)): an offset, then at the offset a length and the bytes.
// ok is false when the encoding is malformed.
func decodeErrorString(body []byte) (reason string, ok bool) {
	if len(body) < 64 {
		return "", false
	}
	off := new(big.Int).SetBytes(body[:32])
	if !off.IsUint64() || off.Uint64() > uint64(len(body))-32 {
		return "", false
	}
	o := off.Uint64()
	n := new(big.Int).SetBytes(body[o : o+32])
	if !n.IsUint64() || n.Uint64() > uint64(len(body))-o-32 {
		return "", false
	}
	return string(body[o+32 : o+32+n.Uint64()]), true
}
