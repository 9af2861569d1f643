package ton

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
	"github.com/nodeaccess/nodeaccess/ton/internal/wire"
)

// followV3Page is the page size of Follow's transactionsByMasterchainBlock
// calls: the most every version of the indexer takes (500; later versions
// take up to 1000).
var followV3Page = 500

// maxV3Reads is how many times in a row Follow reads a round's
// transactions when the pages repeat a transaction (the indexer pages by
// logical time, which two shards' transactions can share, so that a page
// boundary can move between requests) before it gives up with
// ErrRepeatedPage.
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

// roundV3 reads round seqno from the indexer: its blocks (one
// masterchainBlockShards) in Follow's order, and their transactions (one
// transactionsByMasterchainBlock per followV3Page of them), kept in
// f.v3items for blockItems. ok is false while the indexer has no block
// of the round yet.
func (f *follower) roundV3(ctx context.Context, seqno uint32) (round []BlockID, ok bool, err error) {
	round, counts, err := f.blocksV3(ctx, seqno)
	if err != nil || round == nil {
		return nil, false, err
	}
	for try := 1; ; try++ {
		items, err := f.transactionsV3(ctx, seqno, round, counts)
		if err == nil {
			f.v3items = items
			return round, true, nil
		}
		if !errors.Is(err, ErrRepeatedPage) || try == maxV3Reads {
			return nil, false, err
		}
	}
}

// blocksV3 reads masterchainBlockShards: the blocks of round seqno in
// Follow's order (the masterchain block last), and each block's tx_count
// (-1 where the indexer sent none). An empty list means the indexer has
// not got to the round yet: round is nil.
func (f *follower) blocksV3(ctx context.Context, seqno uint32) (round []BlockID, counts map[BlockRef]int, err error) {
	const op = "masterchainBlockShards"
	var res struct {
		Blocks []v3Block `json:"blocks"`
	}
	if err := f.c.Call(ctx, &res, "v3/"+op, url.Values{"seqno": {strconv.FormatUint(uint64(seqno), 10)}}); err != nil {
		return nil, nil, err
	}
	if len(res.Blocks) == 0 {
		return nil, nil, nil
	}
	bad := func(format string, a ...any) error {
		return f.c.t.Wrap(op, fmt.Errorf("%w: masterchain block %d: "+format, append([]any{nodeaccess.ErrInvalidResponse, seqno}, a...)...))
	}
	if len(res.Blocks) > 16*maxRoundBlocks {
		return nil, nil, bad("%d blocks in one round", len(res.Blocks))
	}
	counts = make(map[BlockRef]int, len(res.Blocks))
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
		if _, dup := counts[ref]; dup {
			return nil, nil, bad("block %s is listed twice", ref)
		}
		counts[ref] = -1
		if b.TxCount.Set {
			n, err := b.TxCount.Int32("tx_count")
			if err != nil || n < 0 {
				return nil, nil, bad("block %s: tx_count %s is not a count", ref, b.TxCount.Text)
			}
			counts[ref] = int(n)
		}
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
	if _, ok := counts[master.BlockRef]; !ok {
		counts[master.BlockRef] = -1 // an indexer that lists shard blocks only
	}
	slices.SortFunc(round, func(a, b BlockID) int {
		return cmp.Or(cmp.Compare(a.Workchain, b.Workchain), cmp.Compare(uint64(a.Shard), uint64(b.Shard)), cmp.Compare(a.Seqno, b.Seqno))
	})
	return append(round, master), counts, nil
}

// transactionsV3 reads every transaction of round seqno, page after page,
// and sorts each block's into the lite servers' order (account id, then
// logical time). A transaction of no block of the round, or of another
// masterchain block, or more of a block than its tx_count, is
// ErrInvalidResponse; one listed twice ErrRepeatedPage; fewer of a block
// than its tx_count (an indexer still inserting the round)
// ErrNotYetAvailable, which Follow asks again for after its Poll.
func (f *follower) transactionsV3(ctx context.Context, seqno uint32, round []BlockID, counts map[BlockRef]int) (map[BlockRef][]blockItem, error) {
	const op = "transactionsByMasterchainBlock"
	want, known := 0, true
	for _, n := range counts {
		if n < 0 {
			known = false
		}
		want += max(n, 0)
	}
	items := make(map[BlockRef][]blockItem, len(round))
	type key struct {
		block BlockRef
		a     Address
		lt    uint64
	}
	seen := map[key]bool{}
	for offset := 0; ; {
		var res struct {
			Transactions []json.RawMessage `json:"transactions"`
		}
		params := url.Values{"seqno": {strconv.FormatUint(uint64(seqno), 10)}, "limit": {strconv.Itoa(followV3Page)},
			"offset": {strconv.Itoa(offset)}, "sort": {"asc"}}
		if err := f.c.Call(ctx, &res, "v3/"+op, params); err != nil {
			return nil, err
		}
		if res.Transactions == nil {
			return nil, f.c.t.Wrap(op, fmt.Errorf("%w: masterchain block %d: the answer has no \"transactions\" list", nodeaccess.ErrInvalidResponse, seqno))
		}
		for i, raw := range res.Transactions {
			var tx BlockTransaction
			ref, err := decodeV3Tx(raw, &tx, seqno)
			if err != nil {
				return nil, f.c.t.Wrap(op, fmt.Errorf("%w: masterchain block %d: %s (offset %d): %v", nodeaccess.ErrInvalidResponse, seqno, itemName("transaction", i, raw), offset, err))
			}
			if _, ok := counts[ref]; !ok {
				return nil, f.c.t.Wrap(op, fmt.Errorf("%w: masterchain block %d: transaction %s of account %s is in block %s, which is not in the round",
					nodeaccess.ErrInvalidResponse, seqno, tx.Hash, tx.Account, ref))
			}
			k := key{ref, tx.Account, tx.LT}
			if seen[k] {
				return nil, f.c.t.Wrap(op, fmt.Errorf("%w: masterchain block %d: the page at offset %d holds account %s lt %d again",
					ErrRepeatedPage, seqno, offset, tx.Account, tx.LT))
			}
			seen[k] = true
			items[ref] = append(items[ref], blockItem{tx: tx})
		}
		offset += len(res.Transactions)
		if len(res.Transactions) == 0 || (known && offset >= want) {
			break
		}
	}
	for ref, n := range counts {
		switch got := len(items[ref]); {
		case n < 0 || got == n:
		case got > n:
			return nil, f.c.t.Wrap(op, fmt.Errorf("%w: masterchain block %d: block %s has tx_count %d but the pages hold %d of its transactions",
				nodeaccess.ErrInvalidResponse, seqno, ref, n, got))
		default:
			// An indexer still inserting the round: asked for again later.
			return nil, f.c.t.Wrap(op, fmt.Errorf("%w: masterchain block %d: block %s has tx_count %d but the indexer lists %d of its transactions so far",
				ErrNotYetAvailable, seqno, ref, n, got))
		}
	}
	for _, list := range items {
		slices.SortFunc(list, func(a, b blockItem) int {
			return cmp.Or(bytes.Compare(a.tx.Account.ID[:], b.tx.Account.ID[:]), cmp.Compare(a.tx.LT, b.tx.LT))
		})
	}
	return items, nil
}

// decodeV3Tx decodes one v3 transaction of masterchain block seqno and
// returns its block.
func decodeV3Tx(raw json.RawMessage, out *BlockTransaction, seqno uint32) (BlockRef, error) {
	var w struct {
		BlockRef *v3Ref   `json:"block_ref"`
		McSeqno  wire.Num `json:"mc_block_seqno"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return BlockRef{}, err
	}
	if w.BlockRef == nil {
		return BlockRef{}, fmt.Errorf("block_ref is missing")
	}
	ref, err := readV3Ref(w.BlockRef.Workchain, w.BlockRef.Seqno, w.BlockRef.Shard)
	if err != nil {
		return BlockRef{}, fmt.Errorf("block_ref: %v", err)
	}
	if w.McSeqno.Set {
		if mc, err := w.McSeqno.Uint32("mc_block_seqno"); err != nil || mc != seqno {
			return BlockRef{}, fmt.Errorf("mc_block_seqno is %s", w.McSeqno.Text)
		}
	}
	if err := decodeBlockTx(raw, out); err != nil {
		return BlockRef{}, err
	}
	if int32(out.Account.Workchain) != ref.Workchain {
		return BlockRef{}, fmt.Errorf("account %s is not on block %s's workchain", out.Account, ref)
	}
	return ref, nil
}

// waitRoundV3 reads round seqno from the indexer, asking again every
// f.poll until the indexer has it.
func (f *follower) waitRoundV3(ctx context.Context, seqno uint32) ([]BlockID, error) {
	for {
		var round []BlockID
		var ok bool
		err := f.retry(ctx, func() (err error) {
			round, ok, err = f.roundV3(ctx, seqno)
			return err
		})
		if err != nil || ok {
			return round, err
		}
		if err := transport.Sleep(ctx, f.poll); err != nil {
			return nil, err
		}
	}
}
