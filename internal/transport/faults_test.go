package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// statusThenOK answers status (with header h) to the first n requests and a
// JSON-RPC result after.
func statusThenOK(n, status int, h http.Header, body string) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, r *http.Request, i int) {
		if i <= n {
			for k, v := range h {
				w.Header()[k] = v
			}
			w.WriteHeader(status)
			io.WriteString(w, body)
			return
		}
		rpcOK(w, r, `"0x1"`)
	}
}

// TestRetryAfterHonoured is the suite's one real wait: 429 with
// Retry-After: 1, then success.
func TestRetryAfterHonoured(t *testing.T) {
	t.Parallel()
	srv, cnt := serve(t, statusThenOK(1, 429, http.Header{"Retry-After": {"1"}}, "slow down"))
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, testKey, rec.Option(), fast, nodeaccess.WithMaxRetryAfter(2*time.Second))
	start := time.Now()
	res, err := call(context.Background(), t, c)
	took := time.Since(start)
	require.NoError(t, err)
	assert.Equal(t, `"0x1"`, string(res.Raw))
	res.Release()
	assert.Equal(t, 2, cnt.Get())
	assert.GreaterOrEqual(t, took, time.Second)
	within(t, took, 3*time.Second, "a Retry-After of 1s")
	atts := rec.Attempts()
	require.Len(t, atts, 2)
	assert.Equal(t, 429, atts[0].StatusCode)
	assert.True(t, atts[0].WillRetry)
	assert.Equal(t, time.Second, atts[0].Retry)
	assert.ErrorIs(t, atts[0].Err, nodeaccess.ErrRateLimited)
	assert.Equal(t, 200, atts[1].StatusCode)
	assert.NoError(t, atts[1].Err)
}

func TestRetryAfterOverCap(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		header     string
		opts       []nodeaccess.Option
		retryAfter time.Duration
	}{
		{"default cap", "120", nil, 120 * time.Second},
		{"own cap", "20", []nodeaccess.Option{nodeaccess.WithMaxRetryAfter(10 * time.Second)}, 20 * time.Second},
		{"zero cap", "10", []nodeaccess.Option{nodeaccess.WithMaxRetryAfter(0)}, 10 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, cnt := serve(t, statusThenOK(100, 429, http.Header{"Retry-After": {tc.header}}, "slow down"))
			c := newClient(t, srv.URL, testKey, append(tc.opts, fast)...)
			start := time.Now()
			_, err := call(context.Background(), t, c)
			within(t, time.Since(start), 5*time.Second, "a refused Retry-After")
			require.Error(t, err)
			var he *nodeaccess.HTTPError
			require.ErrorAs(t, err, &he)
			assert.Equal(t, tc.retryAfter, he.RetryAfter)
			assert.Equal(t, 429, he.StatusCode)
			assert.ErrorIs(t, err, nodeaccess.ErrRateLimited)
			assert.False(t, errors.Is(err, nodeaccess.ErrUnavailable))
			assert.Equal(t, 1, cnt.Get())
			assert.Equal(t, fmt.Sprintf("HTTP 429 Too Many Requests (retry after %s): slow down", tc.retryAfter), err.Error())
		})
	}
}

func TestRetryAfterDateInThePast(t *testing.T) {
	t.Parallel()
	past := time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)
	srv, cnt := serve(t, statusThenOK(1, 503, http.Header{"Retry-After": {past}}, ""))
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, testKey, nodeaccess.WithHook(rec.Hook), fast)
	start := time.Now()
	res, err := call(context.Background(), t, c)
	require.NoError(t, err)
	res.Release()
	within(t, time.Since(start), 5*time.Second, "a past Retry-After date")
	assert.Equal(t, 2, cnt.Get())
	atts := rec.Attempts()
	require.Len(t, atts, 2)
	assert.LessOrEqual(t, atts[0].Retry, 2*time.Millisecond, "the backoff applies, not the date")
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		v    string
		want time.Duration
	}{
		{"", 0},
		{"  ", 0},
		{"1", time.Second},
		{" 7 ", 7 * time.Second},
		{"0", 0},
		{"-3", 0},
		{"1.5", 0},
		{"soon", 0},
		{"99999999999999", (1 << 31) * time.Second},
		{"Sun, 01 Jun 2025 12:00:30 GMT", 30 * time.Second},
		{"Sunday, 01-Jun-25 12:01:00 GMT", time.Minute},
		{"Sun Jun  1 12:00:05 2025", 5 * time.Second},
		{"Sun, 01 Jun 2025 11:59:00 GMT", 0},
		{"Sun, 01 Jun 2025 12:00:00 GMT", 0},
	} {
		assert.Equal(t, tc.want, parseRetryAfter(tc.v, now), "%q", tc.v)
	}
}

func TestRetryCounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		status   int
		opts     []nodeaccess.Option
		attempts int
		is       error
	}{
		{"503 default", 503, nil, 3, nodeaccess.ErrUnavailable},
		{"502 default", 502, nil, 3, nodeaccess.ErrUnavailable},
		{"504 default", 504, nil, 3, nodeaccess.ErrUnavailable},
		{"429 default", 429, nil, 3, nodeaccess.ErrRateLimited},
		{"503 five", 503, []nodeaccess.Option{nodeaccess.WithMaxAttempts(5)}, 5, nodeaccess.ErrUnavailable},
		{"503 without retries", 503, []nodeaccess.Option{nodeaccess.WithMaxAttempts(1)}, 1, nodeaccess.ErrUnavailable},
		{"500 not retried", 500, nil, 1, nodeaccess.ErrUnavailable},
		{"599 not retried", 599, nil, 1, nodeaccess.ErrUnavailable},
		{"401", 401, nil, 1, nodeaccess.ErrUnauthorized},
		{"403", 403, nil, 1, nodeaccess.ErrUnauthorized},
		{"404", 404, nil, 1, nodeaccess.ErrNotFound},
		{"400", 400, nil, 1, nil},
		{"408 not retried", 408, nil, 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, cnt := serve(t, statusThenOK(100, tc.status, nil, "nope"))
			rec := &testkit.Recorder{}
			c := newClient(t, srv.URL, testKey, append([]nodeaccess.Option{fast, nodeaccess.WithHook(rec.Hook)}, tc.opts...)...)
			_, err := call(context.Background(), t, c)
			require.Error(t, err)
			var he *nodeaccess.HTTPError
			require.ErrorAs(t, err, &he)
			assert.Same(t, he, err, "the HTTPError is returned as it is")
			assert.Equal(t, tc.status, he.StatusCode)
			assert.Equal(t, "nope", string(he.Body))
			assert.Equal(t, "POST", he.Method)
			assert.Equal(t, srv.URL+"/REDACTED", he.URL)
			if tc.is != nil {
				assert.ErrorIs(t, err, tc.is)
			}
			for _, s := range []error{nodeaccess.ErrUnavailable, nodeaccess.ErrRateLimited, nodeaccess.ErrUnauthorized, nodeaccess.ErrNotFound} {
				if s != tc.is {
					assert.False(t, errors.Is(err, s), "%d matches %v", tc.status, s)
				}
			}
			assert.Equal(t, tc.attempts, cnt.Get())
			assert.Len(t, rec.Attempts(), tc.attempts)
		})
	}
}

func TestRetryIf(t *testing.T) {
	t.Parallel()
	srv, cnt := serve(t, statusThenOK(2, 500, nil, `{"error":"upstream busy"}`))
	c := newClient(t, srv.URL, testKey, fast)
	tg := rpcTarget(t, c)
	var seen []string
	req := &Request{Op: "get", Target: tg, RetryIf: func(status int, body []byte) bool {
		seen = append(seen, fmt.Sprintf("%d %s", status, body))
		return status == 500 && strings.Contains(string(body), "busy")
	}}
	resp, err := c.Do(context.Background(), req)
	require.NoError(t, err)
	resp.Release()
	assert.Equal(t, 3, cnt.Get())
	assert.Equal(t, []string{`500 {"error":"upstream busy"}`, `500 {"error":"upstream busy"}`}, seen)

	// RetryIf saying no keeps 500 final; it is not asked about 503.
	srv2, cnt2 := serve(t, statusThenOK(100, 503, nil, ""))
	c2 := newClient(t, srv2.URL, testKey, fast)
	asked := 0
	_, err = c2.Do(context.Background(), &Request{Op: "get", Target: rpcTarget(t, c2), RetryIf: func(int, []byte) bool { asked++; return false }})
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.Equal(t, 3, cnt2.Get())
	assert.Zero(t, asked)
}

func TestConnectionReset(t *testing.T) {
	t.Parallel()
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		conn, _ := testkit.Hijack(t, w, r)
		_ = conn.(*net.TCPConn).SetLinger(0)
		_ = conn.Close()
	})
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithHook(rec.Hook))
	_, err := call(context.Background(), t, c)
	require.Error(t, err)
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.Contains(t, err.Error(), "service unavailable after 3 attempts: ")
	assert.Equal(t, 3, cnt.Get())
	atts := rec.Attempts()
	require.Len(t, atts, 3)
	for i, a := range atts {
		assert.Equal(t, i+1, a.Number)
		assert.Zero(t, a.StatusCode)
		assert.Error(t, a.Err)
		assert.Equal(t, i < 2, a.WillRetry)
	}
	testkit.AssertErrNoKey(t, testKey, err)
}

func TestTruncatedBody(t *testing.T) {
	t.Parallel()
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		conn, rw := testkit.Hijack(t, w, r)
		defer conn.Close()
		fmt.Fprint(rw, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
		fmt.Fprint(rw, `{"jsonrpc":"2.0","id"`) // 21 bytes of the 100 declared
		_ = rw.Flush()
	})
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithHook(rec.Hook))
	_, err := call(context.Background(), t, c)
	require.Error(t, err)
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, "service unavailable after 3 attempts: unexpected EOF", err.Error())
	assert.Equal(t, 3, cnt.Get())
	for _, a := range rec.Attempts() {
		assert.Equal(t, 200, a.StatusCode)
		assert.Equal(t, int64(21), a.Bytes)
	}
}

func TestInvalidJSONNotRetried(t *testing.T) {
	t.Parallel()
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0",,}`)
	})
	c := newClient(t, srv.URL, testKey, fast)
	_, err := call(context.Background(), t, c)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.Contains(t, err.Error(), `body starts "{\"jsonrpc\":\"2.0\",,}"`)
	assert.Equal(t, 1, cnt.Get())
}

const htmlPage = "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>\n"

func TestHTMLErrorPage(t *testing.T) {
	t.Parallel()
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(502)
		io.WriteString(w, htmlPage)
	})
	c := newClient(t, srv.URL, testKey, fast)
	_, err := call(context.Background(), t, c)
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, 502, he.StatusCode)
	assert.Equal(t, "502 Bad Gateway", he.Status)
	assert.Equal(t, "text/html; charset=utf-8", he.ContentType)
	assert.Equal(t, htmlPage, string(he.Body))
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.Equal(t, "HTTP 502 Bad Gateway: <!DOCTYPE html> <html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>", err.Error())
	assert.Equal(t, 3, cnt.Get())
}

func TestHTMLWith200(t *testing.T) {
	t.Parallel()
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, htmlPage)
	})
	c := newClient(t, srv.URL, testKey, fast)
	_, err := call(context.Background(), t, c)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.Contains(t, err.Error(), `body is HTML or XML, not JSON (content-type "text/html", body starts "<!DOCTYPE html>\n<html>`)
	assert.Equal(t, 1, cnt.Get())
}

func TestErrorBodyCapped(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 100<<10)
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		w.WriteHeader(400)
		io.WriteString(w, big)
	})
	c := newClient(t, srv.URL, testKey, fast)
	_, err := call(context.Background(), t, c)
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, big[:ErrorBodyCap], string(he.Body))
	assert.Equal(t, "HTTP 400 Bad Request: "+big[:200]+"…", err.Error())
}

func TestResponseTooLarge(t *testing.T) {
	t.Parallel()
	const limit = 64
	body := `{"jsonrpc":"2.0","id":1,"result":"0x` + strings.Repeat("ab", 40) + `"}`
	exact := `{"jsonrpc":"2.0","id":1,"result":"0x` + strings.Repeat("a", limit-len(`{"jsonrpc":"2.0","id":1,"result":"0x"}`)) + `"}`
	require.Len(t, exact, limit)
	for _, tc := range []struct {
		name    string
		body    string
		chunked bool
		ok      bool
	}{
		{"content-length over", body, false, false},
		{"chunked over", body, true, false},
		{"content-length at cap", exact, false, true},
		{"chunked at cap", exact, true, true},
		{"one over, chunked", exact[:limit-2] + ` "}`, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				w.Header().Set("Content-Type", "application/json")
				if tc.chunked {
					io.WriteString(w, tc.body[:10])
					http.NewResponseController(w).Flush()
					io.WriteString(w, tc.body[10:])
					return
				}
				w.Header().Set("Content-Length", fmt.Sprint(len(tc.body)))
				io.WriteString(w, tc.body)
			})
			rec := &testkit.Recorder{}
			c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithMaxResponseBytes(limit), nodeaccess.WithHook(rec.Hook))
			res, err := call(context.Background(), t, c)
			assert.Equal(t, 1, cnt.Get())
			if tc.ok {
				require.NoError(t, err)
				res.Release()
				return
			}
			require.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge)
			assert.Equal(t, "response too large: body exceeds the 64-byte cap", err.Error())
			assert.False(t, errors.Is(err, nodeaccess.ErrUnavailable))
			atts := rec.Attempts()
			require.Len(t, atts, 1)
			assert.False(t, atts[0].WillRetry)
			assert.LessOrEqual(t, atts[0].Bytes, int64(limit))
		})
	}
}

// TestRequestMaxBytes checks the per-request cap and the stream cap.
func TestRequestMaxBytes(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		io.WriteString(w, strings.Repeat("a", 100))
		http.NewResponseController(w).Flush()
		io.WriteString(w, strings.Repeat("b", 100))
	})
	c := newClient(t, srv.URL, testKey, fast)
	tg := rpcTarget(t, c)
	_, err := c.Do(context.Background(), &Request{Target: tg, MaxBytes: 150})
	assert.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge)
	resp, err := c.Do(context.Background(), &Request{Target: tg, MaxBytes: 200})
	require.NoError(t, err)
	assert.Len(t, resp.Body, 200)
	resp.Release()

	var got int
	err = c.Stream(context.Background(), &Request{Target: tg, MaxBytes: 150}, func(r *Response) error {
		b, err := io.ReadAll(r.Stream)
		got = len(b)
		return err
	})
	assert.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge)
	assert.Equal(t, 150, got)
	err = c.Stream(context.Background(), &Request{Target: tg, MaxBytes: 200}, func(r *Response) error {
		b, err := io.ReadAll(r.Stream)
		got = len(b)
		return err
	})
	require.NoError(t, err)
	assert.Equal(t, 200, got)

	// The user's WithMaxResponseBytes wins over the operation's cap, in both
	// directions.
	small := newClient(t, srv.URL, testKey, fast, nodeaccess.WithMaxResponseBytes(150))
	_, err = small.Do(context.Background(), &Request{Target: rpcTarget(t, small), MaxBytes: 1 << 20})
	assert.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge)
	large := newClient(t, srv.URL, testKey, fast, nodeaccess.WithMaxResponseBytes(1<<20))
	resp, err = large.Do(context.Background(), &Request{Target: rpcTarget(t, large), MaxBytes: 150})
	require.NoError(t, err)
	assert.Len(t, resp.Body, 200)
	resp.Release()
}

// slowBody writes headers and the start of a body, then stalls until the
// client goes away.
func slowBody(w http.ResponseWriter, r *http.Request, _ int) {
	// Reading the request body lets the server notice the client leave.
	_, _ = io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"jsonrpc":"2.0",`)
	http.NewResponseController(w).Flush()
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

// slowHeaders stalls before writing anything.
func slowHeaders(w http.ResponseWriter, r *http.Request, _ int) {
	_, _ = io.Copy(io.Discard, r.Body)
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

func TestContextDeadline(t *testing.T) {
	t.Parallel()
	for name, h := range map[string]func(http.ResponseWriter, *http.Request, int){"slow body": slowBody, "slow headers": slowHeaders} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, cnt := serve(t, h)
			c := newClient(t, srv.URL, testKey, fast)
			start := time.Now() // before the deadline is set: it is 200 ms after this at the earliest
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			_, err := call(ctx, t, c)
			took := time.Since(start)
			require.Error(t, err)
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			assert.Equal(t, context.DeadlineExceeded, err, "the context's own error")
			assert.GreaterOrEqual(t, took, 190*time.Millisecond)
			within(t, took, 6*time.Second, "a 200ms deadline")
			assert.Equal(t, 1, cnt.Get())
		})
	}
}

func TestAttemptTimeout(t *testing.T) {
	t.Parallel()
	for name, h := range map[string]func(http.ResponseWriter, *http.Request, int){"slow body": slowBody, "slow headers": slowHeaders} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, cnt := serve(t, h)
			rec := &testkit.Recorder{}
			c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithTimeout(100*time.Millisecond), nodeaccess.WithHook(rec.Hook))
			start := time.Now()
			_, err := call(context.Background(), t, c)
			took := time.Since(start)
			require.Error(t, err)
			assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
			assert.Contains(t, err.Error(), "service unavailable after 3 attempts: attempt timed out after 100ms")
			assert.GreaterOrEqual(t, took, 300*time.Millisecond)
			within(t, took, 6*time.Second, "three 100ms attempts")
			assert.Equal(t, 3, cnt.Get())
			for _, a := range rec.Attempts() {
				assert.GreaterOrEqual(t, a.Duration, 95*time.Millisecond)
			}
			testkit.AssertErrNoKey(t, testKey, err)
		})
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	srv, cnt := serve(t, statusThenOK(100, 503, http.Header{"Retry-After": {"10"}}, ""))
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, testKey, nodeaccess.WithHook(rec.Hook))
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Cancel once the first attempt reported it will wait.
		for len(rec.Attempts()) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	_, err := call(ctx, t, c)
	within(t, time.Since(start), 6*time.Second, "a cancel during a 10s backoff")
	assert.Equal(t, context.Canceled, err)
	assert.Equal(t, 1, cnt.Get())
	atts := rec.Attempts()
	require.Len(t, atts, 1)
	assert.True(t, atts[0].WillRetry)
	assert.Equal(t, 10*time.Second, atts[0].Retry)
}

func TestNoRetryPastDeadline(t *testing.T) {
	t.Parallel()
	srv, cnt := serve(t, statusThenOK(100, 503, http.Header{"Retry-After": {"25"}}, "busy"))
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, testKey, nodeaccess.WithHook(rec.Hook))
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	start := time.Now()
	_, err := call(ctx, t, c)
	within(t, time.Since(start), 5*time.Second, "a retry that would outlast the deadline")
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he, "the server's error, not the context's")
	assert.Equal(t, 25*time.Second, he.RetryAfter)
	assert.NoError(t, ctx.Err())
	assert.Equal(t, 1, cnt.Get())
	atts := rec.Attempts()
	require.Len(t, atts, 1)
	assert.False(t, atts[0].WillRetry)
	assert.Zero(t, atts[0].Retry)
}

func TestCancelledBeforeStart(t *testing.T) {
	t.Parallel()
	srv, cnt := serve(t, statusThenOK(0, 200, nil, ""))
	c := newClient(t, srv.URL, testKey)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := call(ctx, t, c)
	assert.Equal(t, context.Canceled, err)
	assert.Zero(t, cnt.Get())
}

func TestRedirectNotFollowed(t *testing.T) {
	t.Parallel()
	srvOther, other := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) { rpcOK(w, r, "1") })
	for _, key := range []string{testKey, escKey} {
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				w.Header().Set("Location", srvOther.URL+r.URL.EscapedPath()+"/moved")
				w.WriteHeader(302)
				io.WriteString(w, "moved to "+r.URL.String())
			})
			rec := &testkit.Recorder{}
			c := newClient(t, srv.URL, key, rec.Option(), fast)
			_, err := call(context.Background(), t, c)
			var he *nodeaccess.HTTPError
			require.ErrorAs(t, err, &he)
			assert.Equal(t, 302, he.StatusCode)
			assert.Equal(t, srvOther.URL+"/REDACTED/moved", he.Location)
			assert.Equal(t, "moved to /REDACTED", string(he.Body))
			assert.Equal(t, fmt.Sprintf("HTTP 302 Found (redirect to %s/REDACTED/moved): moved to /REDACTED", srvOther.URL), err.Error())
			assert.Equal(t, 1, cnt.Get())
			testkit.AssertErrNoKey(t, key, err)
			assertRecordNoKey(t, key, rec)
		})
	}
	t.Cleanup(func() { assert.Zero(t, other.Get(), "the redirect was followed") })
}

// TestBodyResentOnRetry checks that every attempt sends the same body.
func TestBodyResentOnRetry(t *testing.T) {
	t.Parallel()
	bodies := make(chan string, 3)
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		b, _ := io.ReadAll(r.Body)
		bodies <- string(b)
		if n < 3 {
			w.WriteHeader(503)
			return
		}
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":1}`)
	})
	c := newClient(t, srv.URL, testKey, fast)
	res, err := call(context.Background(), t, c)
	require.NoError(t, err)
	res.Release()
	want := `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}`
	assert.Equal(t, want, <-bodies)
	assert.Equal(t, want, <-bodies, "the retry sends the same body and id")
	assert.Equal(t, want, <-bodies)
}
