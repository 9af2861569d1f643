package node

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/miner"
)

// seal builds a block on the head with the pool's transactions and makes it
// the head, as go-ethereum's simulated beacon does through the engine API
// (forkchoiceUpdated with payload attributes, getPayload, newPayload,
// forkchoiceUpdated): the miner builds the payload, the chain inserts it and
// sets it canonical, the new head is safe, and the finalized block is the
// last one whose number is a multiple of 32. The block's timestamp is
// timestamp, or one second after the latest block sealed when that is not
// earlier. The caller keeps other changes of the chain out meanwhile.
func (c *Chain) Seal(timestamp uint64) error {
	if timestamp <= c.lastBlockTime {
		timestamp = c.lastBlockTime + 1
	}
	// The pool resets on a new head in the background: wait for it, so that
	// a transaction just mined is not offered again and one just sent is.
	if err := c.pool.Sync(); err != nil {
		return fmt.Errorf("failed to sync txpool: %w", err)
	}
	parent := c.bc.CurrentBlock()
	var random common.Hash
	_, _ = crand.Read(random[:])
	args := &miner.BuildPayloadArgs{
		Parent:       parent.Hash(),
		Timestamp:    timestamp,
		FeeRecipient: common.Address{},
		Random:       random,
		Withdrawals:  types.Withdrawals{},
		BeaconRoot:   &common.Hash{},
		Version:      engine.PayloadV3,
	}
	if c.config().IsAmsterdam(new(big.Int).Add(parent.Number, big.NewInt(1)), timestamp) {
		slot := uint64(0)
		args.SlotNum = &slot
	}
	payload, err := c.miner.BuildPayload(context.Background(), args, false)
	if err != nil {
		return fmt.Errorf("building the payload: %w", err)
	}
	if payload.ResolveFull() == nil {
		return errors.New("building the payload: no full payload")
	}
	block, _, _, _ := payload.FullBlockAndReceipts()
	if block == nil {
		return errors.New("building the payload: no full block")
	}
	if _, err := c.bc.InsertBlockWithoutSetHead(context.Background(), block, false); err != nil {
		return fmt.Errorf("inserting block %d: %w", block.NumberU64(), err)
	}
	if _, err := c.bc.SetCanonical(block); err != nil {
		return fmt.Errorf("setting block %d as head: %w", block.NumberU64(), err)
	}
	c.bc.SetSafe(block.Header())
	if fh := c.finalizedHash(block.NumberU64()); fh != nil {
		if fin := c.bc.GetHeaderByHash(*fh); fin != nil {
			c.bc.SetFinalized(fin)
		}
	}
	c.lastBlockTime = block.Time()
	// SetCanonical has handed the new head to the pool's loop (the chain's
	// head feed is unbuffered), but the pool resets to it in the
	// background: a transaction sent right after this block would be
	// checked against the parent's state ("nonce too low: next nonce 4"
	// for a sender whose fifth transaction this block mined). Sync runs
	// that reset and waits for it.
	if err := c.pool.Sync(); err != nil {
		return fmt.Errorf("failed to sync txpool after block %d: %w", block.NumberU64(), err)
	}
	return nil
}

// PendingCount returns how many transactions wait in the pool, ready to be
// mined.
func (c *Chain) PendingCount() int {
	pending, _ := c.pool.Pending(txpool.PendingFilter{})
	n := 0
	for _, txs := range pending {
		n += len(txs)
	}
	return n
}
