package ton

import (
	"context"
	"fmt"
	"iter"
	"math"

	"github.com/nodeaccess/nodeaccess"
)

// WalkPageSize is the page size AllAccountStates and AllPendingTransactions
// ask for when the query's Limit is 0.
const WalkPageSize = 100

// AllAccountStates walks every page of accountStates from q.Offset on,
// with q.Limit (or WalkPageSize) states a page, until a page comes back
// empty. On an error it yields the error once and stops.
//
// A page shorter than the limit does not end the walk: a server may cap
// limit below what was asked without saying so (the interface states no
// maximum), so the next page is asked for at the offset after the states
// that came, and only an empty page proves the end. That costs one request
// more than stopping at a short page would: a walk of n states whose pages
// hold p states each (the limit, or the server's cap below it) makes
// ceil(n/p)+1 requests, the last one answered with an empty page.
//
// The walk never loops forever: it remembers every state it yielded (by
// account, state hash and last transaction lt, so that the historical
// states of one account are told apart) and ends with an error matching
// ErrRepeatedPage when a page holds a state an earlier page already
// yielded. That is what a server that ignores offset answers (the v3
// indexer does for this call), and also what a list that changed between
// two page requests gives; nothing is yielded twice. Since a short page
// does not end the walk, such a server ends it with ErrRepeatedPage even
// when its one page held fewer states than the limit, after every state it
// served: on the indexer, whose accountStates takes neither limit nor
// offset, call AccountStates instead. The memory the walk
// keeps grows with the number of states yielded. The address books of the
// pages are not collected: use AccountStates for them.
//
// The returned sequence may be ranged over more than once, and by several
// goroutines at the same time: each range walks from q.Offset anew.
func (c *Client) AllAccountStates(ctx context.Context, q AccountStatesQuery) iter.Seq2[AccountState, error] {
	if q.Limit == 0 {
		q.Limit = WalkPageSize
	}
	type key struct {
		a  Address
		h  Hash
		lt uint64
	}
	return walk(c, "accountStates", q.Offset,
		func(offset int) ([]AccountState, error) {
			page := q // a copy: the sequence may be ranged concurrently
			page.Offset = offset
			p, err := c.AccountStates(ctx, page)
			if err != nil {
				return nil, err
			}
			return p.States, nil
		},
		func(s AccountState) key { return key{s.Account, s.Hash, s.LastTransactionLT} })
}

// AllPendingTransactions walks every page of pendingTransactions the way
// AllAccountStates walks accountStates, until an empty page (a short page
// does not end it: the server may cap limit; see AllAccountStates for the
// one request that costs); a transaction is known by its hash. Nothing
// pending at all (the indexer's 404) is an empty first page.
func (c *Client) AllPendingTransactions(ctx context.Context, q PendingTransactionsQuery) iter.Seq2[PendingTransaction, error] {
	if q.Limit == 0 {
		q.Limit = WalkPageSize
	}
	return walk(c, "pendingTransactions", q.Offset,
		func(offset int) ([]PendingTransaction, error) {
			page := q // a copy: the sequence may be ranged concurrently
			page.Offset = offset
			p, err := c.PendingTransactions(ctx, page)
			if err != nil {
				return nil, err
			}
			return p.Transactions, nil
		},
		func(t PendingTransaction) Hash { return t.Hash })
}

// walk yields the items of pages fetched with increasing offsets from
// start, until an empty page, an error, or a page holding an item an
// earlier page yielded. A page shorter than the limit asked for is not the
// end: a server that caps limit silently answers every page short, and
// stopping there would drop the rest without a word. All state lives inside
// the returned function, so that every range over the sequence is a walk
// of its own.
func walk[T any, K comparable](c *Client, op string, start int, fetch func(offset int) ([]T, error), key func(T) K) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		offset := start
		seen := map[K]int{} // item key -> offset of the page that yielded it
		for {
			items, err := fetch(offset)
			if err != nil {
				yield(zero, err) // already an *OpError
				return
			}
			keys := make([]K, len(items))
			for i, it := range items {
				keys[i] = key(it)
				if at, dup := seen[keys[i]]; dup {
					yield(zero, c.t.Wrap(op, fmt.Errorf("%w: %w: item %d of the page at offset %d was already yielded from the page at offset %d (the server ignores offset, or the list changed between pages)",
						nodeaccess.ErrInvalidResponse, ErrRepeatedPage, i, offset, at)))
					return
				}
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if len(items) == 0 {
				return
			}
			if offset > math.MaxInt-len(items) {
				yield(zero, c.t.Wrap(op, &nodeaccess.InputError{Arg: "offset", Reason: "the next page's offset overflows int"}))
				return
			}
			for _, k := range keys {
				seen[k] = offset
			}
			offset += len(items)
		}
	}
}
