package evm

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Multicall3Address returns where Multicall3 (github.com/mds1/multicall3)
// is deployed on most EVM chains, the same address on each: Ethereum, its
// testnets, the OP Stack chains (a preinstall), Arbitrum, Polygon, BNB
// Chain, Avalanche and the others its repository's deployments.json lists.
// Multicall calls it unless MulticallOptions.Address names another.
func Multicall3Address() common.Address {
	return common.HexToAddress("0xcA11bde05977b3631167028862bE2a173976CA11")
}

// Call3 is one call of a Multicall: Multicall3's Call3 struct.
type Call3 struct {
	// Target is the contract called. Multicall3 calls it with a CALL (no
	// value), so msg.sender in it is the Multicall3 contract.
	Target common.Address
	// Data is the call data: the selector and the ABI-encoded arguments.
	Data []byte
	// AllowFailure lets the call fail without failing the others: its
	// result then has Success false. When a call with AllowFailure false
	// fails, the whole Multicall fails with a *MulticallError.
	AllowFailure bool
}

// Call3Result is the outcome of one Call3: Multicall3's Result struct, with
// the revert decoded.
type Call3Result struct {
	// Success is false when the call reverted (or ran out of gas, or hit an
	// invalid instruction). A call to an address without code succeeds with
	// empty ReturnData, as it does in the EVM: check the length of what you
	// expect.
	Success bool
	// ReturnData is what the call returned, or its revert data when it
	// failed.
	ReturnData []byte
	// Revert is the failed call's revert decoded, as Call returns it: the
	// reason of an Error(string), the code of a Panic(uint256), or the
	// data of a custom error. Its RPC member is nil (the node reported no
	// error: the aggregate succeeded). nil when Success is true.
	Revert *RevertError
}

// MulticallOptions are the settings of one Multicall; its zero value is
// the defaults: Multicall3Address, one aggregate, no fallback.
type MulticallOptions struct {
	// Address is the Multicall3 contract to call; the zero address means
	// Multicall3Address().
	Address common.Address
	// MaxCalls splits the calls into aggregates of at most MaxCalls calls,
	// one eth_call (and its request units) each, sent one after another;
	// 0 sends every call in one aggregate. Split when the node refuses
	// one aggregate for its gas: it ran out of the node's gas cap for
	// eth_call (go-ethereum and Erigon cap it at 50,000,000 by default,
	// HyperEVM at 30,000,000; an aggregate of 1,000 ERC-20 balanceOf calls
	// uses about 5.3 million gas, call data included). An aggregate whose answer is too large is
	// split without it (see Multicall), but each refusal costs a request:
	// where the node caps the size of its answers and the calls are many,
	// setting MaxCalls saves them. The aggregates of one Multicall at a
	// tag ("latest") may each read another block; give a BlockNumber to
	// read them all at one block.
	MaxCalls int
	// Fallback, on a chain without Multicall3 (no code at Address), runs
	// the calls one by one with Call instead of returning
	// ErrMulticallNotDeployed: one eth_call per call, each charged its
	// request units, after the one that found no contract. Each is sent
	// with From set to Address, so that msg.sender in the target is what
	// it is in an aggregate, and the results are the same as the
	// aggregate's.
	Fallback bool
}

// ErrMulticallNotDeployed is returned when no contract answers at the
// Multicall3 address (an eth_call to an address without code returns no
// data): the chain has no Multicall3 there, or had none yet at the block.
// It matches nodeaccess.ErrNotFound. Set MulticallOptions.Fallback to run
// the calls one by one instead, or MulticallOptions.Address if the chain
// has it elsewhere.
var ErrMulticallNotDeployed = fmt.Errorf("multicall: Multicall3 not deployed: %w", nodeaccess.ErrNotFound)

// MulticallError is a Multicall whose call with AllowFailure false failed,
// which makes Multicall3 revert the whole aggregate with
// "Multicall3: call failed" without saying which call it was. The SDK
// then runs the aggregate once more with every failure allowed (one more
// eth_call, charged like the first) to find the call and its revert. It
// matches ErrReverted, and errors.As reaches the call's *RevertError
// first, then the aggregate's, whose cause is the node's
// *nodeaccess.RPCError. An answer that marks such a call failed instead
// of reverting (Multicall3 never does, but another contract, node or proxy
// at the address may) is this error too, naming the first such call, with
// no Aggregate: the failure is never passed on as a result.
type MulticallError struct {
	// Index is the failed call's index in the calls given to Multicall;
	// -1 when the second run did not find it: that run failed too (the
	// network, the node), or found no required call failing (the state at
	// a tag such as "latest" changed in between).
	Index int
	// Target is the failed call's target (zero when Index is -1).
	Target common.Address
	// Revert is the failed call's own revert (nil when Index is -1).
	Revert *RevertError
	// Aggregate is the aggregate's revert as the node reported it (nil
	// when the calls ran one by one, with MulticallOptions.Fallback, and
	// when the answer marked the call failed without a revert).
	Aggregate *RevertError
}

// Error names the call and its revert.
func (e *MulticallError) Error() string {
	if e.Index < 0 {
		return "multicall: a call whose failure is not allowed failed, and which one could not be found: " + e.Aggregate.Error()
	}
	return fmt.Sprintf("multicall: call %d (to %s, failure not allowed) failed: %v", e.Index, e.Target.Hex(), e.Revert)
}

// Unwrap returns the call's revert and the aggregate's, those not nil.
func (e *MulticallError) Unwrap() []error {
	var errs []error
	if e.Revert != nil {
		errs = append(errs, e.Revert)
	}
	if e.Aggregate != nil {
		errs = append(errs, e.Aggregate)
	}
	return errs
}

// multicallFailed is the reason Multicall3's aggregate3 reverts with when a
// call with allowFailure false failed.
const multicallFailed = "Multicall3: call failed"

// Multicall runs calls through Multicall3's aggregate3 in one eth_call at
// block: one request, charged as one eth_call (1 request unit, or the
// archive cost at an old block), instead of one per call. It returns one
// result per call, in order, each with its success, its return data and
// its decoded revert. All calls read the same block's state.
//
// A failing call with AllowFailure true is a result with Success false; one
// with AllowFailure false fails the whole Multicall with a *MulticallError
// naming it. On a chain without Multicall3 it returns
// ErrMulticallNotDeployed. Errors of the eth_call itself (HTTP, the node's)
// are returned as Call returns them. Each Data is sent as given; calls is
// not changed. No calls: no request, an empty result.
//
// An aggregate whose answer is too large (an error matching
// nodeaccess.ErrResponseTooLarge: a node's -32008 "Response is too big",
// or a body over nodeaccess.WithMaxResponseBytes) is run again in halves,
// as MaxCalls splits, and the calls after it in aggregates of that size,
// down to one call; a call whose answer alone is too large fails the
// Multicall with an error that names it and matches
// nodeaccess.ErrResponseTooLarge.
//
// opts may be nil: Multicall3Address, every call in one aggregate, no
// fallback. Give options for another Multicall3 address, aggregates of at
// most MaxCalls calls, or a fallback to one call at a time on a chain
// without Multicall3.
func (c *Client) Multicall(ctx context.Context, calls []Call3, block Block, opts MulticallOptions) ([]Call3Result, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(OpCall, err)
	}
	const op = OpCall
	return c.multicall(ctx, op, calls, block, opts)
}

// multicall is Multicall with its options copied.
func (c *Client) multicall(ctx context.Context, op string, calls []Call3, block Block, opts MulticallOptions) ([]Call3Result, error) {
	if opts.MaxCalls < 0 {
		return nil, c.t.Wrap(op, &nodeaccess.InputError{Arg: "MulticallOptions.MaxCalls", Reason: fmt.Sprintf("negative count %d", opts.MaxCalls)})
	}
	if err := c.checkLatest(notLatest(block)); err != nil {
		return nil, c.t.Wrap(op, err)
	}
	if opts.Address == (common.Address{}) {
		opts.Address = Multicall3Address()
	}
	res, err := c.aggregates(ctx, opts.Address, calls, 0, block, opts.MaxCalls)
	switch {
	case errors.Is(err, ErrMulticallNotDeployed) && opts.Fallback:
		return c.oneByOne(ctx, opts.Address, calls, block)
	case err != nil:
		return nil, c.t.Wrap(op, err)
	}
	return res, nil
}

// aggregates runs calls, the Multicall's from index base on, in aggregates
// of at most size calls (0: all in one), one after the other. An
// aggregate whose answer is too large is run again in halves, and the
// calls after it in aggregates of that size, down to one call. Errors are
// returned unwrapped.
func (c *Client) aggregates(ctx context.Context, addr common.Address, calls []Call3, base int, block Block, size int) ([]Call3Result, error) {
	var out []Call3Result
	for start := 0; start < len(calls); {
		end := len(calls)
		if size > 0 && end-start > size {
			end = start + size
		}
		res, err := c.aggregate3(ctx, addr, calls[start:end], base+start, block)
		switch {
		case errors.Is(err, nodeaccess.ErrResponseTooLarge) && end-start > 1:
			size = (end - start) / 2
			continue
		case errors.Is(err, nodeaccess.ErrResponseTooLarge):
			return nil, fmt.Errorf("multicall: call %d (to %s) has an answer too large alone: %w", base+start, calls[start].Target.Hex(), err)
		case err != nil:
			return nil, err
		case start == 0 && end == len(calls):
			return res, nil // one aggregate: its results as they are
		case out == nil:
			out = make([]Call3Result, 0, len(calls))
		}
		out = append(out, res...)
		start = end
	}
	if out == nil {
		out = []Call3Result{} // no calls
	}
	return out, nil
}

// aggregate3 runs one aggregate3 eth_call; calls[0] is the Multicall's call
// number base. Errors are returned unwrapped.
func (c *Client) aggregate3(ctx context.Context, addr common.Address, calls []Call3, base int, block Block) ([]Call3Result, error) {
	const op = "eth_call"
	msg := CallMsg{To: addr, Data: encodeAggregate3(calls)}
	bp := transport.GetBuf()
	defer transport.PutBuf(bp)
	params, err := callParams((*bp)[:0], &msg, block, c.callData)
	*bp = params
	if err != nil {
		return nil, err
	}
	res, err := rpc(ctx, c, op, params, c.callUnits(ctx, block), func(raw []byte) ([]Call3Result, error) {
		data, err := decodeHexBytes(raw)
		if err != nil || len(data) == 0 {
			return nil, err // no data: nil, nil
		}
		return decodeAggregate3(data, len(calls))
	})
	switch {
	case err != nil:
		err = asRevert(err, c.t.Mask)
		var rev *RevertError
		if errors.As(err, &rev) && rev.Reason == multicallFailed && slices.ContainsFunc(calls, required) {
			return nil, c.findFailed(ctx, addr, calls, base, block, rev)
		}
		return nil, err
	case res == nil:
		at := Block(Latest) // a nil Block reads latest
		if block != nil {
			at = block
		}
		return nil, fmt.Errorf("%w (no code at %s at block %s: the eth_call returned no data)", ErrMulticallNotDeployed, addr.Hex(), at)
	}
	for i := range res {
		if res[i].Success {
			continue
		}
		res[i].Revert = c.callRevert(res[i].ReturnData)
		if !calls[i].AllowFailure {
			// Multicall3 reverts instead; an answer that says a
			// required call failed is that call's failure all the same.
			return nil, &MulticallError{Index: base + i, Target: calls[i].Target, Revert: res[i].Revert}
		}
	}
	return res, nil
}

// callRevert decodes a failed call's revert data.
func (c *Client) callRevert(data []byte) *RevertError {
	rev := &RevertError{Data: data}
	rev.Reason, rev.PanicCode = decodeRevertData(data)
	rev.Reason = c.t.Mask(rev.Reason)
	return rev
}

// required reports whether a call may not fail.
func required(c Call3) bool { return !c.AllowFailure }

// findFailed runs calls again with every failure allowed, to name the
// first call with AllowFailure false that failed: aggregate3 stops at that
// one. agg is the first run's revert. With every failure allowed the
// second run cannot fail in the same way, so this does not recurse.
func (c *Client) findFailed(ctx context.Context, addr common.Address, calls []Call3, base int, block Block, agg *RevertError) error {
	all := make([]Call3, len(calls))
	for i, call := range calls {
		all[i] = call
		all[i].AllowFailure = true
	}
	me := &MulticallError{Index: -1, Aggregate: agg}
	res, err := c.aggregates(ctx, addr, all, base, block, 0)
	if ctxErr := ctx.Err(); err != nil && ctxErr != nil {
		return ctxErr // the context ended the call
	}
	if err != nil {
		// The second run failed in another way: report the first.
		return me
	}
	for i := range res {
		if !res[i].Success && !calls[i].AllowFailure {
			me.Index, me.Target, me.Revert = base+i, calls[i].Target, res[i].Revert
			break
		}
	}
	return me
}

// oneByOne runs calls with Call, one eth_call each, for a chain without
// Multicall3 at addr. Each is sent from addr, so that msg.sender is what it
// is in an aggregate.
func (c *Client) oneByOne(ctx context.Context, addr common.Address, calls []Call3, block Block) ([]Call3Result, error) {
	out := make([]Call3Result, len(calls))
	for i, call := range calls {
		data, err := c.Call(ctx, CallMsg{From: addr, To: call.Target, Data: call.Data}, block)
		var rev *RevertError
		switch {
		case err == nil:
			out[i] = Call3Result{Success: true, ReturnData: data}
		case errors.As(err, &rev) && call.AllowFailure:
			out[i] = Call3Result{ReturnData: rev.Data, Revert: rev}
		case errors.As(err, &rev):
			return nil, c.t.Wrap("eth_call", &MulticallError{Index: i, Target: call.Target, Revert: rev})
		default:
			return nil, err
		}
	}
	return out, nil
}
