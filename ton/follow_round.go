package ton

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"

	"github.com/nodeaccess/nodeaccess"
)

// shardKey names a shard across workchains.
type shardKey struct {
	wc    int32
	shard ShardID
}

// maxRoundBlocks bounds the blocks of one shard that a round may hold: a
// masterchain block registers a shard's new top with a chain of at most 8
// blocks from the previous top (block.tlb's TopBlockDescr, len <= 8). A
// shard list that jumps further is refused before a block of it is listed,
// so that a wrong or hostile answer cannot make the follower list (and
// allocate) billions of blocks.
const maxRoundBlocks = 256

// round returns the blocks masterchain block seqno commits, in Follow's
// order (shard blocks by workchain, shard in hex order and seqno, then the
// masterchain block), and the shard list (tops) of that masterchain block.
func (f *follower) round(ctx context.Context, seqno uint32) (round, tops []BlockID, err error) {
	if tops, err = f.shards(ctx, seqno); err != nil {
		return nil, nil, err
	}
	var prev []BlockID
	switch {
	case seqno == 1:
		// Masterchain block 1 commits every shard's first blocks, after
		// its zero state (seqno 0), which no server lists.
		for _, t := range tops {
			prev = append(prev, BlockID{BlockRef: BlockRef{Workchain: t.Workchain, Shard: t.Shard}})
		}
	case f.prev != nil && f.prevSeqno == seqno-1:
		prev = f.prev
	default:
		if prev, err = f.shards(ctx, seqno-1); err != nil {
			return nil, nil, err
		}
	}
	before := make(map[shardKey]BlockID, len(prev))
	for _, p := range prev {
		before[shardKey{p.Workchain, p.Shard}] = p
	}
	for _, t := range tops {
		first, err := f.firstSeqno(ctx, seqno, t, before)
		if err != nil {
			return nil, nil, err
		}
		if t.Seqno >= first && t.Seqno-first >= maxRoundBlocks {
			return nil, nil, f.c.t.Wrap("shards", fmt.Errorf("%w: masterchain block %d: shard %s (workchain %d) goes from seqno %d to %d, %d blocks in one round (a masterchain block commits at most 8 of a shard)",
				nodeaccess.ErrInvalidResponse, seqno, t.Shard, t.Workchain, first-1, t.Seqno, uint64(t.Seqno-first)+1))
		}
		for s := first; s <= t.Seqno && s > 0; s++ {
			id := BlockID{BlockRef: BlockRef{Workchain: t.Workchain, Shard: t.Shard, Seqno: s}}
			if s == t.Seqno {
				id = t
			}
			round = append(round, id)
		}
	}
	slices.SortFunc(round, func(a, b BlockID) int {
		return cmp.Or(cmp.Compare(a.Workchain, b.Workchain), cmp.Compare(uint64(a.Shard), uint64(b.Shard)), cmp.Compare(a.Seqno, b.Seqno))
	})
	return append(round, BlockID{BlockRef: MasterchainBlock(seqno)}), tops, nil
}

// firstSeqno returns the seqno of the first block of top's shard that
// masterchain block seqno commits, from the previous masterchain block's
// tops (before): one past the same shard's top, past its parent's (a
// split) or past the larger of its children's (a merge). A split or merge
// is checked against the header of the new shard's first block.
func (f *follower) firstSeqno(ctx context.Context, seqno uint32, top BlockID, before map[shardKey]BlockID) (uint32, error) {
	bad := func(format string, args ...any) (uint32, error) {
		return 0, f.c.t.Wrap("shards", fmt.Errorf("%w: masterchain block %d: %s", nodeaccess.ErrInvalidResponse, seqno, fmt.Sprintf(format, args...)))
	}
	if p, ok := before[shardKey{top.Workchain, top.Shard}]; ok {
		if top.Seqno < p.Seqno {
			return bad("shard %s's top %d is below masterchain block %d's top %d", top.Shard, top.Seqno, seqno-1, p.Seqno)
		}
		return p.Seqno + 1, nil
	}
	if seqno == 1 {
		return bad("shard %s was not in the zero state", top.Shard)
	}
	low := uint64(top.Shard) & -uint64(top.Shard)
	if low != 1<<63 {
		parent := ShardID((uint64(top.Shard) - low) | low<<1)
		if p, ok := before[shardKey{top.Workchain, parent}]; ok {
			if err := f.confirm(ctx, top, p.Seqno+1, false, []BlockID{p}); err != nil {
				return 0, err
			}
			return p.Seqno + 1, nil
		}
	}
	if low > 1 {
		l, lok := before[shardKey{top.Workchain, ShardID(uint64(top.Shard) - low>>1)}]
		r, rok := before[shardKey{top.Workchain, ShardID(uint64(top.Shard) + low>>1)}]
		if lok && rok {
			first := max(l.Seqno, r.Seqno) + 1
			if err := f.confirm(ctx, top, first, true, []BlockID{l, r}); err != nil {
				return 0, err
			}
			return first, nil
		}
	}
	return bad("shard %s (workchain %d) descends from no shard of masterchain block %d", top.Shard, top.Workchain, seqno-1)
}

// confirm reads the header of the first block (seqno first) of top's shard
// after a split (merge false) or merge, and checks that it says so: the
// after_split or after_merge flag, and prevs as its previous blocks.
func (f *follower) confirm(ctx context.Context, top BlockID, first uint32, merge bool, prevs []BlockID) error {
	ref := BlockRef{Workchain: top.Workchain, Shard: top.Shard, Seqno: first}
	if f.confirmed[ref] {
		return nil // by an earlier try of this round
	}
	if first > top.Seqno {
		return f.c.t.Wrap("shards", fmt.Errorf("%w: shard %s's top %d is not past %d, where its first block after the split or merge must be",
			nodeaccess.ErrInvalidResponse, top.Shard, top.Seqno, first))
	}
	v := url.Values{"workchain": {strconv.Itoa(int(ref.Workchain))}, "shard": {strconv.FormatInt(int64(ref.Shard), 10)}, "seqno": {strconv.FormatUint(uint64(first), 10)}}
	if first == top.Seqno && top.RootHash != (Hash{}) && top.FileHash != (Hash{}) {
		v.Set("root_hash", top.RootHash.String())
		v.Set("file_hash", top.FileHash.String())
	}
	var h struct {
		AfterMerge *bool         `json:"after_merge"`
		AfterSplit *bool         `json:"after_split"`
		Prev       []wireBlockID `json:"prev_blocks"`
	}
	if err := f.c.Call(ctx, &h, "v2/getBlockHeader", v); err != nil {
		return err
	}
	bad := func(why string) error {
		return f.c.t.Wrap("getBlockHeader", fmt.Errorf("%w: block %s: %s", nodeaccess.ErrInvalidResponse, ref, why))
	}
	event, flag := "split", h.AfterSplit
	if merge {
		event, flag = "merge", h.AfterMerge
	}
	if flag == nil || !*flag {
		return bad("the shard lists say it is the first after a " + event + ", its header does not")
	}
	if len(h.Prev) != len(prevs) {
		return bad(fmt.Sprintf("its header names %d previous blocks, the shard lists %d", len(h.Prev), len(prevs)))
	}
	for i := range prevs {
		got, err := h.Prev[i].decode()
		if err != nil {
			return bad("prev_blocks: " + err.Error())
		}
		want := prevs[i]
		if got.BlockRef != want.BlockRef || want.RootHash != (Hash{}) && got.RootHash != (Hash{}) && got.RootHash != want.RootHash {
			return bad(fmt.Sprintf("its header's previous block %d is %s, the shard lists say %s", i, got.BlockRef, want.BlockRef))
		}
	}
	if f.confirmed == nil {
		f.confirmed = make(map[BlockRef]bool)
	}
	f.confirmed[ref] = true
	return nil
}

// shards returns the shard list (the top block of every shard, the
// masterchain's excluded) of masterchain block seqno.
func (f *follower) shards(ctx context.Context, seqno uint32) ([]BlockID, error) {
	if tops, ok := f.lists[seqno]; ok {
		return tops, nil // read by an earlier try of this round
	}
	var res struct {
		Shards []wireBlockID `json:"shards"`
	}
	if err := f.c.Call(ctx, &res, "v2/shards", url.Values{"seqno": {strconv.FormatUint(uint64(seqno), 10)}}); err != nil {
		return nil, err
	}
	out := make([]BlockID, 0, len(res.Shards))
	seen := make(map[shardKey]bool, len(res.Shards))
	for i := range res.Shards {
		id, err := res.Shards[i].decode()
		if err != nil {
			return nil, f.c.t.Wrap("shards", fmt.Errorf("%w: shard %d: %v", nodeaccess.ErrInvalidResponse, i, err))
		}
		k := shardKey{id.Workchain, id.Shard}
		if id.Shard == 0 || seen[k] {
			return nil, f.c.t.Wrap("shards", fmt.Errorf("%w: masterchain block %d lists shard %s of workchain %d twice (or a zero shard)",
				nodeaccess.ErrInvalidResponse, seqno, id.Shard, id.Workchain))
		}
		seen[k] = true
		out = append(out, id)
	}
	if f.lists == nil {
		f.lists = make(map[uint32][]BlockID)
	}
	f.lists[seqno] = out
	return out, nil
}
