package hypercore

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
)

// ErrPrecompile matches the failure of a HyperCore read (see Core): the
// node's error when a read precompile refuses its input, an asset, token,
// perp dex or vault that does not exist, which HyperEVM reports as the call
// running out of gas (JSON-RPC code -32003, "out of gas: gas exhausted
// during precompiled contract execution: …", or "PrecompileError"). Nodes
// that hold HyperCore's state for their latest block only answer the same
// to a read of another block. The error also matches the node's
// *nodeaccess.RPCError, which holds its code and message.
var ErrPrecompile = errors.New("HyperCore read precompile failed")

// Core adds reads of HyperCore's state to an evm.Batch: positions, spot
// balances, vault equities, delegations, prices and metadata, each an
// eth_call to one of HyperEVM's read precompiles (0x…0800 to 0x…0813, as
// Hyperliquid's docs "Interacting with HyperCore" and hyper-evm-lib's
// PrecompileLib define them), whose call data is the ABI-encoded arguments
// with no selector. Send the batch with the client's EVM: every read is one
// call of one JSON-RPC batch (split by evm.WithMaxBatchSize), and each gets
// its own result or error, so that one bad index fails its read only (in a
// Multicall3 aggregate it would consume the gas of every call):
//
//	var b evm.Batch
//	core := hypercore.Reads(&b)
//	mark := core.Price(btc)                 // btc from Markets.Market("BTC")
//	equity := core.VaultEquity(user, vault)
//	if err := hyperEVM.SendBatch(ctx, &b); err != nil { … } // hyperEVM from New
//	px, err := mark.Result()                 // this read's value or error
//
// The batch may hold other calls too (evm.Add, Batch.Call). Reads run at
// the latest block: the precompiles give HyperCore's state at the start of
// the EVM block being built, not of a past block.
//
// Prices and amounts come out as exact decimals, scaled as the docs and
// hyper-evm-lib define: a perp's prices divided by 10^(6 - szDecimals), a
// spot pair's by 10^(8 - its base token's szDecimals), a token's amounts by
// 10^weiDecimals, USD amounts (margin, notional, withdrawable, vault
// equity) by 10^6, HYPE staking amounts by 10^8, times in Unix
// milliseconds. The size decimals come with the Market or Token a read
// takes, from Client.Markets or from the AssetInfo and
// TokenInfo reads, or written by a caller who knows them.
//
// Each read sends an explicit gas limit, so that a refused input fails at
// once instead of consuming the node's gas cap: 21000 and the call data's
// gas, plus twice the precompile's documented cost of 2000 + 65 × (input +
// output bytes) for the largest answer the read expects (for Staking's delegations,
// 256 delegations). A read whose input the SDK refuses (a Market of the
// wrong kind, the zero address as a user, an index out of range) is not
// added to the batch: its Result returns the *nodeaccess.InputError.
//
// Result's errors are *nodeaccess.OpError values naming the read ("hyper:
// markPx: …"): ErrPrecompile (with the node's *nodeaccess.RPCError) for an
// input the precompile refuses, nodeaccess.ErrInvalidResponse for an answer
// that is not the documented layout (an empty "0x", which nodes that do not
// serve the precompiles answer, included), and otherwise the error of the
// call or of its HTTP request, as evm.BatchResult gives it.
type Core struct {
	b *evm.Batch
}

// Reads returns a Core that adds its reads to b; send b with the HyperEVM
// client's SendBatch (New).
func Reads(b *evm.Batch) Core { return Core{b: b} }

// chain names the package in errors: HyperCore's reads are Hyperliquid's.
const chain = "hyper"

// Read is one HyperCore read of a Core. Read its value once the batch was
// sent.
type Read[T any] struct {
	op     string
	what   string // the input, for messages
	to     common.Address
	data   []byte // the call data
	call   *evm.BatchResult[[]byte]
	decode func([]byte) (T, error)
	err    error // the input was refused: nothing was added
	// then completes a decoded value with other calls' results (a read
	// of several calls); its error is returned as it is.
	then func(T) (T, error)
}

// Result returns the read's value, or its error (see Core). Before the
// batch was sent it returns an error over a *nodeaccess.InputError.
func (r *Read[T]) Result() (T, error) {
	var zero T
	switch {
	case r == nil:
		return zero, &nodeaccess.OpError{Chain: chain, Op: "core", Err: &nodeaccess.InputError{Arg: "read", Reason: "nil *Read"}}
	case r.err != nil:
		return zero, r.err
	}
	raw, err := r.call.Result()
	if err != nil {
		return zero, r.wrap(r.precompileError(err))
	}
	v, err := r.decode(raw)
	if err != nil {
		return zero, r.wrap(fmt.Errorf("%w: %s of %s: %v", nodeaccess.ErrInvalidResponse, r.op, r.what, err))
	}
	if r.then != nil {
		return r.then(v)
	}
	return v, nil
}

// wrap names the read in err. The errors come from the EVM client, which
// masked its key in them, or from the read's own input.
func (r *Read[T]) wrap(err error) error {
	return &nodeaccess.OpError{Chain: chain, Op: r.op, Err: err}
}

// precompileError reads the error of the eth_call: the evm client's
// wrapping comes off (the read is this package's operation), and a node's
// error that says the precompile failed becomes ErrPrecompile.
func (r *Read[T]) precompileError(err error) error {
	var oe *nodeaccess.OpError
	if errors.As(err, &oe) && oe.Chain == "evm" {
		err = oe.Err
	}
	var re *nodeaccess.RPCError
	if errors.As(err, &re) && isPrecompileFailure(re) {
		return fmt.Errorf("%w: %s of %s (precompile %s): %w", ErrPrecompile, r.op, r.what, r.to.Hex(), re)
	}
	return err
}

// isPrecompileFailure reports whether a node's error is a read precompile
// that refused its input: HyperEVM's out-of-gas error (-32003) or its
// PrecompileError.
func isPrecompileFailure(re *nodeaccess.RPCError) bool {
	msg := strings.ToLower(re.Message)
	return re.Code == -32003 || strings.Contains(msg, "out of gas") || strings.Contains(msg, "precompile")
}

// addRead adds the eth_call of in to the precompile at address pc, whose
// answer is at most outMax bytes, and returns its Read.
func addRead[T any](k Core, op, what string, pc uint16, in []byte, outMax int, decode func([]byte) (T, error)) *Read[T] {
	r := &Read[T]{op: op, what: what, to: precompileAddress(pc), data: in, decode: decode}
	if k.b == nil {
		r.err = r.wrap(&nodeaccess.InputError{Arg: "core", Reason: "not made by Reads with a non-nil *evm.Batch"})
		return r
	}
	r.call = k.b.Call(evm.CallMsg{To: r.to, Data: in, Gas: readGas(in, outMax)}, evm.Latest)
	return r
}

// refused returns a Read whose input was refused: nothing is added.
func refused[T any](k Core, op, arg, reason string) *Read[T] {
	r := &Read[T]{op: op}
	r.err = r.wrap(&nodeaccess.InputError{Arg: arg, Reason: reason})
	return r
}

// precompileAddress is 0x…<pc>.
func precompileAddress(pc uint16) common.Address {
	var a common.Address
	a[18], a[19] = byte(pc>>8), byte(pc)
	return a
}

// readGas is the gas limit of a read: the transaction's 21000 and its
// call data's gas (EIP-2028), and twice the precompile's cost of
// 2000 + 65 × (input + output bytes) for an answer of outMax bytes.
func readGas(in []byte, outMax int) uint64 {
	g := uint64(21000 + 2*(2000+65*(len(in)+outMax)))
	for _, b := range in {
		if b == 0 {
			g += 4
		} else {
			g += 16
		}
	}
	return g
}
