package tontest

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"slices"
	"sync"
	"time"

	"github.com/nodeaccess/nodeaccess/ton"
)

// WithChain makes the server a small TON chain that grows: a masterchain
// and a basechain of two shards (4000000000000000 and C000000000000000),
// from the zero state (masterchain seqno 0) on. New makes its first
// masterchain block (seqno 1); then, with interval > 0, one more every
// interval, on a clock; with interval 0 only when the test calls Advance.
// Each masterchain block commits zero, one or two new blocks of every
// shard, so that some shard blocks are never a shard's top in any
// masterchain block (reachable only by seqno, as on the real chain), and
// Split and Merge change the shards on demand.
//
// The chain follows the masterchain's shard-configuration rules that make
// following it exactly once possible: a masterchain block commits, in each
// shard, the blocks after the previous masterchain block's top of that
// shard (or of its parent, after a split, or of both its children, after a
// merge), up to its own top; a shard that splits ends with a block marked
// before_split, and both children start in the next masterchain block
// (after_split, seqno one past the parent's); a merged shard's first block
// is after_merge, its seqno one past the larger of its children's.
//
// Its blocks hold transactions with jetton transfers among them: the
// receiving jetton wallet's transaction on a TEP-74 internal_transfer (in
// a reference, with a text comment) and its transfer_notification to the
// owner (comment inline), other transactions with text comments or
// without a body, and one transaction in each masterchain block. Block
// timestamps are whole seconds, so that several blocks share one, as on
// the real chain since global version 13.
//
// With the chain the server also answers, in the REST and the JSON-RPC
// forms of API v2:
//
//	getMasterchainInfo                       {"last":<newest masterchain block>,"init":<the zero state>,…}
//	shards        seqno                      the basechain's top blocks in masterchain block seqno (also as getShards)
//	getBlockHeader workchain, shard, seqno[, root_hash, file_hash]
//	                                         after_split, after_merge, before_split, start_lt, end_lt, gen_utime, prev_blocks, …
//
// and in API v3, as the indexer serves a round (what Follow reads with
// FollowQuery.Indexer):
//
//	masterchainInfo                          {"last":<newest masterchain block>,"first":…}
//	masterchainBlockShards seqno             {"blocks":[…]}: every block of the round, the masterchain block too, with tx_count, start_lt, end_lt
//	transactionsByMasterchainBlock seqno, limit, offset, sort
//	                                         {"transactions":[…]}: the round's transactions by lt (desc unless sort=asc)
//	transactions start_lt, end_lt, limit, offset, sort
//	                                         {"transactions":[…]}: every round's transactions with start_lt <= lt <= end_lt, by lt
//
// WithLag delays the chain's blocks (transactions and headers) as it does
// others; getMasterchainInfo and shards answer at once, so that, as on a
// real lite server, the newest masterchain block can be ahead of the shard
// blocks it names. The indexer's methods leave out the rounds it delays,
// as the indexer answers for a round it has not indexed: an empty list of
// transactions, and masterchainBlockShards' 404 {"error":"blocks not
// found"}.
// interval must not be negative.
func WithChain(interval time.Duration) Option {
	return Option{func(s *settings) error {
		if interval < 0 {
			return fmt.Errorf("tontest: WithChain: %s is not an interval: want 0 (blocks made by Advance) or more", interval)
		}
		s.chain, s.chainEvery = true, interval
		return nil
	}}
}

// chainStart are the basechain's shards at the zero state.
var chainStart = []ton.ShardID{0x4000000000000000, -0x4000000000000000}

// Accounts of the chain's transactions (the account ids get the shard's
// prefix bits): a jetton wallet receives each transfer, whose owner gets
// the notification.
var (
	chainMaster = ton.Address{Workchain: -1, ID: [32]byte{0x55, 0x55}}
)

type header struct {
	id                                  ton.BlockID
	afterSplit, afterMerge, beforeSplit bool
	prev                                []ton.BlockID
	startLT, endLT                      uint64
	utime                               int64
}

// shardEvent is a split or merge asked for: stage 1 in the next
// masterchain block (the last block before the split, the children's
// blocks before the merge), stage 2 in the one after.
type shardEvent struct {
	split bool
	shard ton.ShardID // the shard that splits, or the parent that two children merge into
	stage int
}

type chain struct {
	mu      sync.Mutex
	tops    [][]ton.BlockID // by masterchain seqno: the basechain's tops, in shard order
	mc      []ton.BlockID   // by masterchain seqno
	headers map[ton.BlockRef]header
	rounds  []chainRound // by masterchain seqno: what the indexer serves (chain_v3.go)
	events  []*shardEvent
	lt      uint64
	stop    chan struct{}
	done    chan struct{}
}

func newChain() *chain {
	c := &chain{headers: make(map[ton.BlockRef]header), lt: 1_000_000}
	var zero []ton.BlockID
	for _, s := range chainStart {
		zero = append(zero, blockID(ton.BlockRef{Workchain: 0, Shard: s, Seqno: 0}))
	}
	c.tops = [][]ton.BlockID{zero}
	c.mc = []ton.BlockID{blockID(ton.MasterchainBlock(0))}
	c.rounds = []chainRound{{}}
	return c
}

// blockID gives a block its (made-up, fixed) hashes.
func blockID(ref ton.BlockRef) ton.BlockID {
	b := []byte(ref.String())
	return ton.BlockID{BlockRef: ref, RootHash: sha256.Sum256(append([]byte("root"), b...)), FileHash: sha256.Sum256(append([]byte("file"), b...))}
}

// startClock makes a masterchain block every d until Close.
func (s *Server) startClock(d time.Duration) {
	c := s.chain
	c.stop, c.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(c.done)
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-c.stop:
				return
			case <-t.C:
				s.advance()
			}
		}
	}()
}

// Advance makes n masterchain blocks now, each with its shard blocks, as
// the clock of WithChain does. It fails without WithChain.
func (s *Server) Advance(n int) error {
	if s.chain == nil {
		return errors.New("tontest: Advance: the server has no chain (WithChain)")
	}
	for range n {
		s.advance()
	}
	return nil
}

// Split splits the basechain shard shard, a shard of the newest
// masterchain block: its next block is its last (before_split), and its
// two children start in the masterchain block after. It fails without
// WithChain, for a shard that is not a top, or one already in a split or
// merge that has not happened yet.
func (s *Server) Split(shard ton.ShardID) error {
	return s.shardEvent("Split", true, shard)
}

// Merge merges the two children of the basechain shard parent, both
// shards of the newest masterchain block: after their next blocks, the
// masterchain block after makes parent's first block (after_merge). It
// fails without WithChain, when the children are not both tops, or when
// either is already in a split or merge that has not happened yet.
func (s *Server) Merge(parent ton.ShardID) error {
	return s.shardEvent("Merge", false, parent)
}

func (s *Server) shardEvent(name string, split bool, shard ton.ShardID) error {
	c := s.chain
	if c == nil {
		return fmt.Errorf("tontest: %s: the server has no chain (WithChain)", name)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	tops := c.tops[len(c.tops)-1]
	has := func(x ton.ShardID) bool {
		return slices.ContainsFunc(tops, func(id ton.BlockID) bool { return id.Shard == x })
	}
	involved := []ton.ShardID{shard}
	if !split {
		if lowBit(shard) == 1 {
			return fmt.Errorf("tontest: Merge: shard %s has no children", shard)
		}
		l, r := child(shard, true), child(shard, false)
		involved = []ton.ShardID{l, r}
	} else if lowBit(shard) == 1 {
		return fmt.Errorf("tontest: Split: shard %s cannot split further", shard)
	}
	for _, x := range involved {
		if !has(x) {
			return fmt.Errorf("tontest: %s: shard %s is not a shard of masterchain block %d", name, x, len(c.tops)-1)
		}
		for _, e := range c.events {
			if e.touches(x) {
				return fmt.Errorf("tontest: %s: shard %s is already splitting or merging", name, x)
			}
		}
	}
	c.events = append(c.events, &shardEvent{split: split, shard: shard})
	return nil
}

func (e *shardEvent) touches(x ton.ShardID) bool {
	if e.shard == x {
		return true
	}
	if lowBit(e.shard) == 1 {
		return false
	}
	return child(e.shard, true) == x || child(e.shard, false) == x
}

// lowBit is the shard id's lowest set bit (the tag bit after its prefix).
func lowBit(s ton.ShardID) uint64 { return uint64(s) & -uint64(s) }

// child is the left or right child of s (ton/ton-shard.h shard_child).
func child(s ton.ShardID, left bool) ton.ShardID {
	x := lowBit(s) >> 1
	if left {
		return ton.ShardID(uint64(s) - x)
	}
	return ton.ShardID(uint64(s) + x)
}

// advance makes the next masterchain block and its shard blocks.
func (s *Server) advance() {
	c := s.chain
	c.mu.Lock()
	defer c.mu.Unlock()
	n := uint32(len(c.tops)) // the new masterchain seqno
	prev := c.tops[n-1]
	utime := time.Now().Unix()
	var next []ton.BlockID
	var made []Block
	// mine makes blocks from..to (inclusive) in shard; the first one's
	// previous blocks are prevs, flagged as first.
	mine := func(shard ton.ShardID, from, to uint32, prevs []ton.BlockID, split, merge, lastBeforeSplit bool) {
		for seqno := from; seqno <= to; seqno++ {
			ref := ton.BlockRef{Workchain: 0, Shard: shard, Seqno: seqno}
			h := header{id: blockID(ref), utime: utime}
			if seqno == from {
				h.prev, h.afterSplit, h.afterMerge = prevs, split, merge
			} else {
				h.prev = []ton.BlockID{blockID(ton.BlockRef{Workchain: 0, Shard: shard, Seqno: seqno - 1})}
			}
			h.beforeSplit = lastBeforeSplit && seqno == to
			b := Block{ID: h.id}
			h.startLT = c.lt
			b.Transactions = chainTransactions(ref, &c.lt, utime)
			h.endLT = c.lt
			c.lt += 10
			c.headers[ref] = h
			made = append(made, b)
		}
	}
	// Shards in a split or merge this round.
	done := map[ton.ShardID]bool{}
	for _, e := range c.events {
		e.stage++
		switch {
		case e.split && e.stage == 1:
			top := findTop(prev, e.shard)
			mine(e.shard, top.Seqno+1, top.Seqno+1+uint32(n%2), []ton.BlockID{top}, false, false, true)
			done[e.shard] = true
		case e.split:
			top := findTop(prev, e.shard)
			for _, left := range []bool{true, false} {
				ch := child(e.shard, left)
				mine(ch, top.Seqno+1, top.Seqno+1+uint32(n%2), []ton.BlockID{top}, true, false, false)
				done[ch] = true
			}
			done[e.shard] = true
		case e.stage == 1:
			// The children's last blocks before the merge (the masterchain
			// marks them before_merge; block headers have no such flag).
			for _, left := range []bool{true, false} {
				ch := child(e.shard, left)
				top := findTop(prev, ch)
				mine(ch, top.Seqno+1, top.Seqno+1, []ton.BlockID{top}, false, false, false)
				done[ch] = true
			}
		default:
			l, r := findTop(prev, child(e.shard, true)), findTop(prev, child(e.shard, false))
			first := max(l.Seqno, r.Seqno) + 1
			mine(e.shard, first, first+uint32(n%2), []ton.BlockID{l, r}, false, true, false)
			done[l.Shard], done[r.Shard], done[e.shard] = true, true, true
		}
	}
	c.events = slices.DeleteFunc(c.events, func(e *shardEvent) bool { return e.stage == 2 })
	for _, top := range prev {
		if done[top.Shard] {
			continue
		}
		// 0, 1 or 2 new blocks: a shard without a new block keeps its top,
		// and of two new blocks only the second is ever a top.
		k := uint32((n + uint32(bits.OnesCount64(uint64(top.Shard)))) % 3)
		mine(top.Shard, top.Seqno+1, top.Seqno+k, []ton.BlockID{top}, false, false, false)
		if k == 0 {
			next = append(next, top)
		}
	}
	for _, b := range made {
		next = upsertTop(next, b.ID)
	}
	slices.SortFunc(next, func(a, b ton.BlockID) int {
		return compareUint(uint64(a.Shard), uint64(b.Shard))
	})
	// The masterchain block, after its shard blocks in logical time.
	mref := ton.MasterchainBlock(n)
	mh := header{id: blockID(mref), utime: utime, prev: []ton.BlockID{c.mc[n-1]}, startLT: c.lt}
	mb := Block{ID: mh.id, Transactions: chainTransactions(mref, &c.lt, utime)}
	mh.endLT = c.lt
	c.lt += 10
	c.headers[mref] = mh
	made = append(made, mb)
	for _, b := range made {
		if err := s.data.setBlock(b); err != nil {
			panic(err) // the chain's own blocks are valid
		}
	}
	c.tops = append(c.tops, next)
	c.mc = append(c.mc, mh.id)
	c.rounds = append(c.rounds, chainRound{blocks: made, at: time.Now()})
}

func compareUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func findTop(tops []ton.BlockID, shard ton.ShardID) ton.BlockID {
	for _, t := range tops {
		if t.Shard == shard {
			return t
		}
	}
	panic(fmt.Sprintf("tontest: no top for shard %s", shard))
}

// upsertTop makes id the top of its shard.
func upsertTop(tops []ton.BlockID, id ton.BlockID) []ton.BlockID {
	for i := range tops {
		if tops[i].Shard == id.Shard {
			if id.Seqno > tops[i].Seqno {
				tops[i] = id
			}
			return tops
		}
	}
	return append(tops, id)
}

// inShard gives an account id the shard's prefix bits, so that the account
// lives in that shard.
func inShard(id [32]byte, shard ton.ShardID) [32]byte {
	prefixBits := 63 - bits.TrailingZeros64(uint64(shard))
	if prefixBits <= 0 {
		return id
	}
	head := binary.BigEndian.Uint64(id[:8])
	mask := ^uint64(0) << (64 - prefixBits)
	head = head&^mask | uint64(shard)&mask
	binary.BigEndian.PutUint64(id[:8], head)
	return id
}

// chainTransactions are a block's transactions: a masterchain block has
// one; a shard block none to three, by its seqno, the second of them (when
// there is one) a jetton wallet's transaction on an internal_transfer.
// Logical times come from lt, which moves on.
func chainTransactions(ref ton.BlockRef, lt *uint64, utime int64) []ton.BlockTransaction {
	count := 1
	if ref.Workchain != -1 {
		count = int(ref.Seqno % 4)
	}
	var txs []ton.BlockTransaction
	for i := range count {
		seed := sha256.Sum256([]byte(fmt.Sprintf("%s/%d", ref, i)))
		acct := ton.Address{Workchain: int8(ref.Workchain), ID: inShard(seed, ref.Shard)}
		if ref.Workchain == -1 {
			acct = chainMaster
		}
		*lt += 2
		tx := ton.BlockTransaction{Account: acct, Hash: sha256.Sum256(append(seed[:], 't')), LT: *lt, Time: time.Unix(utime, 0).UTC(),
			Fee: big.NewInt(int64(1000 + i)), StorageFee: big.NewInt(1), OtherFee: big.NewInt(int64(999 + i)), OutMsgs: []ton.Message{}}
		from := ton.Address{ID: sha256.Sum256(append(seed[:], 'f'))}
		in := &ton.Message{Source: &from, Destination: &tx.Account, Value: big.NewInt(100_000_000), FwdFee: big.NewInt(1), IHRFee: big.NewInt(0),
			CreatedLt: *lt - 1, Hash: sha256.Sum256(append(seed[:], 'm'))}
		switch {
		case ref.Workchain == -1:
			in = nil // a tick-tock transaction
		case i == 1:
			owner := ton.Address{ID: sha256.Sum256(append(seed[:], 'o'))}
			amount := new(big.Int).Lsh(big.NewInt(int64(ref.Seqno)+1), 70) // beyond 64 bits
			text := fmt.Sprintf("deposit %d", ref.Seqno)
			in.Body = jettonInternalTransfer(uint64(*lt), amount, from, from, big.NewInt(1), text)
			tx.OutMsgs = []ton.Message{{Source: &tx.Account, Destination: &owner, Value: big.NewInt(1), FwdFee: big.NewInt(0), IHRFee: big.NewInt(0),
				CreatedLt: *lt + 1, Body: jettonNotification(uint64(*lt), amount, from, text)}}
		case i == 2:
			in.HasComment, in.Comment = true, fmt.Sprintf("hello %d", ref.Seqno)
		default:
			in.Body = new(cellBuilder).boc()
		}
		tx.InMsg = in
		txs = append(txs, tx)
	}
	return txs
}
