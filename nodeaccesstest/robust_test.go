package nodeaccesstest_test

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A mistake in a test's fault is loud, not a test that passes without it.
func TestFailNextRefusesMistakes(t *testing.T) {
	s := start(t, "k")
	assert.PanicsWithValue(t, "nodeaccesstest: FailNext with the zero Fault: make one with RateLimited, ServerError, SlowBody, TruncatedBody or DropConnection",
		func() { s.FailNext(1, nodeaccesstest.Fault{}) })
	assert.PanicsWithValue(t, "nodeaccesstest: FailNext(-1, HTTP 500): negative count",
		func() { s.FailNext(-1, nodeaccesstest.ServerError(500)) })
}

// A handler's panic becomes a 500 in the chain's error body and a log line
// with the stack, the key masked; the server keeps serving.
func TestHandlerPanic(t *testing.T) {
	logged := captureLog(t)

	s := start(t, "secret-key-123")
	s.HandleFunc("GET /{key}/boom", func(http.ResponseWriter, *http.Request) {
		panic("a bug in a handler")
	})
	for _, fault := range []bool{false, true} {
		if fault {
			s.FailNext(1, nodeaccesstest.SlowBody(time.Millisecond)) // the panic under a held answer
		}
		a, err := do(t, http.DefaultClient, "GET", s.URL+"/secret-key-123/boom", "")
		require.NoError(t, err)
		assert.Equal(t, 500, a.status)
		assert.Equal(t, `{"code":500,"message":"internal error: the handler panicked","path":"/secret-key-123/boom"}`, a.body)
	}
	out := logged.wait(t, "robust_test.go")
	assert.Contains(t, out, "nodeaccesstest: panic serving GET /{key}/boom: a bug in a handler\n")
	assert.Contains(t, out, "robust_test.go", "the stack is logged")
	assert.NotContains(t, out, "secret-key-123")

	a, err := do(t, http.DefaultClient, "GET", s.URL+"/open", "")
	require.NoError(t, err)
	assert.Equal(t, "open to all", a.body)
}

// HEAD under a held answer keeps the Content-Length the handler set.
func TestSlowBodyHead(t *testing.T) {
	s := start(t, "k")
	s.HandleFunc("GET /{key}/big", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "12345")
		w.WriteHeader(200)
	})
	s.FailNext(1, nodeaccesstest.SlowBody(time.Millisecond))
	resp, err := http.Head(s.URL + "/k/big")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, int64(12345), resp.ContentLength)
}

// Concurrent Close calls all return once the server has stopped, handlers
// included.
func TestCloseConcurrent(t *testing.T) {
	s, err := nodeaccesstest.Start("k", jsonError)
	require.NoError(t, err)
	var finished atomic.Bool
	entered := make(chan struct{})
	s.HandleFunc("GET /{key}/slow", func(w http.ResponseWriter, _ *http.Request) {
		defer finished.Store(true)
		close(entered)
		time.Sleep(300 * time.Millisecond)
		_, _ = io.WriteString(w, strings.Repeat("x", 10))
	})
	go func() {
		if resp, err := http.Get(s.URL + "/k/slow"); err == nil {
			resp.Body.Close()
		}
	}()
	<-entered
	var wg sync.WaitGroup
	var after atomic.Int32
	for range 3 {
		wg.Go(func() {
			s.Close()
			if finished.Load() {
				after.Add(1)
			}
		})
	}
	wg.Wait()
	assert.Equal(t, int32(3), after.Load(), "every Close returned after the handler finished")
}

// Received keeps what each request carried, every occurrence of the key in
// the path written {key} (also percent-encoded or run into another
// segment), with the fault it got; the handler still reads the whole body.
func TestReceived(t *testing.T) {
	s := start(t, "the-key")
	s.FailNext(1, nodeaccesstest.ServerError(503))
	body := `{"n":1234567890}`
	for _, p := range []string{"/the-key/info", "/%74he-key/info", "/the-keyy/info?x=1&x=2", "/the-key/bank", "/kk/the-keyevm"} {
		req, err := http.NewRequest("POST", s.URL+p, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("X-Test", "yes")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
	}
	got := s.Requests()
	require.Len(t, got, 5)
	assert.Equal(t, []string{"/{key}/info", "/{key}/info", "/{key}y/info", "/{key}/bank", "/kk/{key}evm"},
		[]string{got[0].Path, got[1].Path, got[2].Path, got[3].Path, got[4].Path})
	assert.Equal(t, nodeaccesstest.ServerError(503), got[0].Fault)
	assert.Equal(t, nodeaccesstest.Fault{}, got[1].Fault)
	assert.Equal(t, "POST", got[1].Method)
	assert.Equal(t, body, string(got[1].Body))
	assert.Equal(t, "yes", got[1].Header.Get("X-Test"))
	assert.Equal(t, []string{"1", "2"}, got[2].Query["x"])

	// The handler read the body the log had read first.
	a, err := do(t, http.DefaultClient, "POST", s.URL+"/the-key/info", strings.Repeat("7", 3<<20))
	require.NoError(t, err)
	assert.Equal(t, `{"got":`+strings.Repeat("7", 3<<20)+`}`, a.body)
	last := s.Requests()[5]
	assert.Len(t, last.Body, 64<<10, "the log keeps the first 64 KiB")

	// What Received returns is the caller's, to its bytes.
	got[1].Path = "changed"
	got[1].Header.Set("X-Test", "changed")
	got[1].Body[0] = 'X'
	got[2].Query["x"][0] = "changed"
	again := s.Requests()
	assert.Equal(t, "/{key}/info", again[1].Path)
	assert.Equal(t, "yes", again[1].Header.Get("X-Test"))
	assert.Equal(t, body, string(again[1].Body))
	assert.Equal(t, []string{"1", "2"}, again[2].Query["x"])
}

// A handler that panics after its answer started cuts the connection; it
// does not get a 500 appended to what it wrote.
func TestHandlerPanicAfterWriting(t *testing.T) {
	logged := captureLog(t)
	s := start(t, "k")
	s.HandleFunc("GET /{key}/half", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "100")
		_, _ = io.WriteString(w, `{"result":"partial`)
		http.NewResponseController(w).Flush()
		panic("a bug after writing")
	})
	resp, err := http.Get(s.URL + "/k/half")
	require.NoError(t, err)
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, `{"result":"partial`, string(b))
	assert.Contains(t, logged.wait(t, "a bug after writing"), "nodeaccesstest: panic serving GET /{key}/half: a bug after writing\n")
}

// A subtree pattern would redirect before the key check: Handle refuses it.
func TestHandleRefusesSubtreePatterns(t *testing.T) {
	s := start(t, "k")
	for _, p := range []string{"GET /{key}/dir/", "/{key}/", "POST  /x/"} {
		assert.PanicsWithValue(t, fmt.Sprintf("nodeaccesstest: pattern %q ends in \"/\": ServeMux would redirect a request without the slash before the key check; end it in {$} or a name", p),
			func() { s.HandleFunc(p, func(http.ResponseWriter, *http.Request) {}) }, p)
	}
	assert.NotPanics(t, func() { s.HandleFunc("GET /", func(http.ResponseWriter, *http.Request) {}) })
	assert.NotPanics(t, func() { s.HandleFunc("GET /{key}/dir/{$}", func(http.ResponseWriter, *http.Request) {}) })
}

// A path ServeMux would clean gets the chain's 404, not a redirect that
// carries the (wrong) key in its Location.
func TestUncleanPaths(t *testing.T) {
	s := start(t, "k")
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, p := range []string{"/WRONGKEY//info", "/x/../WRONGKEY/info", "/k/./info", "/k//info", "//k/info", "/k/info/"} {
		a, err := do(t, c, "POST", s.URL+p, "{}")
		require.NoError(t, err, p)
		assert.Equal(t, 404, a.status, p)
		assert.Empty(t, a.header.Get("Location"), p)
		assert.Contains(t, a.body, `"message":"not found"`, p)
	}
}

// An empty body is cut too: the client is promised a byte that never comes.
func TestTruncatedEmptyBody(t *testing.T) {
	s := start(t, "k")
	s.HandleFunc("GET /{key}/empty", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(200) })
	s.FailNext(1, nodeaccesstest.TruncatedBody())
	resp, err := http.Get(s.URL + "/k/empty")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, int64(1), resp.ContentLength)
	_, err = io.ReadAll(resp.Body)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
}

// Printing a server never shows its key, whatever the verb, alone or
// embedded.
func TestServerPrintsNoKey(t *testing.T) {
	s := start(t, "print-me-not")
	type chainServer struct {
		*nodeaccesstest.Server
		Public *nodeaccesstest.Server
	}
	c := chainServer{s, s}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		for _, v := range []any{s, c, &c, []any{s}} {
			got := fmt.Sprintf(verb, v)
			assert.NotContains(t, got, "print-me-not", verb)
			assert.Contains(t, got, "key REDACTED", verb)
		}
	}
	assert.Equal(t, "nodeaccesstest.Server{"+s.URL+", key REDACTED}", s.String())
}

// Printing a server while it serves reads nothing the serving goroutines
// write (under -race this test fails when fmt can reach http.Server's
// fields, the request log or the mutex): CI saw the race once, printing a
// Server with %s while Serve was starting.
func TestServerPrintsWhileServing(t *testing.T) {
	s := start(t, "print-while-serving")
	s.HandleFunc("GET /{key}/ok", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") })
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			resp, err := http.Get(s.URL + "/print-while-serving/ok")
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
			}
		}
	}()
	for range 50 {
		testkit.AssertFormatNoKey(t, s.Key(), s)
		testkit.AssertUnprintable(t, s.Key(), s)
	}
	close(stop)
	wg.Wait()
	assert.Positive(t, s.RequestCount())
}

// syncLog is the standard logger's output during a test, safe to read while
// the server's goroutines write to it.
type syncLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// wait returns the log once it holds want (the server logs on its own
// goroutine, which the client's answer does not order), or fails the test.
func (l *syncLog) wait(t *testing.T, want string) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		l.mu.Lock()
		out := l.buf.String()
		l.mu.Unlock()
		if strings.Contains(out, want) || time.Now().After(deadline) {
			return out
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func captureLog(t *testing.T) *syncLog {
	l := &syncLog{}
	log.SetOutput(l)
	t.Cleanup(func() { log.SetOutput(os.Stderr) })
	return l
}

// TruncatedBody on HEAD: the handler's headers as they were, then the
// connection is closed.
func TestTruncatedHead(t *testing.T) {
	s := start(t, "k")
	s.HandleFunc("GET /{key}/big", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "12345")
		w.WriteHeader(200)
	})
	s.FailNext(1, nodeaccesstest.TruncatedBody())
	c := &http.Client{Transport: &http.Transport{}}
	resp, err := c.Head(s.URL + "/k/big")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, int64(12345), resp.ContentLength)
	assert.Equal(t, 1, s.RequestCount())
}
