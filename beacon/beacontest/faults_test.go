package beacontest_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// statuses returns the status of each attempt the recorder saw.
func statuses(rec *testkit.Recorder) []int {
	var out []int
	for _, a := range rec.Attempts() {
		out = append(out, a.StatusCode)
	}
	return out
}

// faultServer serves one small state, so that the fault tests are quick.
func faultServer(t *testing.T) (*beacontest.Server, beacon.Root) {
	t.Helper()
	st := smallState(beacon.Fulu, 42, 0, 0, 7)
	srv := start(t, beacontest.WithStates(st))
	root, err := beacon.HashTreeRoot(st)
	require.NoError(t, err)
	return srv, root
}

// Two 429s with Retry-After: 1 are waited out; the third attempt gets the
// state, as the hook's three attempts show.
func TestFaultRateLimitedRetried(t *testing.T) {
	srv, root := faultServer(t)
	rec := &testkit.Recorder{}
	c := client(t, srv, rec.Option())
	srv.FailNext(2, nodeaccesstest.RateLimited(time.Second))
	start := time.Now()
	_, _, err := c.State(context.Background(), beacon.RootID(root), beacon.StateOptions{})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), 2*time.Second)
	assert.Equal(t, []int{429, 429, 200}, statuses(rec))
	atts := rec.Attempts()
	assert.Equal(t, time.Second, atts[0].Retry)
	assert.True(t, atts[0].WillRetry)
	assert.Equal(t, 3, atts[2].Number)
	assert.Equal(t, 3, srv.RequestCount())
	testkit.AssertNoKey(t, testKey, "log", rec.Log())
}

// A 429 beyond the attempts left is an *nodeaccess.HTTPError that matches
// nodeaccess.ErrRateLimited and carries Retry-After.
func TestFaultRateLimitedExhausted(t *testing.T) {
	srv, _ := faultServer(t)
	c := client(t, srv, nodeaccess.WithMaxAttempts(1))
	srv.FailNext(1, nodeaccesstest.RateLimited(3*time.Second))
	_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	var ae *nodeaccess.HTTPError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 429, ae.StatusCode)
	assert.Equal(t, "TOO_MANY_REQUESTS: rate limit exceeded", ae.Message)
	assert.Equal(t, 3*time.Second, ae.RetryAfter)
	assert.ErrorIs(t, err, nodeaccess.ErrRateLimited)
	testkit.AssertErrNoKey(t, testKey, err)
}

// 503 is retried; 500 is not, and is an *nodeaccess.HTTPError matching
// nodeaccess.ErrUnavailable.
func TestFaultServerErrors(t *testing.T) {
	srv, _ := faultServer(t)
	rec := &testkit.Recorder{}
	c := client(t, srv, rec.Option(), nodeaccess.WithBackoff(time.Millisecond, 5*time.Millisecond))
	srv.FailNext(1, nodeaccesstest.ServerError(503))
	_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.NoError(t, err)
	assert.Equal(t, []int{503, 200}, statuses(rec))

	srv.FailNext(1, nodeaccesstest.ServerError(500))
	_, _, err = c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	var ae *nodeaccess.HTTPError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 500, ae.StatusCode)
	assert.Equal(t, "INTERNAL_SERVER_ERROR: internal server error", ae.Message)
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.Equal(t, []int{503, 200, 500}, statuses(rec))
	testkit.AssertErrNoKey(t, testKey, err)
}

// A dropped connection is retried; with no attempts left it is
// nodeaccess.ErrUnavailable.
func TestFaultDropConnection(t *testing.T) {
	srv, root := faultServer(t)
	rec := &testkit.Recorder{}
	c := client(t, srv, rec.Option(), nodeaccess.WithBackoff(time.Millisecond, 5*time.Millisecond))
	srv.FailNext(1, nodeaccesstest.DropConnection())
	_, _, err := c.State(context.Background(), beacon.RootID(root), beacon.StateOptions{})
	require.NoError(t, err)
	assert.Equal(t, []int{0, 200}, statuses(rec))

	// On a new connection (net/http itself resends a GET once when a
	// reused keep-alive connection closes before answering).
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	c1 := client(t, srv, nodeaccess.WithMaxAttempts(1), nodeaccess.WithHTTPClient(fresh))
	srv.FailNext(1, nodeaccesstest.DropConnection())
	n := srv.RequestCount()
	_, _, err = c1.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.Error(t, err)
	assert.Equal(t, n+1, srv.RequestCount())
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	testkit.AssertErrNoKey(t, testKey, err)
}

// A body cut in half (with the whole Content-Length announced) is caught:
// State fetches it again and verifies the state it gets; with no attempt
// left the call fails, and no state is returned.
func TestFaultTruncatedBody(t *testing.T) {
	srv, root := faultServer(t)
	rec := &testkit.Recorder{}
	c := client(t, srv, rec.Option(), nodeaccess.WithBackoff(time.Millisecond, 5*time.Millisecond))
	srv.FailNext(1, nodeaccesstest.TruncatedBody())
	_, _, err := c.State(context.Background(), beacon.RootID(root), beacon.StateOptions{})
	require.NoError(t, err)
	assert.Len(t, rec.Attempts(), 2)
	assert.Error(t, rec.Attempts()[0].Err)

	for _, enc := range []beacon.Encoding{beacon.EncodingSSZ, beacon.EncodingJSON} {
		c1 := client(t, srv, nodeaccess.WithMaxAttempts(1), beacon.WithEncoding(enc))
		srv.FailNext(1, nodeaccesstest.TruncatedBody())
		res, _, err := c1.State(context.Background(), beacon.RootID(root), beacon.StateOptions{})
		require.Error(t, err, enc)
		assert.Nil(t, res)
		assert.ErrorIs(t, err, nodeaccess.ErrUnavailable, enc)
		testkit.AssertErrNoKey(t, testKey, err)
	}

	// DownloadState into a file with DownloadOptions.Restart: the file is emptied and
	// written again, and holds the whole body once. (Without it, the call
	// fails and the file keeps the half that came.)
	path := filepath.Join(t.TempDir(), "state.ssz")
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	srv.FailNext(1, nodeaccesstest.TruncatedBody())
	_, err = c.DownloadState(context.Background(), beacon.Head, f, beacon.DownloadOptions{})
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	require.NoError(t, f.Truncate(0))
	_, err = f.Seek(0, io.SeekStart)
	require.NoError(t, err)
	srv.FailNext(1, nodeaccesstest.TruncatedBody())
	d, err := c.DownloadState(context.Background(), beacon.Head, f, beacon.DownloadOptions{Restart: func() error {
		if err := f.Truncate(0); err != nil {
			return err
		}
		_, err := f.Seek(0, io.SeekStart)
		return err
	}})
	require.NoError(t, err)
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	want, err := srv.Body(beacon.Head, beacon.EncodingSSZ)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want, got))
	assert.Equal(t, int64(len(want)), d.Bytes)

	// Into a buffer, without Restart: the half already written makes
	// the call fail rather than write the body twice.
	srv.FailNext(1, nodeaccesstest.TruncatedBody())
	var buf bytes.Buffer
	_, err = c.DownloadState(context.Background(), beacon.Head, &buf, beacon.DownloadOptions{})
	require.Error(t, err)
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.ErrorContains(t, err, "(DownloadOptions.Restart lets the call fetch it again)")
}

// A body that pauses longer than the client's per-attempt timeout fails
// with the timeout; a patient client gets the state.
func TestFaultSlowBody(t *testing.T) {
	srv, root := faultServer(t)
	c := client(t, srv, nodeaccess.WithMaxAttempts(1), nodeaccess.WithTimeout(200*time.Millisecond))
	srv.FailNext(1, nodeaccesstest.SlowBody(5*time.Second))
	start := time.Now()
	_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.Error(t, err)
	assert.Less(t, time.Since(start), 3*time.Second)
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.ErrorContains(t, err, "attempt timed out after 200ms")
	testkit.AssertErrNoKey(t, testKey, err)

	patient := client(t, srv)
	srv.FailNext(1, nodeaccesstest.SlowBody(300*time.Millisecond))
	start = time.Now()
	_, _, err = patient.State(context.Background(), beacon.RootID(root), beacon.StateOptions{})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond)
}

// Close is idempotent, ends the server's goroutines, and a closed server
// refuses connections.
func TestCloseIdempotent(t *testing.T) {
	before := runtime.NumGoroutine()
	st := smallState(beacon.Deneb, 1, 0, 0, 1)
	srv, err := beacontest.New(beacontest.WithStates(st))
	require.NoError(t, err)
	c, err := srv.Client(nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	_, _, err = c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.NoError(t, err)
	srv.Close()
	srv.Close()
	_, _, err = c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	_, ok := srv.Lookup(beacon.Head)
	assert.False(t, ok, "Close drops the states")

	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond) // the client's idle connections wind down
		runtime.GC()
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before+2)
}
