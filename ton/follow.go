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
	// Indexer reads the chain through API v3's indexer instead of API v2:
	// a round's blocks (masterchainBlockShards, with each block's
	// tx_count) and the transactions by logical time (transactions, 500 a
	// page, each page serving as many rounds as it holds), whatever the
	// number of shards: about 1 request a masterchain block catching up,
	// 1.5 at the head, where v2 takes 2 + S. The order, the cursors and the
	// errors are the same, so a cursor of one path resumes on the other.
	// Leave it false for a service without v3 (its 404 ends the walk with
	// an error matching nodeaccess.ErrNotFound) and for a lite server's
	// freshest blocks: the indexer serves a round once it has indexed it,
	// usually a few seconds after the lite servers.
	Indexer bool
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

// Follow walks the chain from q.From and yields every transaction of every
// block each masterchain block commits, exactly once: round after round (a
// round is a masterchain block and the shard blocks it commits, those that
// were never a shard's top included), and, caught up with the newest
// masterchain block, the next ones as they come, asking every q.Poll.
// Every transaction is finalized and carries the FollowCursor to resume
// right after it.
//
// Order: in a round, the shard blocks by workchain, shard (in its hex form)
// and seqno, then the masterchain block; in a block, the server's order (by
// account, then logical time). Across a shard split or merge Follow checks
// the new shard's first block header (getBlockHeader) against the shard
// lists.
//
// It ends when ctx ends (yielding its error), when the loop stops, or at an
// error it cannot retry, which it yields: nodeaccess.ErrInvalidResponse (a
// shard list or a split or merge the chain's rules do not allow, such as a
// top more than 256 blocks past the previous one), ErrRepeatedPage (a block
// whose pages repeat a transaction), an *nodeaccess.InputError (a cursor
// that names no transaction of its block), nodeaccess.ErrUnauthorized:
// resume from the last cursor once the cause is fixed. A block the server
// does not have yet (ErrNotYetAvailable), a 5xx or a 429 that outlasts the
// client's retries is asked for again after q.Poll, never skipped; after 30
// failures in a row of one step Follow yields the error with a zero
// FollowedTransaction, and goes on retrying if the loop goes on. A
// transaction the server cannot read is yielded as its id with an error
// matching ErrUnreadableTransaction, and the walk goes on.
//
// It reads API v2 (getMasterchainInfo, shards, getBlockTransactionsExt,
// getBlockHeader), or, with q.Indexer, API v3's indexer
// (masterchainInfo, masterchainBlockShards, transactions).
// Cost on v2: 2 + S requests per masterchain block for S new shard blocks
// (one more per 256 transactions of a block beyond the first 256, one
// getBlockHeader per split or merge), plus at most one getMasterchainInfo
// per q.Poll: following the head at B masterchain blocks a second takes
// about B × (2 + S) + 1/q.Poll requests a second. Through the indexer: 1
// masterchainBlockShards per masterchain block and 1 transactions page per
// 500 transactions, of as many rounds as they span, plus one
// masterchainInfo at the start and, at the head, one transactions page
// per q.Poll: about B × (1 + t/500) + 1/q.Poll requests a second for t
// transactions a masterchain block. Every block's transactions are
// counted against its tx_count: fewer is a round the indexer is still
// inserting (ErrNotYetAvailable, asked for again), more, or a transaction
// of another round, of no block of the round or outside its block's
// logical times, is nodeaccess.ErrInvalidResponse; nothing of a round is
// yielded before all of it is read. An indexer whose blocks lack tx_count
// or their logical times is read round by round through
// transactionsByMasterchainBlock (2 requests a masterchain block).
func (c *Client) Follow(ctx context.Context, q FollowQuery) iter.Seq2[FollowedTransaction, error] {
	if err := transport.NilContext(ctx); err != nil {
		return func(yield func(FollowedTransaction, error) bool) {
			yield(FollowedTransaction{}, c.t.Wrap("follow", err))
		}
	}
	return func(yield func(FollowedTransaction, error) bool) {
		f := &follower{c: c, poll: q.Poll, yield: yield, indexer: q.Indexer}
		if f.poll <= 0 {
			f.poll = defaultPoll
		}
		if err := f.run(ctx, q.From); err != nil && !errors.Is(err, errStopped) {
			yield(FollowedTransaction{}, err)
		}
	}
}

// errStopped ends a walk whose loop stopped.
var errStopped = transport.ErrFollowStopped

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
	// indexer: the round is read from API v3 (FollowQuery.Indexer), whose
	// transactions roundV3 keeps in v3items by block. v3cache holds the
	// transactions read ahead of the round (follow_v3_window.go), v3maxMC
	// the newest round any answer named, v3tops every shard's newest
	// logical time, v3from where a poll for the next round asks from.
	indexer bool
	v3items map[BlockRef][]blockItem
	v3cache map[v3Key]v3Entry
	v3maxMC uint32
	v3tops  map[shardKey]uint64
	v3from  uint64
	// v3at is when the last transactions page was read, v3short whether
	// it was not full.
	v3at    time.Time
	v3short bool
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
		head := f.pollHead
		if f.indexer {
			head = f.headV3
		}
		if err := f.retry(ctx, func() error { return head(ctx) }); err != nil {
			return err
		}
		pos = FollowCursor{Seqno: max(f.head, 1)}
	}
	for {
		var round []BlockID
		var tops []BlockID
		var err error
		if f.indexer {
			round, err = f.waitRoundV3(ctx, pos.Seqno)
		} else if err = f.waitFor(ctx, pos.Seqno); err == nil {
			err = f.retry(ctx, func() (err error) {
				round, tops, err = f.round(ctx, pos.Seqno)
				return err
			})
		}
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

// retry runs step by the followers' retry rule (transport.FollowRetry).
func (f *follower) retry(ctx context.Context, step func() error) error {
	return transport.FollowRetry(ctx, f.poll, step, transient, func(err error) bool { return f.yield(FollowedTransaction{}, err) })
}

// transient reports whether err says "ask again later": a block a lite
// server does not have yet, a 5xx or network failure, a 429.
func transient(err error) bool {
	if errors.Is(err, ErrUnreadableTransaction) {
		return false
	}
	return errors.Is(err, nodeaccess.ErrUnavailable) || errors.Is(err, nodeaccess.ErrRateLimited)
}

// waitFor returns once masterchain block seqno is known to exist, asking
// for the newest at most every f.poll.
func (f *follower) waitFor(ctx context.Context, seqno uint32) error {
	for seqno > f.head {
		if wait := f.poll - time.Since(f.lastPoll); wait > 0 {
			if err := transport.Sleep(ctx, wait); err != nil {
				return err
			}
		}
		poll := f.pollHead
		if f.indexer {
			poll = f.headV3
		}
		if err := f.retry(ctx, func() error { return poll(ctx) }); err != nil {
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
	if f.indexer {
		return id, f.v3items[id.BlockRef], nil
	}
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
