package evm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// CallContext sends one call of any JSON-RPC method, with args as its
// params, and decodes its result into result, as go-ethereum's
// rpc.Client.CallContext does: each argument is encoded with
// encoding/json (an address, a hexutil.Big, a Block such as evm.Latest or
// evm.BlockNumber(n)), and the result is decoded with encoding/json into
// result, which must be a non-nil pointer or nil (the result is then
// dropped). A CallMsg argument is encoded as Call sends it (the call
// object; its overrides as an eth_call's third and fourth params when it
// is the call's first argument with at most a block after it, and refused
// elsewhere), a Simulation argument as SimulateV1 sends it, and a
// *[]SimulatedBlock result is decoded as SimulateV1 decodes it (and
// checked against the first Simulation argument, when there is one), a
// *[]InternalOperation result as InternalOperations decodes it, an
// *AccountProof (or **AccountProof) result as Proof decodes it (checked
// to answer the address and []common.Hash of slots given as the first two
// args). A JSON null result leaves result as encoding/json does (a
// pointer it points to becomes nil). It is how to call what this package
// does not type:
//
//	var bal hexutil.Big
//	err := c.CallContext(ctx, &bal, "eth_getBalance", holder, evm.Latest)
//
// The call goes through the same transport as every typed call: the key in
// the path, retries, hooks (whose Op is the method), the budget, errors
// with the key masked. It costs the method's request units: 1 unless
// nodeaccess.WithCost names the method. An eth_call sent this way is
// charged as Call charges it (OpArchiveCall at an old block; a block
// argument that is neither a Block nor a string ParseBlock reads is
// counted as archive, so that the count is never too low), and a revert
// is a *RevertError, as from Call.
//
// An empty method name, one with a character other than ASCII letters,
// digits, '_' and '.' or one that holds the access key, a result that is
// not a pointer, or an argument that encoding/json cannot encode is an
// *nodeaccess.InputError, and nothing is sent. An error object in the answer is a *nodeaccess.RPCError; a result
// that does not decode into result is an error matching
// nodeaccess.ErrInvalidResponse.
func (c *Client) CallContext(ctx context.Context, result any, method string, args ...any) error {
	if err := transport.NilContext(ctx); err != nil {
		return c.t.Wrap("rpc", err)
	}
	op := opName(method)
	if err := c.keyInMethod(method); err != nil {
		return c.t.Wrap("rpc", err)
	}
	if result != nil {
		if v := reflect.ValueOf(result); v.Kind() != reflect.Pointer || v.IsNil() {
			return c.t.Wrap(op, &nodeaccess.InputError{Arg: "result", Reason: fmt.Sprintf("%T is not a non-nil pointer for the result to be decoded into", result)})
		}
	}
	ac, err := anyParams(method, args, c.callData)
	if err == nil {
		err = c.checkLatest(ac.stateAt)
	}
	if err != nil {
		return c.t.Wrap(op, c.maskInput(err))
	}
	units := 0 // the method's cost
	if method == OpCall {
		units = c.callUnits(ctx, ac.block)
	}
	res, err := c.t.CallRPC(ctx, &transport.RPC{Op: op, Target: c.target, Method: method, Params: ac.params, Units: units})
	if err != nil {
		if method == OpCall {
			err = asRevert(err, c.t.Mask)
		}
		return c.t.Wrap(op, err)
	}
	defer res.Release()
	if result == nil {
		return nil
	}
	switch r := result.(type) {
	case *[]SimulatedBlock:
		if *r, err = decodeShaped(res.Raw, c.t.Mask, ac.shape); err != nil {
			return c.t.Wrap(op, c.t.InvalidBody(&res.Response, fmt.Errorf("%s result: %w", op, err)))
		}
		return nil
	case *[]InternalOperation:
		if *r, err = decodeInternalOperations(res.Raw); err != nil {
			return c.t.Wrap(op, c.t.InvalidBody(&res.Response, fmt.Errorf("%s result: %w", op, err)))
		}
		return nil
	case *AccountProof, **AccountProof:
		p, err := decodeProofArgs(res.Raw, method, args)
		if err != nil {
			return c.t.Wrap(op, c.t.InvalidBody(&res.Response, fmt.Errorf("%s result: %w", op, err)))
		}
		if pp, ok := r.(**AccountProof); ok {
			*pp = p
		} else {
			*r.(*AccountProof) = *p
		}
		return nil
	}
	if err := json.Unmarshal(res.Raw, result); err != nil {
		return c.t.Wrap(op, c.t.InvalidBody(&res.Response, fmt.Errorf("%s result: %w", op, err)))
	}
	return nil
}

// opName is the operation name of a call of method: the method, or "rpc"
// when it is not a valid method name.
func opName(method string) string {
	if checkMethod(method) != nil {
		return "rpc"
	}
	return method
}

// checkMethod refuses a method name that is empty or has a character
// other than ASCII letters, digits, '_' and '.' (what JSON-RPC method names
// are made of, on every node this package knows).
func checkMethod(method string) error {
	if method == "" {
		return &nodeaccess.InputError{Arg: "method", Reason: "empty JSON-RPC method name"}
	}
	for i := 0; i < len(method); i++ {
		ch := method[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '.') {
			return &nodeaccess.InputError{Arg: "method", Reason: fmt.Sprintf("JSON-RPC method name %q has %q at byte %d: only ASCII letters, digits, '_' and '.' are allowed", method, rune(ch), i)}
		}
	}
	return nil
}

// anyCall is a call of any method, encoded (anyParams).
type anyCall struct {
	params []byte
	// block is the block an eth_call reads, for its cost.
	block Block
	// stateAt is what the block parameter of a method that reads the
	// state at a block (stateBlockArg) selects when that is not the
	// latest block (notLatestJSON).
	stateAt string
	// calls says that params hold a Simulation's call objects, their data
	// under the members of the spelling anyParams was given.
	calls bool
	// shape is what the answer to the first Simulation argument must look
	// like; nil when there is none.
	shape simShape
}

// anyParams checks method and encodes args as a JSON array (no args: []),
// each with encoding/json but a Simulation (or *Simulation), which is
// encoded as eth_simulateV1's payload, as SimulateV1 sends it, its calls'
// data under the members spell names, and a CallMsg (or *CallMsg), which
// is encoded as Call sends it (appendCallMsgArg). An error is an
// *nodeaccess.InputError; nothing is to be sent.
func anyParams(method string, args []any, spell callDataSpelling) (anyCall, error) {
	if err := checkMethod(method); err != nil {
		return anyCall{}, err
	}
	at, reads := stateBlockArg[method]
	ac := anyCall{params: append(make([]byte, 0, 64), '[')}
	for i, a := range args {
		if i > 0 {
			ac.params = append(ac.params, ',')
		}
		start := len(ac.params)
		var err error
		switch v := a.(type) {
		case Simulation:
			ac.params, err = appendSimulation(ac.params, &v, spell)
			ac.calls = true
			if ac.shape == nil {
				ac.shape = shapeOf(&v)
			}
		case *Simulation:
			if v == nil {
				ac.params = append(ac.params, "null"...)
				break
			}
			ac.params, err = appendSimulation(ac.params, v, spell)
			ac.calls = true
			if ac.shape == nil {
				ac.shape = shapeOf(v)
			}
		case CallMsg:
			ac.params, err = appendCallMsgArg(ac.params, &v, method, i, len(args), spell)
			ac.calls = true
		case *CallMsg:
			if v == nil {
				ac.params = append(ac.params, "null"...)
				break
			}
			ac.params, err = appendCallMsgArg(ac.params, v, method, i, len(args), spell)
			ac.calls = true
		default:
			var b []byte
			if b, err = json.Marshal(a); err != nil {
				return anyCall{}, &nodeaccess.InputError{Arg: fmt.Sprintf("args[%d]", i), Reason: fmt.Sprintf("%T cannot be encoded as JSON: %v", a, err)}
			}
			ac.params = append(ac.params, b...)
		}
		if err != nil {
			return anyCall{}, inArg(i, err)
		}
		if reads && i == at {
			ac.stateAt = notLatestJSON(ac.params[start:])
		}
	}
	if m := callMsgArg(method, args); m != nil && (m.StateOverride != nil || m.BlockOverride != nil) {
		// An eth_call of a message with overrides: its block (Latest
		// when none was given, as Call sends a nil Block) and its
		// overrides as the third and fourth params, as Call sends them.
		if len(args) == 1 {
			ac.params = append(ac.params, `,"latest"`...)
		}
		ac.params = appendOverrides(ac.params, m.StateOverride, m.BlockOverride)
	}
	ac.params = append(ac.params, ']')
	if method == OpCall {
		ac.block = callBlockArg(args)
	}
	return ac, nil
}

// appendCallMsgArg appends the call object of m, argument i of n of a
// call of method, as Call sends it: checked, its members spelt as the
// execution API spells them, its data under the members spell names. Its
// overrides are eth_call's third and fourth params, sent (by anyParams)
// only when m is the first argument of an eth_call with at most a block
// after it; anywhere else a message with overrides is an
// *nodeaccess.InputError, so that no field is dropped.
func appendCallMsgArg(dst []byte, m *CallMsg, method string, i, n int, spell callDataSpelling) ([]byte, error) {
	if err := m.check(); err != nil {
		return dst, err
	}
	if (m.StateOverride != nil || m.BlockOverride != nil) && (method != OpCall || i != 0 || n > 2) {
		return dst, &nodeaccess.InputError{Arg: "StateOverride", Reason: "a CallMsg's overrides are sent only by an eth_call of the message and at most a block; give them as params of their own here"}
	}
	return m.appendJSON(dst, spell)
}

// callMsgArg returns the message of an eth_call whose args are a CallMsg
// (or non-nil *CallMsg) and at most a block, or nil.
func callMsgArg(method string, args []any) *CallMsg {
	if method != OpCall || len(args) == 0 || len(args) > 2 {
		return nil
	}
	switch m := args[0].(type) {
	case CallMsg:
		return &m
	case *CallMsg:
		return m
	}
	return nil
}

// inArg names the argument i of a call of any method in its input error.
func inArg(i int, err error) error {
	var ie *nodeaccess.InputError
	if !errors.As(err, &ie) {
		return err
	}
	return &nodeaccess.InputError{Arg: fmt.Sprintf("args[%d].%s", i, ie.Arg), Reason: ie.Reason}
}

// archiveBlock stands for a block an eth_call's cost cannot place on the
// chain: callUnits counts it as archive, as it counts a block hash.
var archiveBlock Block = BlockHash{}

// callBlockArg returns the block of an eth_call's args, for its cost: the
// second argument when it is a Block or a string ParseBlock reads, Latest
// when there is none, and otherwise archiveBlock.
func callBlockArg(args []any) Block {
	if len(args) < 2 {
		return Latest
	}
	switch b := args[1].(type) {
	case nil:
		return Latest
	case Tag:
		return b
	case BlockNumber:
		return b
	case BlockHash:
		return b
	case string:
		if p, err := ParseBlock(b); err == nil {
			return p
		}
	}
	return archiveBlock
}

// decodeJSON decodes a result with encoding/json.
func decodeJSON[T any](raw []byte) (T, error) {
	var v T
	err := json.Unmarshal(raw, &v)
	return v, err
}

// keyInMethod refuses a method name that holds the access key (a mistake:
// the name would carry the key into the body, hooks and errors).
func (c *Client) keyInMethod(method string) error {
	if c.t.Mask(method) != method {
		return &nodeaccess.InputError{Arg: "method", Reason: "the JSON-RPC method name holds the access key"}
	}
	return nil
}

// maskInput returns an *nodeaccess.InputError with the key masked in its
// text (a method name or a value the caller gave may hold it); other
// errors pass unchanged.
func (c *Client) maskInput(err error) error {
	if ie, ok := err.(*nodeaccess.InputError); ok {
		return &nodeaccess.InputError{Arg: c.t.Mask(ie.Arg), Reason: c.t.Mask(ie.Reason)}
	}
	return err
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
