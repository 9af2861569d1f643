package testkit

import (
	"bytes"
	"context"
	"log/slog"
	"sync"

	"github.com/nodeaccess/nodeaccess"
)

// Recorder keeps what a client reports: every attempt its hook saw and
// every log record written to it. Its zero value is ready; it is safe for
// concurrent use.
type Recorder struct {
	mu       sync.Mutex
	attempts []nodeaccess.Attempt
	logs     bytes.Buffer
}

// Hook records a; pass it to nodeaccess.WithHook.
func (r *Recorder) Hook(_ context.Context, a nodeaccess.Attempt) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attempts = append(r.attempts, a)
}

// Attempts returns a copy of the attempts recorded so far, in order.
func (r *Recorder) Attempts() []nodeaccess.Attempt {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]nodeaccess.Attempt(nil), r.attempts...)
}

// Write appends p to the recorded log; it makes a Recorder a log sink.
func (r *Recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logs.Write(p)
}

// Log returns the log recorded so far.
func (r *Recorder) Log() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logs.String()
}

// Option returns the option that makes a client report to r: its Hook,
// and a Debug-level logger that writes each record into r twice, as JSON
// and as text (so a leak check sees both encodings).
func (r *Recorder) Option() nodeaccess.Option {
	opts := &slog.HandlerOptions{Level: slog.LevelDebug}
	l := slog.New(teeHandler{slog.NewJSONHandler(r, opts), slog.NewTextHandler(r, opts)})
	return Bundle(nodeaccess.WithHook(r.Hook), nodeaccess.WithLogger(l))
}
