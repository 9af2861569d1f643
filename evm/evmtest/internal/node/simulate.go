package node

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// eth_simulateV1, rebuilt on go-ethereum's public core packages (its own
// implementation is in internal/ethapi, which no other module may import)
// with the semantics of go-ethereum v1.17.10: the limits, the defaults,
// the order checks and their error codes and messages, gap filling, the
// request-wide gas budget, base fee 0 without validation, ERC-7528
// transfer logs, and per-call results with maxUsedGas and code 3 or
// -32015 errors.

// The limits and defaults of go-ethereum's simulator.
const (
	// maxSimulateBlocks is the most blocks one request simulates, the
	// empty blocks a gap in the numbers makes included.
	maxSimulateBlocks = 256
	// maxSimulateCallsPerBlock and maxSimulateTotalCalls cap the calls.
	maxSimulateCallsPerBlock = 5000
	maxSimulateTotalCalls    = 10000
	// timestampIncrement is the time between two simulated blocks when
	// the later one's is not given.
	timestampIncrement = 12
)

// The JSON-RPC error codes of eth_simulateV1 (the execution-apis spec's,
// as go-ethereum gives them).
const (
	errCodeNonceTooHigh         = -38011
	errCodeNonceTooLow          = -38010
	errCodeBaseFeeTooLow        = -38012
	errCodeIntrinsicGas         = -38013
	errCodeInsufficientFunds    = -38014
	errCodeBlockGasLimitReached = -38015
	errCodeBlockNumberInvalid   = -38020
	errCodeBlockTimestamp       = -38021
	errCodeSenderIsNotEOA       = -38024
	errCodeMaxInitCodeSize      = -38025
	errCodeClientLimitExceeded  = -38026
	errCodeInternalError        = -32603
	errCodeInvalidParams        = -32602
	errCodeVMError              = -32015
)

// codeError is an error answered with its own JSON-RPC code.
type codeError struct {
	msg  string
	code int
}

// Error returns the message.
func (e *codeError) Error() string { return e.msg }

// ErrorCode returns the code.
func (e *codeError) ErrorCode() int { return e.code }

// simOpts is eth_simulateV1's first parameter.
type simOpts struct {
	BlockStateCalls        []simBlock `json:"blockStateCalls"`
	TraceTransfers         bool       `json:"traceTransfers"`
	Validation             bool       `json:"validation"`
	ReturnFullTransactions bool       `json:"returnFullTransactions"`
}

// simBlock is one block of a simulation. Unknown keys in its overrides are
// refused, as go-ethereum refuses them; unknown keys in calls are ignored.
type simBlock struct {
	BlockOverrides *blockOverride
	StateOverrides stateOverride
	Calls          []callArgs
}

// UnmarshalJSON reads a block, refusing override keys that name no field
// or that name a field another key names (keys match case-insensitively).
func (b *simBlock) UnmarshalJSON(input []byte) error {
	var dec struct {
		BlockOverrides json.RawMessage                    `json:"blockOverrides"`
		StateOverrides map[common.Address]json.RawMessage `json:"stateOverrides"`
		Calls          []callArgs                         `json:"calls"`
	}
	if err := json.Unmarshal(input, &dec); err != nil {
		return err
	}
	var res simBlock
	if dec.BlockOverrides != nil {
		if err := checkKeys(dec.BlockOverrides, reflect.TypeFor[blockOverride](), "block override"); err != nil {
			return err
		}
		if err := json.Unmarshal(dec.BlockOverrides, &res.BlockOverrides); err != nil {
			return err
		}
	}
	if dec.StateOverrides != nil {
		res.StateOverrides = make(stateOverride, len(dec.StateOverrides))
		for addr, raw := range dec.StateOverrides {
			if err := checkKeys(raw, reflect.TypeFor[overrideAccount](), "state override for "+addr.Hex()); err != nil {
				return err
			}
			var acc overrideAccount
			if err := json.Unmarshal(raw, &acc); err != nil {
				return err
			}
			res.StateOverrides[addr] = acc
		}
	}
	res.Calls = dec.Calls
	*b = res
	return nil
}

// checkKeys refuses a key of the JSON object input that names no field of
// t, or a field an earlier key (in sorted order) names.
func checkKeys(input json.RawMessage, t reflect.Type, what string) error {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(input, &keys); err != nil || keys == nil {
		return nil // not an object: the decoder says why
	}
	named := make(map[int]string)
	for _, key := range slices.Sorted(maps.Keys(keys)) {
		field := -1
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			if strings.EqualFold(key, name) {
				field = i
				break
			}
		}
		if field < 0 {
			return fmt.Errorf("unknown field %q in %s", key, what)
		}
		if prev, ok := named[field]; ok {
			return fmt.Errorf("keys %q and %q in %s name the same field", prev, key, what)
		}
		named[field] = key
	}
	return nil
}

// gasBudget is the gas all calls of one request may use together: the
// node's eth_call gas cap, across every simulated block.
type gasBudget struct{ left uint64 }

// limit returns gas, at most what is left.
func (b *gasBudget) limit(gas uint64) uint64 { return min(gas, b.left) }

// spend takes used from the budget; more than is left is an error.
func (b *gasBudget) spend(used uint64) error {
	if used > b.left {
		return fmt.Errorf("RPC gas cap exhausted: need %d, remaining %d", used, b.left)
	}
	b.left -= used
	return nil
}

// SimulateV1 is eth_simulateV1: the blocks of opts run one after the other
// on the state after the block selected (latest when left out), nothing
// kept.
func (api *ethAPI) SimulateV1(ctx context.Context, opts simOpts, block *rpc.BlockNumberOrHash) ([]map[string]any, error) {
	switch n := len(opts.BlockStateCalls); {
	case n == 0:
		return nil, &codeError{"empty input", errCodeInvalidParams}
	case n > maxSimulateBlocks:
		return nil, &codeError{"too many blocks", errCodeClientLimitExceeded}
	}
	total := 0
	for _, b := range opts.BlockStateCalls {
		if len(b.Calls) > maxSimulateCallsPerBlock {
			return nil, &codeError{fmt.Sprintf("too many calls in block: %d > %d", len(b.Calls), maxSimulateCallsPerBlock), errCodeClientLimitExceeded}
		}
		if total += len(b.Calls); total > maxSimulateTotalCalls {
			return nil, &codeError{fmt.Sprintf("too many calls: %d > %d", total, maxSimulateTotalCalls), errCodeClientLimitExceeded}
		}
	}
	st, base, err := api.c.stateAndHeader(orLatest(block))
	if err != nil {
		return nil, err
	}
	sim := &simulator{
		c: api.c, state: st.Copy(), base: base, budget: &gasBudget{left: rpcGasCap},
		traceTransfers: opts.TraceTransfers, validate: opts.Validation, fullTx: opts.ReturnFullTransactions,
	}
	return sim.run(ctx, opts.BlockStateCalls)
}

// sanitizeChain gives every block a number and a time, checks that both
// increase, and fills a gap in the numbers with empty blocks, each
// timestampIncrement after the one before. It changes the blocks'
// overrides.
func (sim *simulator) sanitizeChain(blocks []simBlock) ([]simBlock, error) {
	out := make([]simBlock, 0, len(blocks))
	prevNumber, prevTime := sim.base.Number, sim.base.Time
	for _, b := range blocks {
		if b.BlockOverrides == nil {
			b.BlockOverrides = new(blockOverride)
		} else {
			o := *b.BlockOverrides // the caller's stays as it was
			b.BlockOverrides = &o
		}
		o := b.BlockOverrides
		if o.Number == nil {
			o.Number = (*hexutil.Big)(new(big.Int).Add(prevNumber, common.Big1))
		}
		if o.Withdrawals == nil {
			o.Withdrawals = &types.Withdrawals{}
		}
		number := o.Number.ToInt()
		gap := new(big.Int).Sub(number, prevNumber)
		if gap.Sign() <= 0 {
			return nil, &codeError{fmt.Sprintf("block numbers must be in order: %d <= %d", number.Uint64(), prevNumber), errCodeBlockNumberInvalid}
		}
		if span := new(big.Int).Sub(number, sim.base.Number); span.Cmp(big.NewInt(maxSimulateBlocks)) > 0 {
			return nil, &codeError{"too many blocks", errCodeClientLimitExceeded}
		}
		for i := uint64(1); i < gap.Uint64(); i++ {
			t := prevTime + timestampIncrement
			n := new(big.Int).Add(prevNumber, new(big.Int).SetUint64(i))
			out = append(out, simBlock{BlockOverrides: &blockOverride{Number: (*hexutil.Big)(n), Time: (*hexutil.Uint64)(&t), Withdrawals: &types.Withdrawals{}}})
			prevTime = t
		}
		prevNumber = number
		if o.Time == nil {
			t := prevTime + timestampIncrement
			o.Time = (*hexutil.Uint64)(&t)
		} else if t := uint64(*o.Time); t <= prevTime {
			return nil, &codeError{fmt.Sprintf("block timestamps must be in order: %d <= %d", t, prevTime), errCodeBlockTimestamp}
		}
		prevTime = uint64(*o.Time)
		out = append(out, b)
	}
	return out, nil
}

// makeHeaders returns the blocks' headers before their calls run: the
// overridden fields over the previous header's gas limit and coinbase,
// difficulty 0 after the merge, the empty roots, a zero parent beacon root
// from Cancun on (unless overridden).
func (sim *simulator) makeHeaders(blocks []simBlock) ([]*types.Header, error) {
	config := sim.c.config()
	out := make([]*types.Header, len(blocks))
	prev := sim.base
	for i, b := range blocks {
		o := b.BlockOverrides
		number, time := o.Number.ToInt(), uint64(*o.Time)
		var withdrawalsHash *common.Hash
		if config.IsShanghai(number, time) {
			withdrawalsHash = &types.EmptyWithdrawalsHash
		}
		var beaconRoot *common.Hash
		if config.IsCancun(number, time) {
			beaconRoot = &common.Hash{}
			if o.BeaconRoot != nil {
				beaconRoot = o.BeaconRoot
			}
		}
		difficulty := prev.Difficulty
		if config.IsPostMerge(number.Uint64(), time) {
			difficulty = new(big.Int)
		}
		if o.Difficulty != nil && difficulty.Sign() == 0 {
			return nil, &codeError{fmt.Sprintf("block %d: difficulty override is not allowed after the merge", number), errCodeInvalidParams}
		}
		var slot *uint64
		if prev.SlotNumber != nil {
			s := *prev.SlotNumber + 1
			slot = &s
		}
		h := o.header(&types.Header{
			UncleHash: types.EmptyUncleHash, ReceiptHash: types.EmptyReceiptsHash, TxHash: types.EmptyTxsHash,
			Coinbase: prev.Coinbase, Difficulty: difficulty, GasLimit: prev.GasLimit,
			WithdrawalsHash: withdrawalsHash, ParentBeaconRoot: beaconRoot, SlotNumber: slot,
		})
		out[i], prev = h, h
	}
	return out, nil
}

// maxNonce is the highest nonce an account may have (EIP-2681).
const maxNonce = math.MaxUint64
