package node

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/event"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// The chain's reads, with go-ethereum's rules for block selectors (its
// EthAPIBackend's): "pending" is the miner's pending block, "latest" the
// head, "safe" and "finalized" what the last sealing set, "earliest" the
// genesis (nothing is pruned), a number the canonical block, a hash any
// block the chain has, canonical or not (unless requireCanonical).

// headerByNumber returns the header n selects, nil when the chain has no
// such block.
func (c *Chain) headerByNumber(n rpc.BlockNumber) (*types.Header, error) {
	switch n {
	case rpc.PendingBlockNumber:
		block, _, _ := c.miner.Pending()
		if block == nil {
			return nil, errors.New("pending block is not available")
		}
		return block.Header(), nil
	case rpc.LatestBlockNumber:
		return c.bc.CurrentBlock(), nil
	case rpc.FinalizedBlockNumber:
		if h := c.bc.CurrentFinalBlock(); h != nil {
			return h, nil
		}
		return nil, errors.New("finalized block not found")
	case rpc.SafeBlockNumber:
		if h := c.bc.CurrentSafeBlock(); h != nil {
			return h, nil
		}
		return nil, errors.New("safe block not found")
	case rpc.EarliestBlockNumber:
		return c.bc.GetHeaderByNumber(0), nil
	}
	return c.bc.GetHeaderByNumber(uint64(n)), nil
}

// blockByNumber returns the block n selects, nil when the chain has no such
// block.
func (c *Chain) blockByNumber(n rpc.BlockNumber) (*types.Block, error) {
	if n == rpc.PendingBlockNumber {
		block, _, _ := c.miner.Pending()
		if block == nil {
			return nil, errors.New("pending block is not available")
		}
		return block, nil
	}
	h, err := c.headerByNumber(n)
	if h == nil || err != nil {
		return nil, err
	}
	return c.bc.GetBlock(h.Hash(), h.Number.Uint64()), nil
}

// stateAndHeader returns the state after the block bnh selects, and its
// header (for "pending", the pending block's), with go-ethereum's errors.
func (c *Chain) stateAndHeader(bnh rpc.BlockNumberOrHash) (*state.StateDB, *types.Header, error) {
	var header *types.Header
	if n, ok := bnh.Number(); ok {
		if n == rpc.PendingBlockNumber {
			block, _, st := c.miner.Pending()
			if block == nil || st == nil {
				return nil, nil, errors.New("pending state is not available")
			}
			return st, block.Header(), nil
		}
		h, err := c.headerByNumber(n)
		if err != nil {
			return nil, nil, err
		}
		if h == nil {
			return nil, nil, errHeaderNotFound
		}
		header = h
	} else if hash, ok := bnh.Hash(); ok {
		header = c.bc.GetHeaderByHash(hash)
		if header == nil {
			return nil, nil, errors.New("header for hash not found")
		}
		if bnh.RequireCanonical && c.bc.GetCanonicalHash(header.Number.Uint64()) != hash {
			return nil, nil, errors.New("hash is not currently canonical")
		}
	} else {
		return nil, nil, errors.New("invalid arguments; neither block nor hash specified")
	}
	st, err := c.bc.StateAt(header.Root, header.Number, header.Time)
	if err != nil {
		return nil, nil, err
	}
	return st, header, nil
}

// stateAtTransaction returns the state just before the transaction at index
// of block runs (the block's system calls and the transactions before it
// applied on its parent's state), the block's EVM context and the
// transaction, as go-ethereum's tracers get them.
func (c *Chain) stateAtTransaction(ctx context.Context, block *types.Block, index int) (*types.Transaction, vm.BlockContext, *state.StateDB, error) {
	if block.NumberU64() == 0 {
		return nil, vm.BlockContext{}, nil, errors.New("no transaction in genesis")
	}
	parent := c.bc.GetBlock(block.ParentHash(), block.NumberU64()-1)
	if parent == nil {
		return nil, vm.BlockContext{}, nil, fmt.Errorf("parent %#x not found", block.ParentHash())
	}
	statedb, err := c.bc.StateAt(parent.Root(), parent.Number(), parent.Time())
	if err != nil {
		return nil, vm.BlockContext{}, nil, err
	}
	cfg := c.config()
	vmctx := core.NewEVMBlockContext(block.Header(), c.bc, nil)
	evm := vm.NewEVM(vmctx, statedb, cfg, vm.Config{})
	defer evm.Release()
	core.PreExecution(ctx, block.BeaconRoot(), parent.Header(), cfg, evm, block.Number(), block.Time())
	signer := types.MakeSigner(cfg, block.Number(), block.Time())
	for i, tx := range block.Transactions() {
		if i == index {
			return tx, vmctx, statedb, nil
		}
		msg, err := core.TransactionToMessage(tx, signer, block.BaseFee())
		if err != nil {
			return nil, vm.BlockContext{}, nil, err
		}
		statedb.SetTxContext(tx.Hash(), i, uint32(i+1))
		if _, err := core.ApplyMessage(evm, msg, nil); err != nil {
			return nil, vm.BlockContext{}, nil, fmt.Errorf("transaction %#x failed: %v", tx.Hash(), err)
		}
		statedb.Finalise(evm.GetRules())
	}
	return nil, vm.BlockContext{}, nil, fmt.Errorf("transaction index %d out of range for block %#x", index, block.Hash())
}

// oracleBackend is the chain as go-ethereum's gas price oracle reads it.
type oracleBackend struct{ c *Chain }

// HeaderByNumber returns the header n selects.
func (b oracleBackend) HeaderByNumber(_ context.Context, n rpc.BlockNumber) (*types.Header, error) {
	return b.c.headerByNumber(n)
}

// BlockByNumber returns the block n selects.
func (b oracleBackend) BlockByNumber(_ context.Context, n rpc.BlockNumber) (*types.Block, error) {
	return b.c.blockByNumber(n)
}

// GetReceipts returns the receipts of the block hash.
func (b oracleBackend) GetReceipts(_ context.Context, hash common.Hash) (types.Receipts, error) {
	return b.c.bc.GetReceiptsByHash(hash), nil
}

// Pending returns the miner's pending block, receipts and state.
func (b oracleBackend) Pending() (*types.Block, types.Receipts, *state.StateDB) {
	return b.c.miner.Pending()
}

// ChainConfig returns the chain's configuration.
func (b oracleBackend) ChainConfig() *params.ChainConfig { return b.c.config() }

// SubscribeChainHeadEvent subscribes ch to new heads.
func (b oracleBackend) SubscribeChainHeadEvent(ch chan<- core.ChainHeadEvent) event.Subscription {
	return b.c.bc.SubscribeChainHeadEvent(ch)
}
