package ton_test

import (
	"cmp"
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// The basechain shards of tontest's chain, and the children of the first.
const (
	shardLeft  ton.ShardID = 0x4000000000000000
	shardLL    ton.ShardID = 0x2000000000000000
	shardLR    ton.ShardID = 0x6000000000000000
	shardRight ton.ShardID = -0x4000000000000000
)

// splitMergeChain returns a manual tontest chain of head masterchain
// blocks, with shardLeft split in its rounds 3-4 (before_split in 3, the
// children from 4) and merged back in rounds 7-8 (the merged block in 8).
func splitMergeChain(t *testing.T, opts ...tontest.Option) (*tontest.Server, uint32) {
	t.Helper()
	srv := tontest.NewT(t, append([]tontest.Option{tontest.WithChain(0), tontest.WithoutDefaults()}, opts...)...)
	require.NoError(t, srv.Advance(1)) // head 2
	require.NoError(t, srv.Split(shardLeft))
	require.NoError(t, srv.Advance(4)) // split in 3-4; head 6
	require.NoError(t, srv.Merge(shardLeft))
	require.NoError(t, srv.Advance(5)) // merge in 7-8; head 11
	return srv, 11
}

// walkedTx is a transaction as the oracle or the follower saw it.
type walkedTx struct {
	Round uint32
	Block ton.BlockRef
	Hash  ton.Hash
}

// prevWalk is the oracle: the indexers' walk (ton-blockchain/ton #435,
// tonweb's BlockSubscription, ton-payment-network's getNotSeenShards),
// which follows getBlockHeader's prev_blocks from each masterchain block's
// shard tops back to the previous masterchain block's tops; not the
// follower's seqno arithmetic. It returns every transaction of rounds
// 1..head in the documented order.
func prevWalk(t *testing.T, c *ton.Client, head uint32) []walkedTx {
	t.Helper()
	ctx := context.Background()
	type id struct {
		Workchain int32  `json:"workchain"`
		Shard     string `json:"shard"`
		Seqno     uint32 `json:"seqno"`
	}
	ref := func(x id) ton.BlockRef {
		s, err := strconv.ParseInt(x.Shard, 10, 64)
		require.NoError(t, err)
		return ton.BlockRef{Workchain: x.Workchain, Shard: ton.ShardID(s), Seqno: x.Seqno}
	}
	tops := func(n uint32) map[ton.BlockRef]bool {
		var res struct {
			Shards []id `json:"shards"`
		}
		require.NoError(t, c.Call(ctx, &res, "v2/shards", url.Values{"seqno": {strconv.Itoa(int(n))}}))
		out := map[ton.BlockRef]bool{}
		for _, s := range res.Shards {
			out[ref(s)] = true
		}
		return out
	}
	var out []walkedTx
	prev := map[ton.BlockRef]bool{}
	for n := uint32(1); n <= head; n++ {
		cur := tops(n)
		var blocks []ton.BlockRef
		seen := map[ton.BlockRef]bool{}
		queue := slices.Collect(func(yield func(ton.BlockRef) bool) {
			for r := range cur {
				if !yield(r) {
					return
				}
			}
		})
		for len(queue) > 0 {
			b := queue[0]
			queue = queue[1:]
			if prev[b] || seen[b] || b.Seqno == 0 {
				continue
			}
			seen[b] = true
			blocks = append(blocks, b)
			var h struct {
				Prev []id `json:"prev_blocks"`
			}
			require.NoError(t, c.Call(ctx, &h, "v2/getBlockHeader", url.Values{"workchain": {strconv.Itoa(int(b.Workchain))},
				"shard": {strconv.FormatInt(int64(b.Shard), 10)}, "seqno": {strconv.Itoa(int(b.Seqno))}}))
			for _, p := range h.Prev {
				queue = append(queue, ref(p))
			}
		}
		slices.SortFunc(blocks, func(a, b ton.BlockRef) int {
			return cmp.Or(cmp.Compare(a.Workchain, b.Workchain), cmp.Compare(uint64(a.Shard), uint64(b.Shard)), cmp.Compare(a.Seqno, b.Seqno))
		})
		blocks = append(blocks, ton.MasterchainBlock(n))
		for _, b := range blocks {
			for tx, err := range c.AllBlockTransactions(ctx, ton.BlockTransactionsQuery{Block: b, Count: 2}) {
				require.NoError(t, err)
				out = append(out, walkedTx{Round: n, Block: b, Hash: tx.Hash})
			}
		}
		prev = cur
	}
	return out
}

// follow collects n transactions from q, or those up to the end of round
// head when it comes first (failing on any error unless errs is not nil,
// which then receives them), with a cursor each.
func follow(t *testing.T, c *ton.Client, q ton.FollowQuery, n int, head uint32, errs *[]error) ([]walkedTx, []ton.FollowedTransaction) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var got []walkedTx
	var full []ton.FollowedTransaction
	if n == 0 {
		return nil, nil
	}
	for ft, err := range c.Follow(ctx, q) {
		if err != nil {
			require.NotNil(t, errs, "unexpected error after %d transactions: %v", len(got), err)
			*errs = append(*errs, err)
			continue
		}
		require.Equal(t, ton.FinalityFinalized, ft.Finality)
		require.Equal(t, ft.Block.BlockRef.Workchain, int32(ft.Account.Workchain))
		got = append(got, walkedTx{Round: ft.Masterchain, Block: ft.Block.BlockRef, Hash: ft.Hash})
		full = append(full, ft)
		if len(got) == n || ft.Cursor.Seqno > head {
			break
		}
	}
	return got, full
}

// TestFollowExactlyOnceAcrossSplitAndMerge: from round 1 to the head, the
// follower yields exactly the transactions the prev_blocks walk finds, in
// the documented order, across a split (mc-config.cpp: both children
// registered in one masterchain block, first seqno one past the parent's)
// and a merge (one past the larger child seqno), including shard blocks
// that were never a top.
func TestFollowExactlyOnceAcrossSplitAndMerge(t *testing.T) {
	for _, form := range []struct {
		name string
		opts []nodeaccess.Option
	}{{"REST", nil}, {"JSON-RPC", []nodeaccess.Option{ton.WithJSONRPC()}}} {
		t.Run(form.name, func(t *testing.T) {
			srv, head := splitMergeChain(t)
			c, err := srv.Client(form.opts...)
			require.NoError(t, err)
			want := prevWalk(t, c, head)
			shards := map[ton.ShardID]bool{}
			for _, w := range want {
				shards[w.Block.Shard] = true
			}
			require.True(t, shards[shardLL] && shards[shardLR] && shards[shardLeft] && shards[shardRight], "the chain split and merged: %v", shards)
			got, _ := follow(t, c, ton.FollowQuery{From: ton.FollowCursor{Seqno: 1}, Poll: time.Millisecond}, len(want), head, nil)
			require.Equal(t, want, got)
			hashes := map[ton.Hash]bool{}
			for _, g := range got {
				require.False(t, hashes[g.Hash], "repeated %s", g.Hash)
				hashes[g.Hash] = true
			}
		})
	}
}

// TestFollowResumesFromEveryCursor: a follower started again from the
// cursor of any transaction (as stored text, as JSON) yields exactly the
// transactions after it, losing and repeating none.
func TestFollowResumesFromEveryCursor(t *testing.T) {
	srv, head := splitMergeChain(t)
	c, err := srv.Client()
	require.NoError(t, err)
	want := prevWalk(t, c, head)
	all, full := follow(t, c, ton.FollowQuery{From: ton.FollowCursor{Seqno: 1}, Poll: time.Millisecond}, len(want), head, nil)
	require.Equal(t, want, all)
	for i, ft := range full {
		text, err := ft.Cursor.MarshalText()
		require.NoError(t, err)
		var cur ton.FollowCursor
		require.NoError(t, cur.UnmarshalText(text))
		require.Equal(t, ft.Cursor, cur)
		js, err := json.Marshal(struct{ C ton.FollowCursor }{cur})
		require.NoError(t, err)
		var back struct{ C ton.FollowCursor }
		require.NoError(t, json.Unmarshal(js, &back))
		require.Equal(t, cur, back.C, "%s", js)
		rest, _ := follow(t, c, ton.FollowQuery{From: back.C, Poll: time.Millisecond}, len(all)-i-1, head, nil)
		if i+1 < len(all) {
			require.Equal(t, all[i+1:], rest, "resumed from %s (transaction %d)", text, i)
		}
	}
	// From the last cursor nothing is left until the chain grows.
	last := full[len(full)-1].Cursor
	require.Equal(t, ton.FollowCursor{Seqno: head + 1}, last)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	for ft, err := range c.Follow(ctx, ton.FollowQuery{From: last, Poll: time.Millisecond}) {
		require.ErrorIs(t, err, context.DeadlineExceeded, "yielded %+v", ft)
	}
	require.NoError(t, srv.Advance(1))
	rest, _ := follow(t, c, ton.FollowQuery{From: last, Poll: time.Millisecond}, 1, head+1, nil)
	require.Equal(t, head+1, rest[0].Round)
}
