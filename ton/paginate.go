package ton

import (
	"context"
	"fmt"
	"iter"
	"math"
	"slices"

	"github.com/nodeaccess/nodeaccess"
)

// WalkPageSize is the page size AllAccountStates and AllPendingTransactions
// ask for when the query's Limit is 0.
const WalkPageSize = 100

// AllAccountStates walks every page of accountStates from q.Offset on,
// with q.Limit (or WalkPageSize) states a page, until a page comes back
// shorter than the limit. On an error it yields the error once and stops; a
// server that answers a next page with the page before (one that ignores
// offset, as the v3 indexer does for this call) ends the walk with an error
// matching ErrRepeatedPage. The address books of the pages are not
// collected: use AccountStates for them.
func (c *Client) AllAccountStates(ctx context.Context, q AccountStatesQuery) iter.Seq2[AccountState, error] {
	if q.Limit == 0 {
		q.Limit = WalkPageSize
	}
	type key struct {
		a  Address
		h  Hash
		lt uint64
	}
	return walk(c, "accountStates", q.Limit, q.Offset,
		func(offset int) ([]AccountState, error) {
			q.Offset = offset
			p, err := c.AccountStates(ctx, q)
			if err != nil {
				return nil, err
			}
			return p.States, nil
		},
		func(s AccountState) key { return key{s.Account, s.Hash, s.LastTransactionLT} })
}

// AllPendingTransactions walks every page of pendingTransactions the way
// AllAccountStates walks accountStates.
func (c *Client) AllPendingTransactions(ctx context.Context, q PendingTransactionsQuery) iter.Seq2[PendingTransaction, error] {
	if q.Limit == 0 {
		q.Limit = WalkPageSize
	}
	return walk(c, "pendingTransactions", q.Limit, q.Offset,
		func(offset int) ([]PendingTransaction, error) {
			q.Offset = offset
			p, err := c.PendingTransactions(ctx, q)
			if err != nil {
				return nil, err
			}
			return p.Transactions, nil
		},
		func(t PendingTransaction) Hash { return t.Hash })
}

// walk yields the items of pages fetched with limit and increasing offsets
// until a short page, an error, or a page that repeats the one before.
func walk[T any, K comparable](c *Client, op string, limit, offset int, fetch func(offset int) ([]T, error), key func(T) K) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		var prev []K
		prevOffset := 0
		for {
			items, err := fetch(offset)
			if err != nil {
				yield(zero, err) // already an *OpError
				return
			}
			keys := make([]K, len(items))
			for i, it := range items {
				keys[i] = key(it)
			}
			if len(items) > 0 && slices.Equal(keys, prev) {
				yield(zero, c.t.Wrap(op, fmt.Errorf("%w: %w: the page at offset %d repeats the page at offset %d (the server ignores offset)",
					nodeaccess.ErrInvalidResponse, ErrRepeatedPage, offset, prevOffset)))
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if len(items) < limit {
				return
			}
			if offset > math.MaxInt-len(items) {
				yield(zero, c.t.Wrap(op, &nodeaccess.InputError{Arg: "offset", Reason: "the next page's offset overflows int"}))
				return
			}
			prev, prevOffset = keys, offset
			offset += len(items)
		}
	}
}

// AllBlockTransactions walks every transaction of q.Block from q.After on:
// it asks for pages of q.Count (or DefaultBlockCount) transactions and, while
// the server says the block is incomplete, for the next page after the last
// transaction (after_lt, after_hash). On an error it yields the error once
// and stops; a server that says incomplete but sends no transaction, or
// answers with the page before, ends the walk with an error matching
// ErrRepeatedPage.
func (c *Client) AllBlockTransactions(ctx context.Context, q BlockTransactionsQuery) iter.Seq2[BlockTransaction, error] {
	const op = "getBlockTransactionsExt"
	return func(yield func(BlockTransaction, error) bool) {
		var prev *BlockCursor
		for {
			page, err := c.BlockTransactionsExt(ctx, q)
			if err != nil {
				yield(BlockTransaction{}, err)
				return
			}
			next, more := page.Next()
			if page.Incomplete && !more {
				yield(BlockTransaction{}, c.t.Wrap(op, fmt.Errorf("%w: %w: the block is incomplete but the page has no transactions to continue after",
					nodeaccess.ErrInvalidResponse, ErrRepeatedPage)))
				return
			}
			if more && prev != nil && next == *prev {
				yield(BlockTransaction{}, c.t.Wrap(op, fmt.Errorf("%w: %w: the page after lt %d ends where the page before did (the server ignores after_lt/after_hash)",
					nodeaccess.ErrInvalidResponse, ErrRepeatedPage, q.After.LT)))
				return
			}
			for _, tx := range page.Transactions {
				if !yield(tx, nil) {
					return
				}
			}
			if !more {
				return
			}
			prev = &next
			q.After = &next
		}
	}
}
