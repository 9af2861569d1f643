package ton

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// defaultPoll is how often Follow asks for the newest masterchain block
// when it has caught up, and how long it waits before asking again for a
// block that failed: toncenter's servers cache getMasterchainInfo for a
// second, so asking more often gains nothing.
const defaultPoll = time.Second

// followPage is the page size of Follow's getBlockTransactionsExt calls:
// one lite-server call (see WithJSONRPC).
const followPage = 256

// quietRetries is how many times in a row Follow retries a failing step
// before it yields the error (and goes on retrying, unless the loop stops):
// at the default poll about half a minute, past the 16 s a lite server's
// shard data may lag its newest masterchain block (validator manager.cpp:
// eight block intervals of at least 2 s), so that the usual lag near the
// head is never yielded.
const quietRetries = 30

// FollowQuery says where Follow starts and how it paces itself.
type FollowQuery struct {
	// From is the position to start at: the zero FollowCursor starts at
	// the newest masterchain block's round; FollowCursor{Seqno: n} at
	// round n's first transaction; a cursor a FollowedTransaction carried
	// right after that transaction.
	From FollowCursor
	// Poll is how often Follow asks for the newest masterchain block once
	// it has caught up with it, and how long it waits before it asks again
	// for a block the server failed on; 0 means 1 s. A server that caches
	// getMasterchainInfo (toncenter's caches it for a second) gains nothing
	// from a shorter one.
	Poll time.Duration
}

// FollowedTransaction is one transaction Follow yields: the transaction,
// where it is, how final it is, and the cursor to resume after it.
type FollowedTransaction struct {
	BlockTransaction
	// Block is the block holding the transaction, with its hashes when
	// the server sent them.
	Block BlockID
	// Masterchain is the seqno of the masterchain block that committed
	// Block: the round the transaction belongs to.
	Masterchain uint32
	// Finality is FinalityFinalized: Follow reads API v2, which serves
	// only blocks a masterchain block has committed.
	Finality Finality
	// Cursor is the position right after this transaction.
	Cursor FollowCursor
}

// Follow walks the chain from q.From: every transaction of every block
// each masterchain block commits, exactly once, round after round, and
// then, caught up with the newest masterchain block, waits for the next
// (asking every q.Poll) and goes on. It ends when ctx ends (yielding its
// error) or the loop stops, or after an error it cannot retry.
//
// A round is the masterchain block n and the shard blocks it commits: in
// every shard, the blocks after masterchain block n−1's top block of that
// shard up to n's top, whether or not they were ever a top themselves.
// Follow finds them from the two masterchain blocks' shard lists (v2
// shards) by seqno: the masterchain's shard-configuration rules (validator
// mc-config.cpp, may_update_shard_block_info) make a new top follow the
// previous top of the same shard, of its parent (a split: both children
// are registered in the same masterchain block, their first blocks one
// past the parent's last) or of both its children (a merge: one past the
// larger of their seqnos), and let a shard chain split or merge at most
// once a round; so every committed shard block belongs to exactly one
// round. Across a split or merge Follow reads the new shard's first block
// header (getBlockHeader) and refuses to go on, with an error matching
// nodeaccess.ErrInvalidResponse, unless its after_split or after_merge
// flag and its previous blocks say the same. A shard list whose top of a
// shard is below the previous one, or more than 256 blocks past it (a
// masterchain block commits at most 8 of a shard), is refused the same way.
//
// Order: round by round; in a round, the shard blocks by workchain, shard
// (in its hex form) and seqno, then the masterchain block, whose
// transactions come after its shard blocks' in logical time; in a block,
// the server's order (by account, then logical time). Positions come from
// seqnos and these indexes, never from block or transaction times, which
// repeat (several blocks a second share one).
//
// Follow reads API v2 rather than the v3 indexer's transactionsByMasterchainBlock,
// which answers a round in one request: v2 is served by every TON
// node-access service, while v3 needs an indexer, which not every service
// runs, which lags the chain by its own delay, and which may show a round
// before the one before it while it inserts them.
//
// Every transaction Follow yields is finalized (FollowedTransaction.Finality):
// API v2 serves committed blocks only, so there is nothing less final to
// ask for and nothing yielded can be rolled back.
//
// Lite servers lag behind the newest masterchain block, and each request
// may reach another one: a block they do not have yet ("not in db",
// ErrNotYetAvailable), a 5xx or a 429 that outlasts the client's own
// retries, is asked for again after q.Poll, the same block, never skipped.
// After 30 failures in a row of one step (about half a minute at the
// default poll, longer than lite servers usually lag) Follow yields the
// error, with a zero FollowedTransaction, and goes on retrying if the loop
// goes on. A
// transaction the server cannot read is yielded as AllBlockTransactions
// yields it, its id with an error matching ErrUnreadableTransaction, and
// the walk goes on. A block whose pages repeat a transaction (a server
// that ignores after_lt/after_hash) ends the walk with an error matching
// ErrRepeatedPage, as AllBlockTransactions does: nothing is yielded twice.
// Other errors (nodeaccess.ErrInvalidResponse, an
// *nodeaccess.InputError for a cursor that names no transaction of its
// block, nodeaccess.ErrUnauthorized) end the walk: resume from the last
// cursor once the cause is fixed.
//
// Cost, in requests: per round, 1 shards call and 1
// getBlockTransactionsExt call per block (one more per 256 transactions
// beyond the first 256), that is 2 + S for S new shard blocks (S is about
// the number of shards when shard blocks come as often as masterchain
// blocks); plus 1 getBlockHeader for each shard that splits or merges; plus
// the getMasterchainInfo polls (at most 1/q.Poll a second), and 1 more
// shards call when Follow starts. To follow the head at B masterchain
// blocks a second, a plan needs about B × (2 + S·k + p) + 1/q.Poll
// requests a second, k being the shard blocks per shard per masterchain
// block (about 1) and p the extra pages of large blocks; catching up
// runs as fast as the plan (and nodeaccess.WithBudget) lets it.
func (c *Client) Follow(ctx context.Context, q FollowQuery) iter.Seq2[FollowedTransaction, error] {
	if err := transport.NilContext(ctx); err != nil {
		return func(yield func(FollowedTransaction, error) bool) {
			yield(FollowedTransaction{}, c.t.Wrap("follow", err))
		}
	}
	return func(yield func(FollowedTransaction, error) bool) {
		f := &follower{c: c, poll: q.Poll, yield: yield}
		if f.poll <= 0 {
			f.poll = defaultPoll
		}
		if err := f.run(ctx, q.From); err != nil && !errors.Is(err, errStopped) {
			yield(FollowedTransaction{}, err)
		}
	}
}

// errStopped ends a walk whose loop stopped.
var errStopped = errors.New("the loop stopped")

// follower is the state of one range over Follow.
type follower struct {
	c     *Client
	poll  time.Duration
	yield func(FollowedTransaction, error) bool

	head     uint32    // the newest masterchain seqno known
	lastPoll time.Time // when head was asked for
	// prev is the shard list of masterchain block prevSeqno, kept from the
	// round before.
	prev      []BlockID
	prevSeqno uint32
	// lists and confirmed keep what the tries of the current round have
	// read (shard lists by masterchain seqno, split and merge blocks
	// checked), so that a retry asks only for what failed.
	lists     map[uint32][]BlockID
	confirmed map[BlockRef]bool
}

// run walks from pos until an error or the loop stops.
func (f *follower) run(ctx context.Context, pos FollowCursor) error {
	if pos.Block < 0 {
		return f.c.t.Wrap("follow", &nodeaccess.InputError{Arg: "cursor", Reason: fmt.Sprintf("block index %d is negative", pos.Block)})
	}
	if pos.Seqno == 0 && (pos.Block != 0 || pos.After != nil) {
		return f.c.t.Wrap("follow", &nodeaccess.InputError{Arg: "cursor", Reason: fmt.Sprintf("%s: seqno 0 is the newest block when Follow starts, with no block or transaction to go on from", pos)})
	}
	if pos.Seqno == 0 {
		if err := f.retry(ctx, func() error { return f.pollHead(ctx) }); err != nil {
			return err
		}
		pos = FollowCursor{Seqno: max(f.head, 1)}
	}
	for {
		if err := f.waitFor(ctx, pos.Seqno); err != nil {
			return err
		}
		var round []BlockID
		var tops []BlockID
		err := f.retry(ctx, func() (err error) {
			round, tops, err = f.round(ctx, pos.Seqno)
			return err
		})
		if err != nil {
			return err
		}
		if pos.Block > len(round) {
			return f.c.t.Wrap("follow", &nodeaccess.InputError{Arg: "cursor",
				Reason: fmt.Sprintf("block index %d is past round %d's %d blocks", pos.Block, pos.Seqno, len(round))})
		}
		for i := pos.Block; i < len(round); i++ {
			if err := f.walkBlock(ctx, pos.Seqno, round, i, pos.After); err != nil {
				return err
			}
			pos.After = nil
		}
		f.prev, f.prevSeqno = tops, pos.Seqno
		clear(f.lists)
		clear(f.confirmed)
		pos = FollowCursor{Seqno: pos.Seqno + 1}
	}
}

// retry runs step until it succeeds, retrying the errors that say "later"
// (transient) after f.poll; every quietRetries failures in a row it
// yields the error. Other errors, and ctx's end, are returned.
func (f *follower) retry(ctx context.Context, step func() error) error {
	for n := 1; ; n++ {
		err := step()
		if err == nil || !transient(err) || ctx.Err() != nil {
			if err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		if n%quietRetries == 0 && !f.yield(FollowedTransaction{}, err) {
			return errStopped
		}
		if err := sleep(ctx, f.poll); err != nil {
			return err
		}
	}
}

// transient reports whether err says "ask again later": a block a lite
// server does not have yet, a 5xx or network failure, a 429.
func transient(err error) bool {
	if errors.Is(err, ErrUnreadableTransaction) {
		return false
	}
	return errors.Is(err, nodeaccess.ErrUnavailable) || errors.Is(err, nodeaccess.ErrRateLimited)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// waitFor returns once masterchain block seqno is known to exist, asking
// for the newest at most every f.poll.
func (f *follower) waitFor(ctx context.Context, seqno uint32) error {
	for seqno > f.head {
		if wait := f.poll - time.Since(f.lastPoll); wait > 0 {
			if err := sleep(ctx, wait); err != nil {
				return err
			}
		}
		if err := f.retry(ctx, func() error { return f.pollHead(ctx) }); err != nil {
			return err
		}
	}
	return nil
}

// pollHead asks for the newest masterchain block.
func (f *follower) pollHead(ctx context.Context) error {
	f.lastPoll = time.Now()
	var info struct {
		Last *wireBlockID `json:"last"`
	}
	if err := f.c.Call(ctx, &info, "v2/getMasterchainInfo", nil); err != nil {
		return err
	}
	if info.Last == nil {
		return f.c.t.Wrap("getMasterchainInfo", fmt.Errorf("%w: the answer has no \"last\" block", nodeaccess.ErrInvalidResponse))
	}
	id, err := info.Last.decode()
	if err != nil {
		return f.c.t.Wrap("getMasterchainInfo", fmt.Errorf("%w: last: %v", nodeaccess.ErrInvalidResponse, err))
	}
	f.head = max(f.head, id.Seqno)
	return nil
}

// walkBlock yields the transactions of block i of round seqno after after.
func (f *follower) walkBlock(ctx context.Context, seqno uint32, round []BlockID, i int, after *BlockCursor) error {
	var items []blockItem
	id := round[i]
	err := f.retry(ctx, func() (err error) {
		id, items, err = f.blockItems(ctx, round[i])
		return err
	})
	if err != nil {
		return err
	}
	start := 0
	if after != nil {
		start = -1
		for j, it := range items {
			if it.tx.Account == after.Account && it.tx.LT == after.LT {
				start = j + 1
				break
			}
		}
		if start < 0 {
			return f.c.t.Wrap("follow", &nodeaccess.InputError{Arg: "cursor",
				Reason: fmt.Sprintf("block %s (index %d of round %d) has no transaction of account %s at lt %d", id.BlockRef, i, seqno, after.Account, after.LT)})
		}
	}
	for j := start; j < len(items); j++ {
		it := items[j]
		next := FollowCursor{Seqno: seqno, Block: i, After: &BlockCursor{Account: it.tx.Account, LT: it.tx.LT}}
		if j == len(items)-1 {
			next = FollowCursor{Seqno: seqno, Block: i + 1}
			if i+1 == len(round) {
				next = FollowCursor{Seqno: seqno + 1}
			}
		}
		ft := FollowedTransaction{BlockTransaction: it.tx, Block: id, Masterchain: seqno, Finality: FinalityFinalized, Cursor: next}
		if !f.yield(ft, it.err) {
			return errStopped
		}
	}
	return nil
}

// blockItem is a transaction of a block, with the error of a transaction
// the server cannot read.
type blockItem struct {
	tx  BlockTransaction
	err error
}

// blockItems reads a whole block: page after page, and around a
// transaction the server cannot read, as AllBlockTransactions does.
func (f *follower) blockItems(ctx context.Context, id BlockID) (BlockID, []blockItem, error) {
	q := BlockTransactionsQuery{Block: id.BlockRef, RootHash: id.RootHash, FileHash: id.FileHash, Count: followPage}
	var items []blockItem
	type key struct {
		a  Address
		lt uint64
	}
	seen := map[key]bool{}
	for {
		page, err := f.c.BlockTransactions(ctx, q)
		if errors.Is(err, ErrUnreadableTransaction) {
			return f.slowItems(ctx, id, q)
		}
		if err != nil {
			return id, nil, err
		}
		if page.Block.RootHash != (Hash{}) && page.Block.BlockRef == id.BlockRef {
			id = page.Block
			q.RootHash, q.FileHash = id.RootHash, id.FileHash
		}
		for _, tx := range page.Transactions {
			if seen[key{tx.Account, tx.LT}] {
				return id, nil, f.c.t.Wrap("getBlockTransactionsExt", fmt.Errorf("%w: block %s: the page after %s holds account %s lt %d again (the server ignores after_lt/after_hash)",
					ErrRepeatedPage, id.BlockRef, cursorText(q.After), tx.Account, tx.LT))
			}
			seen[key{tx.Account, tx.LT}] = true
			items = append(items, blockItem{tx: tx})
		}
		next, more := page.Next()
		if !more {
			if page.Incomplete {
				return id, nil, f.c.t.Wrap("getBlockTransactionsExt", fmt.Errorf("%w: block %s is incomplete but the page has no transactions to continue after",
					ErrRepeatedPage, id.BlockRef))
			}
			return id, items, nil
		}
		if q.After != nil && next == *q.After {
			return id, nil, f.c.t.Wrap("getBlockTransactionsExt", fmt.Errorf("%w: block %s: the page after %s ends where it started",
				ErrRepeatedPage, id.BlockRef, cursorText(q.After)))
		}
		q.After = &next
	}
}

// slowItems reads a block holding a transaction the server cannot read
// with AllBlockTransactions, which isolates it.
func (f *follower) slowItems(ctx context.Context, id BlockID, q BlockTransactionsQuery) (BlockID, []blockItem, error) {
	q.After = nil
	var items []blockItem
	for tx, err := range f.c.AllBlockTransactions(ctx, q) {
		if err != nil && tx.LT == 0 {
			return id, nil, err
		}
		items = append(items, blockItem{tx: tx, err: err})
	}
	return id, items, nil
}
