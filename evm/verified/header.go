package verified

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
)

// maxRecent is how far below the anchor's head a block may be and still be
// read: as far back as the EVM's BLOCKHASH reaches, and what one batch of
// headers chains at an affordable cost.
const maxRecent = 256

// headerByHash adds to b the fetch of the header of the block hash
// (eth_getBlockByHash without transactions).
func headerByHash(b *evm.Batch, hash common.Hash) *evm.BatchResult[*types.Header] {
	return evm.Add[*types.Header](b, "eth_getBlockByHash", hash, false)
}

// checkHeader returns the header r holds once it is proven to be the
// block hash's: it must hash (keccak256 of its RLP) to hash.
func checkHeader(r *evm.BatchResult[*types.Header], hash common.Hash) (*types.Header, error) {
	h, err := r.Result()
	if err != nil {
		return nil, err
	}
	if h == nil {
		return nil, &nodeaccess.OpError{Chain: "evm", Op: "eth_getBlockByHash", Err: fmt.Errorf("%w: the node does not have block %s, which the anchor backs", nodeaccess.ErrNotFound, hash.Hex())}
	}
	if got := h.Hash(); got != hash {
		return nil, opError("eth_getBlockByHash", unverified("the header the node gives for block %s hashes to %s: a header of another block, or altered", hash.Hex(), got.Hex()))
	}
	return h, nil
}

// recent backs a block given by number, or by a hash that is neither the
// anchor's head nor its finalized block, when it is one of the maxRecent
// blocks below the head: the head's header is fetched by its hash (with
// the block's, for a hash), then, in one batch, the headers between the
// block and the head by number, and each must be the parent of the next
// (its hash the next one's parentHash) up to the head: a round trip for
// the head, and one per evm.WithMaxBatchSize headers.
func (v *Client) recent(ctx context.Context, head common.Hash, sel evm.Block) (anchored, error) {
	var b evm.Batch
	hr := headerByHash(&b, head)
	var tr *evm.BatchResult[*types.Header]
	bh, byHash := sel.(evm.BlockHash)
	if byHash {
		tr = headerByHash(&b, bh.Hash)
	}
	if err := v.c.SendBatch(ctx, &b); err != nil {
		return anchored{}, err
	}
	hh, err := checkHeader(hr, head)
	if err != nil {
		return anchored{}, err
	}
	top := hh.Number.Uint64()
	var target *types.Header
	var n uint64
	if byHash {
		if target, err = checkHeader(tr, bh.Hash); err != nil {
			return anchored{}, err
		}
		n = target.Number.Uint64()
		if n >= top {
			return anchored{}, opError("eth_getBlockByHash", unverified("block %s is number %d, not below the anchor's head %d, and is not the head: it is not on the anchored chain", bh.Hash.Hex(), n, top))
		}
	} else {
		n = uint64(sel.(evm.BlockNumber))
		if n == top {
			return anchored{hash: head, header: hh}, nil
		}
		if n > top {
			return anchored{}, &nodeaccess.InputError{Arg: "block", Reason: fmt.Sprintf("block number %d refused: the anchor's head is block %d", n, top)}
		}
	}
	if top-n > maxRecent {
		return anchored{}, &nodeaccess.InputError{Arg: "block", Reason: fmt.Sprintf("%v (block %d) refused: more than %d blocks below the anchor's head %d", sel, n, maxRecent, top)}
	}
	// The headers n (n+1 for a hash, whose header is known) to top-1.
	from := n
	if byHash {
		from = n + 1
	}
	var cb evm.Batch
	rs := make([]*evm.BatchResult[*types.Header], 0, top-from)
	for i := from; i < top; i++ {
		rs = append(rs, evm.Add[*types.Header](&cb, "eth_getBlockByNumber", evm.BlockNumber(i), false))
	}
	if err := v.c.SendBatch(ctx, &cb); err != nil {
		return anchored{}, err
	}
	// Walk down from the head: each header must hash to the parentHash
	// of the one above it.
	want := hh.ParentHash
	var lowest *types.Header
	for i := len(rs) - 1; i >= 0; i-- {
		num := from + uint64(i)
		h, err := rs[i].Result()
		if err != nil {
			return anchored{}, err
		}
		if h == nil {
			return anchored{}, &nodeaccess.OpError{Chain: "evm", Op: "eth_getBlockByNumber", Err: fmt.Errorf("%w: the node does not have block %d, below the anchor's head %d", nodeaccess.ErrNotFound, num, top)}
		}
		if got := h.Hash(); got != want {
			return anchored{}, opError("eth_getBlockByNumber", unverified("the header the node gives for block %d hashes to %s, not to %s, the parent hash of block %d: a header of another block, not the anchored chain", num, got.Hex(), want.Hex(), num+1))
		}
		if h.Number.Uint64() != num {
			return anchored{}, opError("eth_getBlockByNumber", unverified("the header of block %d says number %d", num, h.Number.Uint64()))
		}
		lowest, want = h, h.ParentHash
	}
	if byHash {
		if bh.Hash != want {
			return anchored{}, opError("eth_getBlockByHash", unverified("block %s (number %d) is not the parent of block %d on the anchored chain (%s is)", bh.Hash.Hex(), n, n+1, want.Hex()))
		}
		return anchored{hash: bh.Hash, header: target}, nil
	}
	return anchored{hash: lowest.Hash(), header: lowest}, nil
}
