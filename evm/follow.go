package evm

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// defaultPoll is how often Follow asks for a new block at the head, and
// how long it waits before asking again after a failure.
const defaultPoll = 2 * time.Second

// reorgBound is how many of the newest blocks Follow keeps (hashes and the
// logs it yielded), so how deep a reorganisation it follows at Latest.
const reorgBound = 64

// FollowQuery says what Follow follows, from where, and how it paces itself.
type FollowQuery struct {
	// From is the position to start at: the zero FollowCursor starts at the
	// newest block (at Finality) when Follow starts; FollowCursor{Number: n}
	// at block n's first log; a cursor a FollowedLog carried right after
	// that log.
	From FollowCursor
	// Addresses and Topics are eth_getLogs' filter, as go-ethereum's
	// ethereum.FilterQuery has them: logs of any of the addresses (none:
	// any address), and for each position, any of the topics listed there
	// (an empty list: any topic). At most 4 positions.
	Addresses []common.Address
	Topics    [][]common.Hash
	// Finality is the newest block Follow reads: Latest (or ""), Safe or
	// Finalized. At Latest reorganisations are followed; at Safe and
	// Finalized nothing yielded is ever removed.
	Finality Tag
	// Poll is how often Follow asks for a new block once it has caught up,
	// and how long it waits after a failure; 0 means 2 s (1 s on a client
	// of hypercore.New, which knows HyperEVM's block time). Set it to the
	// chain's block time (12 s on Ethereum, 2 s on most rollups, 1 s for
	// HyperEVM's small blocks): a shorter one asks more often for nothing.
	Poll time.Duration
}

// FollowedLog is one log Follow yields: the log as eth_getLogs returns it
// (go-ethereum's types.Log, its BlockNumber, BlockHash and Index saying
// where it is), how final it is, and the cursor to resume after it. Its
// Removed field is true when the log's block left the canonical chain (a
// reorganisation), as go-ethereum's filter system marks such logs. Being
// a types.Log, it marshals to JSON as the log alone.
type FollowedLog struct {
	types.Log
	// Finality is the query's Finality (Latest, Safe or Finalized).
	Finality Tag
	// Cursor is the position right after this log (after its removal, for
	// a removed log).
	Cursor FollowCursor
}

// Follow walks the chain from q.From: every log of the canonical chain
// that matches the filter, once, in block and log-index order, and then,
// caught up with the newest block at q.Finality, the logs of each new block
// as it comes (asking every q.Poll). It ends when ctx ends (yielding its
// error) or the loop stops, or after an error it cannot retry.
//
// At Latest, Follow checks that each block's parent hash is the hash of the
// block before it, and keeps the 64 newest blocks it read with the logs it
// yielded of them. When the chain reorganises, the logs of the blocks that
// left it are yielded again with Removed set, newest first (as go-ethereum's
// filter system does), and then the new branch's logs. A reorganisation
// deeper than 64 blocks ends the walk with an error matching
// nodeaccess.ErrInvalidResponse that says so. At Safe and Finalized,
// Follow reads up to that block only, and removes nothing.
//
// Resuming: q.From = the cursor of the last log handled goes on with the
// next one. When that cursor's block is no longer canonical (the chain
// reorganised while the program was stopped), Follow first yields the
// logs of that block up to the cursor, and those of its ancestors that
// left the chain too (at most 64 blocks), as removed, reading them by
// block hash (eth_getLogs with blockHash, eth_getBlockByHash), then goes
// on from the block the two branches share. A node that no longer has the
// old block ends the walk with an error matching nodeaccess.ErrNotFound.
//
// Catching up, Follow reads eth_getLogs over windows of blocks: 1,000 at
// first, halved when the node refuses the range or the number of logs
// (or set to the range its refusal suggests: Alchemy's, Infura's and
// reth's do), doubled (up to 10,000, and never past a range the node
// refused) after an answer of fewer than 1,000 logs; on a client of
// hypercore.New, never past HyperEVM's 50 blocks. The 64 newest blocks
// are read with their headers (one JSON-RPC batch of eth_getBlockByNumber
// calls and one eth_getLogs), so the parent-hash chain is known before
// the head; the blocks below them are read as final (a reorganisation that
// deep while Follow catches up is not seen). A log whose block hash is not the hash of the header read
// with it means that the block changed between the two calls: the block
// is asked for again, never yielded mixed.
//
// Faults: a 5xx, a 429 or a network failure that outlasts the client's
// own retries, or a block that changed between two calls, is asked again
// after q.Poll, the same blocks, never skipped (each matches
// nodeaccess.ErrUnavailable or nodeaccess.ErrRateLimited);
// after 30 failures in a row Follow yields the error with a zero
// FollowedLog and goes on if the loop does. Other errors end the walk:
// resume from the last cursor once the cause is fixed. Among them: a
// refusal of a window of one block (a block holding more matching logs
// than the node sends in one answer), and an answer that is not the logs
// asked for (out of order, repeated, outside the blocks or the filter:
// nodeaccess.ErrInvalidResponse).
//
// Cost: at the head, each poll is one HTTP request, a JSON-RPC batch of
// eth_getBlockByNumber("latest") and eth_getLogs for the next block (2
// request units): with q.Poll at the block time, about one request a
// block. Catching up, one eth_getLogs per window, plus one batch of at
// most 65 calls per 64 blocks near the head. At Safe or Finalized, each
// poll is one eth_getBlockByNumber of that tag and one eth_getLogs for
// the blocks it added. A reorganisation costs one request per block it
// replaced.
func (c *Client) Follow(ctx context.Context, q FollowQuery) iter.Seq2[FollowedLog, error] {
	if err := transport.NilContext(ctx); err != nil {
		return func(yield func(FollowedLog, error) bool) {
			yield(FollowedLog{}, c.t.Wrap("follow", err))
		}
	}
	return func(yield func(FollowedLog, error) bool) {
		stopped := false
		win, poll := c.followStart(q.Poll)
		f := &follower{c: c, q: q, poll: poll, win: win, yield: func(l FollowedLog, err error) bool {
			stopped = stopped || !yield(l, err)
			return !stopped
		}}
		if f.q.Finality == "" {
			f.q.Finality = Latest
		}
		if err := f.run(ctx); err != nil && !stopped {
			yield(FollowedLog{}, err)
		}
	}
}

var (
	// errStopped ends a walk whose loop stopped.
	errStopped = transport.ErrFollowStopped
	// errAgain asks for a step again at once (a window was shrunk).
	errAgain = errors.New("ask again")
)

// follower is the state of one range over Follow.
type follower struct {
	c     *Client
	q     FollowQuery
	poll  time.Duration
	yield func(FollowedLog, error) bool
	// block, when not nil, makes the walk FollowBlocks': blocks are
	// yielded to it, and yield is not used.
	block func(FollowedBlock, error) bool
	win   window

	next uint64 // the next block to read
	// at is the cursor Follow started from while its block is not read
	// yet: that block must have at.Hash, and its logs below at.Index are
	// done. The zero cursor once read.
	at   FollowCursor
	head uint64 // the newest block at q.Finality known
	// ring is the newest blocks read at Latest, oldest first, at most
	// reorgBound of them, each after the one before.
	ring []ringBlock
}

// ringBlock is a block read at Latest, with the logs yielded of it.
type ringBlock struct {
	num          uint64
	hash, parent common.Hash // parent: zero when not known
	logs         []types.Log
	// below: its logs with an index below it were yielded by an earlier
	// walk (read them by hash to remove them); fetched: all of them were.
	below   uint
	fetched bool
	shown   bool // FollowBlocks yielded the block in this walk
}

// run walks from q.From until an error or the loop stops.
func (f *follower) run(ctx context.Context) error {
	if err := f.check(); err != nil {
		return f.c.t.Wrap("follow", err)
	}
	if f.q.From.Number == 0 {
		if err := f.retry(ctx, func() error { return f.pollHead(ctx) }); err != nil {
			return err
		}
		f.next = f.head
	} else {
		f.next, f.at = f.q.From.Number, f.q.From
	}
	for {
		err := f.retry(ctx, func() error { return f.step(ctx) })
		if err != nil {
			return err
		}
	}
}

// check refuses a query Follow cannot send.
func (f *follower) check() error {
	switch f.q.Finality {
	case Latest, Safe, Finalized:
	default:
		return &nodeaccess.InputError{Arg: "finality", Reason: fmt.Sprintf("tag %q: Follow reads latest, safe or finalized", string(f.q.Finality))}
	}
	if len(f.q.Topics) > 4 {
		return &nodeaccess.InputError{Arg: "topics", Reason: fmt.Sprintf("%d topic positions: a log has at most 4", len(f.q.Topics))}
	}
	if c := f.q.From; c.Hash == (common.Hash{}) && c.Index != 0 {
		return &nodeaccess.InputError{Arg: "cursor", Reason: fmt.Sprintf("%s: an index without a block hash", c)}
	}
	return nil
}

// step reads what comes next: a window, the blocks near the head, or the
// head, and yields their logs.
func (f *follower) step(ctx context.Context) error {
	if f.at.Hash != (common.Hash{}) {
		// The cursor's block first, with its header: is it still the one
		// the cursor names?
		return f.headers(ctx, f.next, f.next)
	}
	if f.next > f.head {
		if f.q.Finality == Latest {
			return f.probe(ctx)
		}
		before := f.head
		if err := f.pollHead(ctx); err != nil {
			return err
		}
		if f.head < f.next && f.head == before {
			return transport.Sleep(ctx, f.poll)
		}
		return nil
	}
	if f.block == nil && f.q.Finality != Latest {
		return f.window(ctx, f.next, min(f.head, f.next+f.win.size-1))
	}
	if f.block == nil && f.next+reorgBound <= f.head {
		return f.window(ctx, f.next, min(f.head-reorgBound, f.next+f.win.size-1))
	}
	size := uint64(reorgBound)
	if f.block == nil {
		size = min(f.win.size, size)
	}
	if err := f.headers(ctx, f.next, min(f.head, f.next+size-1)); err != nil || f.next <= f.head {
		return err
	}
	return transport.Sleep(ctx, f.poll) // at the head: the next block comes later
}

// retry runs step by the followers' retry rule (transport.FollowRetry);
// errAgain asks for the step again at once, uncounted.
func (f *follower) retry(ctx context.Context, step func() error) error {
	again := func() error {
		for {
			if err := step(); !errors.Is(err, errAgain) || ctx.Err() != nil {
				return err
			}
		}
	}
	return transport.FollowRetry(ctx, f.poll, again, transient, f.fail)
}

// fail yields err, with a zero item; it returns false when the loop stopped.
func (f *follower) fail(err error) bool {
	err = f.c.t.Wrap("follow", err)
	if f.block != nil {
		return f.block(FollowedBlock{}, err)
	}
	return f.yield(FollowedLog{}, err)
}

// transient reports whether err says "ask again later": a 5xx or network
// failure, a 429, a block that changed between two calls (errChanged
// matches nodeaccess.ErrUnavailable).
func transient(err error) bool {
	return errors.Is(err, nodeaccess.ErrUnavailable) || errors.Is(err, nodeaccess.ErrRateLimited)
}

// emit yields the logs of one block read, from the cursor's index when it
// is the block Follow started in, and keeps the block at Latest.
func (f *follower) emit(num uint64, hash, parent common.Hash, logs []types.Log) error {
	var below uint
	if f.at.Hash != (common.Hash{}) {
		below = f.at.Index
		f.at = FollowCursor{}
	}
	shown := false
	if f.block != nil && below == 0 {
		b := FollowedBlock{Number: num, Hash: hash, ParentHash: parent, Finality: f.q.Finality, Cursor: FollowCursor{Number: num, Hash: hash, Index: 1}}
		if !f.block(b, nil) {
			return errStopped
		}
		shown = true
	}
	start := 0
	for start < len(logs) && logs[start].Index < below {
		start++
	}
	logs = logs[start:]
	for _, l := range logs {
		fl := FollowedLog{Log: l, Finality: f.q.Finality, Cursor: FollowCursor{Number: num, Hash: hash, Index: l.Index + 1}}
		if !f.yield(fl, nil) {
			return errStopped
		}
	}
	if f.q.Finality == Latest && hash != (common.Hash{}) {
		if n := len(f.ring); n > 0 && f.ring[n-1].num+1 != num {
			f.ring = f.ring[:0]
		}
		f.ring = append(f.ring, ringBlock{num: num, hash: hash, parent: parent, logs: slices.Clip(logs), below: below, shown: shown})
		if len(f.ring) > reorgBound {
			f.ring = slices.Delete(f.ring, 0, len(f.ring)-reorgBound)
		}
	}
	f.next = num + 1
	return nil
}

// emitWindow yields the logs of a window read without headers, block by
// block.
func (f *follower) emitWindow(from, to uint64, logs []types.Log) error {
	for len(logs) > 0 {
		n := 1
		for n < len(logs) && logs[n].BlockNumber == logs[0].BlockNumber {
			n++
		}
		if err := f.emit(logs[0].BlockNumber, logs[0].BlockHash, common.Hash{}, logs[:n]); err != nil {
			return err
		}
		logs = logs[n:]
	}
	f.ring = f.ring[:0]
	f.next = max(f.next, to+1)
	return nil
}
