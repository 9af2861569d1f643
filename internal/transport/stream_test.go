package transport

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"testing"
	"testing/iotest"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// streamAccept is the Accept header a beacon client sends for SSZ with a
// JSON fallback.
const streamAccept = "application/octet-stream;q=1,application/json;q=0.9"

// patternBody returns n bytes of a known, non-repeating-per-KiB pattern.
func patternBody(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*31 + i>>11)
	}
	return b
}

// streamTarget is the beacon state path under the key.
func streamTarget(t testing.TB, c *Client) Target {
	t.Helper()
	tg, err := c.Target("{key}/eth/v2/debug/beacon/states/{id}", "id", "head")
	require.NoError(t, err)
	return tg
}

// seenRequest is what a test server saw of a request.
type seenRequest struct {
	method string
	path   string
	header http.Header
}

// decodeAll is a decoder that reads the whole stream, recording what it saw
// on each call (it keeps no state across calls other than this record).
type decodeAll struct {
	calls  int
	resps  []Response // without Stream
	bodies [][]byte
	errs   []error
}

func (d *decodeAll) decode(r *Response) error {
	d.calls++
	b, err := io.ReadAll(r.Stream)
	rr := *r
	rr.Stream = nil
	d.resps = append(d.resps, rr)
	d.bodies = append(d.bodies, b)
	d.errs = append(d.errs, err)
	return err
}

// TestStreamContentNegotiation checks the Accept header a Stream request
// sends and what its decoder sees of an SSZ and of a JSON answer.
func TestStreamContentNegotiation(t *testing.T) {
	t.Parallel()
	const size = 1 << 20
	body := patternBody(size)
	wantSum := sha256.Sum256(body)
	ua := "nodeaccess-go/" + nodeaccess.Version + " stream-test/1"

	t.Run("octet-stream", func(t *testing.T) {
		t.Parallel()
		seen := make(chan seenRequest, 1)
		srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
			seen <- seenRequest{r.Method, r.URL.EscapedPath(), r.Header.Clone()}
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Eth-Consensus-Version", "fulu")
			w.Header().Set("Content-Length", strconv.Itoa(size))
			_, _ = w.Write(body)
		})
		rec := &testkit.Recorder{}
		c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithUserAgent("stream-test/1"), nodeaccess.WithHook(rec.Hook))
		calls := 0
		var (
			status  int
			ctype   []string
			version []string
			clen    int64
			n       int64
			sum     []byte
		)
		err := c.Stream(context.Background(), &Request{Op: "beaconState", Target: streamTarget(t, c), Accept: streamAccept}, func(r *Response) error {
			calls++
			status, clen = r.StatusCode, r.ContentLength
			ctype, version = r.Header.Values("Content-Type"), r.Header.Values("Eth-Consensus-Version")
			assert.Nil(t, r.Body, "a stream has no buffered body")
			h := sha256.New()
			var err error
			n, err = io.Copy(h, r.Stream)
			sum = h.Sum(nil)
			return err
		})
		require.NoError(t, err)
		assert.Equal(t, 1, calls)
		assert.Equal(t, 1, cnt.Get())
		assert.Equal(t, 200, status)
		assert.Equal(t, []string{"application/octet-stream"}, ctype)
		assert.Equal(t, []string{"fulu"}, version)
		assert.Equal(t, int64(size), clen)
		assert.Equal(t, int64(size), n)
		assert.Equal(t, wantSum[:], sum)

		got := <-seen
		assert.Equal(t, http.MethodGet, got.method)
		assert.Equal(t, "/"+testKey+"/eth/v2/debug/beacon/states/head", got.path)
		assert.Equal(t, []string{streamAccept}, got.header.Values("Accept"))
		assert.Equal(t, []string{ua}, got.header.Values("User-Agent"))
		assert.Empty(t, got.header.Values("Content-Type"), "a GET sends no Content-Type")

		atts := rec.Attempts()
		require.Len(t, atts, 1)
		assert.Equal(t, "beaconState", atts[0].Op)
		assert.Equal(t, srv.URL+"/REDACTED/eth/v2/debug/beacon/states/head", atts[0].URL)
		assert.Equal(t, 200, atts[0].StatusCode)
		assert.Equal(t, int64(size), atts[0].Bytes)
		assert.NoError(t, atts[0].Err)
	})

	t.Run("json fallback", func(t *testing.T) {
		t.Parallel()
		const js = `{"version":"fulu","data":{"slot":"1"}}`
		seen := make(chan seenRequest, 1)
		srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
			seen <- seenRequest{r.Method, r.URL.EscapedPath(), r.Header.Clone()}
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, js)
		})
		c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithUserAgent("stream-test/1"))
		d := &decodeAll{}
		err := c.Stream(context.Background(), &Request{Target: streamTarget(t, c), Accept: streamAccept}, d.decode)
		require.NoError(t, err)
		require.Equal(t, 1, d.calls)
		assert.Equal(t, 200, d.resps[0].StatusCode)
		assert.Equal(t, []string{"application/json"}, d.resps[0].Header.Values("Content-Type"))
		assert.Empty(t, d.resps[0].Header.Values("Eth-Consensus-Version"))
		assert.Equal(t, int64(len(js)), d.resps[0].ContentLength)
		assert.Equal(t, js, string(d.bodies[0]))
		got := <-seen
		assert.Equal(t, []string{streamAccept}, got.header.Values("Accept"))
		assert.Equal(t, []string{ua}, got.header.Values("User-Agent"))
	})
}

// brokenStream answers 200 with a Content-Length of len(body) but sends only
// the first half of body before closing the connection.
func brokenStream(t testing.TB, w http.ResponseWriter, r *http.Request, body []byte) {
	conn, rw := testkit.Hijack(t, w, r)
	defer conn.Close()
	fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n", len(body))
	_, _ = rw.Write(body[:len(body)/2])
	_ = rw.Flush()
}

// TestStreamBreakThenWhole: a body that breaks off on the first attempt and
// is whole on the second is decoded from scratch on the second attempt.
func TestStreamBreakThenWhole(t *testing.T) {
	t.Parallel()
	const size = 64 << 10
	body := patternBody(size)
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			brokenStream(t, w, r, body)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Length", strconv.Itoa(size))
		_, _ = w.Write(body)
	})
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithHook(rec.Hook))
	d := &decodeAll{}
	err := c.Stream(context.Background(), &Request{Op: "beaconState", Target: streamTarget(t, c), Accept: streamAccept}, d.decode)
	require.NoError(t, err)
	assert.Equal(t, 2, cnt.Get())
	require.Equal(t, 2, d.calls)
	// First call: half the body, then the break.
	assert.Len(t, d.bodies[0], size/2)
	assert.Equal(t, body[:size/2], d.bodies[0])
	assert.ErrorIs(t, d.errs[0], io.ErrUnexpectedEOF)
	assert.Equal(t, int64(size), d.resps[0].ContentLength)
	// Second call: the whole body.
	assert.NoError(t, d.errs[1])
	assert.Equal(t, sha256.Sum256(body), sha256.Sum256(d.bodies[1]))
	assert.Len(t, d.bodies[1], size)
	assert.Equal(t, 200, d.resps[1].StatusCode)

	atts := rec.Attempts()
	require.Len(t, atts, 2)
	assert.Equal(t, 1, atts[0].Number)
	assert.Equal(t, 200, atts[0].StatusCode)
	assert.Equal(t, int64(size/2), atts[0].Bytes)
	assert.ErrorIs(t, atts[0].Err, io.ErrUnexpectedEOF)
	assert.True(t, atts[0].WillRetry)
	assert.LessOrEqual(t, atts[0].Retry, time.Millisecond, "backoff bound of the fast option")
	assert.Equal(t, 2, atts[1].Number)
	assert.Equal(t, 200, atts[1].StatusCode)
	assert.Equal(t, int64(size), atts[1].Bytes)
	assert.NoError(t, atts[1].Err)
	assert.False(t, atts[1].WillRetry)
}

// TestStreamBreakEveryAttempt: a body that breaks off on every attempt ends
// as ErrUnavailable after the default three attempts.
func TestStreamBreakEveryAttempt(t *testing.T) {
	t.Parallel()
	const size = 8 << 10
	body := patternBody(size)
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) { brokenStream(t, w, r, body) })
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithHook(rec.Hook))
	d := &decodeAll{}
	err := c.Stream(context.Background(), &Request{Target: streamTarget(t, c), Accept: streamAccept}, d.decode)
	require.Error(t, err)
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Contains(t, err.Error(), "after 3 attempts")
	assert.Equal(t, "service unavailable after 3 attempts: unexpected EOF", err.Error())
	assert.Equal(t, 3, d.calls)
	assert.Equal(t, 3, cnt.Get())
	for i := range d.calls {
		assert.Len(t, d.bodies[i], size/2, "call %d", i+1)
		assert.ErrorIs(t, d.errs[i], io.ErrUnexpectedEOF, "call %d", i+1)
	}
	atts := rec.Attempts()
	require.Len(t, atts, 3)
	for i, a := range atts {
		assert.Equal(t, i+1, a.Number)
		assert.Equal(t, 200, a.StatusCode)
		assert.Equal(t, int64(size/2), a.Bytes)
		assert.ErrorIs(t, a.Err, io.ErrUnexpectedEOF)
		assert.Equal(t, i < 2, a.WillRetry)
	}
	testkit.AssertErrNoKey(t, testKey, err)
}

var (
	errStreamRetry = errors.New("ssz: checksum mismatch")
	errStreamFinal = errors.New("ssz: unknown fork")
)

// TestStreamDecoderError: a decoder error marked Retryable is retried and
// the last one returned as it is; an unmarked one ends the call at once.
func TestStreamDecoderError(t *testing.T) {
	t.Parallel()
	const js = `{"data":{}}`
	okServer := func(w http.ResponseWriter, r *http.Request, _ int) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, js)
	}

	t.Run("retryable", func(t *testing.T) {
		t.Parallel()
		srv, cnt := serve(t, okServer)
		rec := &testkit.Recorder{}
		c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithHook(rec.Hook))
		calls := 0
		err := c.Stream(context.Background(), &Request{Target: streamTarget(t, c)}, func(r *Response) error {
			calls++
			b, err := io.ReadAll(r.Stream)
			require.NoError(t, err)
			assert.Equal(t, js, string(b))
			return Retryable(errStreamRetry)
		})
		assert.Equal(t, 3, calls)
		assert.Equal(t, 3, cnt.Get())
		require.Error(t, err)
		assert.ErrorIs(t, err, errStreamRetry)
		assert.Same(t, errStreamRetry, err, "the decoder's own error, unwrapped from Retryable")
		assert.False(t, errors.Is(err, nodeaccess.ErrUnavailable))
		atts := rec.Attempts()
		require.Len(t, atts, 3)
		for i, a := range atts {
			assert.Equal(t, 200, a.StatusCode)
			assert.Equal(t, int64(len(js)), a.Bytes)
			assert.ErrorIs(t, a.Err, errStreamRetry)
			assert.Equal(t, i < 2, a.WillRetry)
		}
	})

	t.Run("retryable without reading", func(t *testing.T) {
		t.Parallel()
		srv, cnt := serve(t, okServer)
		c := newClient(t, srv.URL, testKey, fast)
		calls := 0
		err := c.Stream(context.Background(), &Request{Target: streamTarget(t, c)}, func(*Response) error {
			calls++
			return Retryable(errStreamRetry)
		})
		assert.Equal(t, 3, calls)
		assert.Equal(t, 3, cnt.Get())
		assert.Same(t, errStreamRetry, err)
	})

	t.Run("plain", func(t *testing.T) {
		t.Parallel()
		srv, cnt := serve(t, okServer)
		rec := &testkit.Recorder{}
		c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithHook(rec.Hook))
		calls := 0
		err := c.Stream(context.Background(), &Request{Target: streamTarget(t, c)}, func(r *Response) error {
			calls++
			_, _ = io.ReadAll(r.Stream)
			return errStreamFinal
		})
		assert.Equal(t, 1, calls)
		assert.Equal(t, 1, cnt.Get())
		assert.Same(t, errStreamFinal, err, "returned as it is")
		assert.False(t, errors.Is(err, nodeaccess.ErrUnavailable))
		atts := rec.Attempts()
		require.Len(t, atts, 1)
		assert.False(t, atts[0].WillRetry)
		assert.ErrorIs(t, atts[0].Err, errStreamFinal)
	})
}

// stalledStream sends headers and a little body, then stalls until the
// client goes away.
func stalledStream(w http.ResponseWriter, r *http.Request, _ int) {
	// Reading the request body lets the server notice the client leave.
	_, _ = io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write([]byte("0123456789abcdef"))
	_ = http.NewResponseController(w).Flush()
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

// TestStreamSlowBody: a stream that stalls is cut by the per-attempt
// timeout and retried, or by the caller's deadline and not retried.
func TestStreamSlowBody(t *testing.T) {
	t.Parallel()

	t.Run("attempt timeout", func(t *testing.T) {
		t.Parallel()
		srv, cnt := serve(t, stalledStream)
		rec := &testkit.Recorder{}
		c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithTimeout(500*time.Millisecond),
			nodeaccess.WithMaxAttempts(2), nodeaccess.WithHook(rec.Hook))
		d := &decodeAll{}
		start := time.Now()
		err := c.Stream(context.Background(), &Request{Target: streamTarget(t, c), Accept: streamAccept}, d.decode)
		took := time.Since(start)
		require.Error(t, err)
		assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Contains(t, err.Error(), "service unavailable after 2 attempts: attempt timed out after 500ms")
		assert.GreaterOrEqual(t, took, 990*time.Millisecond)
		within(t, took, 6*time.Second, "two 500ms attempts")
		assert.Equal(t, 2, d.calls)
		assert.Equal(t, 2, cnt.Get())
		for i := range d.calls {
			assert.Equal(t, "0123456789abcdef", string(d.bodies[i]), "call %d", i+1)
			assert.Error(t, d.errs[i], "call %d", i+1)
			assert.Equal(t, int64(-1), d.resps[i].ContentLength)
		}
		atts := rec.Attempts()
		require.Len(t, atts, 2)
		for i, a := range atts {
			assert.Equal(t, 200, a.StatusCode)
			assert.Equal(t, int64(16), a.Bytes)
			assert.GreaterOrEqual(t, a.Duration, 490*time.Millisecond)
			assert.ErrorIs(t, a.Err, context.DeadlineExceeded)
			assert.Equal(t, "attempt timed out after 500ms: context deadline exceeded", a.Err.Error())
			assert.Equal(t, i == 0, a.WillRetry)
		}
		testkit.AssertErrNoKey(t, testKey, err)
	})

	t.Run("caller deadline", func(t *testing.T) {
		t.Parallel()
		srv, cnt := serve(t, stalledStream)
		rec := &testkit.Recorder{}
		c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithHook(rec.Hook))
		d := &decodeAll{}
		start := time.Now() // before the deadline is set: it is 200 ms after this at the earliest
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		err := c.Stream(ctx, &Request{Target: streamTarget(t, c), Accept: streamAccept}, d.decode)
		took := time.Since(start)
		require.Error(t, err)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, context.DeadlineExceeded, err, "the context's own error")
		assert.False(t, errors.Is(err, nodeaccess.ErrUnavailable))
		assert.GreaterOrEqual(t, took, 190*time.Millisecond)
		within(t, took, 6*time.Second, "a 200ms deadline")
		assert.Equal(t, 1, d.calls)
		assert.Equal(t, 1, cnt.Get())
		assert.Equal(t, "0123456789abcdef", string(d.bodies[0]))
		atts := rec.Attempts()
		require.Len(t, atts, 1)
		assert.False(t, atts[0].WillRetry)
		assert.Equal(t, context.DeadlineExceeded, atts[0].Err, "the caller's deadline, not an attempt timeout")
	})
}

// TestStreamHTTPError: a non-2xx answer never reaches the decoder.
func TestStreamHTTPError(t *testing.T) {
	t.Parallel()
	const js = `{"code":404,"message":"State not found"}`
	for _, tc := range []struct {
		status   int
		attempts int
		is       error
	}{
		{404, 1, nodeaccess.ErrNotFound},
		{503, 3, nodeaccess.ErrUnavailable},
	} {
		t.Run(strconv.Itoa(tc.status), func(t *testing.T) {
			t.Parallel()
			srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, js)
			})
			c := newClient(t, srv.URL, testKey, fast)
			calls := 0
			err := c.Stream(context.Background(), &Request{Target: streamTarget(t, c), Accept: streamAccept}, func(*Response) error {
				calls++
				return nil
			})
			require.Error(t, err)
			assert.Zero(t, calls, "the decoder is never called")
			assert.Equal(t, tc.attempts, cnt.Get())
			var he *nodeaccess.HTTPError
			require.ErrorAs(t, err, &he)
			assert.Same(t, he, err, "the HTTPError is returned as it is")
			assert.Equal(t, tc.status, he.StatusCode)
			assert.Equal(t, fmt.Sprintf("%d %s", tc.status, http.StatusText(tc.status)), he.Status)
			assert.Equal(t, "application/json", he.ContentType)
			assert.Equal(t, js, string(he.Body))
			assert.Equal(t, "GET", he.Method)
			assert.Equal(t, srv.URL+"/REDACTED/eth/v2/debug/beacon/states/head", he.URL)
			assert.ErrorIs(t, err, tc.is)
			assert.Equal(t, fmt.Sprintf("HTTP %d %s: %s", tc.status, http.StatusText(tc.status), js), err.Error())
			testkit.AssertErrNoKey(t, testKey, err)
		})
	}
}

// TestStreamCap checks Request.MaxBytes on a stream: a body at the cap is
// read whole, one byte more fails with ErrResponseTooLarge and is not
// retried.
func TestStreamCap(t *testing.T) {
	t.Parallel()
	const limit = 1000
	for _, tc := range []struct {
		name    string
		size    int
		chunked bool
		ok      bool
		decoded bool // the decoder is called
		oneByte bool // the decoder reads one byte at a time
	}{
		{"chunked at cap", limit, true, true, true, false},
		{"chunked one over", limit + 1, true, false, true, false},
		{"chunked at cap, byte reads", limit, true, true, true, true},
		{"chunked one over, byte reads", limit + 1, true, false, true, true},
		{"content-length at cap", limit, false, true, true, false},
		{"content-length one over", limit + 1, false, false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			body := patternBody(tc.size)
			srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				w.Header().Set("Content-Type", "application/octet-stream")
				if tc.chunked {
					_, _ = w.Write(body[:100])
					_ = http.NewResponseController(w).Flush()
					_, _ = w.Write(body[100:])
					return
				}
				w.Header().Set("Content-Length", strconv.Itoa(tc.size))
				_, _ = w.Write(body)
			})
			rec := &testkit.Recorder{}
			// No WithMaxResponseBytes (which would replace the request's
			// cap): the request's cap applies.
			c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithHook(rec.Hook))
			d := &decodeAll{}
			decode := d.decode
			if tc.oneByte {
				decode = func(r *Response) error {
					r.Stream = iotest.OneByteReader(r.Stream)
					return d.decode(r)
				}
			}
			err := c.Stream(context.Background(), &Request{Target: streamTarget(t, c), Accept: streamAccept, MaxBytes: limit}, decode)
			assert.Equal(t, 1, cnt.Get(), "never retried")
			atts := rec.Attempts()
			require.Len(t, atts, 1)
			assert.False(t, atts[0].WillRetry)
			if tc.ok {
				require.NoError(t, err)
				require.Equal(t, 1, d.calls)
				assert.Equal(t, body, d.bodies[0])
				assert.NoError(t, d.errs[0])
				if tc.chunked {
					assert.Equal(t, int64(-1), d.resps[0].ContentLength)
				} else {
					assert.Equal(t, int64(limit), d.resps[0].ContentLength)
				}
				assert.Equal(t, int64(limit), atts[0].Bytes)
				return
			}
			require.Error(t, err)
			assert.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge)
			assert.Equal(t, "response too large: body exceeds the 1000-byte cap", err.Error())
			assert.False(t, errors.Is(err, nodeaccess.ErrUnavailable))
			assert.ErrorIs(t, atts[0].Err, nodeaccess.ErrResponseTooLarge)
			if !tc.decoded {
				assert.Zero(t, d.calls, "a declared length over the cap is refused before decoding")
				return
			}
			require.Equal(t, 1, d.calls)
			assert.Equal(t, body[:limit], d.bodies[0], "the decoder read up to the cap")
			assert.ErrorIs(t, d.errs[0], nodeaccess.ErrResponseTooLarge)
			assert.LessOrEqual(t, atts[0].Bytes, int64(limit))
		})
	}
}

// TestStreamUserCapWins: the user's WithMaxResponseBytes replaces the
// request's cap on a stream too, in both directions.
func TestStreamUserCapWins(t *testing.T) {
	t.Parallel()
	const limit = 1000
	body := patternBody(limit + 1)
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		_, _ = w.Write(body[:100])
		_ = http.NewResponseController(w).Flush()
		_, _ = w.Write(body[100:])
	})
	small := newClient(t, srv.URL, testKey, fast, nodeaccess.WithMaxResponseBytes(limit))
	d := &decodeAll{}
	err := small.Stream(context.Background(), &Request{Target: streamTarget(t, small), MaxBytes: 1 << 20}, d.decode)
	require.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge)
	assert.Equal(t, "response too large: body exceeds the 1000-byte cap", err.Error())
	require.Equal(t, 1, d.calls)
	assert.Len(t, d.bodies[0], limit)

	large := newClient(t, srv.URL, testKey, fast, nodeaccess.WithMaxResponseBytes(1<<20))
	d = &decodeAll{}
	err = large.Stream(context.Background(), &Request{Target: streamTarget(t, large), MaxBytes: limit}, d.decode)
	require.NoError(t, err)
	require.Equal(t, 1, d.calls)
	assert.Equal(t, body, d.bodies[0])
	assert.Equal(t, 2, cnt.Get())
}

// Retryable(nil) is nil, so "return Retryable(err)" after a clean decode is a
// success, not a retry of a nil error.
func TestRetryableNil(t *testing.T) {
	t.Parallel()
	assert.NoError(t, Retryable(nil))
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) { _, _ = io.WriteString(w, "ok") })
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithHook(rec.Hook))
	err := c.Stream(context.Background(), &Request{Target: rpcTarget(t, c)}, func(r *Response) error {
		_, err := io.ReadAll(r.Stream)
		return Retryable(err)
	})
	require.NoError(t, err)
	assert.Equal(t, 1, cnt.Get())
	require.Len(t, rec.Attempts(), 1)
}

// TestStreamFinalStopsRetryOfBrokenBody: a body that breaks off is retried,
// unless the decoder marks its error Final; then the call ends at once with
// the decoder's own error, and the hook sees the one attempt.
func TestStreamFinalStopsRetryOfBrokenBody(t *testing.T) {
	t.Parallel()
	const size = 8 << 10
	body := patternBody(size)
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) { brokenStream(t, w, r, body) })
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, testKey, fast, nodeaccess.WithHook(rec.Hook))
	errPassedOn := errors.New("half the body was passed on")
	calls := 0
	var readErr error
	err := c.Stream(context.Background(), &Request{Target: streamTarget(t, c), Accept: streamAccept}, func(r *Response) error {
		calls++
		_, readErr = io.ReadAll(r.Stream)
		return Final(fmt.Errorf("%w: %w", errPassedOn, readErr))
	})
	require.Error(t, err)
	assert.Equal(t, 1, calls)
	assert.Equal(t, 1, cnt.Get())
	assert.ErrorIs(t, readErr, io.ErrUnexpectedEOF)
	assert.ErrorIs(t, err, errPassedOn)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, "half the body was passed on: unexpected EOF", err.Error())
	var fe *finalErr
	assert.False(t, errors.As(err, &fe), "returned unwrapped from Final")
	atts := rec.Attempts()
	require.Len(t, atts, 1)
	assert.Equal(t, 200, atts[0].StatusCode)
	assert.Equal(t, int64(size/2), atts[0].Bytes)
	assert.False(t, atts[0].WillRetry)
	assert.ErrorIs(t, atts[0].Err, errPassedOn)
	assert.Nil(t, Final(nil))
}
