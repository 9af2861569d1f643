package node

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/consensus"
	"github.com/ethereum/go-ethereum/consensus/misc/eip1559"
	"github.com/ethereum/go-ethereum/consensus/misc/eip4844"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/types/bal"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// simulator runs the blocks of one eth_simulateV1 request on a copy of the
// base block's state. It is used once, by one goroutine.
type simulator struct {
	c              *Chain
	state          *state.StateDB
	base           *types.Header
	budget         *gasBudget
	traceTransfers bool
	validate       bool
	fullTx         bool
}

// simCallError is a failed call's error object in its result.
type simCallError struct {
	Message string `json:"message"`
	Code    int    `json:"code"`
	Data    string `json:"data,omitempty"`
}

// simCallResult is one call's result.
type simCallResult struct {
	ReturnData hexutil.Bytes  `json:"returnData"`
	Logs       []*types.Log   `json:"logs"`
	GasUsed    hexutil.Uint64 `json:"gasUsed"`
	MaxUsedGas hexutil.Uint64 `json:"maxUsedGas"`
	Status     hexutil.Uint64 `json:"status"`
	Error      *simCallError  `json:"error,omitempty"`
}

// run simulates blocks and returns them as the JSON-RPC answer: each
// block as eth_getBlockByNumber shows it, with its calls.
func (sim *simulator) run(ctx context.Context, blocks []simBlock) ([]map[string]any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, rpcEVMTimeout)
	defer cancel()
	blocks, err := sim.sanitizeChain(blocks)
	if err != nil {
		return nil, err
	}
	headers, err := sim.makeHeaders(blocks)
	if err != nil {
		return nil, err
	}
	config := sim.c.config()
	out := make([]map[string]any, len(blocks))
	parent := sim.base
	for i := range blocks {
		block, calls, senders, err := sim.processBlock(ctx, &blocks[i], headers[i], parent, headers[:i])
		if err != nil {
			return nil, err
		}
		headers[i] = block.Header()
		m := blockJSON(block, sim.fullTx, config)
		if sim.fullTx {
			for _, tx := range m["transactions"].([]any) {
				rt := tx.(*rpcTransaction)
				rt.From = senders[rt.Hash]
			}
		}
		m["calls"] = calls
		out[i] = m
		parent = block.Header()
	}
	return out, nil
}

// processBlock runs one block's calls after its state overrides, and
// assembles the block; the calls' logs get its hash.
func (sim *simulator) processBlock(ctx context.Context, b *simBlock, header, parent *types.Header, done []*types.Header) (*types.Block, []simCallResult, map[common.Hash]common.Address, error) {
	config := sim.c.config()
	header.ParentHash = parent.Hash()
	if config.IsLondon(header.Number) && header.BaseFee == nil {
		// Without validation the base fee is 0 (unless overridden), so
		// that a call without a gas price is not below it.
		header.BaseFee = new(big.Int)
		if sim.validate {
			header.BaseFee = eip1559.CalcBaseFee(config, parent)
		}
	}
	if config.IsCancun(header.Number, header.Time) {
		var excess uint64
		if config.IsCancun(parent.Number, parent.Time) {
			excess = eip4844.CalcExcessBlobGas(config, parent, header.Time)
		}
		header.ExcessBlobGas = &excess
	}
	chain := &simChain{c: sim.c, base: sim.base, headers: done}
	blockCtx := core.NewEVMBlockContext(header, chain, nil)
	if b.BlockOverrides.BlobBaseFee != nil {
		blockCtx.BlobBaseFee = b.BlockOverrides.BlobBaseFee.ToInt()
	}
	rules := config.Rules(header.Number, header.Difficulty.Sign() == 0, header.Time)
	precompiles := vm.ActivePrecompiledContracts(rules)
	if err := b.StateOverrides.apply(sim.state, precompiles); err != nil {
		return nil, nil, nil, err
	}
	var (
		gp       = core.NewGasPool(blockCtx.GasLimit)
		blobGas  uint64
		txs      = make([]*types.Transaction, len(b.Calls))
		receipts = make([]*types.Receipt, len(b.Calls))
		results  = make([]simCallResult, len(b.Calls))
		senders  = make(map[common.Hash]common.Address, len(b.Calls))
		accesses = bal.NewConstructionBlockAccessList()
		allLogs  []*types.Log
		// After Amsterdam the protocol logs every transfer itself.
		tracer = newSimTracer(sim.traceTransfers && !config.IsAmsterdam(header.Number, header.Time), header.Number.Uint64(), header.Time)
	)
	hooked := state.NewHookedState(sim.state, tracer.hooks())
	evm := vm.NewEVM(blockCtx, hooked, config, vm.Config{NoBaseFee: !sim.validate, Tracer: tracer.hooks()})
	defer evm.Release()
	evm.SetPrecompiles(precompiles)
	accesses.Merge(core.PreExecution(ctx, header.ParentBeaconRoot, parent, config, evm, header.Number, header.Time))
	go func() {
		<-ctx.Done()
		evm.Cancel()
	}()
	for i := range b.Calls {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		call := b.Calls[i]
		capped, err := sim.sanitizeCall(&call, header, gp)
		if err != nil {
			return nil, nil, nil, err
		}
		from := call.from()
		if !sim.validate && sim.state.GetNonce(from) == maxNonce {
			return nil, nil, nil, txValidationError(fmt.Errorf("%w: address %v, nonce: %d", core.ErrNonceMax, from.Hex(), uint64(maxNonce)))
		}
		tx := call.transaction()
		txs[i], senders[tx.Hash()] = tx, from
		tracer.reset(tx.Hash(), uint(i))
		sim.state.SetTxContext(tx.Hash(), i, uint32(i+1))
		msg := call.message(header.BaseFee, !sim.validate)
		if !sim.validate {
			msg.SkipExecutionGasCapCheck()
		}
		res, err := core.ApplyMessage(evm, msg, gp)
		if evm.Cancelled() {
			return nil, nil, nil, fmt.Errorf("execution aborted (timeout = %v)", rpcEVMTimeout)
		}
		if err != nil {
			return nil, nil, nil, txValidationError(fmt.Errorf("err: %w (supplied gas %d)", err, msg.GasLimit))
		}
		var root []byte
		if config.IsByzantium(blockCtx.BlockNumber) {
			accesses.Merge(hooked.Finalise(evm.GetRules()))
		} else {
			root = sim.state.IntermediateRoot(evm.GetRules()).Bytes()
		}
		receipts[i] = core.MakeReceipt(evm, res, sim.state, blockCtx.BlockNumber, common.Hash{}, blockCtx.Time, tx, gp.CumulativeUsed(), root)
		blobGas += receipts[i].BlobGasUsed
		if err := sim.budget.spend(res.UsedGas); err != nil {
			return nil, nil, nil, err
		}
		results[i] = callResult(res, tracer.callLogs(), capped)
		if res.Err == nil {
			allLogs = append(allLogs, results[i].Logs...)
		}
	}
	header.GasUsed = gp.Used()
	if config.IsCancun(header.Number, header.Time) {
		header.BlobGasUsed = &blobGas
	}
	body := &types.Body{Transactions: txs}
	if config.IsShanghai(header.Number, header.Time) {
		body.Withdrawals = *b.BlockOverrides.Withdrawals
	}
	requests, post, err := core.PostExecution(ctx, config, header.Number, header.Time, allLogs, body.Withdrawals, evm, uint32(len(b.Calls)+1))
	if err != nil {
		return nil, nil, nil, err
	}
	if requests != nil {
		h := types.CalcRequestsHash(requests)
		header.RequestsHash = &h
	}
	accesses.Merge(post)
	sim.c.bc.Engine().Finalize(chain, header, sim.state, body)
	block := core.AssembleBlock(chain, header, sim.state, body, receipts, accesses)
	for i := range results {
		for _, l := range results[i].Logs {
			l.BlockHash = block.Hash()
		}
	}
	return block, results, senders, nil
}

// callResult is the result of a call that ran: its return data, logs and
// gas, and its error, code 3 with the revert data for a revert, -32015 for
// another failure.
func callResult(res *core.ExecutionResult, logs []*types.Log, capped bool) simCallResult {
	r := simCallResult{ReturnData: res.Return(), Logs: logs, GasUsed: hexutil.Uint64(res.UsedGas), MaxUsedGas: hexutil.Uint64(res.MaxUsedGas)}
	if r.ReturnData == nil {
		r.ReturnData = hexutil.Bytes{}
	}
	if r.Logs == nil {
		r.Logs = []*types.Log{}
	}
	switch {
	case !res.Failed():
		r.Status = hexutil.Uint64(types.ReceiptStatusSuccessful)
	case errors.Is(res.Err, vm.ErrExecutionReverted):
		rev := newRevertError(res.Revert())
		r.Error = &simCallError{Message: rev.Error(), Code: rev.ErrorCode(), Data: rev.data}
	default:
		msg := res.Err.Error()
		if capped {
			msg += " (gas limit was capped by the RPC server's global gas cap)"
		}
		r.Error = &simCallError{Message: msg, Code: errCodeVMError}
	}
	return r
}

// sanitizeCall fills what call leaves out as go-ethereum's simulator does:
// the sender's nonce, the gas left in the block (more than that is
// -38015), capped by the request's gas budget; then the call defaults.
// capped says that the budget lowered the gas.
func (sim *simulator) sanitizeCall(call *callArgs, header *types.Header, gp *core.GasPool) (capped bool, err error) {
	if call.Nonce == nil {
		n := sim.state.GetNonce(call.from())
		call.Nonce = (*hexutil.Uint64)(&n)
	}
	config := sim.c.config()
	amsterdam := config.IsAmsterdam(header.Number, header.Time)
	left := gp.Available(amsterdam)
	if amsterdam && !sim.validate {
		left = min(left, header.GasLimit-gp.CumulativeExecution())
	}
	if call.Gas == nil {
		call.Gas = (*hexutil.Uint64)(&left)
	}
	if left < uint64(*call.Gas) {
		return false, &codeError{fmt.Sprintf("block gas limit reached: remaining: %d, required: %d", left, *call.Gas), errCodeBlockGasLimitReached}
	}
	gas := sim.budget.limit(uint64(*call.Gas))
	capped = gas < uint64(*call.Gas)
	call.Gas = (*hexutil.Uint64)(&gas)
	return capped, call.defaults(0, header.BaseFee, config.ChainID)
}

// txValidationError gives a message the EVM refused (a nonce, funds, fees,
// intrinsic gas) the code the spec gives it; it fails the whole request.
func txValidationError(err error) error {
	code := errCodeInternalError
	switch {
	case errors.Is(err, core.ErrNonceTooHigh):
		code = errCodeNonceTooHigh
	case errors.Is(err, core.ErrNonceTooLow):
		code = errCodeNonceTooLow
	case errors.Is(err, core.ErrSenderNoEOA):
		code = errCodeSenderIsNotEOA
	case errors.Is(err, core.ErrFeeCapVeryHigh), errors.Is(err, core.ErrTipVeryHigh), errors.Is(err, core.ErrTipAboveFeeCap):
		code = errCodeInvalidParams
	case errors.Is(err, core.ErrFeeCapTooLow):
		code = errCodeBaseFeeTooLow
	case errors.Is(err, core.ErrInsufficientFunds), errors.Is(err, core.ErrInsufficientFundsForTransfer):
		code = errCodeInsufficientFunds
	case errors.Is(err, core.ErrIntrinsicGas):
		code = errCodeIntrinsicGas
	case errors.Is(err, vm.ErrMaxInitCodeSizeExceeded):
		code = errCodeMaxInitCodeSize
	}
	return &codeError{err.Error(), code}
}

// simChain is the chain as a simulated block sees it: the canonical chain
// up to the base block, then the blocks simulated before it.
type simChain struct {
	c       *Chain
	base    *types.Header
	headers []*types.Header
}

// Engine returns the chain's consensus engine.
func (s *simChain) Engine() consensus.Engine { return s.c.bc.Engine() }

// Config returns the chain's configuration.
func (s *simChain) Config() *params.ChainConfig { return s.c.config() }

// CurrentHeader returns the head of the canonical chain.
func (s *simChain) CurrentHeader() *types.Header { return s.c.bc.CurrentHeader() }

// GetHeaderByNumber returns the header with number n: the base block, one
// before it on the canonical chain, or a simulated one.
func (s *simChain) GetHeaderByNumber(n uint64) *types.Header {
	base := s.base.Number.Uint64()
	switch {
	case n == base:
		return s.base
	case n < base:
		h, _ := s.c.headerByNumber(rpc.BlockNumber(n))
		return h
	}
	for _, h := range s.headers {
		if h.Number.Uint64() == n {
			return h
		}
	}
	return nil
}

// GetHeader returns the header with number n when its hash is hash.
func (s *simChain) GetHeader(hash common.Hash, n uint64) *types.Header {
	if h := s.GetHeaderByNumber(n); h != nil && h.Hash() == hash {
		return h
	}
	return nil
}

// GetHeaderByHash returns the header with the hash: the base block's, one
// the chain has, or a simulated one.
func (s *simChain) GetHeaderByHash(hash common.Hash) *types.Header {
	if s.base.Hash() == hash {
		return s.base
	}
	if h := s.c.bc.GetHeaderByHash(hash); h != nil {
		return h
	}
	for _, h := range s.headers {
		if h.Hash() == hash {
			return h
		}
	}
	return nil
}
