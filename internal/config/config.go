package config

import (
	"log/slog"
	"net/http"
	"time"
)

// The defaults every client starts from, each changed per client by the
// option the comment names (the root package's documentation gives the
// values in its options' comments).
const (
	// DefaultMaxAttempts is the number of attempts in all for one call
	// (WithMaxAttempts).
	DefaultMaxAttempts = 3
	// DefaultBackoffBase is the first backoff bound, doubled per retry, and
	// DefaultBackoffMax caps it (WithBackoff).
	DefaultBackoffBase = 200 * time.Millisecond
	DefaultBackoffMax  = 5 * time.Second
	// DefaultMaxRetryAfter is the longest Retry-After the client waits for
	// (WithMaxRetryAfter).
	DefaultMaxRetryAfter = 30 * time.Second
	// DefaultMaxResponseBytes caps the body of ordinary responses
	// (WithMaxResponseBytes; the beacon state has its own, larger cap).
	DefaultMaxResponseBytes = 32 << 20
	// DefaultTimeout is the per-attempt timeout of ordinary calls
	// (WithTimeout).
	DefaultTimeout = 30 * time.Second
)

// Config is the resolved configuration of one client. The zero value means
// "use the defaults": every field is optional.
type Config struct {
	// HTTPClient replaces the SDK's default *http.Client when set.
	HTTPClient *http.Client
	// RoundTripper replaces the default transport of the SDK's own client
	// when set (ignored when HTTPClient is set).
	RoundTripper http.RoundTripper

	// MaxAttempts is the number of attempts in all (1 means no retry); 0
	// means the default.
	MaxAttempts int
	// BackoffBase is the first backoff bound, doubled per retry; 0 means the
	// default.
	BackoffBase time.Duration
	// BackoffMax caps the backoff bound (full jitter below it).
	BackoffMax time.Duration
	// MaxRetryAfter is the longest Retry-After the SDK waits for before
	// retrying; a longer one ends the call with the server's error.
	MaxRetryAfter time.Duration
	// MaxRetryAfterSet is true when the user set MaxRetryAfter (0 then
	// means that every Retry-After ends the call).
	MaxRetryAfterSet bool

	// Timeout is the per-attempt timeout; 0 means the operation's default.
	Timeout time.Duration
	// MaxResponseBytes caps ordinary response bodies; 0 means the default.
	MaxResponseBytes int64

	// Hook is a func(context.Context, nodeaccess.Attempt) stored untyped because this package
	// cannot import the root package.
	Hook any
	// Logger receives one record per attempt when set.
	Logger *slog.Logger
	// UserAgent is appended to the SDK's own User-Agent when set.
	UserAgent string
	// RelaxRPCID disables the check that a JSON-RPC response echoes the id.
	RelaxRPCID bool

	// Budget is a nodeaccess.Limiter stored untyped (see Hook); nil means
	// no budget.
	Budget any
	// Costs overrides the request units of operations, by operation name.
	Costs map[string]int

	ext map[any]any
}

// SetExt stores a chain-specific setting under a key owned by a chain
// package (an unexported type, so packages cannot collide).
func (c *Config) SetExt(key, value any) {
	if c.ext == nil {
		c.ext = make(map[any]any)
	}
	c.ext[key] = value
}

// Ext returns a chain-specific setting stored with SetExt.
func (c *Config) Ext(key any) (any, bool) {
	v, ok := c.ext[key]
	return v, ok
}
