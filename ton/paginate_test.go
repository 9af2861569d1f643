package ton_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"iter"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// account returns the raw address 0:<i as the last byte>.
func account(i int) string { return fmt.Sprintf("0:%062x%02x", 0, i) }

// pagedServer serves n account states and n pending transactions with
// limit/offset. With ignoreOffset it always serves the first page, and
// with ignoreLimit every item from the offset on; failAt makes the request
// with that offset fail with a 422; maxLimit > 0 caps limit silently, as a
// server may (the interface states no maximum). State i is of account(i),
// or of the account asked for when one address is.
type pagedServer struct {
	n            int
	ignoreOffset bool
	ignoreLimit  bool
	failAt       int
	maxLimit     int
	mu           sync.Mutex
	queries      []string
}

func (p *pagedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.queries = append(p.queries, r.URL.RawQuery)
	p.mu.Unlock()
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	offset, _ := strconv.Atoi(q.Get("offset"))
	if p.maxLimit > 0 {
		limit = min(limit, p.maxLimit)
	}
	if p.ignoreOffset {
		offset = 0
	}
	if p.ignoreLimit {
		limit = p.n
	}
	w.Header().Set("Content-Type", "application/json")
	if p.failAt > 0 && offset == p.failAt {
		w.WriteHeader(422)
		fmt.Fprint(w, `{"error":"offset too large"}`)
		return
	}
	var items []string
	for i := offset; i < min(offset+limit, p.n); i++ {
		if strings.HasSuffix(r.URL.Path, "/accountStates") {
			addr := account(i)
			if a := q["address"]; len(a) == 1 {
				addr = a[0]
			}
			items = append(items, fmt.Sprintf(`{"address":%q,"balance":"%d","status":"active","last_transaction_lt":"%d"}`, addr, i, i+1))
		} else {
			items = append(items, fmt.Sprintf(`{"account":%q,"hash":%q,"lt":"%d","now":1751972976}`, account(i), base64.StdEncoding.EncodeToString(append(make([]byte, 31), byte(i))), i))
		}
	}
	key := "transactions"
	if strings.HasSuffix(r.URL.Path, "/accountStates") {
		key = "accounts"
	}
	fmt.Fprintf(w, `{%q:[%s],"address_book":{}}`, key, strings.Join(items, ","))
}

func newPaged(t *testing.T, p *pagedServer) *ton.Client {
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	c, err := ton.New(srv.URL, testKey, nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	return c
}

func TestAllAccountStates(t *testing.T) {
	for _, n := range []int{0, 1, 9, 10, 25, 30} {
		p := &pagedServer{n: n}
		c := newPaged(t, p)
		var got []int64
		for s, err := range c.AllAccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{acctLower}, Limit: 10}) {
			require.NoError(t, err)
			assert.Equal(t, mustAddress(acctLower), s.Account)
			got = append(got, s.Balance.Int64())
		}
		require.Len(t, got, n)
		for i, b := range got {
			assert.Equal(t, int64(i), b)
		}
		// Pages until an empty one: ceil(n/10) pages with states, then the
		// empty page that proves the end.
		want := []string{}
		offsets := []int{}
		for off := 0; off < n; off += 10 {
			offsets = append(offsets, off)
		}
		for _, off := range append(offsets, n) {
			q := "account_address=" + acctEscape + "&address=" + acctEscape + "&include_boc=false&limit=10"
			if off > 0 {
				q += "&offset=" + strconv.Itoa(off)
			}
			want = append(want, q)
		}
		assert.Equal(t, want, p.queries, "n=%d", n)
	}
}

func TestAllAccountStatesDefaultsAndOffset(t *testing.T) {
	p := &pagedServer{n: 150}
	c := newPaged(t, p)
	count := 0
	for _, err := range c.AllAccountStates(context.Background(), ton.AccountStatesQuery{Offset: 20}) {
		require.NoError(t, err)
		count++
	}
	assert.Equal(t, 130, count)
	assert.Equal(t, []string{"include_boc=false&limit=100&offset=20", "include_boc=false&limit=100&offset=120", "include_boc=false&limit=100&offset=150"}, p.queries)
}

func TestAllAccountStatesRepeatingServer(t *testing.T) {
	p := &pagedServer{n: 50, ignoreOffset: true}
	c := newPaged(t, p)
	var items, errs int
	var last error
	for _, err := range c.AllAccountStates(context.Background(), ton.AccountStatesQuery{Limit: 10}) {
		if err != nil {
			errs++
			last = err
			continue
		}
		items++
	}
	assert.Equal(t, 10, items)
	assert.Equal(t, 1, errs)
	assert.ErrorIs(t, last, ton.ErrRepeatedPage)
	assert.ErrorIs(t, last, nodeaccess.ErrInvalidResponse)
	assert.EqualError(t, last, "ton: accountStates: invalid response: server repeated an item of an earlier page: item 0 of the page at offset 10 was already yielded from the page at offset 0 (the server ignores offset, or the list changed between pages)")
	assert.Len(t, p.queries, 2)
}

func TestAllPendingTransactionsErrorOnceAndStop(t *testing.T) {
	p := &pagedServer{n: 50, failAt: 20}
	c := newPaged(t, p)
	var lts []uint64
	var errs []error
	for tx, err := range c.AllPendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{acctLower}, Limit: 10}) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		lts = append(lts, tx.LT)
	}
	assert.Len(t, lts, 20)
	require.Len(t, errs, 1)
	_, msg := serverMessage(t, errs[0])
	assert.Equal(t, "offset too large", msg)
	assert.Len(t, p.queries, 3)
	assert.Equal(t, "account="+acctEscape+"&limit=10&offset=20", p.queries[2])
}

func TestAllPendingTransactionsRepeatingAndBreak(t *testing.T) {
	p := &pagedServer{n: 50, ignoreOffset: true}
	c := newPaged(t, p)
	var last error
	for _, err := range c.AllPendingTransactions(context.Background(), ton.PendingTransactionsQuery{Limit: 5}) {
		last = err
	}
	assert.ErrorIs(t, last, ton.ErrRepeatedPage)

	// Breaking out stops the walk: no further request.
	p2 := &pagedServer{n: 50}
	c2 := newPaged(t, p2)
	n := 0
	for _, err := range c2.AllPendingTransactions(context.Background(), ton.PendingTransactionsQuery{Limit: 5}) {
		require.NoError(t, err)
		n++
		if n == 7 {
			break
		}
	}
	assert.Len(t, p2.queries, 2)
}

func TestAllPendingNothingPending(t *testing.T) {
	srv, n := cannedServer(t, answer{404, `{"error":"emulated traces not found"}`})
	c, err := ton.New(srv.URL, testKey)
	require.NoError(t, err)
	for range c.AllPendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{acctLower}}) {
		t.Fatal("nothing is pending")
	}
	assert.Equal(t, int32(1), n.Load())
}

func TestWalkCancelled(t *testing.T) {
	p := &pagedServer{n: 50}
	c := newPaged(t, p)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var errs []error
	n := 0
	for _, err := range c.AllAccountStates(ctx, ton.AccountStatesQuery{Limit: 10}) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if n++; n == 10 {
			cancel()
		}
	}
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], context.Canceled)
	assert.Equal(t, 10, n)
}

// shiftingServer ignores offset and serves a window of limit items that
// moves by shift items on every request, as a live list behind a server
// that ignores offset does: no two pages are equal, but they overlap.
type shiftingServer struct {
	shift    int
	requests atomic.Int32
}

func (s *shiftingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := int(s.requests.Add(1)) - 1
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	var items []string
	for i := n * s.shift; i < n*s.shift+limit; i++ {
		if strings.HasSuffix(r.URL.Path, "/accountStates") {
			items = append(items, fmt.Sprintf(`{"address":%q,"balance":"%d","last_transaction_lt":"%d"}`, account(i%256), i, i))
		} else {
			items = append(items, fmt.Sprintf(`{"account":%q,"hash":%q,"lt":"%d","now":1}`, account(0), base64.StdEncoding.EncodeToString(append(make([]byte, 31), byte(i))), i))
		}
	}
	key := "transactions"
	if strings.HasSuffix(r.URL.Path, "/accountStates") {
		key = "accounts"
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{%q:[%s],"address_book":{}}`, key, strings.Join(items, ","))
}

// Bug 2: a server that ignores offset while its data shifts between calls
// never sends the same page twice; the walk still ends, at the first page
// that holds an item already yielded, and yields nothing twice.
func TestWalkShiftingServerIgnoringOffset(t *testing.T) {
	for _, shift := range []int{1, 9} {
		for _, op := range []string{"accountStates", "pendingTransactions"} {
			s := &shiftingServer{shift: shift}
			srv := httptest.NewServer(s)
			c, err := ton.New(srv.URL, testKey, nodeaccess.WithMaxAttempts(1))
			require.NoError(t, err)
			var seq iter.Seq2[uint64, error]
			if op == "accountStates" {
				seq = func(yield func(uint64, error) bool) {
					for st, err := range c.AllAccountStates(context.Background(), ton.AccountStatesQuery{Limit: 10}) {
						if !yield(st.LastTransactionLT, err) {
							return
						}
					}
				}
			} else {
				seq = func(yield func(uint64, error) bool) {
					for tx, err := range c.AllPendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{acctLower}, Limit: 10}) {
						if !yield(tx.LT, err) {
							return
						}
					}
				}
			}
			var got []uint64
			var errs []error
			for lt, err := range seq {
				if err != nil {
					errs = append(errs, err)
					continue
				}
				got = append(got, lt)
				require.Less(t, len(got), 100, "%s shift %d: the walk does not end", op, shift)
			}
			srv.Close()
			want := make([]uint64, 10)
			for i := range want {
				want[i] = uint64(i)
			}
			assert.Equal(t, want, got, "%s shift %d", op, shift)
			require.Len(t, errs, 1, "%s shift %d", op, shift)
			assert.ErrorIs(t, errs[0], ton.ErrRepeatedPage)
			assert.ErrorIs(t, errs[0], nodeaccess.ErrInvalidResponse)
			assert.EqualError(t, errs[0], fmt.Sprintf("ton: %s: invalid response: server repeated an item of an earlier page: item 0 of the page at offset 10 was already yielded from the page at offset 0 (the server ignores offset, or the list changed between pages)", op))
			assert.Equal(t, int32(2), s.requests.Load())
		}
	}
}

// Historical states of one account (same account, other state hash and lt)
// are distinct items, not a repeat.
func TestAllAccountStatesHistoryOfOneAccount(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
		var items []string
		for i := offset; i < min(offset+2, 5); i++ {
			items = append(items, fmt.Sprintf(`{"address":%q,"balance":"%d","last_transaction_lt":"%d"}`, acctLower, i, 100+i))
		}
		fmt.Fprintf(w, `{"accounts":[%s]}`, strings.Join(items, ","))
	}))
	defer srv.Close()
	c, err := ton.New(srv.URL, testKey, nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	var lts []uint64
	for st, err := range c.AllAccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{acctLower}, Limit: 2}) {
		require.NoError(t, err)
		lts = append(lts, st.LastTransactionLT)
	}
	assert.Equal(t, []uint64{100, 101, 102, 103, 104}, lts)
}

// collect ranges over seq and returns what it yielded, errors as strings.
func collect[T any](seq iter.Seq2[T, error]) (items []T, errs []string) {
	for it, err := range seq {
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		items = append(items, it)
	}
	return items, errs
}

// Bug 3: the walks keep their state inside each range, so one sequence
// can be ranged twice, and by two goroutines at once (run with -race).
func TestWalkSequencesAreReusable(t *testing.T) {
	p := &pagedServer{n: 25}
	c := newPaged(t, p)
	states := c.AllAccountStates(context.Background(), ton.AccountStatesQuery{Limit: 10, Offset: 3})
	pending := c.AllPendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{acctLower}, Limit: 10, Offset: 3})
	balances := func() []int64 {
		items, errs := collect(states)
		assert.Empty(t, errs)
		out := make([]int64, len(items))
		for i, s := range items {
			out[i] = s.Balance.Int64()
		}
		return out
	}
	lts := func() []uint64 {
		items, errs := collect(pending)
		assert.Empty(t, errs)
		out := make([]uint64, len(items))
		for i, tx := range items {
			out[i] = tx.LT
		}
		return out
	}
	wantB := make([]int64, 22)
	wantL := make([]uint64, 22)
	for i := range wantB {
		wantB[i], wantL[i] = int64(i+3), uint64(i+3)
	}
	for run := range 2 {
		assert.Equal(t, wantB, balances(), "accountStates run %d", run)
		assert.Equal(t, wantL, lts(), "pendingTransactions run %d", run)
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(2)
		go func() { defer wg.Done(); assert.Equal(t, wantB, balances()) }()
		go func() { defer wg.Done(); assert.Equal(t, wantL, lts()) }()
	}
	wg.Wait()
}

// The class of issue 11 point 8: a server that caps limit below what was
// asked, without saying so, answers every page short. Both walkers still
// return every item once, in order, whatever the cap, the page size asked
// for and the number of items, and end on the empty page: ceil(n/p)+1
// requests for pages of p = min(limit, cap) items.
func TestWalksOverCappedServers(t *testing.T) {
	for _, n := range []int{0, 1, 7, 10, 11, 25, 100, 101} {
		for _, limit := range []int{0, 3, 10, 100} {
			for _, maxLimit := range []int{0, 1, 3, 7, 10, 50} {
				p := &pagedServer{n: n, maxLimit: maxLimit}
				c := newPaged(t, p)
				// Pages of the limit, by default walkPageSize for
				// accountStates and maxLimit for pendingTransactions.
				per, perPending := limit, limit
				if limit == 0 {
					per, perPending = 100, 1000
				}
				if maxLimit > 0 {
					per, perPending = min(per, maxLimit), min(perPending, maxLimit)
				}
				name := fmt.Sprintf("n=%d limit=%d cap=%d", n, limit, maxLimit)
				want := make([]uint64, n)
				for i := range want {
					want[i] = uint64(i)
				}

				states, errs := collect(c.AllAccountStates(context.Background(), ton.AccountStatesQuery{Limit: limit}))
				require.Empty(t, errs, name)
				got := make([]uint64, len(states))
				for i, s := range states {
					got[i] = uint64(s.Balance.Int64())
				}
				assert.Equal(t, want, got, "accountStates %s", name)
				requests := (n+per-1)/per + 1
				assert.Len(t, p.queries, requests, "accountStates %s", name)

				p.queries = nil
				txs, errs := collect(c.AllPendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{acctLower}, Limit: limit}))
				require.Empty(t, errs, name)
				got = got[:0]
				for _, tx := range txs {
					got = append(got, tx.LT)
				}
				assert.Equal(t, want, append([]uint64{}, got...), "pendingTransactions %s", name)
				assert.Len(t, p.queries, (n+perPending-1)/perPending+1, "pendingTransactions %s", name)
			}
		}
	}
}

// The same on the wire, with the recorded v3 transaction body (testdata/
// SOURCES.md) as the page of a server that answers one transaction to
// limit=10: the walk asks for the page after it (offset=1), and only the
// empty answer there ends it. Every request is pinned; gock fails the test
// on a request it does not expect and on one that does not come.
func TestAllPendingTransactionsCappedOnTheWire(t *testing.T) {
	c := gockClient(t)
	mockGET(t, pathPending, "account="+axelarAcctEscape+"&limit=10", 200, string(testdata(t, v3TxFixture)))
	mockGET(t, pathPending, "account="+axelarAcctEscape+"&limit=10&offset=1", 200, `{"transactions":[],"address_book":{}}`)
	txs, errs := collect(c.AllPendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{axelarAcct}, Limit: 10}))
	require.Empty(t, errs)
	require.Len(t, txs, 1)
	assert.Equal(t, mustAddress(axelarAcct), txs[0].Account)
	assert.Equal(t, big.NewInt(6617389), txs[0].TotalFees)
}
