package hypertest_test

import (
	"context"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
)

// faultClient is a client of srv with fast backoff and a hook recorder.
func faultClient(t *testing.T, srv *hypertest.Server, opts ...nodeaccess.Option) (*hyper.Client, *testkit.Recorder) {
	t.Helper()
	rec := &testkit.Recorder{}
	all := append([]nodeaccess.Option{nodeaccess.WithBackoff(time.Millisecond, 2*time.Millisecond)}, rec.Option())
	return client(t, srv, append(all, opts...)...), rec
}

// statuses returns the status of each attempt.
func statuses(rec *testkit.Recorder) []int {
	var out []int
	for _, a := range rec.Attempts() {
		out = append(out, a.StatusCode)
	}
	return out
}

// The error bodies the server gives each fault, raw.
func TestFaultBodies(t *testing.T) {
	srv := start(t)
	node := srv.URL + "/" + testKey + "/info"
	body := `{"type":"userVaultEquities","user":"` + defaultUserText + `"}`

	srv.FailNext(1, nodeaccesstest.ServerError(500))
	got := postJSON(t, node, body)
	assert.Equal(t, answer{status: 500, ctype: "application/json", body: "null"}, answer{got.status, got.ctype, got.body, nil})

	srv.FailNext(1, nodeaccesstest.RateLimited(1500*time.Millisecond))
	got = postJSON(t, node, body)
	assert.Equal(t, answer{status: 429, ctype: "application/json", body: "null"}, answer{got.status, got.ctype, got.body, nil})
	assert.Equal(t, "2", got.header.Get("Retry-After"))

	srv.Public.FailNext(1, nodeaccesstest.ServerError(422))
	got = postJSON(t, srv.Public.URL+"/info", `{"type":"allMids"}`)
	assert.Equal(t, answer{status: 422, ctype: "text/plain; charset=utf-8", body: unsupported}, answer{got.status, got.ctype, got.body, nil})

	srv.FailNext(1, nodeaccesstest.ServerError(403))
	got = postJSON(t, node, body)
	assert.Equal(t, answer{status: 403, ctype: "text/plain; charset=utf-8", body: "forbidden"}, answer{got.status, got.ctype, got.body, nil})

	// The faults were used up: the next answers are the real ones.
	assert.Equal(t, 200, postJSON(t, node, body).status)
	assert.Equal(t, 200, postJSON(t, srv.Public.URL+"/info", `{"type":"allMids"}`).status)
}

// Hyperliquid's 500 null is retried; the third attempt succeeds.
func TestFaultServerErrorNullRetried(t *testing.T) {
	srv := start(t)
	c, rec := faultClient(t, srv)
	srv.FailNext(2, nodeaccesstest.ServerError(500))
	got, err := c.UserVaultEquities(context.Background(), hypertest.DefaultUser())
	require.NoError(t, err)
	require.Len(t, got, 2)
	assertDecimal(t, "688536.0314879999", got[0].Equity)
	assert.Equal(t, []int{500, 500, 200}, statuses(rec))
	assert.Equal(t, 3, srv.Requests())
	assert.Equal(t, 0, srv.Public.Requests())
}

// 429 with Retry-After on the public API: the client waits as asked and
// succeeds on the third attempt; the node sees nothing.
func TestFaultRateLimitedRetried(t *testing.T) {
	srv := start(t)
	c, rec := faultClient(t, srv)
	srv.Public.FailNext(2, nodeaccesstest.RateLimited(time.Second))
	start := time.Now()
	mids, err := c.AllMids(context.Background(), "")
	require.NoError(t, err)
	assert.Equal(t, 426, mids.Len())
	assert.GreaterOrEqual(t, time.Since(start), 2*time.Second)
	assert.Equal(t, []int{429, 429, 200}, statuses(rec))
	for _, a := range rec.Attempts()[:2] {
		assert.True(t, a.WillRetry)
		assert.Equal(t, time.Second, a.Retry)
	}
	assert.Equal(t, 3, srv.Public.Requests())
	assert.Equal(t, 0, srv.Requests())
}

// 429 until the attempts run out is ErrRateLimited; 422 is
// ErrUnsupportedRequest; other 4xx are HTTP errors. No error shows the key.
func TestFaultFinalErrors(t *testing.T) {
	srv := start(t)
	c, rec := faultClient(t, srv, nodeaccess.WithMaxAttempts(2))
	ctx := context.Background()

	srv.FailNext(2, nodeaccesstest.RateLimited(0))
	_, err := c.UserVaultEquities(ctx, hypertest.DefaultUser())
	assert.ErrorIs(t, err, nodeaccess.ErrRateLimited)
	testkit.AssertErrNoKey(t, testKey, err)

	srv.FailNext(1, nodeaccesstest.ServerError(422))
	_, err = c.UserVaultEquities(ctx, hypertest.DefaultUser())
	assert.ErrorIs(t, err, hyper.ErrUnsupportedRequest)
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, 422, he.StatusCode)
	assert.Equal(t, unsupported, string(he.Body))
	testkit.AssertErrNoKey(t, testKey, err)

	srv.FailNext(1, nodeaccesstest.ServerError(500))
	srv.FailNext(1, nodeaccesstest.ServerError(503))
	_, err = c.UserVaultEquities(ctx, hypertest.DefaultUser())
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	testkit.AssertErrNoKey(t, testKey, err)

	assert.Equal(t, []int{429, 429, 422, 500, 503}, statuses(rec))
}

// A client with the wrong key gets 403; the key it sent is not echoed.
func TestWrongKeyThroughClient(t *testing.T) {
	srv := start(t)
	const wrong = "wrong-key-123"
	c, err := hyper.New(srv.URL, wrong, hyper.WithPublicURL(srv.Public.URL))
	require.NoError(t, err)
	_, err = c.UserVaultEquities(context.Background(), hypertest.DefaultUser())
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, http.StatusForbidden, he.StatusCode)
	testkit.AssertErrNoKey(t, wrong, err)
	testkit.AssertErrNoKey(t, testKey, err)
	// The public API needs no key: the same client still gets mids.
	_, err = c.AllMids(context.Background(), "")
	assert.NoError(t, err)
}

// A dropped connection is retried; with one attempt it is a connection
// error that does not show the key.
func TestFaultDropConnection(t *testing.T) {
	srv := start(t)
	c, rec := faultClient(t, srv)
	srv.FailNext(1, nodeaccesstest.DropConnection())
	_, err := c.UserVaultEquities(context.Background(), hypertest.DefaultUser())
	require.NoError(t, err)
	assert.Equal(t, []int{0, 200}, statuses(rec))

	one, _ := faultClient(t, srv, nodeaccess.WithMaxAttempts(1))
	srv.FailNext(1, nodeaccesstest.DropConnection())
	_, err = one.UserVaultEquities(context.Background(), hypertest.DefaultUser())
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.ErrorContains(t, err, "hyper: userVaultEquities: service unavailable: ")
	testkit.AssertErrNoKey(t, testKey, err)
}

// A body slower than the client's per-attempt timeout: the attempt times
// out and the retry gets the whole body. (The timeout is a second, so that
// an attempt that is not held answers within it on a loaded machine too.)
func TestFaultSlowBody(t *testing.T) {
	srv := start(t)
	c, rec := faultClient(t, srv, nodeaccess.WithTimeout(time.Second))
	srv.Public.FailNext(1, nodeaccesstest.SlowBody(5*time.Second))
	start := time.Now()
	mids, err := c.AllMids(context.Background(), hypertest.BuilderDex)
	require.NoError(t, err)
	assert.Equal(t, 2, mids.Len())
	assert.Less(t, time.Since(start), 4*time.Second, "the slow attempt was cut by the timeout")
	a := rec.Attempts()
	require.Len(t, a, 2)
	assert.Error(t, a[0].Err)
	assert.NoError(t, a[1].Err)

	// Without retries, the timeout is the call's error; a slow body within
	// the timeout is read whole.
	one, _ := faultClient(t, srv, nodeaccess.WithTimeout(time.Second), nodeaccess.WithMaxAttempts(1))
	srv.Public.FailNext(1, nodeaccesstest.SlowBody(5*time.Second))
	_, err = one.AllMids(context.Background(), "")
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	testkit.AssertErrNoKey(t, testKey, err)

	srv.FailNext(1, nodeaccesstest.SlowBody(50*time.Millisecond))
	v, err := one.UserVaultEquities(context.Background(), hypertest.DefaultUser())
	require.NoError(t, err)
	assert.Len(t, v, 2)
}

// A truncated body is retried like a dropped connection, and with one
// attempt it is an error, never a short list.
func TestFaultTruncatedBody(t *testing.T) {
	srv := start(t)
	one, _ := faultClient(t, srv, nodeaccess.WithMaxAttempts(1))
	srv.FailNext(1, nodeaccesstest.TruncatedBody())
	v, err := one.UserVaultEquities(context.Background(), hypertest.DefaultUser())
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.Nil(t, v)
	testkit.AssertErrNoKey(t, testKey, err)

	c, rec := faultClient(t, srv)
	srv.Public.FailNext(1, nodeaccesstest.TruncatedBody())
	mids, err := c.AllMids(context.Background(), "")
	require.NoError(t, err)
	assert.Equal(t, 426, mids.Len())
	a := rec.Attempts()
	require.Len(t, a, 2)
	assert.ErrorContains(t, a[0].Err, "unexpected EOF", "the cut body")
	assert.Equal(t, 200, a[0].StatusCode)
	assert.NoError(t, a[1].Err)
}

// Close is idempotent, stops both servers and leaves no goroutine behind.
func TestClose(t *testing.T) {
	before := runtime.NumGoroutine()
	srv, err := hypertest.New()
	require.NoError(t, err)
	c, err := srv.Client(nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	_, err = c.UserVaultEquities(context.Background(), hypertest.DefaultUser())
	require.NoError(t, err)
	_, err = c.AllMids(context.Background(), "")
	require.NoError(t, err)
	srv.Close()
	srv.Close()

	_, err = c.UserVaultEquities(context.Background(), hypertest.DefaultUser())
	assert.Error(t, err, "the node is closed")
	_, err = c.AllMids(context.Background(), "")
	assert.Error(t, err, "the public API is closed")
	testkit.AssertErrNoKey(t, srv.Key(), err)

	http.DefaultClient.CloseIdleConnections()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before+2, "goroutines left after Close")
}
