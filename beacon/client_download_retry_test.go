package beacon_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
)

// breakingServer serves an SSZ body; the first response breaks off after half
// of it when breakFirst.
func breakingServer(t *testing.T, body []byte, breakFirst bool) (*beacon.Client, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Eth-Consensus-Version", "fulu")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		if n.Add(1) == 1 && breakFirst {
			_, _ = w.Write(body[:len(body)/2])
			_ = http.NewResponseController(w).Flush()
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	c, err := beacon.New(srv.URL, "k3y", nodeaccess.WithMaxAttempts(3), nodeaccess.WithBackoff(time.Millisecond, 2*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return c, &n
}

// memFile is a writer that could be rewound and truncated, as an *os.File
// can, but has no Stat.
type memFile struct {
	b   []byte
	pos int64
}

func (m *memFile) Write(p []byte) (int, error) {
	if need := m.pos + int64(len(p)); need > int64(len(m.b)) {
		m.b = append(m.b, make([]byte, need-int64(len(m.b)))...)
	}
	copy(m.b[m.pos:], p)
	m.pos += int64(len(p))
	return len(p), nil
}

func (m *memFile) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		off += m.pos
	case io.SeekEnd:
		off += int64(len(m.b))
	}
	m.pos = off
	return off, nil
}

func (m *memFile) Truncate(n int64) error { m.b = m.b[:n]; return nil }

// DownloadState never seeks, truncates or rewrites the caller's writer on
// its own: whatever the writer (a new file, a file written from its start
// or at its end, one opened with O_APPEND, any writer that could be
// rewound), a body that breaks off after its first byte ends the call with
// ErrUnavailable after one attempt, and the writer holds what it held and
// then the part of the body that came. (Before issue 22 it truncated files
// back and fetched again, which cut what an O_APPEND file held.)
func TestDownloadNeverRewindsTheWriter(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 4096) // 64 KiB
	prior := []byte("PRE-EXISTING DATA")
	dir := t.TempDir()
	open := func(t *testing.T, name string, flag int, seekEnd bool) *os.File {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, prior, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, flag, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = f.Close() })
		if seekEnd {
			if _, err := f.Seek(0, io.SeekEnd); err != nil {
				t.Fatal(err)
			}
		}
		return f
	}
	read := func(t *testing.T, f *os.File) []byte {
		got, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	for _, tc := range []struct {
		name string
		w    func(t *testing.T) (io.Writer, func() []byte)
		// before is what the writer holds before the body's part: the
		// prior data, or nothing for a new file and one overwritten from
		// its start (whose prior data the body's part covers).
		before []byte
	}{
		{"new file", func(t *testing.T) (io.Writer, func() []byte) {
			f, err := os.Create(filepath.Join(dir, "new"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = f.Close() })
			return f, func() []byte { return read(t, f) }
		}, nil},
		{"file written from its start", func(t *testing.T) (io.Writer, func() []byte) {
			f := open(t, "overwrite", os.O_RDWR, false)
			return f, func() []byte { return read(t, f) }
		}, nil},
		{"file at its end", func(t *testing.T) (io.Writer, func() []byte) {
			f := open(t, "end", os.O_RDWR, true)
			return f, func() []byte { return read(t, f) }
		}, prior},
		{"O_APPEND file at position 0", func(t *testing.T) (io.Writer, func() []byte) {
			f := open(t, "append", os.O_APPEND|os.O_WRONLY, false)
			return f, func() []byte { return read(t, f) }
		}, prior},
		{"O_APPEND file at its end", func(t *testing.T) (io.Writer, func() []byte) {
			f := open(t, "append-end", os.O_APPEND|os.O_WRONLY, true)
			return f, func() []byte { return read(t, f) }
		}, prior},
		{"seekable writer without Stat, at its end", func(t *testing.T) (io.Writer, func() []byte) {
			m := &memFile{b: bytes.Clone(prior), pos: int64(len(prior))}
			return m, func() []byte { return m.b }
		}, prior},
		{"buffer", func(t *testing.T) (io.Writer, func() []byte) {
			b := bytes.NewBuffer(bytes.Clone(prior))
			return b, func() []byte { return b.Bytes() }
		}, prior},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, contents := tc.w(t)
			c, n := breakingServer(t, body, true)
			_, err := c.DownloadState(context.Background(), beacon.Head, w, beacon.DownloadOptions{})
			if !errors.Is(err, nodeaccess.ErrUnavailable) || n.Load() != 1 {
				t.Fatalf("err = %v after %d attempts, want ErrUnavailable after 1", err, n.Load())
			}
			if !strings.Contains(err.Error(), "the body broke off after") || !strings.Contains(err.Error(), "(DownloadOptions.Restart lets the call fetch it again)") {
				t.Fatalf("err = %v", err)
			}
			got := contents()
			if len(got) <= len(tc.before) || !bytes.Equal(got[:len(tc.before)], tc.before) {
				t.Fatalf("writer holds %d bytes starting %q, want %q first", len(got), got[:min(len(got), 20)], tc.before)
			}
			part := got[len(tc.before):]
			if len(part) == 0 || len(part) >= len(body) || !bytes.Equal(part, body[:len(part)]) {
				t.Fatalf("writer holds %d bytes of the body after what it held, want part of it, written once", len(part))
			}
		})
	}
}

// With DownloadOptions.Restart the caller says how to start again: reset runs before
// each attempt that writes after one that wrote, and only then; what it
// leaves is where the next attempt writes. An error from it ends the call.
func TestDownloadRestart(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 4096) // 64 KiB
	prior := []byte("PRE-EXISTING DATA")

	t.Run("file kept up to its size before the call", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "state")
		if err := os.WriteFile(path, prior, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		resets := 0
		c, n := breakingServer(t, body, true)
		d, err := c.DownloadState(context.Background(), beacon.Head, f, beacon.DownloadOptions{Restart: func() error {
			resets++
			return f.Truncate(int64(len(prior))) // O_APPEND: writes go to the end
		}})
		if err != nil || n.Load() != 2 || resets != 1 || d.Bytes != int64(len(body)) {
			t.Fatalf("err = %v after %d attempts and %d resets, %d bytes", err, n.Load(), resets, d.Bytes)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, append(bytes.Clone(prior), body...)) {
			t.Fatalf("file holds %d bytes, want the prior data and the body", len(got))
		}
	})
	t.Run("no reset when nothing was written", func(t *testing.T) {
		c, n := breakingServer(t, body, false)
		var buf bytes.Buffer
		if _, err := c.DownloadState(context.Background(), beacon.Head, &buf, beacon.DownloadOptions{Restart: func() error {
			t.Error("reset called")
			return nil
		}}); err != nil || n.Load() != 1 || !bytes.Equal(buf.Bytes(), body) {
			t.Fatalf("err = %v after %d attempts", err, n.Load())
		}
	})
	t.Run("reset fails", func(t *testing.T) {
		c, n := breakingServer(t, body, true)
		var buf bytes.Buffer
		_, err := c.DownloadState(context.Background(), beacon.Head, &buf, beacon.DownloadOptions{Restart: func() error {
			return errors.New("read-only file")
		}})
		if err == nil || err.Error() != "beacon: getStateV2: DownloadOptions.Restart: read-only file" || n.Load() != 2 {
			t.Fatalf("err = %v after %d attempts", err, n.Load())
		}
	})
}
