package evm

import (
	"context"
	"fmt"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/nodeaccess/nodeaccess"
)

// reorg follows a reorganisation: the newest block of the ring is no
// longer canonical. It removes blocks from the ring's top, yielding their
// logs as removed (newest first), until the top is canonical, and goes on
// after it. Past the ring it goes on with the parent of the block it last
// removed; past reorgBound removed blocks it gives up.
func (f *follower) reorg(ctx context.Context) error {
	for removed := 0; ; removed++ {
		top := &f.ring[len(f.ring)-1]
		var canon *followHeader
		if err := f.c.CallContext(ctx, &canon, "eth_getBlockByNumber", BlockNumber(top.num), false); err != nil {
			return err
		}
		if canon != nil && canon.Hash == top.hash {
			if removed == 0 {
				return errChanged // the node's answers disagree: ask again later
			}
			f.next, f.at = top.num+1, FollowCursor{}
			return nil
		}
		if removed == reorgBound {
			return f.c.t.Wrap("follow", fmt.Errorf("%w: the chain reorganised deeper than the %d blocks Follow follows: block %d %s is not canonical any more",
				nodeaccess.ErrInvalidResponse, reorgBound, top.num, top.hash.Hex()))
		}
		var logs []types.Log
		if f.block == nil {
			var err error
			if logs, err = f.removedLogs(ctx, top); err != nil {
				return err
			}
		}
		if top.parent == (common.Hash{}) {
			var h *followHeader
			if err := f.c.CallContext(ctx, &h, "eth_getBlockByHash", top.hash, false); err != nil {
				return err
			}
			if h == nil {
				return f.c.t.Wrap("eth_getBlockByHash", fmt.Errorf("%w: block %d %s left the canonical chain and the node no longer has it: the logs of it to remove are unknown",
					nodeaccess.ErrNotFound, top.num, top.hash.Hex()))
			}
			top.parent = h.ParentHash
		}
		if f.block != nil && (top.shown || top.below > 0 || top.fetched) {
			b := FollowedBlock{Number: top.num, Hash: top.hash, ParentHash: top.parent, Removed: true, Finality: f.q.Finality, Cursor: FollowCursor{Number: top.num, Hash: top.hash}}
			if !f.block(b, nil) {
				return errStopped
			}
		}
		for i := len(logs) - 1; i >= 0; i-- {
			l := logs[i]
			l.Removed = true
			if !f.yield(FollowedLog{Log: l, Finality: f.q.Finality, Cursor: FollowCursor{Number: top.num, Hash: top.hash, Index: l.Index}}, nil) {
				return errStopped
			}
		}
		gone := *top
		f.ring = f.ring[:len(f.ring)-1]
		if len(f.ring) == 0 {
			if gone.num == 0 {
				return f.invalid("eth_getBlockByNumber", "the genesis block %s is not canonical any more", gone.hash.Hex())
			}
			// Every log of the parent was yielded before it.
			f.ring = append(f.ring, ringBlock{num: gone.num - 1, hash: gone.parent, fetched: true})
		}
	}
}

// removedLogs returns the logs yielded of a block that left the chain, in
// order: those of an earlier walk read again by block hash, then those of
// this one.
func (f *follower) removedLogs(ctx context.Context, b *ringBlock) ([]types.Log, error) {
	if b.below == 0 && !b.fetched {
		return b.logs, nil
	}
	var logs []types.Log
	h := b.hash
	if err := f.c.CallContext(ctx, &logs, "eth_getLogs", logFilter{BlockHash: &h, Addresses: f.q.Addresses, Topics: f.q.Topics}); err != nil {
		return nil, err
	}
	if err := f.checkLogs(logs, b.num, b.num); err != nil {
		return nil, err
	}
	earlier := logs[:0]
	for _, l := range logs {
		if l.BlockHash != b.hash {
			return nil, f.invalid("eth_getLogs", "a log of block %s in the answer for block %s", l.BlockHash.Hex(), b.hash.Hex())
		}
		if b.fetched || l.Index < b.below {
			earlier = append(earlier, l)
		}
	}
	return append(slices.Clip(earlier), b.logs...), nil
}
