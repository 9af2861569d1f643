package ton

import (
	"context"
	"fmt"
	"iter"
	"math"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// walkPageSize is the page size AllAccountStates asks for when the query
// has neither Limit nor Accounts (with Accounts it asks for 1000, as
// AllPendingTransactions does).
const walkPageSize = 100

// AllAccountStates walks every page of accountStates from q.Offset on and
// yields each state once, on both kinds of server AccountStatesQuery
// describes: one that pages and lists historical states, and the indexer,
// which does not page and answers the latest state of each account. On an
// error it yields the error once and stops.
//
// Without Accounts a page holds q.Limit states, 100 when 0. With Accounts,
// q.Limit defaults to 1000 and the accounts are walked in groups of at most
// q.Limit-1 (999 by default; at least 1), one group after the other, so
// that the indexer answers each group with a short page: reading n accounts
// from it costs 2*ceil(n/999) requests, where AccountStates needs
// ceil(n/1000).
//
// Only an empty page ends the walk, since a server may cap limit without
// saying so: n states in pages of p cost ceil(n/p)+1 requests. A page that
// holds a state already yielded (a server that ignores offset, or a list
// that changed between two requests) ends it too: with an error matching
// ErrRepeatedPage when the page before held exactly the limit (more may lie
// beyond), without one otherwise. With Accounts a state is known by its
// account alone until a page holds two states of one account (a server that
// lists historical states); then, as always without Accounts, by its
// account, hash and last transaction lt. Every request after the first
// yields a state not yielded before or ends the walk, so a group of n
// accounts costs at most n+1 requests however often states change.
//
// The memory the walk keeps grows with the number of states yielded; the
// pages' address books and metadata are not collected (use AccountStates).
// The returned sequence may be ranged over more than once, and by several
// goroutines at the same time: each range walks from q.Offset anew.
func (c *Client) AllAccountStates(ctx context.Context, q AccountStatesQuery) iter.Seq2[AccountState, error] {
	if err := transport.NilContext(ctx); err != nil {
		return func(yield func(AccountState, error) bool) { yield(AccountState{}, c.t.Wrap("accountStates", err)) }
	}
	const op = "accountStates"
	type key struct {
		a  Address
		h  Hash
		lt uint64
	}
	return func(yield func(AccountState, error) bool) {
		accounts, err := q.check()
		if err != nil {
			yield(AccountState{}, c.t.Wrap(op, err))
			return
		}
		limit, size := q.Limit, 0
		switch {
		case len(accounts) > 0 && limit == 0:
			limit, size = maxLimit, maxLimit-1
		case len(accounts) > 0:
			size = max(1, limit-1)
		case limit == 0:
			limit = walkPageSize
		}
		// Without Accounts only a server that pages answers, and it
		// lists historical states; with them, the walk takes the server
		// for the indexer until a page shows otherwise.
		history := len(accounts) == 0
		for _, g := range groups(accounts, max(size, 1)) {
			group := q // a copy: the sequence may be ranged concurrently
			group.Limit = limit
			group.Accounts = make([]string, len(g))
			for i, a := range g {
				group.Accounts[i] = a.String()
			}
			more := walk(c, op, q.Offset, limit,
				func(offset int) ([]AccountState, error) {
					page := group
					page.Offset = offset
					p, err := c.AccountStates(ctx, page)
					if err != nil {
						return nil, err
					}
					return p.States, nil
				},
				identity[AccountState, key]{
					keys:    func(s AccountState) []key { return []key{{s.Account, s.Hash, s.LastTransactionLT}} },
					owner:   func(s AccountState) key { return key{a: s.Account} },
					history: &history,
				},
				yield)
			if !more {
				return
			}
		}
	}
}

// AllPendingTransactions walks every page of pendingTransactions the way
// AllAccountStates walks accountStates (see there for the requests a walk
// makes and how it ends), with q.Limit transactions a page, 1000 when
// 0 (the indexer answers all it has at once: the larger the limit, the
// less likely its answer holds exactly the limit, which would end the walk
// with ErrRepeatedPage), and q.Accounts in groups of 1000. Nothing
// pending at all (the indexer's 404, or its null list) is an empty first
// page. The indexer has no paging: a walk over it reads its one answer and
// asks once more to learn that it does not page. Each page is in the order
// PendingTransactions sorts it in.
//
// A transaction already yielded is known by its hash, or, when the server
// sends trace_external_hash, by its account and TraceExternalHash: the
// indexer may emulate a trace again between two requests, which changes
// the hash. (On a server that pages and sends trace_external_hash, a trace
// whose transactions of one account straddle two full pages ends the walk
// with ErrRepeatedPage.) Pending transactions have no owner that bounds
// them as accounts bound account states: every request after the first
// yields a transaction not yielded before or ends the walk. Over the
// indexer the walk so ends at its second request, unless every
// transaction of the answer before left the pending set in between
// (confirmed) and others came: it then goes on with those, as long as the
// set keeps being replaced whole between two requests.
func (c *Client) AllPendingTransactions(ctx context.Context, q PendingTransactionsQuery) iter.Seq2[PendingTransaction, error] {
	if err := transport.NilContext(ctx); err != nil {
		return func(yield func(PendingTransaction, error) bool) {
			yield(PendingTransaction{}, c.t.Wrap("pendingTransactions", err))
		}
	}
	const op = "pendingTransactions"
	type key struct {
		a     Address
		h     Hash
		trace bool // h is the trace's external hash, not the transaction's
	}
	return func(yield func(PendingTransaction, error) bool) {
		accounts, err := q.check()
		if err != nil {
			yield(PendingTransaction{}, c.t.Wrap(op, err))
			return
		}
		limit := q.Limit
		if limit == 0 {
			limit = maxLimit
		}
		for _, g := range groups(accounts, maxLimit) {
			group := q // a copy: the sequence may be ranged concurrently
			group.Limit = limit
			group.Accounts = make([]string, len(g))
			for i, a := range g {
				group.Accounts[i] = a.String()
			}
			more := walk(c, op, q.Offset, limit,
				func(offset int) ([]PendingTransaction, error) {
					page := group
					page.Offset = offset
					p, err := c.PendingTransactions(ctx, page)
					if err != nil {
						return nil, err
					}
					return p.Transactions, nil
				},
				identity[PendingTransaction, key]{keys: func(t PendingTransaction) []key {
					if t.TraceExternalHash == (Hash{}) {
						return []key{{h: t.Hash}}
					}
					return []key{{h: t.Hash}, {a: t.Account, h: t.TraceExternalHash, trace: true}}
				}},
				yield)
			if !more {
				return
			}
		}
	}
}

// identity says which items of a walk are the same. keys are an item's
// identities: an item that shares one with an item yielded is that item
// again. owner, when set, is what the item is a state of (an account):
// while *history is false the server is taken to answer one item per
// owner, its current one, so an item whose owner was yielded is that
// item again, however it changed; a page that holds two items of one
// owner sets *history (the server lists historical items), which is kept
// across the walk's groups.
type identity[T any, K comparable] struct {
	keys    func(T) []K
	owner   func(T) K
	history *bool
}

// walk yields the items of pages of limit items fetched with increasing
// offsets from start, until an empty page, an error, or a page holding an
// item an earlier page yielded (see identity): the end when the page
// before was not full (its server does not page, and that page was the
// whole answer), ErrRepeatedPage when it was. A page shorter than the
// limit is not the end: a server that caps limit silently answers every
// page short, and stopping there would drop the rest without a word. So
// every page after the first yields an item not yielded before, or ends
// the walk. All state lives inside the call, so that every range over a
// sequence is a walk of its own. It returns whether the walk ended at the
// end of the list (false: after an error, or when yield asked to stop).
func walk[T any, K comparable](c *Client, op string, start, limit int, fetch func(offset int) ([]T, error), id identity[T, K], yield func(T, error) bool) bool {
	var zero T
	offset := start
	full := false        // the page before held exactly limit items
	seen := map[K]int{}  // item key -> offset of the page that yielded it
	owned := map[K]int{} // owner -> offset of the page that yielded its item
	byOwner := id.owner != nil && !*id.history
	for {
		items, err := fetch(offset)
		if err != nil {
			yield(zero, err) // already an *OpError
			return false
		}
		if byOwner && twoOfOne(items, id.owner) {
			*id.history, byOwner = true, false
		}
		for i, it := range items {
			at, dup := 0, false
			for _, k := range id.keys(it) {
				if at, dup = seen[k]; dup {
					break
				}
			}
			what := "was already yielded"
			if !dup && byOwner {
				if at, dup = owned[id.owner(it)]; dup {
					what = "is of an account whose state was already yielded"
				}
			}
			if !dup {
				continue
			}
			if !full {
				return true // the page before was the whole answer
			}
			yield(zero, c.t.Wrap(op, fmt.Errorf("%w: item %d of the page at offset %d %s from the page at offset %d (the server ignores offset, or the list changed between pages)",
				ErrRepeatedPage, i, offset, what, at)))
			return false
		}
		for _, it := range items {
			if !yield(it, nil) {
				return false
			}
		}
		if len(items) == 0 {
			return true
		}
		if offset > math.MaxInt-len(items) {
			yield(zero, c.t.Wrap(op, &nodeaccess.InputError{Arg: "offset", Reason: "the next page's offset overflows int"}))
			return false
		}
		for _, it := range items {
			for _, k := range id.keys(it) {
				seen[k] = offset
			}
			if id.owner != nil {
				owned[id.owner(it)] = offset
			}
		}
		full = len(items) == limit
		offset += len(items)
	}
}

// twoOfOne reports whether items holds two items of one owner.
func twoOfOne[T any, K comparable](items []T, owner func(T) K) bool {
	in := make(map[K]bool, len(items))
	for _, it := range items {
		k := owner(it)
		if in[k] {
			return true
		}
		in[k] = true
	}
	return false
}
