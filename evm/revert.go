package evm

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/nodeaccess/nodeaccess"
)

// ErrReverted matches every *RevertError.
var ErrReverted = errors.New("execution reverted")

// RevertError is a call that the EVM reverted. Reach it with errors.As; it
// matches ErrReverted, and its cause is the node's *nodeaccess.RPCError,
// whose code and message are the node's own (3 or -32000 or -32015,
// "execution reverted", "Execution reverted", "VM execution error.", …: the
// package documentation lists the shapes read).
type RevertError struct {
	// Data is the revert data: empty for a bare revert, ABI-encoded
	// Error(string), Panic(uint256), or a custom error otherwise.
	Data []byte
	// Reason is the message of an Error(string) revert. When the node sent
	// no revert data but the reason as text (Nethermind's old
	// "revert: <reason>", a message "execution reverted: <reason>" without
	// data), Reason is that text; "" otherwise.
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

// Unwrap returns ErrReverted and the node's error (RPC, when not nil), so
// that errors.Is(err, ErrReverted) holds and errors.As reaches the
// *nodeaccess.RPCError.
func (e *RevertError) Unwrap() []error {
	if e.RPC == nil {
		return []error{ErrReverted}
	}
	return []error{ErrReverted, e.RPC}
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

// protocolError reports whether code is one of the JSON-RPC codes for an
// error of the request itself (-32700 parse error, -32600 invalid request,
// -32601 method not found, -32602 invalid params): never a revert, whatever
// the text says. -32603 (internal error) is not one of them: hardhat 2
// answers reverts with it.
func protocolError(code int) bool {
	return code == -32700 || code >= -32602 && code <= -32600
}

// asRevert turns a node's revert error into a *RevertError; other errors
// pass unchanged. Nodes say "reverted" in several ways, and the test is not
// tied to one spelling or code:
//
//   - code 3, the code go-ethereum, reth, anvil and others give a revert;
//   - a message or a text data member that speaks of a revert, in any case:
//     "execution reverted" anywhere (geth, Erigon, Besu's "Execution
//     reverted", a relay's "[Request ID: …] execution reverted: …"), a text
//     that starts with "revert" (Nethermind's data "revert",
//     "revert: <reason>", "Reverted 0x<data>"), or ganache's "VM Exception
//     while processing transaction: revert…" (hardhat 2 wrote "…: reverted
//     with reason string '…'");
//   - revert data that is a well-formed Error(string) or Panic(uint256),
//     whatever the message.
//
// The request's own errors (see protocolError) are never reverts. The revert data is read from a hex string data member,
// from Nethermind's "Reverted 0x…" text, or from an object's "data" or
// "return" member (hardhat, ganache), one level down at most.
//
// mask masks the access key in the reason, which may come ABI-encoded in
// the data, where the transport's scrubbing of the node's text cannot see
// it.
func asRevert(err error, mask func(string) string) error {
	var re *nodeaccess.RPCError
	if !errors.As(err, &re) || protocolError(re.Code) {
		return err
	}
	data, hasData := revertBytes(re.Data, 0)
	dataText, _ := re.Data.(string)
	switch {
	case re.Code == 3, mentionsRevert(re.Message), mentionsRevert(dataText):
	case hasData && isSolidityRevert(data):
	default:
		return err
	}
	rev := &RevertError{RPC: re}
	if hasData {
		rev.Data = data
	}
	rev.Reason, rev.PanicCode = decodeRevertData(rev.Data)
	if !hasData {
		rev.Reason = textReason(dataText)
		if rev.Reason == "" {
			rev.Reason = textReason(re.Message)
		}
	}
	if mask != nil {
		rev.Reason = mask(rev.Reason)
	}
	return rev
}

// mentionsRevert reports whether a node's text says the call reverted.
func mentionsRevert(s string) bool {
	l := strings.ToLower(strings.TrimSpace(s))
	return strings.Contains(l, "execution reverted") || strings.HasPrefix(l, "revert") ||
		strings.Contains(l, "transaction: revert")
}

// revertBytes finds the revert data in a JSON-RPC error's data member: a
// 0x-hex string, Nethermind's "Reverted 0x…", or (depth 0 and 1) an
// object's "data" or "return" member, or a member object holding one
// (ganache keys it by the transaction hash). ok is false when there is
// none.
func revertBytes(v any, depth int) (data []byte, ok bool) {
	switch v := v.(type) {
	case string:
		s := strings.TrimSpace(v)
		if len(s) > 9 && strings.EqualFold(s[:9], "reverted ") {
			s = strings.TrimSpace(s[9:])
		}
		if len(s) < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
			return nil, false
		}
		b, err := decodeHex(s)
		return b, err == nil
	case map[string]any:
		if depth > 1 {
			return nil, false
		}
		for _, k := range []string{"data", "return"} {
			if b, ok := revertBytes(v[k], depth+1); ok {
				return b, true
			}
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if m, isObj := v[k].(map[string]any); isObj {
				if b, ok := revertBytes(m, depth+1); ok {
					return b, true
				}
			}
		}
	}
	return nil, false
}

// isSolidityRevert reports whether data is a well-formed Error(string) or
// Panic(uint256): bytes that are a revert whatever the message says.
func isSolidityRevert(data []byte) bool {
	if len(data) < 4 {
		return false
	}
	switch [4]byte(data[:4]) {
	case errorSelector:
		_, ok := decodeErrorString(data[4:])
		return ok
	case panicSelector:
		return len(data) == 36
	}
	return false
}

// textReason returns the reason a node wrote as text after a revert
// prefix ("execution reverted: <reason>", "revert: <reason>"), "" when
// there is none or it is only the word "revert" again (Nethermind's
// "execution reverted: revert").
func textReason(s string) string {
	l := strings.ToLower(s)
	for _, p := range []string{"execution reverted:", "revert:"} {
		if i := strings.Index(l, p); i >= 0 {
			r := strings.TrimSpace(s[i+len(p):])
			if strings.EqualFold(r, "revert") {
				return ""
			}
			return r
		}
	}
	return ""
}

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
