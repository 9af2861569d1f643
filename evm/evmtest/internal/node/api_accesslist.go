package node

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/tracers/logger"
	"github.com/ethereum/go-ethereum/rpc"
)

// accessListResult is eth_createAccessList's result, with go-ethereum's
// members.
type accessListResult struct {
	Accesslist *types.AccessList `json:"accessList"`
	Error      string            `json:"error,omitempty"`
	GasUsed    hexutil.Uint64    `json:"gasUsed"`
}

// CreateAccessList is eth_createAccessList, as go-ethereum answers it: the
// accounts and storage slots the call touches at the block selected
// (latest when left out), found by running it with go-ethereum's access
// list tracer until the list no longer grows; the sender, the callee (or
// the created contract) and the precompiles are left out, as go-ethereum
// leaves them out. A call that fails still answers its list, with the
// failure in "error".
func (api *ethAPI) CreateAccessList(ctx context.Context, args callArgs, block *rpc.BlockNumberOrHash) (*accessListResult, error) {
	if err := args.checkBlobFeeCap(); err != nil {
		return nil, err
	}
	st, header, err := api.c.stateAndHeader(orLatest(block))
	if err != nil {
		return nil, err
	}
	blockCtx := core.NewEVMBlockContext(header, api.c.bc, nil)
	gp := core.NewGasPool(rpcGasCap)
	if err := args.defaults(gp.Available(api.c.config().IsAmsterdam(header.Number, header.Time)), blockCtx.BaseFee, api.c.chainID()); err != nil {
		return nil, err
	}
	if args.Nonce == nil {
		n := hexutil.Uint64(st.GetNonce(args.from()))
		args.Nonce = &n
	}
	to := crypto.CreateAddress(args.from(), uint64(*args.Nonce))
	if args.To != nil {
		to = *args.To
	}
	rules := api.c.config().Rules(header.Number, header.Difficulty.Sign() == 0, header.Time)
	precompiles := vm.ActivePrecompiles(rules)
	exclude := map[common.Address]struct{}{args.from(): {}, to: {}}
	for _, p := range precompiles {
		exclude[p] = struct{}{}
	}
	var given types.AccessList
	if args.AccessList != nil {
		given = *args.AccessList
	}
	prev := logger.NewAccessListTracer(given, exclude)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		list := prev.AccessList()
		args.AccessList = &list
		msg := args.message(header.BaseFee, true).SkipExecutionGasCapCheck()
		tracer := logger.NewAccessListTracer(list, exclude)
		bctx := blockCtx
		if msg.GasPrice.Sign() == 0 {
			bctx.BaseFee = new(big.Int)
		}
		evm := vm.NewEVM(bctx, st.Copy(), api.c.config(), vm.Config{Tracer: tracer.Hooks(), NoBaseFee: true})
		evm.SetPrecompiles(vm.ActivePrecompiledContracts(rules))
		res, err := core.ApplyMessage(evm, msg, core.NewGasPool(msg.GasLimit))
		evm.Release()
		if err != nil {
			return nil, err
		}
		if tracer.Equal(prev) {
			out := &accessListResult{Accesslist: &list, GasUsed: hexutil.Uint64(res.UsedGas)}
			if res.Err != nil {
				out.Error = res.Err.Error()
			}
			return out, nil
		}
		prev = tracer
	}
}
