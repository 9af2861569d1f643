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

	"github.com/nodeaccess/nodeaccess"
)

// transactionsV3 reads every transaction of round seqno through
// transactionsByMasterchainBlock, page after page by offset (for an
// indexer whose blocks lack tx_count or their logical-time range),
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
			ref, mc, err := decodeV3Tx(raw, &tx)
			if err == nil && mc != 0 && mc != seqno {
				err = fmt.Errorf("mc_block_seqno is %d", mc)
			}
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
