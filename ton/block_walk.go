package ton

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// AllBlockTransactions walks every transaction of q.Block from q.After on:
// it asks for pages of q.Count (or 40) transactions and, while
// the server says the block is incomplete, for the next page after the last
// transaction (after_lt, after_hash), sending from the second page on the
// block's root_hash and file_hash the first page named (unless q set them).
// A server that says incomplete but sends no transaction, or whose page
// holds a transaction (by account and lt) an earlier page already yielded,
// as one that ignores after_lt/after_hash does, ends the walk with an error
// matching ErrRepeatedPage. The sequence may be ranged over more than once,
// and concurrently: each range starts at q.After anew.
//
// On an error the walk yields it once and stops, with one exception: a
// transaction the server cannot read (ErrUnreadableTransaction: tonlib
// fails every page that holds it, and only those). The walk then halves
// its page size until a page stops short of that transaction, takes the
// transactions before it, and at page size 1 learns the transaction's id
// (account, lt, hash) from getBlockTransactions, which lists ids without
// reading the transactions (GET {base}/api/v2/{key}/getBlockTransactions,
// or that method in the JSON-RPC form). It yields the id as a
// BlockTransaction holding only Account, LT and Hash, with an error
// matching ErrUnreadableTransaction that names the block and the position,
// and goes on after it at the full page size: every other transaction of
// the block still arrives, once. Isolating one such transaction costs about
// two requests per halving of the page size, and one getBlockTransactions.
// When getBlockTransactions fails (or lists no transaction there) the walk
// cannot go past it: it yields the ErrUnreadableTransaction error without
// an id, then the reason, and stops.
func (c *Client) AllBlockTransactions(ctx context.Context, q BlockTransactionsQuery) iter.Seq2[BlockTransaction, error] {
	if err := transport.NilContext(ctx); err != nil {
		return func(yield func(BlockTransaction, error) bool) {
			yield(BlockTransaction{}, c.t.Wrap("getBlockTransactionsExt", err))
		}
	}
	const op = "getBlockTransactionsExt"
	type key struct {
		a  Address
		lt uint64
	}
	return func(yield func(BlockTransaction, error) bool) {
		q := q // a copy: each range moves its own cursor
		full := q.count()
		if c.useRPC {
			full = min(full, maxRPCBlockCount) // what the JSON-RPC form sends
		}
		size := full // narrowed around a transaction the server cannot read
		seen := map[key]struct{}{}
		for {
			q.Count = size
			page, err := c.BlockTransactions(ctx, q)
			if err != nil {
				if !errors.Is(err, ErrUnreadableTransaction) {
					yield(BlockTransaction{}, err)
					return
				}
				if size > 1 {
					size /= 2
					continue
				}
				// The transaction right after q.After cannot be read.
				tx, why := c.unreadableID(ctx, q)
				if why != nil {
					if yield(BlockTransaction{}, c.atPosition(op, err, q, nil)) {
						yield(BlockTransaction{}, why)
					}
					return
				}
				if _, dup := seen[key{tx.Account, tx.LT}]; dup {
					yield(BlockTransaction{}, c.t.Wrap(op, fmt.Errorf("%w: getBlockTransactions lists account %s lt %d after %s, which an earlier page yielded",
						ErrRepeatedPage, tx.Account, tx.LT, cursorText(q.After))))
					return
				}
				if !yield(tx, c.atPosition(op, err, q, &tx)) {
					return
				}
				seen[key{tx.Account, tx.LT}] = struct{}{}
				q.After = &BlockCursor{Account: tx.Account, LT: tx.LT}
				size = full
				continue
			}
			next, more := page.Next()
			if page.Incomplete && !more {
				yield(BlockTransaction{}, c.t.Wrap(op, fmt.Errorf("%w: the block is incomplete but the page has no transactions to continue after",
					ErrRepeatedPage)))
				return
			}
			for i, tx := range page.Transactions {
				if _, dup := seen[key{tx.Account, tx.LT}]; dup {
					yield(BlockTransaction{}, c.t.Wrap(op, fmt.Errorf("%w: transaction %d of the page after %s (account %s, lt %d) was already yielded (the server ignores after_lt/after_hash)",
						ErrRepeatedPage, i, cursorText(q.After), tx.Account, tx.LT)))
					return
				}
			}
			for _, tx := range page.Transactions {
				if !yield(tx, nil) {
					return
				}
			}
			if !more {
				return
			}
			for _, tx := range page.Transactions {
				seen[key{tx.Account, tx.LT}] = struct{}{}
			}
			q.After = &next
			if q.RootHash == (Hash{}) && page.Block.RootHash != (Hash{}) && page.Block.FileHash != (Hash{}) && page.Block.BlockRef == q.Block {
				// Spare the server a block lookup on every later page.
				q.RootHash, q.FileHash = page.Block.RootHash, page.Block.FileHash
			}
		}
	}
}

// unreadableID returns the id of the first transaction of q.Block after
// q.After, as getBlockTransactions lists it, or why it cannot: the call's
// error, or an ErrInvalidResponse error when it lists none there or one
// not after q.After.
func (c *Client) unreadableID(ctx context.Context, q BlockTransactionsQuery) (BlockTransaction, error) {
	const op = "getBlockTransactions"
	q.Count = 1
	ids, err := c.blockTxIDs(ctx, q)
	if err != nil {
		return BlockTransaction{}, err
	}
	if len(ids.Transactions) == 0 {
		return BlockTransaction{}, c.t.Wrap(op, fmt.Errorf("%w: it lists no transaction after %s, where getBlockTransactionsExt fails on one",
			nodeaccess.ErrInvalidResponse, cursorText(q.After)))
	}
	id := ids.Transactions[0]
	if a := q.After; a != nil {
		if d := bytes.Compare(id.Account.ID[:], a.Account.ID[:]); d < 0 || d == 0 && id.LT <= a.LT {
			return BlockTransaction{}, c.t.Wrap(op, fmt.Errorf("%w: asked for the transaction after %s, it lists account %s lt %d (the server ignores after_lt/after_hash)",
				ErrRepeatedPage, cursorText(a), id.Account, id.LT))
		}
	}
	return BlockTransaction{Account: id.Account, LT: id.LT, Hash: id.Hash}, nil
}

// atPosition is the error yielded for a transaction the server cannot read:
// failure (getBlockTransactionsExt's ErrUnreadableTransaction error) with
// the block, the position and, when known, the transaction's id.
func (c *Client) atPosition(op string, failure error, q BlockTransactionsQuery, tx *BlockTransaction) error {
	var oe *nodeaccess.OpError
	if errors.As(failure, &oe) {
		failure = oe.Err
	}
	id := ""
	if tx != nil {
		id = fmt.Sprintf(" (account %s, lt %d, hash %s)", tx.Account, tx.LT, tx.Hash)
	}
	return c.t.Wrap(op, fmt.Errorf("block %s, the transaction after %s%s: %w", q.Block, cursorText(q.After), id, failure))
}

// cursorText names a position in a block for an error message.
func cursorText(after *BlockCursor) string {
	if after == nil {
		return "the start of the block"
	}
	return fmt.Sprintf("account %s lt %d", after.Account, after.LT)
}
