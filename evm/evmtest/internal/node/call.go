package node

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"
)

// rpcEVMTimeout is how long an eth_call may run (ethconfig.Defaults'
// RPCEVMTimeout).
const rpcEVMTimeout = 5 * time.Second

// callArgs is the call object of eth_call and eth_estimateGas, with the
// member names go-ethereum reads (its TransactionArgs): "data" and "input"
// both carry the call data, "input" winning when both are set.
type callArgs struct {
	From                 *common.Address              `json:"from"`
	To                   *common.Address              `json:"to"`
	Gas                  *hexutil.Uint64              `json:"gas"`
	GasPrice             *hexutil.Big                 `json:"gasPrice"`
	MaxFeePerGas         *hexutil.Big                 `json:"maxFeePerGas"`
	MaxPriorityFeePerGas *hexutil.Big                 `json:"maxPriorityFeePerGas"`
	Value                *hexutil.Big                 `json:"value"`
	Nonce                *hexutil.Uint64              `json:"nonce"`
	Data                 *hexutil.Bytes               `json:"data"`
	Input                *hexutil.Bytes               `json:"input"`
	AccessList           *types.AccessList            `json:"accessList"`
	ChainID              *hexutil.Big                 `json:"chainId"`
	BlobFeeCap           *hexutil.Big                 `json:"maxFeePerBlobGas"`
	BlobHashes           []common.Hash                `json:"blobVersionedHashes"`
	AuthorizationList    []types.SetCodeAuthorization `json:"authorizationList"`
}

// checkBlobFeeCap refuses a blob fee cap without blob hashes.
func (a *callArgs) checkBlobFeeCap() error {
	if a.BlobFeeCap != nil && len(a.BlobHashes) == 0 {
		return errors.New("maxFeePerBlobGas specified without blobVersionedHashes")
	}
	return nil
}

// defaults fills what the caller left out, and refuses what go-ethereum
// refuses, as its CallDefaults does for calls: the gas is the cap (and no
// more than it), the chain id must be the chain's, the fee fields of one
// style only.
func (a *callArgs) defaults(gasCap uint64, baseFee, chainID *big.Int) error {
	if a.GasPrice != nil && (a.MaxFeePerGas != nil || a.MaxPriorityFeePerGas != nil) {
		return errors.New("both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified")
	}
	if a.To == nil {
		if a.BlobHashes != nil {
			return core.ErrBlobTxCreate
		}
		if a.AuthorizationList != nil {
			return core.ErrSetCodeTxCreate
		}
	}
	if a.ChainID == nil {
		a.ChainID = (*hexutil.Big)(chainID)
	} else if have := a.ChainID.ToInt(); have.Cmp(chainID) != 0 {
		return fmt.Errorf("chainId does not match node's (have=%v, want=%v)", have, chainID)
	}
	switch {
	case a.Gas == nil && gasCap == 0:
		g := uint64(math.MaxUint64 / 2)
		a.Gas = (*hexutil.Uint64)(&g)
	case a.Gas == nil, gasCap > 0 && gasCap < uint64(*a.Gas):
		a.Gas = (*hexutil.Uint64)(&gasCap)
	}
	if a.Nonce == nil {
		a.Nonce = new(hexutil.Uint64)
	}
	if a.Value == nil {
		a.Value = new(hexutil.Big)
	}
	if baseFee == nil {
		if a.MaxFeePerGas != nil || a.MaxPriorityFeePerGas != nil {
			return errors.New("maxFeePerGas and maxPriorityFeePerGas are not valid before London is active")
		}
		if a.GasPrice == nil {
			a.GasPrice = new(hexutil.Big)
		}
	} else {
		if a.MaxFeePerGas == nil {
			a.MaxFeePerGas = new(hexutil.Big)
		}
		if a.MaxPriorityFeePerGas == nil {
			a.MaxPriorityFeePerGas = new(hexutil.Big)
		}
	}
	if a.BlobFeeCap == nil && a.BlobHashes != nil {
		a.BlobFeeCap = new(hexutil.Big)
	}
	return nil
}

// message turns the defaulted arguments into the message the EVM runs: a
// legacy gas price stands for both 1559 fields; 1559 fields give the price
// min(tip + base fee, fee cap), or 0 when both are 0. EOA and gas limit
// checks are skipped, as for every call, and the nonce check when
// skipNonce (every call but a validating simulation's).
func (a *callArgs) message(baseFee *big.Int, skipNonce bool) *core.Message {
	var price, feeCap, tipCap *uint256.Int
	switch {
	case baseFee == nil || a.GasPrice != nil:
		price, _ = uint256.FromBig(a.GasPrice.ToInt())
		feeCap, tipCap = price, price
	default:
		feeCap, _ = uint256.FromBig(a.MaxFeePerGas.ToInt())
		tipCap, _ = uint256.FromBig(a.MaxPriorityFeePerGas.ToInt())
		price = new(uint256.Int)
		if feeCap.BitLen() > 0 || tipCap.BitLen() > 0 {
			price.Add(tipCap, uint256.MustFromBig(baseFee))
			if price.Cmp(feeCap) > 0 {
				price = feeCap
			}
		}
	}
	var accessList types.AccessList
	if a.AccessList != nil {
		accessList = *a.AccessList
	}
	value, _ := uint256.FromBig(a.Value.ToInt())
	var blobFeeCap *uint256.Int
	if a.BlobFeeCap != nil {
		blobFeeCap, _ = uint256.FromBig(a.BlobFeeCap.ToInt())
	}
	msg := &core.Message{
		From: a.from(), To: a.To, Value: value, Nonce: uint64(*a.Nonce), GasLimit: uint64(*a.Gas),
		GasPrice: price, GasFeeCap: feeCap, GasTipCap: tipCap, Data: a.data(), AccessList: accessList,
		BlobGasFeeCap: blobFeeCap, BlobHashes: a.BlobHashes, SetCodeAuthorizations: a.AuthorizationList,
	}
	if skipNonce {
		msg.SkipNonceCheck()
	}
	return msg.SkipEOACheck().SkipGasLimitCapCheck()
}

// from is the sender, the zero address when left out.
func (a *callArgs) from() common.Address {
	if a.From != nil {
		return *a.From
	}
	return common.Address{}
}

// data is the call data: input when set, else data.
func (a *callArgs) data() []byte {
	if a.Input != nil {
		return *a.Input
	}
	if a.Data != nil {
		return *a.Data
	}
	return nil
}

// transaction is the unsigned transaction of the defaulted arguments that
// a simulated block holds: EIP-1559 unless the members say otherwise (an
// authorization list makes it EIP-7702, blob hashes EIP-4844, and a legacy
// gas price legacy, or EIP-2930 with an access list), as go-ethereum's
// simulator builds it. The type member is not read.
func (a *callArgs) transaction() *types.Transaction {
	al := types.AccessList{}
	if a.AccessList != nil {
		al = *a.AccessList
	}
	nonce, gas, data := uint64(*a.Nonce), uint64(*a.Gas), a.data()
	u256 := func(v *hexutil.Big) *uint256.Int { return uint256.MustFromBig(v.ToInt()) }
	switch {
	case a.GasPrice != nil && a.AccessList != nil:
		return types.NewTx(&types.AccessListTx{ChainID: a.ChainID.ToInt(), Nonce: nonce, Gas: gas, GasPrice: a.GasPrice.ToInt(),
			To: a.To, Value: a.Value.ToInt(), Data: data, AccessList: al})
	case a.GasPrice != nil:
		return types.NewTx(&types.LegacyTx{Nonce: nonce, Gas: gas, GasPrice: a.GasPrice.ToInt(), To: a.To, Value: a.Value.ToInt(), Data: data})
	case a.AuthorizationList != nil:
		return types.NewTx(&types.SetCodeTx{ChainID: u256(a.ChainID), Nonce: nonce, Gas: gas, GasFeeCap: u256(a.MaxFeePerGas),
			GasTipCap: u256(a.MaxPriorityFeePerGas), To: *a.To, Value: u256(a.Value), Data: data, AccessList: al, AuthList: a.AuthorizationList})
	case a.BlobHashes != nil:
		return types.NewTx(&types.BlobTx{ChainID: u256(a.ChainID), Nonce: nonce, Gas: gas, GasFeeCap: u256(a.MaxFeePerGas),
			GasTipCap: u256(a.MaxPriorityFeePerGas), To: *a.To, Value: u256(a.Value), Data: data, AccessList: al,
			BlobHashes: a.BlobHashes, BlobFeeCap: u256(a.BlobFeeCap)})
	}
	return types.NewTx(&types.DynamicFeeTx{ChainID: a.ChainID.ToInt(), Nonce: nonce, Gas: gas, GasFeeCap: a.MaxFeePerGas.ToInt(),
		GasTipCap: a.MaxPriorityFeePerGas.ToInt(), To: a.To, Value: a.Value.ToInt(), Data: data, AccessList: al})
}

// overrideAccount is what eth_call's state override changes of one account,
// in go-ethereum's JSON: "state" replaces the whole storage, "stateDiff"
// sets slots; "movePrecompileToAddress" moves a precompile's code.
type overrideAccount struct {
	Nonce            *hexutil.Uint64             `json:"nonce"`
	Code             *hexutil.Bytes              `json:"code"`
	Balance          *hexutil.Big                `json:"balance"`
	State            map[common.Hash]common.Hash `json:"state"`
	StateDiff        map[common.Hash]common.Hash `json:"stateDiff"`
	MovePrecompileTo *common.Address             `json:"movePrecompileToAddress"`
}

// stateOverride is eth_call's third parameter.
type stateOverride map[common.Address]overrideAccount

// apply changes statedb (and the precompiles) as go-ethereum's override
// package does, accounts in address order, with its errors, and finalises
// the changes as if a transaction before the call had made them.
func (so stateOverride) apply(statedb *state.StateDB, precompiles vm.PrecompiledContracts) error {
	moved := make(map[common.Address]bool)
	for _, addr := range slices.SortedFunc(maps.Keys(so), common.Address.Cmp) {
		acc := so[addr]
		if moved[addr] {
			return fmt.Errorf("account %s has already been overridden by a precompile", addr.Hex())
		}
		p, isPrecompile := precompiles[addr]
		if acc.MovePrecompileTo != nil {
			if !isPrecompile {
				return fmt.Errorf("account %s is not a precompile", addr.Hex())
			}
			if _, ok := so[*acc.MovePrecompileTo]; ok {
				return fmt.Errorf("account %s is already overridden", acc.MovePrecompileTo.Hex())
			}
			precompiles[*acc.MovePrecompileTo] = p
			moved[*acc.MovePrecompileTo] = true
		}
		if isPrecompile {
			delete(precompiles, addr)
		}
		if acc.Nonce != nil {
			statedb.SetNonce(addr, uint64(*acc.Nonce), tracing.NonceChangeUnspecified)
		}
		if acc.Code != nil {
			statedb.SetCode(addr, *acc.Code, tracing.CodeChangeUnspecified)
		}
		if acc.Balance != nil {
			b, _ := uint256.FromBig(acc.Balance.ToInt())
			statedb.SetBalance(addr, b, tracing.BalanceChangeUnspecified)
		}
		if acc.State != nil && acc.StateDiff != nil {
			return fmt.Errorf("account %s has both 'state' and 'stateDiff'", addr.Hex())
		}
		if acc.State != nil {
			statedb.SetStorage(addr, acc.State)
		}
		for k, v := range acc.StateDiff {
			statedb.SetState(addr, k, v)
		}
	}
	statedb.Finalise(params.Rules{})
	return nil
}

// blockOverride is eth_call's fourth parameter, in go-ethereum's JSON.
type blockOverride struct {
	Number        *hexutil.Big       `json:"number"`
	Difficulty    *hexutil.Big       `json:"difficulty"`
	Time          *hexutil.Uint64    `json:"time"`
	GasLimit      *hexutil.Uint64    `json:"gasLimit"`
	FeeRecipient  *common.Address    `json:"feeRecipient"`
	PrevRandao    *common.Hash       `json:"prevRandao"`
	BaseFeePerGas *hexutil.Big       `json:"baseFeePerGas"`
	BlobBaseFee   *hexutil.Big       `json:"blobBaseFee"`
	BeaconRoot    *common.Hash       `json:"beaconRoot"`
	Withdrawals   *types.Withdrawals `json:"withdrawals"`
}

// apply sets the overridden fields in the EVM's block context; a beacon
// root or withdrawals are refused, as eth_call refuses them.
func (o *blockOverride) apply(ctx *vm.BlockContext) error {
	if o == nil {
		return nil
	}
	if o.BeaconRoot != nil {
		return errors.New(`block override "beaconRoot" is not supported for this RPC method`)
	}
	if o.Withdrawals != nil {
		return errors.New(`block override "withdrawals" is not supported for this RPC method`)
	}
	if o.Number != nil {
		ctx.BlockNumber = o.Number.ToInt()
	}
	if o.Difficulty != nil {
		ctx.Difficulty = o.Difficulty.ToInt()
	}
	if o.Time != nil {
		ctx.Time = uint64(*o.Time)
	}
	if o.GasLimit != nil {
		ctx.GasLimit = uint64(*o.GasLimit)
	}
	if o.FeeRecipient != nil {
		ctx.Coinbase = *o.FeeRecipient
	}
	if o.PrevRandao != nil {
		ctx.Random = o.PrevRandao
	}
	if o.BaseFeePerGas != nil {
		ctx.BaseFee = o.BaseFeePerGas.ToInt()
	}
	if o.BlobBaseFee != nil {
		ctx.BlobBaseFee = o.BlobBaseFee.ToInt()
	}
	return nil
}

// header returns a copy of h with the overridden fields, so that the gas
// price is worked out from the overridden base fee.
func (o *blockOverride) header(h *types.Header) *types.Header {
	if o == nil {
		return h
	}
	h = types.CopyHeader(h)
	if o.Number != nil {
		h.Number = o.Number.ToInt()
	}
	if o.Difficulty != nil && (h.Difficulty == nil || h.Difficulty.Sign() != 0) {
		h.Difficulty = o.Difficulty.ToInt()
	}
	if o.Time != nil {
		h.Time = uint64(*o.Time)
	}
	if o.GasLimit != nil {
		h.GasLimit = uint64(*o.GasLimit)
	}
	if o.FeeRecipient != nil {
		h.Coinbase = *o.FeeRecipient
	}
	if o.PrevRandao != nil {
		h.MixDigest = *o.PrevRandao
	}
	if o.BaseFeePerGas != nil {
		h.BaseFee = o.BaseFeePerGas.ToInt()
	}
	return h
}

// revertError is a reverted call's error: JSON-RPC code 3, the message
// "execution reverted" (with the reason when the data is an Error(string)),
// and the revert data, hex, as go-ethereum answers.
type revertError struct {
	error
	data string
}

// ErrorCode returns 3, the code of a revert.
func (e *revertError) ErrorCode() int { return 3 }

// ErrorData returns the revert data, hex encoded.
func (e *revertError) ErrorData() any { return e.data }

// newRevertError makes the revert error of the revert data.
func newRevertError(data []byte) *revertError {
	err := vm.ErrExecutionReverted
	if reason, uerr := abi.UnpackRevert(data); uerr == nil {
		err = fmt.Errorf("%w: %v", vm.ErrExecutionReverted, reason)
	}
	return &revertError{error: err, data: hexutil.Encode(data)}
}

// doCall runs args on statedb at header, with the overrides, as
// go-ethereum's eth_call does: a base fee of 0 when the call pays no gas
// price, the gas cap, the timeout.
func (c *Chain) doCall(ctx context.Context, args callArgs, statedb *state.StateDB, header *types.Header, so stateOverride, bo *blockOverride) (*core.ExecutionResult, error) {
	blockCtx := core.NewEVMBlockContext(header, c.bc, nil)
	if bo != nil {
		if err := bo.apply(&blockCtx); err != nil {
			return nil, err
		}
		header = bo.header(header)
	}
	rules := c.config().Rules(blockCtx.BlockNumber, blockCtx.Random != nil, blockCtx.Time)
	precompiles := vm.ActivePrecompiledContracts(rules)
	if err := so.apply(statedb, precompiles); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, rpcEVMTimeout)
	defer cancel()
	gp := core.NewGasPool(rpcGasCap)
	if err := args.defaults(gp.Available(c.config().IsAmsterdam(header.Number, header.Time)), blockCtx.BaseFee, c.chainID()); err != nil {
		return nil, err
	}
	msg := args.message(header.BaseFee, true).SkipExecutionGasCapCheck()
	if msg.GasPrice.Sign() == 0 {
		blockCtx.BaseFee = new(big.Int)
	}
	if msg.BlobGasFeeCap != nil && msg.BlobGasFeeCap.BitLen() == 0 {
		blockCtx.BlobBaseFee = new(big.Int)
	}
	evm := vm.NewEVM(blockCtx, statedb, c.config(), vm.Config{NoBaseFee: true})
	defer evm.Release()
	evm.SetPrecompiles(precompiles)
	go func() {
		<-ctx.Done()
		evm.Cancel()
	}()
	res, err := core.ApplyMessage(evm, msg, gp)
	if evm.Cancelled() {
		return nil, fmt.Errorf("execution aborted (timeout = %v)", rpcEVMTimeout)
	}
	if serr := statedb.Error(); serr != nil {
		return nil, serr
	}
	if err != nil {
		return res, fmt.Errorf("err: %w (supplied gas %d)", err, msg.GasLimit)
	}
	return res, nil
}
