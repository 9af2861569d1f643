package ton

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
	"github.com/nodeaccess/nodeaccess/ton/internal/wire"
)

// followV3Page is the page size of Follow's indexer transaction calls
// (transactions, transactionsByMasterchainBlock): the most every version
// of the indexer takes (500; later versions take up to 1000).
var followV3Page = 500

// maxV3Reads is how many times in a row Follow reads a round's
// transactions through transactionsByMasterchainBlock when the pages
// repeat a transaction (offset paging by logical time, which two shards'
// transactions can share, so that a page boundary can move between
// requests) before it gives up with ErrRepeatedPage.
const maxV3Reads = 3

// v3Block is a block as the indexer's masterchainBlockShards lists it.
type v3Block struct {
	Workchain wire.Num  `json:"workchain"`
	Shard     *string   `json:"shard"`
	Seqno     wire.Num  `json:"seqno"`
	RootHash  wire.Hash `json:"root_hash"`
	FileHash  wire.Hash `json:"file_hash"`
	McSeqno   wire.Num  `json:"mc_block_seqno"`
	TxCount   wire.Num  `json:"tx_count"`
	StartLT   wire.Num  `json:"start_lt"`
	EndLT     wire.Num  `json:"end_lt"`
}

// v3Info is what the indexer says of a block of the round: its tx_count
// (-1 where it sent none) and its logical-time range (span false where
// it sent none), which bounds the logical times of its transactions.
type v3Info struct {
	count      int
	start, end uint64
	span       bool
}

// v3Ref is a v3 transaction's block_ref.
type v3Ref struct {
	Workchain wire.Num `json:"workchain"`
	Shard     *string  `json:"shard"`
	Seqno     wire.Num `json:"seqno"`
}

// readV3Ref reads a v3 block reference: the shard in the indexer's form
// (16 hex digits), which ParseShardID reads as hex.
func readV3Ref(wc, seqno wire.Num, shard *string) (BlockRef, error) {
	var r BlockRef
	if !wc.Set || !seqno.Set || shard == nil {
		return r, fmt.Errorf("workchain, shard or seqno is missing")
	}
	var err error
	if r.Workchain, err = wc.Int32("workchain"); err != nil {
		return r, err
	}
	if r.Seqno, err = seqno.Uint32("seqno"); err != nil {
		return r, err
	}
	if r.Shard, err = ParseShardID(*shard); err != nil {
		return r, fmt.Errorf("shard %s is not a shard id", strconv.Quote(*shard))
	}
	return r, nil
}

// headV3 asks the indexer for its newest masterchain block.
func (f *follower) headV3(ctx context.Context) error {
	f.lastPoll = time.Now()
	var info struct {
		Last *struct {
			Seqno wire.Num `json:"seqno"`
		} `json:"last"`
	}
	if err := f.c.Call(ctx, &info, "v3/masterchainInfo", nil); err != nil {
		return err
	}
	if info.Last == nil {
		return f.c.t.Wrap("masterchainInfo", fmt.Errorf("%w: the answer has no \"last\" block", nodeaccess.ErrInvalidResponse))
	}
	n, err := info.Last.Seqno.Uint32("last.seqno")
	if err != nil || !info.Last.Seqno.Set {
		return f.c.t.Wrap("masterchainInfo", fmt.Errorf("%w: last.seqno: %v", nodeaccess.ErrInvalidResponse, err))
	}
	f.head = max(f.head, n)
	return nil
}

// waitRoundV3 reads round seqno from the indexer once it has it. The
// first round of a walk waits for masterchainInfo to name it; each later
// one for a transaction of it (or of a later round) in the answer of
// transactions from the lowest logical time its blocks can start at,
// asked every f.poll until one comes: that answer holds the round's
// transactions too, so that at the head a poll costs one request and a
// round one more (its blocks).
func (f *follower) waitRoundV3(ctx context.Context, seqno uint32) ([]BlockID, error) {
	if len(f.v3tops) == 0 {
		if err := f.waitFor(ctx, seqno); err != nil {
			return nil, err
		}
	}
	for len(f.v3tops) > 0 && f.v3maxMC < seqno {
		if err := f.retry(ctx, func() error { return f.pollV3(ctx, seqno) }); err != nil {
			return nil, err
		}
		if f.v3maxMC >= seqno {
			break
		}
		if err := transport.Sleep(ctx, f.poll); err != nil {
			return nil, err
		}
	}
	var round []BlockID
	err := f.retry(ctx, func() (err error) {
		round, err = f.roundV3(ctx, seqno)
		return err
	})
	return round, err
}

// roundV3 reads round seqno: its blocks (masterchainBlockShards) in
// Follow's order, and their transactions, kept in f.v3items for
// blockItems: from the transactions already read past the previous round
// and, for what is missing, transactions by logical time (fillV3); from
// transactionsByMasterchainBlock for an indexer whose blocks lack
// tx_count or their logical-time range.
func (f *follower) roundV3(ctx context.Context, seqno uint32) ([]BlockID, error) {
	round, info, err := f.blocksV3(ctx, seqno)
	if err != nil {
		return nil, err
	}
	byLT := true
	for _, in := range info {
		byLT = byLT && in.count >= 0 && in.span
	}
	var items map[BlockRef][]blockItem
	if byLT {
		items, err = f.fillV3(ctx, seqno, info)
	} else {
		counts := make(map[BlockRef]int, len(info))
		for ref, in := range info {
			counts[ref] = in.count
		}
		for try := 1; ; try++ {
			items, err = f.transactionsV3(ctx, seqno, round, counts)
			if !errors.Is(err, ErrRepeatedPage) || try == maxV3Reads {
				break
			}
		}
	}
	if err != nil {
		return nil, err
	}
	f.v3items = items
	f.doneV3(seqno, info)
	return round, nil
}

// blocksV3 reads masterchainBlockShards: the blocks of round seqno in
// Follow's order (the masterchain block last) and what the indexer says
// of each. A round it lists no block of (its 404 "blocks not found", or
// an empty list) is not indexed yet: ErrNotYetAvailable.
func (f *follower) blocksV3(ctx context.Context, seqno uint32) (round []BlockID, info map[BlockRef]v3Info, err error) {
	const op = "masterchainBlockShards"
	var res struct {
		Blocks []v3Block `json:"blocks"`
	}
	err = f.c.Call(ctx, &res, "v3/"+op, url.Values{"seqno": {strconv.FormatUint(uint64(seqno), 10)}})
	if err != nil && !errors.Is(err, nodeaccess.ErrNotFound) {
		return nil, nil, err
	}
	if err != nil || len(res.Blocks) == 0 {
		return nil, nil, f.c.t.Wrap(op, fmt.Errorf("%w: masterchain block %d: the indexer lists no block of it yet", ErrNotYetAvailable, seqno))
	}
	bad := func(format string, a ...any) error {
		return f.c.t.Wrap(op, fmt.Errorf("%w: masterchain block %d: "+format, append([]any{nodeaccess.ErrInvalidResponse, seqno}, a...)...))
	}
	if len(res.Blocks) > 16*maxRoundBlocks {
		return nil, nil, bad("%d blocks in one round", len(res.Blocks))
	}
	info = make(map[BlockRef]v3Info, len(res.Blocks))
	master := BlockID{BlockRef: MasterchainBlock(seqno)}
	for i := range res.Blocks {
		b := &res.Blocks[i]
		ref, err := readV3Ref(b.Workchain, b.Seqno, b.Shard)
		if err != nil {
			return nil, nil, bad("block %d: %v", i, err)
		}
		if b.McSeqno.Set {
			if mc, err := b.McSeqno.Uint32("mc_block_seqno"); err != nil || mc != seqno {
				return nil, nil, bad("block %s belongs to masterchain block %s", ref, b.McSeqno.Text)
			}
		}
		if _, dup := info[ref]; dup {
			return nil, nil, bad("block %s is listed twice", ref)
		}
		in := v3Info{count: -1}
		if b.TxCount.Set {
			n, err := b.TxCount.Int32("tx_count")
			if err != nil || n < 0 {
				return nil, nil, bad("block %s: tx_count %s is not a count", ref, b.TxCount.Text)
			}
			in.count = int(n)
		}
		if b.StartLT.Set && b.EndLT.Set {
			var e1, e2 error
			in.start, e1 = b.StartLT.Uint64("start_lt")
			in.end, e2 = b.EndLT.Uint64("end_lt")
			if err := cmp.Or(e1, e2); err != nil || in.start > in.end {
				return nil, nil, bad("block %s: start_lt %s and end_lt %s are not a range", ref, b.StartLT.Text, b.EndLT.Text)
			}
			in.span = true
		}
		info[ref] = in
		id := BlockID{BlockRef: ref, RootHash: Hash(b.RootHash.H), FileHash: Hash(b.FileHash.H)}
		switch {
		case ref == master.BlockRef:
			master = id
		case ref.Workchain == -1:
			return nil, nil, bad("masterchain block %d is listed in its round", ref.Seqno)
		default:
			round = append(round, id)
		}
	}
	if _, ok := info[master.BlockRef]; !ok {
		info[master.BlockRef] = v3Info{count: -1} // an indexer that lists shard blocks only
	}
	slices.SortFunc(round, func(a, b BlockID) int {
		return cmp.Or(cmp.Compare(a.Workchain, b.Workchain), cmp.Compare(uint64(a.Shard), uint64(b.Shard)), cmp.Compare(a.Seqno, b.Seqno))
	})
	return append(round, master), info, nil
}

// decodeV3Tx decodes one v3 transaction and returns its block and its
// mc_block_seqno (0 where the indexer sent none).
func decodeV3Tx(raw json.RawMessage, out *BlockTransaction) (BlockRef, uint32, error) {
	var w struct {
		BlockRef *v3Ref   `json:"block_ref"`
		McSeqno  wire.Num `json:"mc_block_seqno"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return BlockRef{}, 0, err
	}
	if w.BlockRef == nil {
		return BlockRef{}, 0, fmt.Errorf("block_ref is missing")
	}
	ref, err := readV3Ref(w.BlockRef.Workchain, w.BlockRef.Seqno, w.BlockRef.Shard)
	if err != nil {
		return BlockRef{}, 0, fmt.Errorf("block_ref: %v", err)
	}
	var mc uint32
	if w.McSeqno.Set {
		if mc, err = w.McSeqno.Uint32("mc_block_seqno"); err != nil || mc == 0 {
			return BlockRef{}, 0, fmt.Errorf("mc_block_seqno is %s", w.McSeqno.Text)
		}
	}
	if err := decodeBlockTx(raw, out); err != nil {
		return BlockRef{}, 0, err
	}
	if int32(out.Account.Workchain) != ref.Workchain {
		return BlockRef{}, 0, fmt.Errorf("account %s is not on block %s's workchain", out.Account, ref)
	}
	return ref, mc, nil
}
