package ton_test

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mover changes the indexer's account states right before accountStates
// requests: before request k (from 1) it calls change(k), which sets
// states on the server. The others pass unchanged.
type mover struct {
	requests atomic.Int64
	change   func(k int64)
	next     http.RoundTripper
}

func (m *mover) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, "/accountStates") {
		m.change(m.requests.Add(1))
	}
	return m.next.RoundTrip(r)
}

// movingAccounts are n accounts of the indexer tests.
func movingAccounts(n int) []ton.Address {
	out := make([]ton.Address, n)
	for i := range out {
		out[i] = mustAddress(fmt.Sprintf("0:%064x", 0xa000+i))
	}
	return out
}

// stateAt is account's state after its transaction at lt: each lt another
// state hash, balance and logical time, as a new transaction makes them.
func stateAt(account ton.Address, lt uint64) ton.AccountState {
	return ton.AccountState{Account: account, LastTransactionLT: lt, Hash: ton.Hash{byte(lt), byte(lt >> 8), 0x5a},
		Balance: big.NewInt(int64(lt)), Status: ton.StatusActive}
}

// walkMoving walks the accounts over the indexer with change run before
// every accountStates request, and returns the states yielded (failing the
// test at an error, or past 100 states: a walk that does not end), and the
// number of requests.
func walkMoving(t *testing.T, accounts []ton.Address, limit int, change func(srv *tontest.Server, k int64)) ([]ton.AccountState, int64) {
	t.Helper()
	got, errs, requests := walkMovingErrs(t, accounts, limit, change)
	require.Empty(t, errs)
	return got, requests
}

// walkMovingErrs is walkMoving, returning the errors yielded.
func walkMovingErrs(t *testing.T, accounts []ton.Address, limit int, change func(srv *tontest.Server, k int64)) ([]ton.AccountState, []error, int64) {
	t.Helper()
	srv := tontest.NewT(t, tontest.WithIndexer())
	for _, a := range accounts {
		require.NoError(t, srv.SetAccountStates(a, stateAt(a, 1)))
	}
	m := &mover{next: http.DefaultTransport, change: func(k int64) { change(srv, k) }}
	c, err := srv.Client(nodeaccess.WithRoundTripper(m), nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	names := make([]string, len(accounts))
	for i, a := range accounts {
		names[i] = a.String()
	}
	var got []ton.AccountState
	var errs []error
	for st, err := range c.AllAccountStates(context.Background(), ton.AccountStatesQuery{Accounts: names, Limit: limit}) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, st)
		require.Less(t, len(got), 100, "the walk does not end: %d requests", m.requests.Load())
	}
	return got, errs, m.requests.Load()
}

// byAccount returns the logical time of each account's state, failing the
// test for an account yielded twice.
func byAccount(t *testing.T, states []ton.AccountState) map[ton.Address]uint64 {
	t.Helper()
	out := map[ton.Address]uint64{}
	for _, st := range states {
		lt, dup := out[st.Account]
		require.False(t, dup, "account %s yielded twice: at lt %d and %d", st.Account, lt, st.LastTransactionLT)
		out[st.Account] = st.LastTransactionLT
	}
	return out
}

// Issue 30: over the indexer (which ignores offset and answers each
// account's latest state), an account whose state changes between the
// walk's two requests is yielded once, with its state at the first
// request; the walk ends after its second request.
func TestAllAccountStatesChangeBetweenRequests(t *testing.T) {
	for _, n := range []int{1, 3} {
		accounts := movingAccounts(n)
		got, requests := walkMoving(t, accounts, 0, func(srv *tontest.Server, k int64) {
			if k == 2 {
				require.NoError(t, srv.SetAccountStates(accounts[0], stateAt(accounts[0], 1), stateAt(accounts[0], 7)))
			}
		})
		want := map[ton.Address]uint64{}
		for _, a := range accounts {
			want[a] = 1
		}
		assert.Equal(t, want, byAccount(t, got), "%d accounts", n)
		assert.Equal(t, int64(2), requests, "%d accounts", n)
	}
}

// Issue 30: states that change before every request (the walk was still
// running after 50 requests and 150 states): each account once, with its
// state at the group's first request, and two requests a group: with
// Limit 3 the 7 accounts go in groups of 2, 2, 2 and 1.
func TestAllAccountStatesChangeBeforeEveryRequest(t *testing.T) {
	for _, tc := range []struct{ n, limit, requests int }{
		{1, 0, 2}, {3, 0, 2}, {7, 3, 8}, {7, 2, 14},
	} {
		accounts := movingAccounts(tc.n)
		got, requests := walkMoving(t, accounts, tc.limit, func(srv *tontest.Server, k int64) {
			for _, a := range accounts {
				require.NoError(t, srv.SetAccountStates(a, stateAt(a, uint64(10*k))))
			}
		})
		lts := byAccount(t, got)
		assert.Len(t, lts, tc.n, "%+v", tc)
		// Group g's first request is request 2g+1, its state 10*(2g+1).
		for i, a := range accounts {
			size := tc.n
			if tc.limit > 0 {
				size = max(1, tc.limit-1)
			}
			assert.Equal(t, uint64(10*(2*(i/size)+1)), lts[a], "%+v: account %d", tc, i)
		}
		assert.Equal(t, int64(tc.requests), requests, "%+v", tc)
	}

	// With Limit 1 a page of one state is full, and the account again
	// behind it may hide more: the walk ends at the second request with
	// ErrRepeatedPage, as it does when nothing changed.
	accounts := movingAccounts(3)
	got, errs, requests := walkMovingErrs(t, accounts, 1, func(srv *tontest.Server, k int64) {
		for _, a := range accounts {
			require.NoError(t, srv.SetAccountStates(a, stateAt(a, uint64(10*k))))
		}
	})
	require.Len(t, got, 1)
	assert.Equal(t, uint64(10), got[0].LastTransactionLT)
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], ton.ErrRepeatedPage)
	assert.EqualError(t, errs[0], "ton: accountStates: invalid response: server repeated an item of an earlier page: item 0 of the page at offset 1 is of an account whose state was already yielded from the page at offset 0 (the server ignores offset, or the list changed between pages)")
	assert.Equal(t, int64(2), requests)
}

// The bound: a set that moves so that every answer is of other accounts
// than the one before (each request, the indexer knows one account of the
// group, another each time) still ends, each account once, after at most
// n+1 requests for a group of n accounts: every request after the first
// yields an account not yielded before or ends the walk.
func TestAllAccountStatesRotatingSetEnds(t *testing.T) {
	for _, n := range []int{1, 2, 5} {
		accounts := movingAccounts(n)
		got, requests := walkMoving(t, accounts, 0, func(srv *tontest.Server, k int64) {
			for i, a := range accounts {
				if int64(i) == (k-1)%int64(n) {
					require.NoError(t, srv.SetAccountStates(a, stateAt(a, uint64(k))))
				} else {
					require.NoError(t, srv.SetAccountStates(a))
				}
			}
		})
		lts := byAccount(t, got)
		require.Len(t, lts, n)
		for i, a := range accounts {
			assert.Equal(t, uint64(i+1), lts[a], "%d accounts: account %d", n, i)
		}
		assert.Equal(t, int64(n+1), requests, "%d accounts", n)
	}
}

// A server that lists historical states shows it with a page holding two
// states of one account: from then on states are told apart by hash and
// logical time, so every state of the history comes, once, even through
// pages of one state after that (a silent cap of one).
func TestAllAccountStatesHistoryShownByAPage(t *testing.T) {
	acct := movingAccounts(1)[0]
	srv := tontest.NewT(t, tontest.WithoutDefaults(), tontest.WithMaxLimit(2))
	var states []ton.AccountState
	for lt := uint64(1); lt <= 5; lt++ {
		states = append(states, stateAt(acct, lt))
	}
	require.NoError(t, srv.SetAccountStates(acct, states...))
	c, err := srv.Client()
	require.NoError(t, err)
	var lts []uint64
	for st, err := range c.AllAccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{acct.String()}, Limit: 10}) {
		require.NoError(t, err)
		lts = append(lts, st.LastTransactionLT)
	}
	assert.Equal(t, []uint64{5, 4, 3, 2, 1}, lts, "newest first, the server's default")
	assert.Equal(t, 4, srv.Requests(), "pages of 2, 2, 1 and the empty one")
}
