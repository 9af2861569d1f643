package evm

import (
	"context"
	"time"
)

const (
	// archiveDepth is how far behind the head a block must be for an
	// eth_call on it to count as an archive request: archiveDepth blocks
	// or more. Providers say "older than about the latest 128 blocks";
	// counting 128 itself as archive never under-counts.
	archiveDepth = 128
	// headMaxAge is how long the client trusts the head it learnt before
	// it asks again with eth_blockNumber (which is charged like any call).
	headMaxAge = 4 * time.Second
)

// callUnits is the cost of one eth_call at b:
//   - latest, safe, finalized and pending: the ordinary cost (1);
//   - earliest, and any block hash (the client cannot place a hash on the
//     chain): the archive cost (2);
//   - a block number: archive when it is archiveDepth or more blocks behind
//     the head the client knows. The client learns the head with
//     eth_blockNumber at most every headMaxAge, and only when it has a
//     budget (nodeaccess.WithBudget); without a budget, or when the head
//     cannot be learnt, a block number counts as archive, so that the count
//     is never too low.
func (c *Client) callUnits(ctx context.Context, b Block) int {
	ordinary, archive := c.t.Cost(OpCall, 1), c.t.Cost(OpArchiveCall, 2)
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
	head, ok := c.head.get(ctx, c.BlockNumber)
	if ok && (n > head || head-n < archiveDepth) {
		return ordinary
	}
	return archive
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
	return &headCache{lock: make(chan struct{}, 1), maxAge: headMaxAge}
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
