package ton

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// The indexer path reads transactions by logical time, not round by
// round: one answer of transactions (start_lt, oldest first) holds the
// rest of a round and the rounds after it, as many as fit in a page, so
// that a round costs its masterchainBlockShards and a share of a page. What
// is read ahead waits in f.v3cache for its round, whose blocks' tx_count
// says when all of it is there.

// v3Key names a transaction read ahead.
type v3Key struct {
	block BlockRef
	a     Address
	lt    uint64
}

// v3Entry is a transaction read ahead and its mc_block_seqno (0 where
// the indexer sent none).
type v3Entry struct {
	tx BlockTransaction
	mc uint32
}

// maxV3Idle bounds the transactions requests in a row that bring none of
// a round's missing transactions, and maxV3Cache the transactions of
// later rounds kept (more are read again when their round comes), so that
// an indexer whose answers never complete a round costs a bounded number
// of requests and bytes before ErrNotYetAvailable.
const maxV3Idle = 64

var maxV3Cache = 4 * followV3Page

// windowV3 reads one page of transactions from logical time y, oldest
// first, into f.v3cache (those of rounds before seqno are dropped), and
// returns its length and its newest logical time.
func (f *follower) windowV3(ctx context.Context, seqno uint32, y uint64) (n int, last uint64, err error) {
	const op = "transactions"
	var res struct {
		Transactions []json.RawMessage `json:"transactions"`
	}
	params := url.Values{"start_lt": {strconv.FormatUint(y, 10)}, "sort": {"asc"}, "limit": {strconv.Itoa(followV3Page)}}
	if err := f.c.Call(ctx, &res, "v3/"+op, params); err != nil {
		return 0, 0, err
	}
	if res.Transactions == nil {
		return 0, 0, f.c.t.Wrap(op, fmt.Errorf("%w: the answer from lt %d has no \"transactions\" list", nodeaccess.ErrInvalidResponse, y))
	}
	if f.v3cache == nil {
		f.v3cache = make(map[v3Key]v3Entry)
	}
	for i, raw := range res.Transactions {
		var tx BlockTransaction
		ref, mc, err := decodeV3Tx(raw, &tx)
		if err != nil {
			return 0, 0, f.c.t.Wrap(op, fmt.Errorf("%w: %s (from lt %d): %v", nodeaccess.ErrInvalidResponse, itemName("transaction", i, raw), y, err))
		}
		if tx.LT < y {
			return 0, 0, f.c.t.Wrap(op, fmt.Errorf("%w: the answer from lt %d holds account %s lt %d, below it (the indexer ignores start_lt)",
				ErrRepeatedPage, y, tx.Account, tx.LT))
		}
		last = max(last, tx.LT)
		f.v3maxMC = max(f.v3maxMC, mc)
		if mc != 0 && mc < seqno {
			continue // a round already read
		}
		k := v3Key{ref, tx.Account, tx.LT}
		if old, ok := f.v3cache[k]; ok {
			if old.tx.Hash != tx.Hash || old.mc != mc {
				return 0, 0, f.c.t.Wrap(op, fmt.Errorf("%w: two answers disagree on account %s lt %d of block %s: hash %s in masterchain block %d, then hash %s in %d",
					nodeaccess.ErrInvalidResponse, tx.Account, tx.LT, ref, old.tx.Hash, old.mc, tx.Hash, mc))
			}
			continue
		}
		if mc != seqno && len(f.v3cache) >= maxV3Cache {
			continue
		}
		f.v3cache[k] = v3Entry{tx: tx, mc: mc}
	}
	n = len(res.Transactions)
	f.v3at, f.v3short = time.Now(), n < followV3Page
	return n, last, nil
}

// fillV3 returns round seqno's transactions by block, in the lite
// servers' order (account id, then logical time), once every block holds
// its tx_count of them: from f.v3cache, and from pages of transactions
// from the lowest logical time of a block still short of its count. A
// block still short once the pages have passed its logical times is an
// indexer still inserting the round: ErrNotYetAvailable, which Follow
// asks again for after its Poll.
func (f *follower) fillV3(ctx context.Context, seqno uint32, info map[BlockRef]v3Info) (map[BlockRef][]blockItem, error) {
	var y uint64
	idle, before := 0, -1
	for {
		items, short, missing, err := f.assembleV3(seqno, info)
		if err != nil || len(short) == 0 {
			return items, err
		}
		if missing == before {
			idle++
		} else {
			idle, before = 0, missing
		}
		lo, hi := info[short[0]].start, info[short[0]].end
		for _, ref := range short {
			lo, hi = min(lo, info[ref].start), max(hi, info[ref].end)
		}
		y = max(y, lo)
		if y > hi || idle >= maxV3Idle {
			in := info[short[0]]
			return nil, f.c.t.Wrap("transactions", fmt.Errorf("%w: masterchain block %d: block %s has tx_count %d but the indexer lists %d of its transactions so far",
				ErrNotYetAvailable, seqno, short[0], in.count, len(items[short[0]])))
		}
		n, last, err := f.windowV3(ctx, seqno, y)
		switch {
		case err != nil:
			return nil, err
		case n == 0:
			y = hi + 1 // nothing from y on: the round is short
		case last > y:
			y = last // from last again: a page may end between transactions that share it
		default:
			y++
		}
	}
}

// assembleV3 gathers round seqno's transactions from f.v3cache by block,
// and returns the blocks short of their tx_count (in Follow's order) and
// how many transactions they miss. A transaction of the round in no block
// of it, one of a block of the round that names another round, one
// outside its block's logical times, or more of a block than its
// tx_count, is ErrInvalidResponse.
func (f *follower) assembleV3(seqno uint32, info map[BlockRef]v3Info) (items map[BlockRef][]blockItem, short []BlockRef, missing int, err error) {
	bad := func(format string, a ...any) error {
		return f.c.t.Wrap("transactions", fmt.Errorf("%w: masterchain block %d: "+format, append([]any{nodeaccess.ErrInvalidResponse, seqno}, a...)...))
	}
	items = make(map[BlockRef][]blockItem, len(info))
	for k, e := range f.v3cache {
		in, ok := info[k.block]
		switch {
		case !ok && e.mc == seqno:
			return nil, nil, 0, bad("transaction %s of account %s is in block %s, which is not in the round", e.tx.Hash, e.tx.Account, k.block)
		case !ok:
		case e.mc != 0 && e.mc != seqno:
			return nil, nil, 0, bad("transaction %s of account %s in block %s of the round says mc_block_seqno %d", e.tx.Hash, e.tx.Account, k.block, e.mc)
		case k.lt < in.start || k.lt > in.end:
			return nil, nil, 0, bad("transaction %s of account %s has lt %d, outside block %s's %d to %d", e.tx.Hash, e.tx.Account, k.lt, k.block, in.start, in.end)
		default:
			items[k.block] = append(items[k.block], blockItem{tx: e.tx})
		}
	}
	for ref, in := range info {
		switch got := len(items[ref]); {
		case got > in.count:
			return nil, nil, 0, bad("block %s has tx_count %d but the pages hold %d of its transactions", ref, in.count, got)
		case got < in.count:
			short = append(short, ref)
			missing += in.count - got
		}
	}
	slices.SortFunc(short, func(a, b BlockRef) int {
		return cmp.Or(cmp.Compare(a.Workchain, b.Workchain), cmp.Compare(uint64(a.Shard), uint64(b.Shard)), cmp.Compare(a.Seqno, b.Seqno))
	})
	for _, list := range items {
		slices.SortFunc(list, func(a, b blockItem) int {
			return cmp.Or(bytes.Compare(a.tx.Account.ID[:], b.tx.Account.ID[:]), cmp.Compare(a.tx.LT, b.tx.LT))
		})
	}
	return items, short, missing, nil
}

// doneV3 forgets what was read ahead of round seqno, now read, and keeps
// the newest logical time of every shard's newest block (f.v3tops): the
// next round's blocks start after them, so that the least of them is
// where a poll for it asks from (f.v3from).
func (f *follower) doneV3(seqno uint32, info map[BlockRef]v3Info) {
	for k, e := range f.v3cache {
		if e.mc != 0 && e.mc <= seqno {
			delete(f.v3cache, k)
		} else if _, ok := info[k.block]; ok && e.mc == 0 {
			delete(f.v3cache, k)
		}
	}
	if f.v3tops == nil {
		f.v3tops = make(map[shardKey]uint64)
	}
	for ref, in := range info {
		if !in.span {
			continue
		}
		k := shardKey{ref.Workchain, ref.Shard}
		for o := range f.v3tops {
			if o.wc == k.wc && o.shard != k.shard && shardsOverlap(o.shard, k.shard) {
				delete(f.v3tops, o) // split or merged away
			}
		}
		f.v3tops[k] = max(f.v3tops[k], in.end)
	}
	first := true
	for _, end := range f.v3tops {
		if first || end < f.v3from {
			f.v3from, first = end, false
		}
	}
}

// shardsOverlap reports whether two shards of a workchain share accounts:
// the one with the shorter prefix is a prefix of the other.
func shardsOverlap(a, b ShardID) bool {
	low := max(uint64(a)&-uint64(a), uint64(b)&-uint64(b))
	mask := ^(low<<1 - 1)
	return uint64(a)&mask == uint64(b)&mask
}

// pollV3 asks for the transactions from f.v3from, which holds those of
// round seqno once the indexer has it; f.poll after the last answer when
// that one was not full (it held all there was: at the head), at once
// otherwise (catching up). An indexer that cuts pages short without a
// word is still read whole, a page per f.poll where a round's pages end
// at the round. A page with none of a later round
// moves f.v3from to its newest logical time, so that polls go on from
// there.
func (f *follower) pollV3(ctx context.Context, seqno uint32) error {
	if wait := f.poll - time.Since(f.v3at); f.v3short && wait > 0 {
		// The last page was not full: it held all there was.
		if err := transport.Sleep(ctx, wait); err != nil {
			return err
		}
	}
	_, last, err := f.windowV3(ctx, seqno, f.v3from)
	if err == nil && f.v3maxMC < seqno {
		f.v3from = max(f.v3from, last)
	}
	return err
}
