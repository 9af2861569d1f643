package beacon_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sszHandler serves body as an SSZ state of fork, with a Content-Length
// unless chunked.
func sszHandler(body []byte, fork string, chunked bool) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, r *http.Request, _ int) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Eth-Consensus-Version", fork)
		if !chunked {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			_, _ = w.Write(body)
			return
		}
		// Chunked: several writes with flushes, no Content-Length.
		for off := 0; off < len(body); off += 100 << 10 {
			_, _ = w.Write(body[off:min(off+100<<10, len(body))])
			_ = http.NewResponseController(w).Flush()
		}
	}
}

// DownloadState writes the identical bytes, large bodies included.
func TestDownloadIdenticalBytes(t *testing.T) {
	body := patternBody(3<<20 + 12345)
	for _, chunked := range []bool{false, true} {
		t.Run(fmt.Sprint("chunked=", chunked), func(t *testing.T) {
			srv, cnt := serve(t, sszHandler(body, "electra", chunked))
			rec := &testkit.Recorder{}
			c := newClient(t, srv.URL, nodeaccess.WithHook(rec.Hook))
			var buf bytes.Buffer
			d, err := c.DownloadState(context.Background(), beacon.Finalized, &buf, beacon.DownloadOptions{})
			require.NoError(t, err)
			assert.Equal(t, sha256.Sum256(body), sha256.Sum256(buf.Bytes()))
			assert.Equal(t, beacon.Body{Fork: "electra", Encoding: beacon.EncodingSSZ, ContentType: "application/octet-stream", Bytes: int64(len(body))}, d)
			assert.Equal(t, 1, cnt.Get())
			atts := rec.Attempts()
			require.Len(t, atts, 1)
			assert.Equal(t, int64(len(body)), atts[0].Bytes)
			assert.Equal(t, "getStateV2", atts[0].Op)
			assert.Equal(t, srv.URL+"/beacon/REDACTED/eth/v2/debug/beacon/states/finalized", atts[0].URL)
		})
	}
}

// progressLog records a Progress callback's calls.
type progressLog struct {
	mu    sync.Mutex
	read  []int64
	total []int64
}

func (p *progressLog) fn(read, total int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.read = append(p.read, read)
	p.total = append(p.total, total)
}

// checkSteps checks a progress log of one attempt over size bytes: one call
// at (or just past) each MiB boundary crossed, then one at the end; when
// the last boundary is crossed by the read that ends the body, the two are
// one call.
func (p *progressLog) checkSteps(t *testing.T, size, total int64) {
	t.Helper()
	steps := int((size - 1) / progressStep) // boundaries crossed before the end
	require.Contains(t, []int{steps, steps + 1}, len(p.read), "calls: %v", p.read)
	last := len(p.read) - 1
	for i := 0; i < last; i++ {
		b := int64(i+1) * progressStep
		assert.GreaterOrEqual(t, p.read[i], b, "call %d", i)
		assert.Less(t, p.read[i], b+progressStep, "call %d", i)
		assert.Equal(t, total, p.total[i], "call %d", i)
	}
	assert.Equal(t, size, p.read[last], "last call")
	assert.Equal(t, total, p.total[last], "last call")
}

func TestDownloadProgress(t *testing.T) {
	const size = 3<<20 + 12345
	body := patternBody(size)
	t.Run("content-length", func(t *testing.T) {
		srv, _ := serve(t, sszHandler(body, "fulu", false))
		c := newClient(t, srv.URL)
		p := &progressLog{}
		_, err := c.DownloadState(context.Background(), beacon.Head, io.Discard, beacon.DownloadOptions{Progress: p.fn})
		require.NoError(t, err)
		p.checkSteps(t, size, size)
	})
	t.Run("chunked", func(t *testing.T) {
		srv, _ := serve(t, sszHandler(body, "fulu", true))
		c := newClient(t, srv.URL)
		p := &progressLog{}
		_, err := c.DownloadState(context.Background(), beacon.Head, io.Discard, beacon.DownloadOptions{Progress: p.fn})
		require.NoError(t, err)
		p.checkSteps(t, size, -1)
	})
	t.Run("exactly one step", func(t *testing.T) {
		srv, _ := serve(t, sszHandler(patternBody(progressStep), "fulu", false))
		c := newClient(t, srv.URL)
		p := &progressLog{}
		_, err := c.DownloadState(context.Background(), beacon.Head, io.Discard, beacon.DownloadOptions{Progress: p.fn})
		require.NoError(t, err)
		assert.Equal(t, []int64{progressStep}, p.read, "the step and the end are one call")
	})
	t.Run("empty body", func(t *testing.T) {
		srv, _ := serve(t, sszHandler(nil, "fulu", false))
		c := newClient(t, srv.URL)
		p := &progressLog{}
		_, err := c.DownloadState(context.Background(), beacon.Head, io.Discard, beacon.DownloadOptions{Progress: p.fn})
		require.NoError(t, err)
		assert.Equal(t, []int64{0}, p.read)
		assert.Equal(t, []int64{0}, p.total)
	})
}

// A body that breaks off after bytes went to a file, with Restart: the
// caller's reset empties the file, the second attempt writes the whole body
// once, and Progress counts it from 0 again.
func TestDownloadBrokenBodyRestarts(t *testing.T) {
	body := patternBody(3<<20 + 7)
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			brokenBody(t, w, r, "application/octet-stream", "fulu", body, len(body)*3/4)
			return
		}
		sszHandler(body, "fulu", false)(w, r, n)
	})
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, fast, nodeaccess.WithHook(rec.Hook))
	f, err := os.Create(filepath.Join(t.TempDir(), "state.ssz"))
	require.NoError(t, err)
	defer f.Close()
	p := &progressLog{}
	d, err := c.DownloadState(context.Background(), beacon.Head, f, beacon.DownloadOptions{Progress: p.fn, Restart: func() error {
		if err := f.Truncate(0); err != nil {
			return err
		}
		_, err := f.Seek(0, io.SeekStart)
		return err
	}})
	require.NoError(t, err)
	assert.Equal(t, int64(len(body)), d.Bytes)
	assert.Equal(t, 2, cnt.Get())
	got, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	assert.Equal(t, len(body), len(got))
	assert.Equal(t, sha256.Sum256(body), sha256.Sum256(got))
	atts := rec.Attempts()
	require.Len(t, atts, 2)
	assert.True(t, atts[0].WillRetry)
	assert.ErrorIs(t, atts[0].Err, io.ErrUnexpectedEOF)
	assert.NoError(t, atts[1].Err)
	// The second attempt counts from 0 again.
	require.NotEmpty(t, p.read)
	assert.Equal(t, int64(len(body)), p.read[len(p.read)-1])
	restarted := false
	for i := 1; i < len(p.read); i++ {
		restarted = restarted || p.read[i] < p.read[i-1]
	}
	assert.True(t, restarted, "counting restarted: %v", p.read)
}

// A body that breaks off after bytes went to the writer, without
// Restart, is not fetched again.
func TestDownloadBrokenBodyNoRestart(t *testing.T) {
	body := patternBody(1 << 20)
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		brokenBody(t, w, r, "application/octet-stream", "fulu", body, 1000)
	})
	rec := &testkit.Recorder{}
	c := newClient(t, srv.URL, fast, nodeaccess.WithHook(rec.Hook))
	var buf bytes.Buffer
	_, err := c.DownloadState(context.Background(), beacon.Head, &buf, beacon.DownloadOptions{})
	require.Error(t, err)
	assert.Equal(t, 1, cnt.Get(), "no second attempt")
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, "beacon: getStateV2: service unavailable: the body broke off after 1000 bytes had been written (DownloadOptions.Restart lets the call fetch it again): unexpected EOF", err.Error())
	assert.Equal(t, body[:1000], buf.Bytes(), "the partial body, as documented")
	atts := rec.Attempts()
	require.Len(t, atts, 1)
	assert.False(t, atts[0].WillRetry)
	assert.Equal(t, int64(1000), atts[0].Bytes)
}

// A body that breaks off before any byte was written is retried whatever
// the writer.
func TestDownloadBrokenBeforeFirstByte(t *testing.T) {
	body := patternBody(4096)
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			brokenBody(t, w, r, "application/octet-stream", "fulu", body, 0)
			return
		}
		sszHandler(body, "fulu", false)(w, r, n)
	})
	c := newClient(t, srv.URL, fast)
	var buf bytes.Buffer
	d, err := c.DownloadState(context.Background(), beacon.Head, &buf, beacon.DownloadOptions{})
	require.NoError(t, err)
	assert.Equal(t, 2, cnt.Get())
	assert.Equal(t, body, buf.Bytes())
	assert.Equal(t, int64(4096), d.Bytes)
}

// A body that breaks off on every attempt, into a file the caller resets:
// retried, then ErrUnavailable after the attempts.
func TestDownloadBrokenEveryAttemptFile(t *testing.T) {
	body := patternBody(64 << 10)
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		brokenBody(t, w, r, "application/octet-stream", "fulu", body, 5000)
	})
	c := newClient(t, srv.URL, fast)
	f, err := os.Create(filepath.Join(t.TempDir(), "state.ssz"))
	require.NoError(t, err)
	defer f.Close()
	resets := 0
	_, err = c.DownloadState(context.Background(), beacon.Head, f, beacon.DownloadOptions{Restart: func() error {
		resets++
		if err := f.Truncate(0); err != nil {
			return err
		}
		_, err := f.Seek(0, io.SeekStart)
		return err
	}})
	require.Error(t, err)
	assert.Equal(t, 3, cnt.Get())
	assert.Equal(t, 2, resets)
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.Equal(t, "beacon: getStateV2: service unavailable after 3 attempts: unexpected EOF", err.Error())
	st, err := f.Stat()
	require.NoError(t, err)
	assert.Equal(t, int64(5000), st.Size(), "one partial body, not three")
}

type failingWriter struct{ after int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after <= 0 {
		return 0, errors.New("disk full")
	}
	n := min(len(p), w.after)
	w.after -= n
	if n < len(p) {
		return n, errors.New("disk full")
	}
	return n, nil
}

// shortWriter writes less than asked without an error (against io.Writer's
// contract).
type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) / 2, nil }

// A writer's error ends the call at once.
func TestDownloadWriterError(t *testing.T) {
	body := patternBody(1 << 20)
	srv, cnt := serve(t, sszHandler(body, "fulu", false))
	c := newClient(t, srv.URL, fast)
	_, err := c.DownloadState(context.Background(), beacon.Head, &failingWriter{after: 100}, beacon.DownloadOptions{})
	require.Error(t, err)
	assert.Equal(t, "beacon: getStateV2: writing the state after 100 bytes: disk full", err.Error())
	assert.NotErrorIs(t, err, nodeaccess.ErrUnavailable)
	_, err = c.DownloadState(context.Background(), beacon.Head, shortWriter{}, beacon.DownloadOptions{})
	assert.ErrorIs(t, err, io.ErrShortWrite)
	assert.Equal(t, 2, cnt.Get(), "one attempt per call")
}

// The body cap: 4 GiB by default (above the nodeaccess default for ordinary
// calls), the user's WithMaxResponseBytes wins.
func TestDownloadCap(t *testing.T) {
	claim := func(n int64) func(http.ResponseWriter, *http.Request, int) {
		return func(w http.ResponseWriter, r *http.Request, _ int) {
			conn, rw := testkit.Hijack(t, w, r)
			defer conn.Close()
			fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nEth-Consensus-Version: fulu\r\nContent-Length: %d\r\n\r\nabc", n)
			_ = rw.Flush()
		}
	}
	srv, _ := serve(t, claim(maxStateBytes+1))
	c := newClient(t, srv.URL, nodeaccess.WithMaxAttempts(1))
	var buf bytes.Buffer
	_, err := c.DownloadState(context.Background(), beacon.Head, &buf, beacon.DownloadOptions{})
	assert.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge)
	assert.Equal(t, "beacon: getStateV2: response too large: body exceeds the 4294967296-byte cap", err.Error())
	assert.Zero(t, buf.Len())

	srv, _ = serve(t, claim(32<<20+1))
	c = newClient(t, srv.URL, nodeaccess.WithMaxAttempts(1))
	_, err = c.DownloadState(context.Background(), beacon.Head, &bytes.Buffer{}, beacon.DownloadOptions{})
	assert.NotErrorIs(t, err, nodeaccess.ErrResponseTooLarge, "the state's cap is above the ordinary one")
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)

	body := patternBody(5000)
	for _, chunked := range []bool{false, true} {
		srv, _ = serve(t, sszHandler(body, "fulu", chunked))
		c = newClient(t, srv.URL, nodeaccess.WithMaxResponseBytes(4096))
		buf.Reset()
		_, err = c.DownloadState(context.Background(), beacon.Head, &buf, beacon.DownloadOptions{})
		assert.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge, "chunked=%v", chunked)
		assert.LessOrEqual(t, buf.Len(), 4096)
	}
}

// deadlineRT records the deadline of each request's context.
type deadlineRT struct {
	mu        sync.Mutex
	deadlines []time.Time
}

func (d *deadlineRT) RoundTrip(req *http.Request) (*http.Response, error) {
	dl, _ := req.Context().Deadline()
	d.mu.Lock()
	d.deadlines = append(d.deadlines, dl)
	d.mu.Unlock()
	return &http.Response{StatusCode: 200, Status: "200 OK", Header: http.Header{"Content-Type": {"application/octet-stream"}, "Eth-Consensus-Version": {"fulu"}},
		Body: io.NopCloser(bytes.NewReader([]byte("x"))), ContentLength: 1, Request: req}, nil
}

// The per-attempt timeout: DefaultStateTimeout unless the user set one.
func TestDownloadTimeouts(t *testing.T) {
	rt := &deadlineRT{}
	c, err := beacon.New(testBase, testKey, nodeaccess.WithRoundTripper(rt))
	require.NoError(t, err)
	start := time.Now()
	_, err = c.DownloadState(context.Background(), beacon.Head, io.Discard, beacon.DownloadOptions{})
	require.NoError(t, err)
	require.Len(t, rt.deadlines, 1)
	left := rt.deadlines[0].Sub(start)
	assert.GreaterOrEqual(t, left, stateTimeout)
	assert.LessOrEqual(t, left, stateTimeout+2*time.Second)
	assert.Equal(t, 15*time.Minute, stateTimeout)

	rt = &deadlineRT{}
	c, err = beacon.New(testBase, testKey, nodeaccess.WithRoundTripper(rt), nodeaccess.WithTimeout(time.Minute))
	require.NoError(t, err)
	start = time.Now()
	_, err = c.DownloadState(context.Background(), beacon.Head, io.Discard, beacon.DownloadOptions{})
	require.NoError(t, err)
	left = rt.deadlines[0].Sub(start)
	assert.GreaterOrEqual(t, left, time.Minute)
	assert.LessOrEqual(t, left, time.Minute+2*time.Second)
}

// A stalled body is cut by the user's timeout and, with Restart,
// retried.
func TestDownloadStalled(t *testing.T) {
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Eth-Consensus-Version", "fulu")
		_, _ = w.Write([]byte("0123"))
		_ = http.NewResponseController(w).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	c := newClient(t, srv.URL, fast, nodeaccess.WithTimeout(100*time.Millisecond), nodeaccess.WithMaxAttempts(2))
	f, err := os.Create(filepath.Join(t.TempDir(), "s"))
	require.NoError(t, err)
	defer f.Close()
	_, err = c.DownloadState(context.Background(), beacon.Head, f, beacon.DownloadOptions{Restart: func() error {
		if err := f.Truncate(0); err != nil {
			return err
		}
		_, err := f.Seek(0, io.SeekStart)
		return err
	}})
	require.Error(t, err)
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, 2, cnt.Get())
	st, err := f.Stat()
	require.NoError(t, err)
	assert.Equal(t, int64(4), st.Size())
}

// ReadState refuses a Body it cannot decode by, before reading: another
// encoding, an SSZ body without its fork, a fork it does not decode (the
// Body of a download of a heze state, say).
func TestReadStateArguments(t *testing.T) {
	_, _, err := beacon.ReadState(bytes.NewReader(nil), beacon.Body{Fork: "fulu"}, beacon.ReadOptions{})
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.Equal(t, "invalid input: Body.Encoding: auto is not a body encoding (want EncodingSSZ or EncodingJSON)", err.Error())
	_, _, err = beacon.ReadState(bytes.NewReader(nil), beacon.Body{Encoding: beacon.EncodingSSZ}, beacon.ReadOptions{})
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.Equal(t, "invalid input: Body.Fork: empty: an SSZ body names no fork of its own", err.Error())
	for _, enc := range []beacon.Encoding{beacon.EncodingSSZ, beacon.EncodingJSON} {
		for _, fork := range []string{"heze", beacon.Version(200).String()} {
			_, _, err = beacon.ReadState(bytes.NewReader(nil), beacon.Body{Encoding: enc, Fork: fork}, beacon.ReadOptions{})
			assert.ErrorIs(t, err, beacon.ErrUnsupportedVersion, "%s %s", enc, fork)
			assert.ErrorContains(t, err, fmt.Sprintf("unsupported version %q", fork))
		}
	}
	_, _, err = beacon.ReadState(bytes.NewReader(nil), beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "fulu"}, beacon.ReadOptions{Preset: beacon.Preset{Name: "incomplete"}})
	assert.ErrorContains(t, err, "incomplete")
	// WriteState: SSZ carries no flags; another encoding is refused.
	st := beacontest.NewState(beacon.Phase0, beacon.MinimalPreset(), 2, 1)
	assert.ErrorIs(t, beacon.WriteState(io.Discard, st, beacon.EncodingSSZ, &beacon.Flags{}), nodeaccess.ErrInvalidInput)
	assert.ErrorIs(t, beacon.WriteState(io.Discard, st, beacon.EncodingAuto, nil), nodeaccess.ErrInvalidInput)
}
