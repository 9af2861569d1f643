package node

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/nodeaccess/nodeaccess/evm"
)

// otsAPI is the part of Otterscan's ots namespace the server answers:
// ots_getInternalOperations, as Erigon computes it.
type otsAPI struct{ c *Chain }

// internalOperation is one entry of ots_getInternalOperations' result, in
// Erigon's JSON: {"type":0,"from":"0x…","to":"0x…","value":"0x…"}.
type internalOperation struct {
	Type  evm.OperationType `json:"type"`
	From  common.Address    `json:"from"`
	To    common.Address    `json:"to"`
	Value *hexutil.Big      `json:"value"`
}

// GetInternalOperations re-executes the mined transaction hash on the state
// before it, with a tracer, and returns the internal operations in
// execution order. An unknown hash fails as on Erigon: a plain error, which
// JSON-RPC answers with code -32000 and the message
// "transaction 0x<hash> not found".
func (api *otsAPI) GetInternalOperations(ctx context.Context, hash common.Hash) ([]internalOperation, error) {
	bc := api.c.bc
	lookup, _ := bc.GetCanonicalTransaction(hash)
	if lookup == nil {
		// Erigon: fmt.Errorf("transaction %#x not found", hash).
		return nil, fmt.Errorf("transaction %#x not found", hash)
	}
	block := bc.GetBlock(lookup.BlockHash, lookup.BlockIndex)
	if block == nil {
		return nil, fmt.Errorf("block %#x not found", lookup.BlockHash)
	}
	index := int(lookup.Index)
	tx, vmctx, statedb, err := api.c.stateAtTransaction(ctx, block, index)
	if err != nil {
		return nil, err
	}
	cfg := bc.Config()
	msg, err := core.TransactionToMessage(tx, types.MakeSigner(cfg, block.Number(), block.Time()), block.BaseFee())
	if err != nil {
		return nil, err
	}
	t := &opsTracer{ops: []internalOperation{}}
	evm := vm.NewEVM(vmctx, statedb, cfg, vm.Config{Tracer: &tracing.Hooks{OnEnter: t.onEnter}, NoBaseFee: true})
	defer evm.Release()
	statedb.SetTxContext(hash, index, uint32(index+1))
	if _, _, err := core.ApplyTransactionWithEVM(ctx, msg, core.NewGasPool(msg.GasLimit), statedb, block.Number(), block.Hash(), block.Time(), tx, evm); err != nil {
		return nil, fmt.Errorf("tracing failed: %w", err)
	}
	return t.ops, nil
}

// opsTracer records internal operations with Erigon's policy
// (rpc/jsonrpc/otterscan_trace_operations.go): the top-level call (depth 0)
// is left out; a CALL is listed when it carries value; CREATE, CREATE2 and
// SELFDESTRUCT are listed whatever their value, zero included; a frame that
// later reverts or fails keeps its entries (the tracer looks at entries
// only). DELEGATECALL, STATICCALL and CALLCODE are never listed.
type opsTracer struct{ ops []internalOperation }

func (t *opsTracer) onEnter(depth int, typ byte, from, to common.Address, _ []byte, _ uint64, value *big.Int) {
	if depth == 0 {
		return
	}
	v := new(big.Int)
	if value != nil {
		v.Set(value)
	}
	var kind evm.OperationType
	switch vm.OpCode(typ) {
	case vm.CALL:
		if v.Sign() == 0 {
			return
		}
		kind = evm.Transfer
	case vm.SELFDESTRUCT:
		kind = evm.SelfDestruct
	case vm.CREATE:
		kind = evm.Create
	case vm.CREATE2:
		kind = evm.Create2
	default:
		return
	}
	t.ops = append(t.ops, internalOperation{Type: kind, From: from, To: to, Value: (*hexutil.Big)(v)})
}
