package tontest_test

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// WithMaxLimit cuts every v3 page to n items, silently: a plain 200 with n
// items, whatever limit asked for.
func TestWithMaxLimitOnTheWire(t *testing.T) {
	s := start(t, tontest.WithMaxLimit(1))
	r := get(t, s, pathStates+"?address="+tontest.DefaultAccount+"&limit=10")
	require.Equal(t, http.StatusOK, r.status)
	assert.Equal(t, `{"account_states":[`+stateAfter+`],"address_book":`+defaultBook+`}`, r.body)
	r = get(t, s, pathStates+"?address="+tontest.DefaultAccount+"&limit=10&offset=1")
	assert.Equal(t, `{"account_states":[`+stateBefore+`],"address_book":`+defaultBook+`}`, r.body)
	r = get(t, s, pathStates+"?address="+tontest.DefaultAccount+"&limit=10&offset=2")
	assert.Equal(t, `{"account_states":[],"address_book":{}}`, r.body)
	// A limit the indexer refuses is still refused.
	r = get(t, s, pathStates+"?address="+tontest.DefaultAccount+"&limit=1001")
	assert.Equal(t, http.StatusUnprocessableEntity, r.status)

	for _, n := range []int{0, -1} {
		_, err := tontest.New(tontest.WithMaxLimit(n))
		assert.EqualError(t, err, fmt.Sprintf("tontest: WithMaxLimit: %d is not a page size: want at least 1", n))
	}
}

// The walkers over a server that caps limit: every item, once, in order,
// for caps below, at and above the page size asked for; the requests are
// the pages with items and one empty page. One exception: a cap of one
// account state a page, which no walk can tell from the indexer's latest
// state of an account that changes.
func TestWalksOverWithMaxLimit(t *testing.T) {
	acct := mustAddress("0:" + strings.Repeat("0a", 32))
	const n = 23
	states := make([]ton.AccountState, n)
	pending := make([]ton.PendingTransaction, n)
	for i := range n {
		lt := uint64(1000 + i)
		states[i] = ton.AccountState{Account: acct, LastTransactionLT: lt, Status: ton.StatusActive, Balance: big.NewInt(int64(i)), Hash: ton.Hash{byte(i), 1}}
		pending[i] = ton.PendingTransaction{Account: acct, LT: lt, Hash: ton.Hash{byte(i), 2}}
	}
	for _, maxLimit := range []int{1, 4, 10, 50} {
		s := start(t, tontest.WithoutDefaults(), tontest.WithMaxLimit(maxLimit))
		require.NoError(t, s.SetAccountStates(acct, states...))
		require.NoError(t, s.SetPendingTransactions(acct, pending...))
		c := client(t, s)
		per := min(10, maxLimit)
		requests := (n+per-1)/per + 1

		var lts []uint64
		for st, err := range c.AllAccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{acct.String()}, Limit: 10, Sort: ton.SortAsc}) {
			require.NoError(t, err, "cap %d", maxLimit)
			lts = append(lts, st.LastTransactionLT)
		}
		want := make([]uint64, n)
		for i := range want {
			want[i] = uint64(1000 + i)
		}
		if maxLimit == 1 {
			// Pages of one state each cannot show that the server lists
			// the account's history: it reads as the indexer whose
			// account changed between the requests, and the walk yields
			// the account once, with its first page's state, in two
			// requests (see AllAccountStates).
			assert.Equal(t, want[:1], lts, "accountStates, cap 1")
			assert.Len(t, s.Received(), 2, "accountStates, cap 1")
		} else {
			assert.Equal(t, want, lts, "accountStates, cap %d", maxLimit)
			assert.Len(t, s.Received(), requests, "accountStates, cap %d", maxLimit)
		}
		accountRequests := len(s.Received())

		lts = nil
		for tx, err := range c.AllPendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{acct.String()}, Limit: 10}) {
			require.NoError(t, err, "cap %d", maxLimit)
			lts = append(lts, tx.LT)
		}
		assert.Equal(t, want, lts, "pendingTransactions, cap %d", maxLimit)
		assert.Len(t, s.Received(), accountRequests+requests, "pendingTransactions, cap %d", maxLimit)
	}
}
