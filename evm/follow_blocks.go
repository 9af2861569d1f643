package evm

import (
	"context"
	"iter"

	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// FollowedBlock is one block FollowBlocks yields: where it is, its parent,
// how final it is, and the cursor to resume after it. Removed is true when
// the block left the canonical chain (a reorganisation).
type FollowedBlock struct {
	Number     uint64
	Hash       common.Hash
	ParentHash common.Hash
	Removed    bool
	// Finality is the query's Finality (Latest, Safe or Finalized).
	Finality Tag
	// Cursor is the position right after this block (after its removal,
	// for a removed block): "number/hash/1" after the block, "number/hash/0"
	// after its removal (the block is its own item, of index 0).
	Cursor FollowCursor
}

// FollowBlocks walks the chain's blocks as Follow walks its logs: every
// block of the canonical chain from q.From once, in order, then each new
// one as it comes, with the same reorganisation rules (at Latest the
// blocks that leave the chain are yielded again with Removed set, newest
// first, then the new branch; deeper than 64 blocks the walk ends with an
// error matching nodeaccess.ErrInvalidResponse; at Safe and Finalized
// nothing is removed), the same cursors (a FollowedBlock's cursor resumes
// after that block) and the same fault rules. q.Addresses and q.Topics
// must be empty.
//
// Cost: at the head, each poll is one eth_getBlockByNumber("latest") (one
// request, one request unit); catching up, one JSON-RPC batch of 64
// eth_getBlockByNumber calls per 64 blocks (one request, 64 units; more
// requests when WithMaxBatchSize is under 64).
func (c *Client) FollowBlocks(ctx context.Context, q FollowQuery) iter.Seq2[FollowedBlock, error] {
	if err := transport.NilContext(ctx); err != nil {
		return func(yield func(FollowedBlock, error) bool) {
			yield(FollowedBlock{}, c.t.Wrap("follow", err))
		}
	}
	return func(yield func(FollowedBlock, error) bool) {
		if len(q.Addresses) > 0 || len(q.Topics) > 0 {
			yield(FollowedBlock{}, c.t.Wrap("follow", &nodeaccess.InputError{Arg: "query", Reason: "FollowBlocks takes no addresses or topics: use Follow for logs"}))
			return
		}
		stopped := false
		win, poll := c.followStart(q.Poll)
		f := &follower{c: c, q: q, poll: poll, win: win, block: func(b FollowedBlock, err error) bool {
			stopped = stopped || !yield(b, err)
			return !stopped
		}}
		f.yield = func(FollowedLog, error) bool { return !stopped } // no logs are read
		if f.q.Finality == "" {
			f.q.Finality = Latest
		}
		if err := f.run(ctx); err != nil && !stopped {
			yield(FollowedBlock{}, err)
		}
	}
}
