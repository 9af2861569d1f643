package tontest_test

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shared answers (wrong key, unknown path, faults) carry the body of
// the API the path belongs to. The key sits second in v2 paths and first
// in v3 paths; a wrong one there is 403, and the wrong key is not echoed.
func TestWrongKeyAndUnknownPath(t *testing.T) {
	s := start(t)
	for _, c := range []struct {
		path   string
		status int
		body   string
	}{
		{"/api/v2/wrong-key/getBlockTransactionsExt?" + blockQuery, 403, `{"ok":false,"error":"invalid access key","code":403}`},
		{"/api/v2/" + testKey + "x/getBlockTransactionsExt?" + blockQuery, 403, `{"ok":false,"error":"invalid access key","code":403}`},
		{"/wrong-key/api/v3/accountStates", 403, `{"error":"invalid access key"}`},
		{"/wrong-key/api/v3/pendingTransactions?account=" + tontest.DefaultAccount, 403, `{"error":"invalid access key"}`},
		{"/api/v2/" + testKey + "/getMasterchainInfo", 404, `{"ok":false,"error":"Not Found","code":404}`},
		{"/" + testKey + "/api/v3/transactions", 404, `{"error":"Not Found"}`},
		{"/api/v3/" + testKey + "/accountStates", 404, `{"error":"Not Found"}`}, // the key where v2 puts it
		{"/" + testKey + "/api/v2/getBlockTransactionsExt", 404, `{"error":"Not Found"}`},
		{"/", 404, `{"error":"Not Found"}`},
	} {
		r := get(t, s, c.path)
		assert.Equal(t, c.status, r.status, c.path)
		assert.Equal(t, c.body, r.body, c.path)
		assert.Equal(t, "application/json", r.header.Get("Content-Type"), c.path)
	}
	r := post(t, s, "/api/v2/nope/jsonRPC", `{"id":1}`)
	assert.Equal(t, `{"ok":false,"error":"invalid access key","code":403}`, r.body)

	// Through the client: a typed error, without the key.
	c, err := ton.New(s.URL, "wrong-key", nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	_, err = c.BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock()})
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, 403, he.StatusCode)
	assert.Contains(t, err.Error(), "invalid access key")
	testkit.AssertErrNoKey(t, "wrong-key", err)
}

// 429 in each API's form: v2's {"ok":false,"result":"Ratelimit exceed"},
// v3's {"error":…}; both with Retry-After.
func TestRateLimitBodies(t *testing.T) {
	s := start(t)
	s.FailNext(2, nodeaccesstest.RateLimited(1500*time.Millisecond))
	r := get(t, s, pathBlock+"?"+blockQuery)
	assert.Equal(t, 429, r.status)
	assert.Equal(t, "2", r.header.Get("Retry-After"))
	assert.Equal(t, `{"ok":false,"result":"Ratelimit exceed","code":429}`, r.body)
	r = get(t, s, pathStates)
	assert.Equal(t, 429, r.status)
	assert.Equal(t, `{"error":"rate limit exceeded"}`, r.body)
	s.FailNext(1, nodeaccesstest.ServerError(504))
	r = post(t, s, pathRPC, `{}`)
	assert.Equal(t, `{"ok":false,"error":"gateway timeout","code":504}`, r.body)
}

// Each fault, seen through ton.Client: retried to success, or the right
// typed error; the hook proves the attempts, and no error shows the key.
func TestFaultsThroughClient(t *testing.T) {
	ctx := context.Background()
	q := ton.BlockTransactionsQuery{Block: tontest.DefaultBlock()}

	t.Run("429 twice then success, honouring Retry-After", func(t *testing.T) {
		s := start(t)
		var rec testkit.Recorder
		c := client(t, s, rec.Option())
		s.FailNext(2, nodeaccesstest.RateLimited(time.Second))
		began := time.Now()
		page, err := c.BlockTransactions(ctx, q)
		require.NoError(t, err)
		assert.Len(t, page.Transactions, 3)
		assert.GreaterOrEqual(t, time.Since(began), 2*time.Second)
		a := rec.Attempts()
		require.Len(t, a, 3)
		assert.Equal(t, []int{429, 429, 200}, []int{a[0].StatusCode, a[1].StatusCode, a[2].StatusCode})
		assert.Equal(t, time.Second, a[0].Retry)
		assert.Equal(t, 3, s.Requests())
		testkit.AssertNoKey(t, testKey, "log", rec.Log())
	})
	t.Run("429 on every attempt", func(t *testing.T) {
		s := start(t)
		c := client(t, s, nodeaccess.WithMaxAttempts(2))
		s.FailNext(2, nodeaccesstest.RateLimited(0))
		_, err := c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount}})
		require.ErrorIs(t, err, nodeaccess.ErrRateLimited)
		testkit.AssertErrNoKey(t, testKey, err)
	})
	t.Run("5xx then success", func(t *testing.T) {
		s := start(t)
		var rec testkit.Recorder
		c := client(t, s, rec.Option(), ton.WithJSONRPC())
		s.FailNext(1, nodeaccesstest.ServerError(500))
		s.FailNext(1, nodeaccesstest.ServerError(542))
		_, err := c.BlockTransactions(ctx, q)
		require.NoError(t, err)
		assert.Len(t, rec.Attempts(), 3)
	})
	t.Run("5xx to the end", func(t *testing.T) {
		s := start(t)
		c := client(t, s, nodeaccess.WithMaxAttempts(2))
		s.FailNext(2, nodeaccesstest.ServerError(503))
		_, err := c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}})
		var he *nodeaccess.HTTPError
		require.ErrorAs(t, err, &he)
		assert.Equal(t, 503, he.StatusCode)
		assert.Equal(t, "service unavailable", he.Message)
		testkit.AssertErrNoKey(t, testKey, err)
	})
	t.Run("dropped connection then success", func(t *testing.T) {
		s := start(t)
		var rec testkit.Recorder
		c := client(t, s, rec.Option())
		s.FailNext(1, nodeaccesstest.DropConnection())
		_, err := c.BlockTransactions(ctx, q)
		require.NoError(t, err)
		a := rec.Attempts()
		require.Len(t, a, 2)
		assert.Equal(t, 0, a[0].StatusCode)
		assert.Error(t, a[0].Err)
	})
	t.Run("dropped connection to the end", func(t *testing.T) {
		s := start(t)
		c := client(t, s, nodeaccess.WithMaxAttempts(2))
		s.FailNext(2, nodeaccesstest.DropConnection())
		_, err := c.AccountStates(ctx, ton.AccountStatesQuery{})
		require.Error(t, err)
		testkit.AssertErrNoKey(t, testKey, err)
	})
	t.Run("truncated body then success", func(t *testing.T) {
		s := start(t)
		var rec testkit.Recorder
		c := client(t, s, rec.Option())
		s.FailNext(1, nodeaccesstest.TruncatedBody())
		page, err := c.BlockTransactions(ctx, q)
		require.NoError(t, err)
		assert.Len(t, page.Transactions, 3)
		assert.Len(t, rec.Attempts(), 2)
	})
	t.Run("slow body within the timeout", func(t *testing.T) {
		s := start(t)
		c := client(t, s, nodeaccess.WithTimeout(5*time.Second))
		s.FailNext(1, nodeaccesstest.SlowBody(200*time.Millisecond))
		began := time.Now()
		page, err := c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}})
		require.NoError(t, err)
		assert.Len(t, page.Transactions, 1)
		assert.GreaterOrEqual(t, time.Since(began), 200*time.Millisecond)
	})
	t.Run("slow body past the timeout", func(t *testing.T) {
		s := start(t)
		c := client(t, s, nodeaccess.WithTimeout(100*time.Millisecond), nodeaccess.WithMaxAttempts(1))
		s.FailNext(1, nodeaccesstest.SlowBody(10*time.Second))
		began := time.Now()
		_, err := c.BlockTransactions(ctx, q)
		require.Error(t, err)
		assert.Less(t, time.Since(began), 5*time.Second)
		assert.Contains(t, err.Error(), "timed out")
		testkit.AssertErrNoKey(t, testKey, err)
	})
	t.Run("cancelled context", func(t *testing.T) {
		s := start(t)
		c := client(t, s)
		s.FailNext(1, nodeaccesstest.SlowBody(10*time.Second))
		cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		_, err := c.BlockTransactions(cctx, q)
		require.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)
	})
}

// Close is idempotent, stops serving, and leaves no goroutine behind.
func TestCloseIdempotent(t *testing.T) {
	before := runtime.NumGoroutine()
	s, err := tontest.New()
	require.NoError(t, err)
	c, err := s.Client()
	require.NoError(t, err)
	_, err = c.BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock()})
	require.NoError(t, err)
	s.Close()
	s.Close()
	_, err = http.Get(s.URL + "/")
	require.Error(t, err)
	http.DefaultClient.CloseIdleConnections()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before+2, "goroutines left after Close")
}
