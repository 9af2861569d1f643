package transport

import (
	"context"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// nextDelay decides whether attempt n's outcome is retried and after how
// long: only retryable outcomes, only while attempts remain, a Retry-After up
// to the cap (a longer one ends the call), otherwise exponential backoff with
// full jitter; never a wait that would outlast ctx's deadline.
func (c *Client) nextDelay(ctx context.Context, n int, o *outcome) (time.Duration, bool) {
	if o.err == nil || !o.retryable || n >= c.attempts || ctx.Err() != nil {
		return 0, false
	}
	var d time.Duration
	if o.retryAfter > 0 {
		if o.retryAfter > c.cfg.MaxRetryAfter {
			return 0, false
		}
		d = o.retryAfter
	} else {
		d = backoff(c.cfg.BackoffBase, c.cfg.BackoffMax, n)
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= d {
		return 0, false
	}
	return d, true
}

// backoff returns a random delay in [0, min(max, base·2^(n-1))].
func backoff(base, max time.Duration, n int) time.Duration {
	bound := max
	// base·2^(n-1) when that is below max; the division keeps the shift from
	// overflowing whatever base is.
	if n-1 < 62 && base <= max>>(n-1) {
		bound = base << (n - 1)
	}
	if bound == math.MaxInt64 {
		return rand.N(bound)
	}
	return rand.N(bound + 1)
}

// maxRetryAfter is the longest Retry-After parseRetryAfter returns: about
// 68 years, longer than any cap, so that it always ends the call.
const maxRetryAfter = (1 << 31) * time.Second

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP date.
// It returns 0 for an absent or unreadable header, and for a delay that is
// not positive or a date not in the future (both mean "now"). A delay or a
// date beyond maxRetryAfter, a number of seconds too large for int64
// included, is maxRetryAfter: longer than the cap, so the call ends at once
// instead of being retried as if the header were absent.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	secs, err := strconv.ParseInt(v, 10, 64)
	switch {
	case err == nil:
		if secs <= 0 {
			return 0
		}
		if secs > int64(maxRetryAfter/time.Second) {
			return maxRetryAfter
		}
		return time.Duration(secs) * time.Second
	case errors.Is(err, strconv.ErrRange) && v[0] != '-' && allDigits(strings.TrimPrefix(v, "+")):
		// A delay too large for int64 (ParseInt reports the overflow before
		// it looks at the rest, hence the check for digits).
		return maxRetryAfter
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return min(d, maxRetryAfter)
		}
	}
	return 0
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// retryableNetErr reports whether a failure to get (or to finish reading) a
// response may be cured by another attempt: refused, reset or aborted
// connections, a connection closed early (EOF), dial failures and timeouts.
// TLS certificate errors, unknown hosts and redirect refusals are final.
func retryableNetErr(err error) bool {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return dnsErr.IsTimeout || dnsErr.IsTemporary
	}
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.EPIPE):
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		return true
	}
	return false
}
