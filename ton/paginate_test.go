package ton_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// account returns the raw address 0:<i as the last byte>.
func account(i int) string { return fmt.Sprintf("0:%062x%02x", 0, i) }

// pagedServer serves n account states and n pending transactions with
// limit/offset. With ignoreOffset it always serves the first page; failAt
// makes the request with that offset fail with a 422.
type pagedServer struct {
	n            int
	ignoreOffset bool
	failAt       int
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
	if p.ignoreOffset {
		offset = 0
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
			items = append(items, fmt.Sprintf(`{"address":%q,"balance":"%d","status":"active"}`, account(i), i))
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
	c, err := ton.New(srv.URL, testKey, nodeaccess.WithoutRetries())
	require.NoError(t, err)
	return c
}

func TestAllAccountStates(t *testing.T) {
	for _, n := range []int{0, 1, 9, 10, 25, 30} {
		p := &pagedServer{n: n}
		c := newPaged(t, p)
		var got []int64
		for s, err := range c.AllAccountStates(context.Background(), ton.AccountStatesQuery{Account: acctLower, Limit: 10}) {
			require.NoError(t, err)
			assert.Equal(t, ton.MustParseAddress(account(int(s.Balance.Int64()))), s.Account)
			got = append(got, s.Balance.Int64())
		}
		require.Len(t, got, n)
		for i, b := range got {
			assert.Equal(t, int64(i), b)
		}
		// Pages until a short one: n/10 full pages and one short (maybe empty).
		want := []string{}
		for off := 0; off <= n; off += 10 {
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
	assert.Equal(t, []string{"include_boc=false&limit=100&offset=20", "include_boc=false&limit=100&offset=120"}, p.queries)
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
	assert.EqualError(t, last, "ton: accountStates: invalid response: server repeated the previous page: the page at offset 10 repeats the page at offset 0 (the server ignores offset)")
	assert.Len(t, p.queries, 2)
}

func TestAllPendingTransactionsErrorOnceAndStop(t *testing.T) {
	p := &pagedServer{n: 50, failAt: 20}
	c := newPaged(t, p)
	var lts []uint64
	var errs []error
	for tx, err := range c.AllPendingTransactions(context.Background(), ton.PendingTransactionsQuery{Account: acctLower, Limit: 10}) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		lts = append(lts, tx.LT)
	}
	assert.Len(t, lts, 20)
	require.Len(t, errs, 1)
	var re *nodeaccess.RPCError
	require.True(t, errors.As(errs[0], &re))
	assert.Equal(t, "offset too large", re.Message)
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
	for range c.AllPendingTransactions(context.Background(), ton.PendingTransactionsQuery{Account: acctLower}) {
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
