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

// AllAccountStates walks every page of accountStates from q.Offset on,
// with q.Limit states a page, until a page comes back empty or a server
// that does not page has answered everything. On an error it yields the
// error once and stops. It works on both kinds of server AccountStatesQuery
// describes: one that pages (limit, offset, sort) and lists historical
// states, and the indexer, which does not page and answers the latest
// state of each account it is asked for.
//
// Without Accounts a page holds q.Limit states, 100 when 0. With
// Accounts, q.Limit defaults to 1000, and the accounts are walked in
// groups of at most q.Limit-1 (999 by default; at least 1), each group
// from q.Offset until its end, one group after the other: a server that
// answers at most one state per account, ignoring limit and offset, as
// the indexer does, then answers every group with a page shorter than the
// limit, which is the whole answer (below). Reading n accounts from the
// indexer so costs two requests per group, 2*ceil(n/999) with the default
// limit; AccountStates reads them in ceil(n/1000) requests, one per
// 1000 accounts, when the server is known not to page.
//
// A page shorter than the limit does not end the walk: a server may cap
// limit below what was asked without saying so, so the next page is asked
// for at the offset after the states that came, and only an empty page
// proves the end. That costs one request more than stopping at a short
// page would: a walk of n states whose pages hold p states each (the
// limit, or the server's cap below it) makes ceil(n/p)+1 requests, the
// last one answered with an empty page.
//
// The walk never yields a state twice, and a page that holds one it
// already yielded ends it: that is what a server that ignores offset
// answers (the indexer), and also what a list that changed between two
// page requests gives. When the page before held exactly the limit, states
// may lie beyond what the server would serve: the walk ends with an error
// matching ErrRepeatedPage. When it held fewer (or more: a server that
// ignores limit), that page was the whole answer and the walk ends without
// an error, yielding nothing of the repeated page.
//
// Which states are the same depends on the server. With Accounts, the walk
// takes the server for one that answers one state per account, the
// indexer's latest state, and knows a state by its account alone: an
// account whose state changed between two requests (a new transaction, so
// another state hash and logical time) is the same account again, and the
// walk yields each account once, with the state of the first page that
// holds it (on the indexer, its state at the group's first request). So a
// group of n accounts costs at most n+1 requests however often the states
// change: every request after the first yields an account not yielded
// before or ends the group's walk. A page that holds two states of one
// account shows that the server lists historical states; from then on a
// state is known by its account, state hash and last transaction lt, so
// that the states of one account are told apart, as it is throughout a
// walk without Accounts (only a server that pages answers one: the indexer
// refuses it). On such a server, every request after the first yields a
// state not yielded before or ends the walk, which goes on as far as the
// list goes. With Limit 1 no page can show that (the walk then ends with
// ErrRepeatedPage at an account's second state: ask for pages of 2 or
// more); nor can the pages of a server that caps limit without saying so
// when none of them holds two states of one account (a cap of 1, say):
// such a server reads as the indexer, and the walk yields, of each
// account, the state of the first page that holds it, and ends.
//
// A server that ignores offset and caps limit without saying so cannot be
// told from one that has nothing more: such a server loses the states past
// its cap silently. The memory the walk keeps grows with the number of
// states yielded. The address books and metadata of the pages are not
// collected: use AccountStates for them.
//
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
				group.Accounts[i] = a.Raw()
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
				group.Accounts[i] = a.Raw()
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
