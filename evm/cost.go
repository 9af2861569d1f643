package evm

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
)

// Request units (section 8 of the interface): an eth_call costs 1, or 2 when
// it reads a block older than about the latest 128 blocks (an archive
// request). The interface names no cost for eth_getCode, eth_blockNumber or
// ots_getInternalOperations: they cost 1. Change any of them with
// nodeaccess.WithCost: the operation's name ("eth_call",
// "ots_getInternalOperations") for the ordinary cost, CostArchiveCall for an
// archive eth_call.
const (
	// CostArchiveCall is the name nodeaccess.WithCost takes for the cost of
	// an archive eth_call (2 by default).
	CostArchiveCall = "eth_call/archive"
	// ArchiveDepth is how far behind the head a block must be for an
	// eth_call on it to count as an archive request: ArchiveDepth blocks or
	// more. The interface says "older than about the latest 128 blocks";
	// counting 128 itself as archive never under-counts.
	ArchiveDepth = 128
	// HeadMaxAge is how long the client trusts the head it learnt before it
	// asks again with eth_blockNumber (which is charged like any call).
	HeadMaxAge = 4 * time.Second
)

const opBlockNumber = "eth_blockNumber"

// callUnits is the cost of one eth_call at b:
//   - latest, safe, finalized and pending: the ordinary cost (1);
//   - earliest, and any block hash (the client cannot place a hash on the
//     chain): the archive cost (2);
//   - a block number: archive when it is ArchiveDepth or more blocks behind
//     the head the client knows. The client learns the head with
//     eth_blockNumber at most every HeadMaxAge, and only when it has a
//     budget (nodeaccess.WithBudget); without a budget, or when the head
//     cannot be learnt, a block number counts as archive, so that the count
//     is never too low.
func (c *Client) callUnits(ctx context.Context, b Block) int {
	ordinary, archive := c.t.Cost("eth_call", 1), c.t.Cost(CostArchiveCall, 2)
	var n uint64
	switch b := b.(type) {
	case Tag:
		if b == Earliest {
			return archive
		}
		return ordinary
	case nil:
		return ordinary
	case BlockNumber:
		n = uint64(b)
	default:
		return archive
	}
	if !c.t.Budgeted() {
		return archive
	}
	head, ok := c.head.get(ctx, c.blockNumber)
	if ok && (n > head || head-n < ArchiveDepth) {
		return ordinary
	}
	return archive
}

// blockNumber runs eth_blockNumber.
func (c *Client) blockNumber(ctx context.Context) (uint64, error) {
	n, err := rpc(ctx, c, opBlockNumber, []byte("[]"), 0, func(raw []byte) (uint64, error) {
		var q hexutil.Uint64
		if err := json.Unmarshal(raw, &q); err != nil {
			return 0, fmt.Errorf("not a hex quantity: %w", err)
		}
		return uint64(q), nil
	})
	if err != nil {
		return 0, c.t.Wrap(opBlockNumber, err)
	}
	return n, nil
}

// headCache is the chain head the client knows, refreshed at most every
// maxAge by one caller at a time.
type headCache struct {
	lock   chan struct{} // a mutex whose waiters respect their context
	maxAge time.Duration
	n      uint64
	ok     bool      // n was learnt at least once
	at     time.Time // when the head was last asked for (even if that failed)
}

func newHeadCache() *headCache {
	return &headCache{lock: make(chan struct{}, 1), maxAge: HeadMaxAge}
}

// get returns the head, asking fetch for it when the known one is older than
// maxAge. A failed fetch keeps the previous head (and is not repeated before
// maxAge passed); ok is false when no head was ever learnt.
func (h *headCache) get(ctx context.Context, fetch func(context.Context) (uint64, error)) (uint64, bool) {
	select {
	case h.lock <- struct{}{}:
	case <-ctx.Done():
		return 0, false
	}
	defer func() { <-h.lock }()
	if !h.at.IsZero() && time.Since(h.at) < h.maxAge {
		return h.n, h.ok
	}
	n, err := fetch(ctx)
	h.at = time.Now()
	if err == nil && (!h.ok || n > h.n) {
		h.n, h.ok = n, true
	}
	return h.n, h.ok
}
