package nodeaccesstest_test

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const okBody = `{"got":{"n":1234567890}}`

func TestFaultStrings(t *testing.T) {
	assert.Equal(t, "429 with Retry-After 2", nodeaccesstest.RateLimited(1500*time.Millisecond).String())
	assert.Equal(t, "429 with Retry-After 0", nodeaccesstest.RateLimited(0).String())
	assert.Equal(t, "HTTP 503", nodeaccesstest.ServerError(503).String())
	assert.Equal(t, "slow body (pause 1s)", nodeaccesstest.SlowBody(time.Second).String())
	assert.Equal(t, "truncated body", nodeaccesstest.TruncatedBody().String())
	assert.Equal(t, "dropped connection", nodeaccesstest.DropConnection().String())
	assert.Equal(t, "no fault", nodeaccesstest.Fault{}.String())
	assert.PanicsWithValue(t, "nodeaccesstest.ServerError: status 302 is not a 4xx or 5xx code", func() { nodeaccesstest.ServerError(302) })
	assert.PanicsWithValue(t, "nodeaccesstest.ServerError: status 600 is not a 4xx or 5xx code", func() { nodeaccesstest.ServerError(600) })
}

// Faults are taken in the order queued, n requests each, on any path, and
// the server answers normally afterwards.
func TestFailNextOrder(t *testing.T) {
	s := start(t, "k")
	s.FailNext(2, nodeaccesstest.RateLimited(1500*time.Millisecond))
	s.FailNext(1, nodeaccesstest.ServerError(503))
	s.FailNext(0, nodeaccesstest.ServerError(500)) // nothing
	s.FailNext(1, nodeaccesstest.ServerError(502))

	want := []answer{
		{429, nil, `{"code":429,"message":"rate limit exceeded","path":"/k/info"}`},
		{429, nil, `{"code":429,"message":"rate limit exceeded","path":"/nowhere"}`},
		{503, nil, `{"code":503,"message":"service unavailable","path":"/k/info"}`},
		{502, nil, `{"code":502,"message":"bad gateway","path":"/wrong/info"}`},
		{200, nil, okBody},
	}
	paths := []string{"/k/info", "/nowhere", "/k/info", "/wrong/info", "/k/info"}
	for i, p := range paths {
		a, err := do(t, http.DefaultClient, "POST", s.URL+p, `{"n":1234567890}`)
		require.NoError(t, err)
		if i < 2 {
			assert.Equal(t, "2", a.header.Get("Retry-After"), i)
		} else {
			assert.Empty(t, a.header.Values("Retry-After"), i)
		}
		a.header = nil
		assert.Equal(t, want[i], a, i)
	}
	assert.Equal(t, 5, s.RequestCount())

	s.FailNext(5, nodeaccesstest.ServerError(500))
	s.ClearFaults()
	a, err := do(t, http.DefaultClient, "POST", s.URL+"/k/info", `{"n":1234567890}`)
	require.NoError(t, err)
	assert.Equal(t, 200, a.status)
}

func TestDropConnection(t *testing.T) {
	s := start(t, "k")
	s.FailNext(1, nodeaccesstest.DropConnection())
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	_, err := do(t, c, "POST", s.URL+"/k/info", strings.Repeat("x", 1<<20))
	require.Error(t, err)
	assert.ErrorIs(t, err, io.EOF, "%v", err)
	a, err := do(t, c, "POST", s.URL+"/k/info", `{"n":1234567890}`)
	require.NoError(t, err)
	assert.Equal(t, okBody, a.body)
	assert.Equal(t, 2, s.RequestCount())
}

func TestTruncatedBody(t *testing.T) {
	s := start(t, "k")
	s.FailNext(1, nodeaccesstest.TruncatedBody())
	resp, err := http.Post(s.URL+"/k/info", "application/json", strings.NewReader(`{"n":1234567890}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, int64(len(okBody)), resp.ContentLength)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	b, err := io.ReadAll(resp.Body)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, okBody[:len(okBody)/2], string(b))
}

func TestSlowBody(t *testing.T) {
	s := start(t, "k")
	// A second: longer than a loaded machine takes to send the headers.
	const pause = time.Second
	s.FailNext(1, nodeaccesstest.SlowBody(pause))
	start := time.Now()
	resp, err := http.Post(s.URL+"/k/info", "application/json", strings.NewReader(`{"n":1234567890}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	headers := time.Since(start)
	assert.Equal(t, int64(len(okBody)), resp.ContentLength)
	first := make([]byte, len(okBody)/2)
	_, err = io.ReadFull(resp.Body, first)
	require.NoError(t, err)
	assert.Equal(t, okBody[:len(okBody)/2], string(first))
	assert.Less(t, headers, pause, "the headers and the first half come at once")
	rest, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, okBody[len(okBody)/2:], string(rest))
	assert.GreaterOrEqual(t, time.Since(start), pause, "the rest comes after the pause")
}

// A client that gives up during the pause frees the handler, and Close ends
// a pause at once: a long slow body does not hold up Close.
func TestSlowBodyEndsWithClientAndClose(t *testing.T) {
	s, err := nodeaccesstest.Start("k", jsonError)
	require.NoError(t, err)
	s.HandleFunc("GET /{key}/x", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "0123456789") })
	s.FailNext(2, nodeaccesstest.SlowBody(time.Hour))

	// A second: the headers come before it on a loaded machine too.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+"/k/x", nil)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_, err = io.ReadAll(resp.Body)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	resp.Body.Close()

	got := make(chan error, 1)
	go func() {
		resp, err := http.Get(s.URL + "/k/x")
		if err == nil {
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		got <- err
	}()
	for s.RequestCount() < 2 {
		time.Sleep(5 * time.Millisecond)
	}
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for a slow body's pause")
	}
	err = <-got
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "%v", err)
}

// Close stops listening, is idempotent, and leaves no goroutine behind.
func TestClose(t *testing.T) {
	before := runtime.NumGoroutine()
	s, err := nodeaccesstest.Start("k", jsonError)
	require.NoError(t, err)
	s.HandleFunc("GET /{key}/x", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "x") })
	c := &http.Client{Transport: &http.Transport{}}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			a, err := do(t, c, "GET", s.URL+"/k/x", "")
			assert.NoError(t, err)
			assert.Equal(t, "x", a.body)
		})
	}
	wg.Wait()
	c.CloseIdleConnections()
	s.Close()
	s.Close()
	_, err = http.Get(s.URL + "/k/x")
	require.Error(t, err)
	assert.ErrorIs(t, err, syscall.ECONNREFUSED)

	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before)
}

// Faults are taken by concurrent requests exactly once each.
func TestFailNextConcurrent(t *testing.T) {
	s := start(t, "k")
	s.FailNext(20, nodeaccesstest.ServerError(500))
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			a, err := do(t, http.DefaultClient, "POST", s.URL+"/k/info", `1`)
			assert.NoError(t, err)
			mu.Lock()
			codes[a.status]++
			mu.Unlock()
		})
	}
	wg.Wait()
	assert.Equal(t, map[int]int{500: 20, 200: 30}, codes)
	assert.Equal(t, 50, s.RequestCount())
}
