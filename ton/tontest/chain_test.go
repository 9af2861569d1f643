package tontest_test

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

type wireID struct {
	Workchain int32  `json:"workchain"`
	Shard     string `json:"shard"`
	Seqno     uint32 `json:"seqno"`
	RootHash  string `json:"root_hash"`
	FileHash  string `json:"file_hash"`
}

func (w wireID) ref(t *testing.T) ton.BlockRef {
	s, err := strconv.ParseInt(w.Shard, 10, 64)
	require.NoError(t, err)
	return ton.BlockRef{Workchain: w.Workchain, Shard: ton.ShardID(s), Seqno: w.Seqno}
}

type wireHeader struct {
	ID          wireID   `json:"id"`
	AfterSplit  bool     `json:"after_split"`
	AfterMerge  bool     `json:"after_merge"`
	BeforeSplit bool     `json:"before_split"`
	StartLT     string   `json:"start_lt"`
	EndLT       string   `json:"end_lt"`
	GenUtime    int64    `json:"gen_utime"`
	Prev        []wireID `json:"prev_blocks"`
}

func chainTops(t *testing.T, c *ton.Client, seqno uint32) map[ton.ShardID]wireID {
	var res struct {
		Shards []wireID `json:"shards"`
	}
	require.NoError(t, c.Call(context.Background(), &res, "v2/shards", url.Values{"seqno": {strconv.Itoa(int(seqno))}}))
	out := map[ton.ShardID]wireID{}
	for _, s := range res.Shards {
		out[s.ref(t).Shard] = s
	}
	return out
}

func chainHeader(t *testing.T, c *ton.Client, ref ton.BlockRef) wireHeader {
	var h wireHeader
	require.NoError(t, c.Call(context.Background(), &h, "v2/getBlockHeader", url.Values{"workchain": {strconv.Itoa(int(ref.Workchain))},
		"shard": {strconv.FormatInt(int64(ref.Shard), 10)}, "seqno": {strconv.Itoa(int(ref.Seqno))}}))
	require.Equal(t, ref, h.ID.ref(t))
	return h
}

// TestChainObeysShardConfigurationRules checks every round of a chain that
// split and merged against the masterchain's rules (ton
// crypto/block/mc-config.cpp may_update_shard_block_info): every top
// descends from the previous round's top of its shard, its parent or both
// its children; a split's children are registered in one masterchain
// block, the parent's last block before_split, each child's first block
// after_split with the parent's top as its previous block and seqno one
// past it; a merge's first block after_merge, seqno one past the larger
// child; each block's previous block is the one before it; shard blocks
// end before their masterchain block starts, in logical time.
func TestChainObeysShardConfigurationRules(t *testing.T) {
	for _, form := range [][]nodeaccess.Option{nil, {ton.WithJSONRPC()}} {
		s := start(t, tontest.WithChain(0), tontest.WithoutDefaults())
		c := client(t, s, form...)
		left := ton.ShardID(0x4000000000000000)
		require.NoError(t, s.Advance(1))
		require.NoError(t, s.Split(left))
		require.NoError(t, s.Advance(3))
		require.NoError(t, s.Merge(left))
		require.NoError(t, s.Advance(3))
		var info struct {
			Last wireID `json:"last"`
			Init wireID `json:"init"`
		}
		require.NoError(t, c.Call(context.Background(), &info, "v2/getMasterchainInfo", nil))
		require.Equal(t, ton.MasterchainBlock(8), info.Last.ref(t))
		require.Equal(t, ton.MasterchainBlock(0), info.Init.ref(t))

		var splits, merges int
		prev := map[ton.ShardID]wireID{left: {Shard: strconv.FormatInt(int64(left), 10)}, -left: {Shard: strconv.FormatInt(int64((-left)), 10)}}
		for n := uint32(1); n <= 8; n++ {
			tops := chainTops(t, c, n)
			mc := chainHeader(t, c, ton.MasterchainBlock(n))
			for shard, top := range tops {
				p, same := prev[shard]
				low := uint64(shard) & -uint64(shard)
				parent := ton.ShardID((uint64(shard) - low) | low<<1)
				l, lok := prev[ton.ShardID(uint64(shard)-low>>1)]
				r, rok := prev[ton.ShardID(uint64(shard)+low>>1)]
				var first uint32
				switch {
				case same:
					first = p.Seqno + 1
				case prev[parent].Shard != "":
					pp := prev[parent]
					first = pp.Seqno + 1
					h := chainHeader(t, c, ton.BlockRef{Shard: shard, Seqno: first})
					assert.True(t, h.AfterSplit)
					require.Len(t, h.Prev, 1)
					assert.Equal(t, pp.ref(t), h.Prev[0].ref(t))
					assert.True(t, chainHeader(t, c, pp.ref(t)).BeforeSplit, "the parent's last block is before_split")
					sibling := ton.ShardID(uint64(parent) - (uint64(shard) - uint64(parent)))
					_, both := tops[sibling]
					assert.True(t, both, "both children in masterchain block %d", n)
					splits++
				case lok && rok:
					first = max(l.Seqno, r.Seqno) + 1
					h := chainHeader(t, c, ton.BlockRef{Shard: shard, Seqno: first})
					assert.True(t, h.AfterMerge)
					require.Len(t, h.Prev, 2)
					assert.Equal(t, l.ref(t), h.Prev[0].ref(t))
					assert.Equal(t, r.ref(t), h.Prev[1].ref(t))
					merges++
				default:
					t.Fatalf("round %d: shard %s descends from no shard of the round before", n, shard)
				}
				for seqno := first; seqno <= top.Seqno; seqno++ {
					h := chainHeader(t, c, ton.BlockRef{Shard: shard, Seqno: seqno})
					end, _ := strconv.ParseUint(h.EndLT, 10, 64)
					mcStart, _ := strconv.ParseUint(mc.StartLT, 10, 64)
					assert.Less(t, end, mcStart, "shard blocks end before their masterchain block")
					if seqno > first {
						assert.Equal(t, ton.BlockRef{Shard: shard, Seqno: seqno - 1}, h.Prev[0].ref(t))
						assert.False(t, h.AfterMerge || h.AfterSplit)
					}
				}
			}
			prev = tops
		}
		assert.Equal(t, 2, splits, "two children")
		assert.Equal(t, 1, merges)
	}
}

// TestChainHasJettonTransfers: the chain's blocks hold internal_transfer
// messages the ton package reads, with their notifications.
func TestChainHasJettonTransfers(t *testing.T) {
	s := start(t, tontest.WithChain(0), tontest.WithoutDefaults())
	require.NoError(t, s.Advance(6))
	c := client(t, s)
	var transfers, notifications int
	for ft, err := range c.Follow(context.Background(), ton.FollowQuery{From: ton.FollowCursor{Seqno: 1}, Poll: time.Millisecond}) {
		require.NoError(t, err)
		if ft.InMsg != nil {
			if jt, ok := ft.InMsg.ParseJettonTransfer(); ok {
				transfers++
				assert.Equal(t, ton.JettonOpInternalTransfer, jt.Op)
				assert.Equal(t, "deposit "+strconv.Itoa(int(ft.Block.Seqno)), jt.Comment)
				assert.Greater(t, jt.Amount.BitLen(), 64)
				require.Len(t, ft.OutMsgs, 1)
				n, ok := ft.OutMsgs[0].ParseJettonTransfer()
				require.True(t, ok)
				assert.Equal(t, ton.JettonOpTransferNotification, n.Op)
				assert.Equal(t, jt.Amount, n.Amount)
				assert.Equal(t, jt.Sender, n.Sender)
				assert.Equal(t, jt.Comment, n.Comment)
				notifications++
			}
		}
		if ft.Cursor.Seqno > 7 {
			break
		}
	}
	assert.Positive(t, transfers)
	assert.Equal(t, transfers, notifications)
}

// TestChainOnAClock: with an interval, masterchain blocks come by
// themselves; Close stops them.
func TestChainOnAClock(t *testing.T) {
	s, err := tontest.New(tontest.WithChain(5 * time.Millisecond))
	require.NoError(t, err)
	c, err := s.Client()
	require.NoError(t, err)
	head := func() uint32 {
		var info struct {
			Last wireID `json:"last"`
		}
		require.NoError(t, c.Call(context.Background(), &info, "v2/getMasterchainInfo", nil))
		return info.Last.Seqno
	}
	require.Eventually(t, func() bool { return head() >= 5 }, 5*time.Second, 5*time.Millisecond)
	s.Close()
	s.Close()
}

// TestChainRefuses: Split and Merge of shards that are no tops, or already
// splitting or merging, and everything without a chain, fail; shards of
// seqno 0 and of a block not made yet are answered as the servers do.
func TestChainRefuses(t *testing.T) {
	plain := start(t)
	require.ErrorContains(t, plain.Advance(1), "no chain")
	require.ErrorContains(t, plain.Split(0x4000000000000000), "no chain")
	require.ErrorContains(t, plain.Merge(ton.MasterchainShard), "no chain")
	r := get(t, plain, "/api/v2/"+plain.Key()+"/shards?seqno=1")
	assert.Equal(t, 404, r.status, "no chain, no such method")

	s := start(t, tontest.WithChain(0))
	left := ton.ShardID(0x4000000000000000)
	require.ErrorContains(t, s.Split(0x2000000000000000), "not a shard")
	require.ErrorContains(t, s.Merge(left), "not a shard")
	require.NoError(t, s.Split(left))
	require.ErrorContains(t, s.Split(left), "already")
	require.ErrorContains(t, s.Merge(ton.MasterchainShard), "already")
	_, err := tontest.New(tontest.WithChain(-time.Second))
	require.ErrorContains(t, err, "not an interval")

	r = get(t, s, "/api/v2/"+s.Key()+"/shards?seqno=0")
	assert.Equal(t, 422, r.status)
	assert.Contains(t, r.body, "seqno should be positive")
	r = get(t, s, "/api/v2/"+s.Key()+"/shards?seqno=99")
	assert.Equal(t, 500, r.status)
	assert.True(t, strings.Contains(r.body, "LITE_SERVER_NOTREADY"), r.body)
	r = get(t, s, "/api/v2/"+s.Key()+"/getBlockHeader?workchain=0&shard=4611686018427387904&seqno=99")
	assert.Equal(t, 500, r.status)
}
