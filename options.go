package nodeaccess

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/nodeaccess/nodeaccess/internal/config"
)

// Option configures a client when it is made: a setting every client
// takes, whatever its chain (the functions of this package: the HTTP
// client, retries, timeouts, hooks, the budget), or one of a chain
// package's own (evm.WithMaxBatchSize, ton.WithJSONRPC, …), which that
// package's New alone takes: another's refuses it with an error that names
// the option. Each chain package calls it Option too (evm.Option is
// nodeaccess.Option), so one slice of options serves clients of several
// chains:
//
//	shared := []nodeaccess.Option{nodeaccess.WithBudget(b), nodeaccess.WithLogger(l)}
//	ec, err := evm.New(evmURL, key, shared...)
//	tc, err := ton.New(tonURL, key, append(shared, ton.WithJSONRPC())...)
//
// An option with a bad value makes New fail; it never panics. The zero
// Option sets nothing.
type Option struct {
	apply config.Func
	// owner is the package whose New alone takes the option, "" for one
	// every client takes; name is how errors call it.
	owner, name string
}

func init() {
	config.Make = func(owner, name string, f config.Func) any {
		return Option{apply: f, owner: owner, name: name}
	}
	config.Open = func(o any) (string, string, config.Func, bool) {
		opt, ok := o.(Option)
		return opt.owner, opt.name, opt.apply, ok
	}
}

// option makes an Option of f that every client takes.
func option(f config.Func) Option { return Option{apply: f} }

// WithHTTPClient makes the client send through a copy of hc instead of the
// SDK's own transport; hc itself is never modified. hc's Transport, Jar and
// Timeout apply (the Timeout on top of the SDK's per-attempt timeout).
//
// Redirects: one within the origin of the request (same scheme, host and
// port, a missing port being the scheme's default) is followed as hc would
// follow it (hc's CheckRedirect decides, or net/http's default of at most 10
// redirects; a 301, 302 or 303 turns a POST into a GET without body), but
// without the Referer header net/http adds, which would be the previous URL
// and so the access key. A redirect to another origin is never followed,
// whatever hc's CheckRedirect says: the 3xx ends the call as an *HTTPError
// whose Location has the key masked.
func WithHTTPClient(hc *http.Client) Option {
	return option(func(c *config.Config) error {
		if hc == nil {
			return errors.New("nodeaccess: WithHTTPClient: nil *http.Client")
		}
		c.HTTPClient = hc
		return nil
	})
}

// WithRoundTripper makes the client send each request through rt (a
// transport with a proxy, custom TLS, or instrumentation) instead of the
// SDK's own transport. As with the SDK's own, no redirect is followed: a 3xx
// is an *HTTPError with the key masked in its Location. The SDK puts the
// access key in the request URL only, never in a header; rt sees that URL,
// so it must not log it.
func WithRoundTripper(rt http.RoundTripper) Option {
	return option(func(c *config.Config) error {
		if rt == nil {
			return errors.New("nodeaccess: WithRoundTripper: nil http.RoundTripper")
		}
		c.RoundTripper = rt
		return nil
	})
}

// WithMaxAttempts sets the number of attempts in all for one call (1 to 20;
// 1 turns retries off; 3 by default). Every operation of the SDK is a read, so retrying is
// safe; what is retried is 429, 502, 503, 504, connection failures and
// per-attempt timeouts, plus the cases a chain package adds.
func WithMaxAttempts(n int) Option {
	return option(func(c *config.Config) error {
		if n < 1 || n > 20 {
			return fmt.Errorf("nodeaccess: WithMaxAttempts: %d is outside 1..20", n)
		}
		c.MaxAttempts = n
		return nil
	})
}

// WithBackoff sets the exponential backoff between attempts: the n-th retry
// waits a random time between 0 and min(max, base·2ⁿ⁻¹) (full jitter). The
// default is a base of 200 ms and a max of 5 s.
func WithBackoff(base, max time.Duration) Option {
	return option(func(c *config.Config) error {
		if base <= 0 || max < base {
			return fmt.Errorf("nodeaccess: WithBackoff: need 0 < base <= max, got base %s, max %s", base, max)
		}
		c.BackoffBase, c.BackoffMax = base, max
		return nil
	})
}

// WithMaxRetryAfter sets the longest Retry-After the client honours by
// waiting (30 s by default). When the server asks for a longer wait the call ends at once with
// the server's error, whose HTTPError.RetryAfter says how long it asked for.
// With 0 every Retry-After ends the call.
//
// With a budget (WithBudget) it also bounds the pauses a 429 sets there: the
// client reports a longer Retry-After to the budget as d, and a pause that
// another client set holds this client's calls for no longer than d (while
// more of it is left, a call ends at once with an error that matches
// ErrRateLimited, and sends nothing); see Budget.
func WithMaxRetryAfter(d time.Duration) Option {
	return option(func(c *config.Config) error {
		if d < 0 {
			return fmt.Errorf("nodeaccess: WithMaxRetryAfter: negative duration %s", d)
		}
		c.MaxRetryAfter, c.MaxRetryAfterSet = d, true
		return nil
	})
}

// WithTimeout sets the per-attempt timeout of every operation of the client,
// replacing the operation's default (30 s for ordinary calls, minutes for
// the beacon state). The context passed to a call still bounds
// the call as a whole.
func WithTimeout(d time.Duration) Option {
	return option(func(c *config.Config) error {
		if d <= 0 {
			return fmt.Errorf("nodeaccess: WithTimeout: %s is not a positive duration", d)
		}
		c.Timeout = d
		return nil
	})
}

// WithMaxResponseBytes caps the size of a response body, replacing the
// operation's default cap (32 MiB for ordinary calls, more for the beacon
// state); a larger body fails with ErrResponseTooLarge without
// being read further.
func WithMaxResponseBytes(n int64) Option {
	return option(func(c *config.Config) error {
		if n <= 0 {
			return fmt.Errorf("nodeaccess: WithMaxResponseBytes: %d is not positive", n)
		}
		c.MaxResponseBytes = n
		return nil
	})
}

// WithHook calls fn after every HTTP attempt with what happened. fn runs on
// the calling goroutine, before the call goes on (a slow fn slows the call),
// and must be safe for concurrent use when the client is shared. The access
// key never reaches it.
//
// ctx is the context the caller passed to the operation, so that fn can tie
// the attempt to the caller's trace (a span in ctx, a request id among its
// values). It is not the attempt's own context, which has ended by the time
// fn runs and is never handed out: nothing fn keeps can hold an attempt
// open. A ctx already cancelled means the caller's context ended the call.
func WithHook(fn func(ctx context.Context, a Attempt)) Option {
	return option(func(c *config.Config) error {
		if fn == nil {
			return errors.New("nodeaccess: WithHook: nil func")
		}
		c.Hook = fn
		return nil
	})
}

// WithLogger logs every attempt to l: successes at Debug level, failures that
// will be retried at Info level, final failures at Warn level. Without this
// option the SDK logs nothing. The access key never reaches the logger.
// Each record is logged with the caller's context (slog's Logger.Log with
// ctx), as WithHook's fn gets it, so a handler can add the trace and span
// ids the context carries.
func WithLogger(l *slog.Logger) Option {
	return option(func(c *config.Config) error {
		if l == nil {
			return errors.New("nodeaccess: WithLogger: nil *slog.Logger")
		}
		c.Logger = l
		return nil
	})
}

// WithUserAgent appends s to the User-Agent header, after the SDK's own
// "nodeaccess-go/<Version>". s must not contain control characters (tab
// aside), which HTTP does not allow in a header, nor the access key in any
// spelling (the constructor refuses it: no header carries the key).
func WithUserAgent(s string) Option {
	return option(func(c *config.Config) error {
		if strings.ContainsAny(s, "\r\n") {
			return fmt.Errorf("nodeaccess: WithUserAgent: %q contains a line break", s)
		}
		for i := 0; i < len(s); i++ {
			// net/http refuses to send a header value with a control
			// character other than tab; fail here rather than on every call.
			if ch := s[i]; ch < ' ' && ch != '\t' || ch == 0x7f {
				return fmt.Errorf("nodeaccess: WithUserAgent: %q contains a control character", s)
			}
		}
		c.UserAgent = s
		return nil
	})
}

// WithoutRPCIDCheck stops the client from requiring that a JSON-RPC response
// echoes the request's id, for servers known not to. The jsonrpc version is
// still checked.
func WithoutRPCIDCheck() Option {
	return option(func(c *config.Config) error {
		c.RelaxRPCID = true
		return nil
	})
}
