package evm

import (
	"context"
	"fmt"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// errChanged: two answers about one block disagree (it changed between the
// calls): ask again later. Yielded after 30 in a row, it matches
// nodeaccess.ErrUnavailable, as the other faults asked for again do.
var errChanged = fmt.Errorf("%w: the block changed between two calls", nodeaccess.ErrUnavailable)

// followHeader is what Follow reads of a block header.
type followHeader struct {
	Number     hexutil.Uint64 `json:"number"`
	Hash       common.Hash    `json:"hash"`
	ParentHash common.Hash    `json:"parentHash"`
}

// logFilter is eth_getLogs' filter object.
type logFilter struct {
	BlockHash *common.Hash     `json:"blockHash,omitempty"`
	FromBlock *hexutil.Uint64  `json:"fromBlock,omitempty"`
	ToBlock   *hexutil.Uint64  `json:"toBlock,omitempty"`
	Addresses []common.Address `json:"address,omitempty"`
	Topics    [][]common.Hash  `json:"topics,omitempty"`
}

func (f *follower) filter(from, to uint64) logFilter {
	a, b := hexutil.Uint64(from), hexutil.Uint64(to)
	return logFilter{FromBlock: &a, ToBlock: &b, Addresses: f.q.Addresses, Topics: f.q.Topics}
}

// invalid is an ErrInvalidResponse error of op.
func (f *follower) invalid(op, format string, args ...any) error {
	return f.c.t.Wrap(op, fmt.Errorf("%w: "+format, append([]any{nodeaccess.ErrInvalidResponse}, args...)...))
}

// pollHead learns the newest block at the query's finality.
func (f *follower) pollHead(ctx context.Context) error {
	var h *followHeader
	if err := f.c.CallContext(ctx, &h, "eth_getBlockByNumber", f.q.Finality, false); err != nil {
		return err
	}
	if h == nil {
		return f.invalid("eth_getBlockByNumber", "the %s block is null", string(f.q.Finality))
	}
	f.head = max(f.head, uint64(h.Number))
	return nil
}

// probe asks, in one request, for the newest block and the logs of the
// next one: when the newest is the next, its logs are yielded.
func (f *follower) probe(ctx context.Context) error {
	var b Batch
	hr := Add[*followHeader](&b, "eth_getBlockByNumber", Latest, false)
	var lr *BatchResult[[]types.Log]
	if f.block == nil {
		lr = Add[[]types.Log](&b, "eth_getLogs", f.filter(f.next, f.next))
	}
	if err := f.c.SendBatch(ctx, &b); err != nil {
		return err
	}
	h, err := hr.Result()
	if err != nil {
		return err
	}
	if h == nil {
		return f.invalid("eth_getBlockByNumber", "the latest block is null")
	}
	n := uint64(h.Number)
	f.head = max(f.head, n)
	if n < f.next {
		// A block the walk read replaced at the same height (or the chain
		// got shorter): a reorganisation seen before the next block comes.
		if k := len(f.ring); k > 0 && n >= f.ring[0].num && f.ring[n-f.ring[0].num].hash != h.Hash {
			return f.reorg(ctx)
		}
		return transport.Sleep(ctx, f.poll)
	}
	if n > f.next {
		return nil // behind: read with headers
	}
	var logs []types.Log
	if lr != nil {
		if logs, err = lr.Result(); err != nil {
			return err
		}
		if err := f.checkLogs(logs, f.next, f.next); err != nil {
			return err
		}
		for _, l := range logs {
			if l.BlockHash != h.Hash {
				return errChanged
			}
		}
	}
	if k := len(f.ring); k > 0 && f.ring[k-1].num+1 == n && f.ring[k-1].hash != h.ParentHash {
		return f.reorg(ctx)
	}
	if err := f.emit(n, h.Hash, h.ParentHash, logs); err != nil {
		return err
	}
	return transport.Sleep(ctx, f.poll)
}

// headers reads blocks from to to with their headers, in one request.
func (f *follower) headers(ctx context.Context, from, to uint64) error {
	if f.q.Finality != Latest && from > f.head {
		if err := f.pollHead(ctx); err != nil {
			return err
		}
		if from > f.head {
			return transport.Sleep(ctx, f.poll)
		}
	}
	var b Batch
	hrs := make([]*BatchResult[*followHeader], to-from+1)
	for i := range hrs {
		hrs[i] = Add[*followHeader](&b, "eth_getBlockByNumber", BlockNumber(from+uint64(i)), false)
	}
	var lr *BatchResult[[]types.Log]
	if f.block == nil {
		lr = Add[[]types.Log](&b, "eth_getLogs", f.filter(from, to))
	}
	if err := f.c.SendBatch(ctx, &b); err != nil {
		return err
	}
	hs := make([]*followHeader, len(hrs))
	for i, r := range hrs {
		h, err := r.Result()
		if err != nil {
			return err
		}
		if h == nil { // past the head (or a node behind the others)
			if i == 0 {
				return transport.Sleep(ctx, f.poll)
			}
			f.head = from + uint64(i) - 1
			return errAgain
		}
		if uint64(h.Number) != from+uint64(i) || h.Hash == (common.Hash{}) {
			return f.invalid("eth_getBlockByNumber", "block %d answered as block %d with hash %s", from+uint64(i), uint64(h.Number), h.Hash.Hex())
		}
		if i > 0 && h.ParentHash != hs[i-1].Hash {
			return errChanged
		}
		hs[i] = h
	}
	if f.at.Hash != (common.Hash{}) && hs[0].Hash != f.at.Hash {
		// The cursor's block left the chain while Follow was stopped.
		f.ring = append(f.ring[:0], ringBlock{num: f.at.Number, hash: f.at.Hash, below: f.at.Index})
		f.at = FollowCursor{}
		return f.reorg(ctx)
	}
	if k := len(f.ring); k > 0 && f.ring[k-1].num+1 == from && f.ring[k-1].hash != hs[0].ParentHash {
		return f.reorg(ctx)
	}
	var logs []types.Log
	if lr != nil {
		var err error
		logs, err = lr.Result()
		if kind, sFrom, sTo, ok := refusal(err); kind != notRefused {
			if f.win.refused(kind, from, to, sFrom, sTo, ok) {
				return errAgain
			}
		}
		if err != nil {
			return err
		}
		if err := f.checkLogs(logs, from, to); err != nil {
			return err
		}
		for _, l := range logs {
			if l.BlockHash != hs[l.BlockNumber-from].Hash {
				return errChanged
			}
		}
	}
	for i, h := range hs {
		n := 0
		for n < len(logs) && logs[n].BlockNumber == from+uint64(i) {
			n++
		}
		if err := f.emit(from+uint64(i), h.Hash, h.ParentHash, logs[:n]); err != nil {
			return err
		}
		logs = logs[n:]
	}
	return nil
}

// window reads the logs of blocks from to to, without headers.
func (f *follower) window(ctx context.Context, from, to uint64) error {
	var logs []types.Log
	err := f.c.CallContext(ctx, &logs, "eth_getLogs", f.filter(from, to))
	if kind, sFrom, sTo, ok := refusal(err); kind != notRefused {
		if f.win.refused(kind, from, to, sFrom, sTo, ok) {
			return errAgain
		}
	}
	if err != nil {
		return err
	}
	if err := f.checkLogs(logs, from, to); err != nil {
		return err
	}
	f.win.answered(len(logs), to-from+1 == f.win.size)
	return f.emitWindow(from, to, logs)
}

// checkLogs refuses an eth_getLogs answer that is not the logs of blocks
// from to to matching the filter, in order, each once.
func (f *follower) checkLogs(logs []types.Log, from, to uint64) error {
	const op = "eth_getLogs"
	for i := range logs {
		l := &logs[i]
		if l.BlockNumber < from || l.BlockNumber > to {
			return f.invalid(op, "a log of block %d in the answer for blocks %d to %d", l.BlockNumber, from, to)
		}
		if l.Removed {
			return f.invalid(op, "log %d of block %d is marked removed", l.Index, l.BlockNumber)
		}
		if i > 0 {
			p := &logs[i-1]
			if l.BlockNumber < p.BlockNumber || l.BlockNumber == p.BlockNumber && l.Index <= p.Index {
				return f.invalid(op, "log %d of block %d comes after log %d of block %d", l.Index, l.BlockNumber, p.Index, p.BlockNumber)
			}
			if l.BlockNumber == p.BlockNumber && l.BlockHash != p.BlockHash {
				return errChanged
			}
		}
		if !f.matches(l) {
			return f.invalid(op, "log %d of block %d (address %s) does not match the filter", l.Index, l.BlockNumber, l.Address.Hex())
		}
	}
	return nil
}

// matches says whether l passes the query's address and topic filters.
func (f *follower) matches(l *types.Log) bool {
	if len(f.q.Addresses) > 0 && !slices.Contains(f.q.Addresses, l.Address) {
		return false
	}
	if len(f.q.Topics) > len(l.Topics) {
		// A trailing position that allows any topic asks for nothing.
		for i := len(l.Topics); i < len(f.q.Topics); i++ {
			if len(f.q.Topics[i]) > 0 {
				return false
			}
		}
	}
	for i, want := range f.q.Topics {
		if i < len(l.Topics) && len(want) > 0 && !slices.Contains(want, l.Topics[i]) {
			return false
		}
	}
	return true
}
