package evm

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// defaultMaxBatchSize is how many calls one HTTP request of SendBatch
// carries unless WithMaxBatchSize says otherwise: the smallest default
// among common nodes and providers (testdata/SOURCES.md lists them), so
// that a batch passes everywhere without a refusal and a resend.
const defaultMaxBatchSize = 100

type maxBatchKey struct{}

// WithMaxBatchSize sets how many calls one HTTP request of SendBatch
// carries at most: 100 unless set, a size common nodes and providers
// accept, so that a batch passes without a refusal and a resend. n must be
// at least 1. Set it to the provider's
// cap: a higher n costs fewer HTTP requests, but a server that refuses the
// size makes SendBatch resend in smaller pieces (a server that names its
// limit in the refusal is followed for the client's later batches too).
// Rate limits count requests, some of them each call of a batch: on
// HyperEVM, Hyperliquid's public RPC allows 100 requests per minute per IP
// and caps an answer at 1 MiB (hypercore.New lists its limits).
func WithMaxBatchSize(n int) Option {
	return option("WithMaxBatchSize", func(c *config.Config) error {
		if n < 1 {
			return fmt.Errorf("evm: WithMaxBatchSize: %d calls is below 1", n)
		}
		c.SetExt(maxBatchKey{}, n)
		return nil
	})
}

// BatchResult is one call's outcome in a Batch. Read it once SendBatch has
// returned; until then Result returns an error over a
// *nodeaccess.InputError saying that the batch was not sent.
type BatchResult[T any] struct {
	op string
	// decode decodes the call's result; mask masks the access key in
	// what the node wrote inside it (a simulated call's error message).
	decode func(raw []byte, mask func(string) string) (T, error)
	v      T
	err    error
	done   bool
}

// Result returns the call's value or its error: exactly what the single
// call (Call, CallContext, or the typed call Add stands for) returns for the same
// answer. A revert is a *RevertError for this call only, a JSON-RPC error
// object a *nodeaccess.RPCError, and a failure of the whole HTTP request
// (after its retries) that request's error, for each of its calls. Before
// the batch was sent (SendBatch was not called, or refused the batch for
// another call's bad input) the error is over a *nodeaccess.InputError.
func (r *BatchResult[T]) Result() (T, error) {
	if !r.done {
		var zero T
		return zero, &nodeaccess.OpError{Chain: "evm", Op: r.op, Err: &nodeaccess.InputError{Arg: "batch",
			Reason: "not sent: read a BatchResult after SendBatch returned nil"}}
	}
	return r.v, r.err
}

func (r *BatchResult[T]) deliver(raw []byte, mask func(string) string) error {
	v, err := r.decode(raw, mask)
	if err != nil {
		return err
	}
	r.v, r.done = v, true
	return nil
}

func (r *BatchResult[T]) fail(err error) { r.err, r.done = err, true }

// The decoders of results in which the node writes no text of its own, as
// BatchResult decoders (functions, not closures: a Batch allocates none
// per call).
func decodeHexBytesB(raw []byte, _ func(string) string) ([]byte, error) { return decodeHexBytes(raw) }

func decodeInternalOperationsB(raw []byte, _ func(string) string) ([]InternalOperation, error) {
	return decodeInternalOperations(raw)
}

func decodeJSONB[T any](raw []byte, _ func(string) string) (T, error) { return decodeJSON[T](raw) }

// slot is a BatchResult of any type.
type slot interface {
	deliver(raw []byte, mask func(string) string) error
	fail(err error)
}

type batchCall struct {
	method string
	params []byte
	block  Block
	isCall bool // eth_call: its units follow the block, its errors may be reverts
	// anyMethod: added by Add, with a method name the caller chose
	anyMethod bool
	bad       error // the call's input error, nil when it can be sent
	slot      slot
	// respell says that params hold call objects, in the default
	// spelling, whose data a client of other call data members
	// (WithCallDataMembers) sends respelt (respell).
	respell bool
}

// stateAt describes the block the call reads the state at when that is
// not the latest (notLatest, notLatestJSON), for a client that reads the
// latest state only: found again from the call when such a client sends
// it, so that a batchCall holds no field for it.
func (bc *batchCall) stateAt() string {
	if !bc.anyMethod {
		if bc.isCall {
			return notLatest(bc.block)
		}
		return ""
	}
	at, reads := stateBlockArg[bc.method]
	var args []json.RawMessage
	if !reads || json.Unmarshal(bc.params, &args) != nil || at >= len(args) {
		return ""
	}
	return notLatestJSON(args[at])
}

// Batch collects JSON-RPC calls for Client.SendBatch, which sends them in
// JSON-RPC batches: many calls in one HTTP request. Call adds an
// eth_call, Add a call of any method. Each checks its call at once and returns the call's
// BatchResult, to read after SendBatch. The zero Batch is empty and ready;
// a Batch is sent once, and is not safe for concurrent use.
//
//	var b evm.Batch
//	bal := b.Call(evm.CallMsg{To: token, Data: balanceOf}, evm.Latest)
//	code := evm.Add[hexutil.Bytes](&b, "eth_getCode", token, evm.Latest)
//	if err := c.SendBatch(ctx, &b); err != nil { ... } // bad input: nothing sent
//	out, err := bal.Result()                           // this call's value or error
type Batch struct {
	calls []batchCall
	sent  bool
}

// Call adds an eth_call of msg at block (see Client.Call).
func (b *Batch) Call(msg CallMsg, block Block) *BatchResult[[]byte] {
	const op = "eth_call"
	r := &BatchResult[[]byte]{op: op, decode: decodeHexBytesB}
	params, err := callParams(nil, &msg, block, spellData)
	b.add(batchCall{method: op, params: params, block: block, isCall: true, bad: err, slot: r, respell: true})
	return r
}

// Add adds a call of any JSON-RPC method to b, as Client.CallContext
// sends one alone: args are the params, each encoded with encoding/json,
// and the result is decoded into a T with encoding/json (json.RawMessage
// keeps it as it came); a CallMsg argument is encoded as Call sends it,
// a Simulation argument and a []SimulatedBlock result are encoded and
// decoded as SimulateV1 does (the result checked against the first
// Simulation argument), the call data spelt as the client spells it,
// and a []InternalOperation result is decoded as InternalOperations
// decodes it:
//
//	ops := evm.Add[[]evm.InternalOperation](&b, "ots_getInternalOperations", tx) Add and SendBatch do what go-ethereum's
//
// rpc.Client.BatchCallContext does, each call with its own result and
// error. The call is charged its method's cost, 1 request
// unit unless nodeaccess.WithCost names the method; an eth_call is charged
// and its errors read as Call's (see CallContext). A bad method name or an
// argument that cannot be encoded fails the call at once and makes
// SendBatch refuse the batch.
//
//	bal := evm.Add[hexutil.Big](&b, "eth_getBalance", holder, evm.Latest)
//	// after SendBatch:
//	v, err := bal.Result() // v.ToInt() is the balance in wei
func Add[T any](b *Batch, method string, args ...any) *BatchResult[T] {
	r := &BatchResult[T]{op: opName(method), decode: decodeJSONB[T]}
	ac, err := anyParams(method, args, spellData)
	switch d := any(r).(type) {
	case *BatchResult[[]SimulatedBlock]:
		shape := ac.shape
		d.decode = func(raw []byte, mask func(string) string) ([]SimulatedBlock, error) {
			return decodeShaped(raw, mask, shape)
		}
	case *BatchResult[[]InternalOperation]:
		d.decode = decodeInternalOperationsB
	case *BatchResult[*AccountProof]:
		d.decode = func(raw []byte, _ func(string) string) (*AccountProof, error) {
			return decodeProofArgs(raw, method, args)
		}
	case *BatchResult[AccountProof]:
		d.decode = func(raw []byte, _ func(string) string) (AccountProof, error) {
			p, err := decodeProofArgs(raw, method, args)
			if err != nil {
				return AccountProof{}, err
			}
			return *p, nil
		}
	}
	b.add(batchCall{method: method, params: ac.params, block: ac.block, isCall: method == OpCall, anyMethod: true, bad: err, slot: r, respell: ac.calls})
	return r
}

func (b *Batch) add(call batchCall) {
	if call.bad != nil {
		call.slot.fail(&nodeaccess.OpError{Chain: "evm", Op: opName(call.method), Err: call.bad})
	}
	b.calls = append(b.calls, call)
}

// SendBatch sends the calls of b in JSON-RPC batches of at most
// WithMaxBatchSize calls (100 unless set) per HTTP request, one request
// after the other, and leaves each call's value or error in its
// BatchResult.
//
// It returns an error, and sends nothing, when a call of b has bad input
// (an *nodeaccess.InputError naming the call's index and the value; that
// call's own BatchResult holds its error) or when b was sent before.
// Otherwise it returns nil once every call has its outcome, and the calls'
// errors are in their BatchResults: a failure of one call, or of one HTTP
// request, fails those calls only. An empty Batch sends nothing. When ctx
// ends, SendBatch returns the context's error; the calls answered before
// keep their values, the others hold that error. Send several Batches from
// several goroutines to run them side by side.
//
// Each request is retried whole on the same conditions as a single call.
// Answers are matched to calls by id, whatever their order, and an answer
// is its own call's only: a call the server answers twice or not at all
// fails with an error matching nodeaccess.ErrInvalidResponse, and answers
// to ids that were not sent are ignored (nodeaccess.WithoutRPCIDCheck does
// not apply). An error object without an id, or one that refuses the
// request's size or rate, is every call's of its request.
//
// A request a server refuses for its number of calls is sent again in
// pieces of the limit the refusal names (which the Client keeps for its
// later batches), else of half the size; one refused for the size of its
// answer (an error matching nodeaccess.ErrResponseTooLarge) goes in halves,
// down to one call, and a call whose answer alone is too large fails with
// that error.
//
// Each HTTP attempt costs the sum of its calls' request units (an archive
// eth_call 2, see OpArchiveCall) and, with a budget, waits for all of them
// at once, above the budget's burst too. Hooks see one Attempt per HTTP
// attempt, with Op "batch", the units' sum, and each call's method and
// units in Attempt.Batch.
func (c *Client) SendBatch(ctx context.Context, b *Batch) error {
	if err := transport.NilContext(ctx); err != nil {
		return c.t.Wrap("batch", err)
	}
	const op = "batch"
	if b == nil {
		return c.t.Wrap(op, &nodeaccess.InputError{Arg: "batch", Reason: "nil *Batch"})
	}
	if b.sent {
		return c.t.Wrap(op, &nodeaccess.InputError{Arg: "batch", Reason: fmt.Sprintf("this batch of %d calls was sent before; make a new Batch", len(b.calls))})
	}
	for i := range b.calls {
		if b.calls[i].bad == nil && b.calls[i].anyMethod {
			b.calls[i].bad = c.keyInMethod(b.calls[i].method)
		}
		if b.calls[i].bad == nil && c.latestOnly != "" {
			b.calls[i].bad = c.checkLatest(b.calls[i].stateAt())
		}
		if err := b.calls[i].bad; err != nil {
			// The call's own error again, masked now that the key is
			// known (the Batch had no client when it was made).
			bc := &b.calls[i]
			err = c.maskInput(err)
			name := c.t.Mask(opName(bc.method))
			bc.slot.fail(c.t.Wrap(name, err))
			return c.t.Wrap(op, fmt.Errorf("call %d (%s): %w", i, name, err))
		}
	}
	b.sent = true
	if len(b.calls) == 0 {
		return nil
	}
	calls := make([]transport.BatchCall, len(b.calls))
	for i := range b.calls {
		bc := &b.calls[i]
		units := c.t.Cost(bc.method, 1)
		if bc.isCall {
			units = c.callUnits(ctx, bc.block)
		}
		params := bc.params
		if bc.respell {
			params = respell(params, c.callData)
		}
		calls[i] = transport.BatchCall{Method: bc.method, Params: params, Units: units}
	}
	size := c.maxBatch
	if l := int(c.learnt.Load()); l > 0 && l < size {
		size = l
	}
	mask := c.t.Mask // one method value for every result, not one each
	c.t.CallBatch(ctx, &transport.Batch{
		Op: op, Target: c.target, Calls: calls, MaxSize: size,
		Learn: func(limit int) {
			if limit < c.maxBatch {
				c.learnt.Store(int64(limit))
			}
		},
		Result: func(i int, raw []byte) error { return b.calls[i].slot.deliver(raw, mask) },
		Fail: func(i int, err error) {
			bc := &b.calls[i]
			if bc.isCall {
				err = asRevert(err, c.t.Mask)
			}
			bc.slot.fail(c.t.Wrap(bc.method, err))
		},
		Own: func(err error) bool {
			_, rev := asRevert(err, nil).(*RevertError)
			return rev
		},
	})
	return c.t.Wrap(op, ctx.Err())
}
