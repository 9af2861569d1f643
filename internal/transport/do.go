package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
)

// ErrorBodyCap is how much of a non-2xx body is kept in an HTTPError.
const ErrorBodyCap = 4 << 10

// Request is one operation's HTTP request.
type Request struct {
	// Op names the operation for errors, hooks and logs.
	Op string
	// Method is http.MethodGet or http.MethodPost.
	Method string
	// Target is the URL, from Client.Target.
	Target Target
	// Query is encoded into the URL's query (values are escaped).
	Query url.Values
	// Body is sent for POST. Each attempt sends its own copy (net/http may
	// still read a body after the attempt returned), so the caller may reuse
	// Body once Do returned.
	Body []byte
	// ContentType of the body; it defaults to application/json.
	ContentType string
	// Accept defaults to application/json.
	Accept string
	// Timeout is the operation's default per-attempt timeout; the user's
	// WithTimeout replaces it, and 0 means config.DefaultTimeout.
	Timeout time.Duration
	// MaxBytes is the operation's default body cap; the user's
	// WithMaxResponseBytes replaces it, and 0 means the client's default.
	MaxBytes int64
	// RetryIf adds retryable cases to the shared ones (429, 502, 503, 504):
	// it sees the status and the start of the body of a non-2xx response.
	RetryIf func(status int, body []byte) bool
	// Units is what each attempt costs in request units; 0 means the
	// user's cost for Op (nodeaccess.WithCost), else 1. With a budget, each
	// attempt waits for its units first.
	Units int
	// Check, for Do, inspects a 2xx body before it is returned, for servers
	// that answer some failures with a 2xx status (an error envelope in a
	// 200). Its error fails the attempt: retried like a 503 when marked
	// Retryable and attempts remain, otherwise returned as the call's error
	// (unwrapped from Retryable). It must not keep body.
	Check func(body []byte) error
	// Batch lists the calls of a JSON-RPC batch for hooks (batch.go); nil
	// for a request that carries one call.
	Batch []nodeaccess.BatchCall
}

// Response is a 2xx response. From Do, Body holds the whole body in a pooled
// buffer: call Release when done with it, and keep no reference to Body
// after. From Stream, the decoder reads Stream instead.
type Response struct {
	// StatusCode is the 2xx status.
	StatusCode int
	// Header holds the response headers (Content-Type, and such as
	// Eth-Consensus-Version for content negotiation).
	Header http.Header
	// ContentLength is the declared length, -1 when unknown.
	ContentLength int64
	// Body is the whole body (Do).
	Body []byte
	// Stream is the live body, capped (Stream).
	Stream io.Reader

	buf *[]byte
}

// Release returns the body's buffer to the pool. Body must not be used
// afterwards. Release is idempotent.
func (r *Response) Release() {
	if r.buf != nil {
		putBuf(r.buf)
		r.buf, r.Body = nil, nil
	}
}

// Retryable marks a stream decoder's error as one that another attempt may
// cure (such as a body that broke off while streaming). Retryable(nil) is
// nil.
func Retryable(err error) error {
	if err == nil {
		return nil
	}
	return &retryable{err}
}

type retryable struct{ err error }

func (e *retryable) Error() string { return e.err.Error() }
func (e *retryable) Unwrap() error { return e.err }

// Final marks a stream decoder's error as the end of the call even when the
// body broke off, which Stream otherwise retries: for a decoder that has
// already passed part of the body on (written it to a file, say), where
// another attempt would hand the same bytes on twice. The call returns err
// as it is (unwrapped from Final). Final(nil) is nil.
func Final(err error) error {
	if err == nil {
		return nil
	}
	return &finalErr{err}
}

type finalErr struct{ err error }

func (e *finalErr) Error() string { return e.err.Error() }
func (e *finalErr) Unwrap() error { return e.err }

// outcome is what one attempt ended with.
type outcome struct {
	err        error
	status     int
	bytes      int64
	retryable  bool
	retryAfter time.Duration
	final      bool // the error is final whatever its kind (decoder, cap)
	units      int
	waited     time.Duration // waited on the budget before the attempt
}

// Do sends r, retrying as the policy allows, and returns the 2xx response
// with its whole body (capped). Otherwise it returns a *nodeaccess.HTTPError,
// a network failure that matches nodeaccess.ErrUnavailable, an
// ErrResponseTooLarge error, or the context's error when ctx ended the call.
// Errors are not yet wrapped with the operation; the chain package does that
// with Wrap.
func (c *Client) Do(ctx context.Context, r *Request) (Response, error) {
	return c.run(ctx, r, nil)
}

// Stream is Do for large bodies: decode reads the live body (capped) while it
// arrives. decode's error ends the call unless it is marked Retryable; a body
// that breaks off (reset, early EOF, timeout) is retried when attempts remain
// unless decode's error is marked Final, so decode must not keep state across
// calls (or must be ready to undo it).
func (c *Client) Stream(ctx context.Context, r *Request, decode func(*Response) error) error {
	_, err := c.run(ctx, r, decode)
	return err
}

func (c *Client) run(ctx context.Context, r *Request, decode func(*Response) error) (Response, error) {
	if err := NilContext(ctx); err != nil {
		return Response{}, err
	}
	if err := ctx.Err(); err != nil {
		return Response{}, err
	}
	if err := c.keyless(r); err != nil {
		return Response{}, err
	}
	units := c.units(r)
	for n := 1; ; n++ {
		var waited time.Duration
		if c.budget != nil {
			var err error
			if waited, err = c.charge(ctx, units, r.Batch != nil); err != nil {
				return Response{}, err
			}
		}
		start := time.Now()
		resp, o := c.attempt(ctx, r, decode)
		o.units, o.waited = units, waited
		if c.budget != nil {
			c.throttled(&o)
		}
		delay, again := c.nextDelay(ctx, n, &o)
		if c.hook != nil || c.log != nil {
			c.report(ctx, r, n, start, &o, delay, again)
		}
		if o.err == nil {
			return resp, nil
		}
		if err := ctx.Err(); err != nil {
			return Response{}, err
		}
		if !again {
			return Response{}, c.final(n, &o)
		}
		if delay > 0 {
			t := time.NewTimer(delay)
			select {
			case <-ctx.Done():
				t.Stop()
				return Response{}, ctx.Err()
			case <-t.C:
			}
		}
	}
}

// final shapes the last attempt's error.
func (c *Client) final(n int, o *outcome) error {
	var rt *retryable
	switch {
	case errors.As(o.err, &rt):
		return rt.err
	case o.final || o.status != 0 && o.status/100 != 2:
		return o.err
	case n > 1:
		return fmt.Errorf("%w after %d attempts: %w", nodeaccess.ErrUnavailable, n, o.err)
	}
	return fmt.Errorf("%w: %w", nodeaccess.ErrUnavailable, o.err)
}

// limit is the body cap of r: the user's WithMaxResponseBytes, else the
// operation's own, else the default (the same order as timeouts).
func (c *Client) limit(r *Request) int64 {
	switch {
	case c.userMaxBytes > 0:
		return c.userMaxBytes
	case r.MaxBytes > 0:
		return r.MaxBytes
	}
	return c.cfg.MaxResponseBytes
}

func (c *Client) timeout(r *Request) time.Duration {
	switch {
	case c.cfg.Timeout > 0:
		return c.cfg.Timeout
	case r.Timeout > 0:
		return r.Timeout
	}
	return config.DefaultTimeout
}

// send sends req, whose URL holds the key, and returns its response or a
// *url.Error as http.Client.Do does, built here with the URL masked and its
// cause masked (Err) where a user's RoundTripper or CheckRedirect let the
// key into it; a network failure's *net.OpError names addresses, never the
// path, and is kept as it is.
func (c *Client) send(req *http.Request, r *Request) (*http.Response, error) {
	if c.hc != nil {
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		// The URL is the last one asked for, after any redirect within
		// the origin, which may hold the key anywhere.
		if ue, ok := err.(*url.Error); ok {
			return nil, &url.Error{Op: ue.Op, URL: c.red.Text(ue.URL), Err: c.red.Err(ue.Err)}
		}
		return nil, c.red.Err(err)
	}
	resp, err := c.rt.RoundTrip(req)
	if err != nil {
		return nil, &url.Error{Op: urlErrOp(req.Method), URL: c.maskedURL(r), Err: c.red.Err(err)}
	}
	return resp, nil
}

func urlErrOp(method string) string {
	if method == "" {
		return "Get"
	}
	return method[:1] + strings.ToLower(method[1:])
}

func (c *Client) attempt(ctx context.Context, r *Request, decode func(*Response) error) (resp Response, o outcome) {
	timeout := c.timeout(r)
	actx := ctx
	var box *bodyBox
	if a := newAttempt(ctx, timeout); a != nil {
		defer a.end()
		actx, box = a, a.body()
	}
	hresp, err := c.send(c.newRequest(actx, r, box), r)
	if err != nil {
		return resp, c.netFailure(ctx, actx, timeout, err)
	}
	defer hresp.Body.Close()
	o.status = hresp.StatusCode
	if hresp.StatusCode < 200 || hresp.StatusCode > 299 {
		return resp, c.httpFailure(r, hresp)
	}
	limit := c.limit(r)
	if hresp.ContentLength > limit {
		o.err, o.final = tooLarge(limit), true
		return resp, o
	}
	resp = Response{StatusCode: hresp.StatusCode, Header: hresp.Header, ContentLength: hresp.ContentLength}
	if decode != nil {
		cr := &capReader{r: hresp.Body, left: limit}
		sresp := resp // a separate variable, so that only streams allocate it
		sresp.Stream = cr
		// The decoder's error may quote the body, which may echo the key.
		err = c.red.Err(decode(&sresp))
		o.bytes = limit - cr.left
		switch {
		case err == nil:
		case cr.over:
			o.err, o.final = tooLarge(limit), true
		case isFinal(err):
			o.err, o.final = err.(*finalErr).err, true
		case cr.err != nil && !errors.Is(cr.err, io.EOF):
			fail := c.netFailure(ctx, actx, timeout, c.red.Err(cr.err))
			fail.status, fail.bytes = o.status, o.bytes
			return Response{}, fail
		default:
			var rt *retryable
			o.retryable = errors.As(err, &rt)
			o.err, o.final = err, true
		}
		return Response{}, o
	}
	bp := getBuf()
	body, over, rerr := readCapped((*bp)[:0], hresp.Body, limit)
	*bp = body
	o.bytes = int64(len(body))
	switch {
	case over:
		putBuf(bp)
		o.err, o.final = tooLarge(limit), true
		return Response{}, o
	case rerr != nil:
		putBuf(bp)
		fail := c.netFailure(ctx, actx, timeout, c.red.Err(rerr))
		fail.status, fail.bytes = o.status, o.bytes
		return Response{}, fail
	}
	if r.Check != nil {
		if err := c.red.Err(r.Check(body)); err != nil {
			putBuf(bp)
			var rt *retryable
			o.retryable = errors.As(err, &rt)
			o.err, o.final = err, true
			return Response{}, o
		}
	}
	resp.Body, resp.buf = body, bp
	return resp, o
}

// isFinal reports whether err came from Final (directly, not wrapped, so
// that the decoder says so on purpose).
func isFinal(err error) bool {
	_, ok := err.(*finalErr)
	return ok
}

func tooLarge(limit int64) error {
	return fmt.Errorf("%w: body exceeds the %d-byte cap", nodeaccess.ErrResponseTooLarge, limit)
}

// newRequest builds the attempt's request under ctx. Its body is a copy of
// r.Body in box, the attempt's own (nil: a new one).
func (c *Client) newRequest(ctx context.Context, r *Request, box *bodyBox) *http.Request {
	u, _ := r.Target.withQuery(r.Query)
	method := methodOf(r)
	var hdr http.Header
	switch {
	case method == http.MethodPost && r.Accept == "" && (r.ContentType == "" || r.ContentType == "application/json"):
		hdr = c.hdrPostJSON
	case method == http.MethodGet && r.Accept == "":
		hdr = c.hdrGetJSON
	default:
		hdr = http.Header{"User-Agent": c.ua, "Accept": {"application/json"}}
		if r.Accept != "" {
			hdr["Accept"] = []string{r.Accept}
		}
		if method == http.MethodPost {
			ct := r.ContentType
			if ct == "" {
				ct = "application/json"
			}
			hdr["Content-Type"] = []string{ct}
		}
	}
	if c.hc != nil || !c.ownRT {
		// A user's transport may (against the RoundTripper contract) modify
		// headers; give it its own copy.
		hdr = hdr.Clone()
	}
	req := http.Request{
		Method:     method,
		URL:        u,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     hdr,
		Host:       u.Host,
	}
	if len(r.Body) > 0 {
		if box == nil {
			box = new(bodyBox)
		}
		box.fill(r.Body)
		req.Body = box.reader()
		req.ContentLength = int64(len(r.Body))
		req.GetBody = box.getBody
	}
	return req.WithContext(ctx)
}

// netFailure classifies an error from sending or from reading the body,
// which the caller has masked.
func (c *Client) netFailure(parent, actx context.Context, timeout time.Duration, err error) outcome {
	if perr := parent.Err(); perr != nil {
		return outcome{err: perr}
	}
	if actx.Err() != nil {
		return outcome{err: fmt.Errorf("attempt timed out after %s: %w", timeout, err), retryable: true}
	}
	return outcome{err: err, retryable: retryableNetErr(err)}
}

func (c *Client) httpFailure(r *Request, resp *http.Response) outcome {
	// Read a little past the cap, so that a key the cap cuts through is
	// still recognised and masked.
	head, _, _ := readCapped(make([]byte, 0, 512), resp.Body, int64(ErrorBodyCap+c.red.Longest()))
	// Drain a little more so that the connection can be reused.
	_, _ = io.CopyN(io.Discard, resp.Body, 64<<10)
	he := &nodeaccess.HTTPError{
		StatusCode:  resp.StatusCode,
		Status:      c.red.Text(resp.Status),
		ContentType: c.red.Text(resp.Header.Get("Content-Type")),
		Body:        c.red.Head(head, ErrorBodyCap),
		RetryAfter:  parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()),
		Method:      methodOf(r),
		Location:    c.red.Text(resp.Header.Get("Location")),
		URL:         c.maskedURL(r),
	}
	o := outcome{err: he, status: resp.StatusCode, bytes: int64(len(head)), retryAfter: he.RetryAfter}
	o.retryable = Retried(r, resp.StatusCode, head[:min(len(head), ErrorBodyCap)])
	return o
}

// Retried reports whether a fault of status (with body, the start of the
// error body) is retried for r: the shared statuses (429, 502, 503, 504),
// or what r.RetryIf adds. A chain whose servers put a status in the code of
// an error object inside a 2xx body (TON's {"ok":false,"code":503}) asks
// it from its Check with that code, so that the fault is retried by one
// rule whichever envelope carries it.
func Retried(r *Request, status int, body []byte) bool {
	switch status {
	case 429, 502, 503, 504:
		return true
	}
	return r.RetryIf != nil && r.RetryIf(status, body)
}

func methodOf(r *Request) string {
	if r.Method == "" {
		return http.MethodGet
	}
	return r.Method
}

// maskedURL is r's URL as errors, hooks and logs show it: the key's path
// segment replaced by Mask, and the key masked in the query too.
func (c *Client) maskedURL(r *Request) string {
	_, m := r.Target.withQuery(r.Query)
	return c.red.Text(m)
}

// report calls the hook and the logger with one attempt's outcome. ctx is
// the caller's context (never the attempt's, which has ended).
func (c *Client) report(ctx context.Context, r *Request, n int, start time.Time, o *outcome, delay time.Duration, again bool) {
	a := nodeaccess.Attempt{
		Chain:      c.chain,
		Op:         r.Op,
		Method:     methodOf(r),
		URL:        c.maskedURL(r),
		Number:     n,
		StatusCode: o.status,
		Duration:   time.Since(start),
		Bytes:      o.bytes,
		Err:        o.err, // masked where it entered (attempt)
		Units:      o.units,
		BudgetWait: o.waited,
		Batch:      r.Batch,
	}
	if again {
		a.WillRetry, a.Retry = true, delay
	}
	if c.hook != nil {
		c.hook(ctx, a)
	}
	if c.log != nil {
		c.logAttempt(ctx, &a)
	}
}

func (c *Client) logAttempt(ctx context.Context, a *nodeaccess.Attempt) {
	attrs := []any{"chain", a.Chain, "op", a.Op, "method", a.Method, "url", a.URL,
		"attempt", a.Number, "status", a.StatusCode, "duration", a.Duration, "bytes", a.Bytes}
	if a.Batch != nil {
		attrs = append(attrs, "calls", len(a.Batch), "units", a.Units)
	}
	switch {
	case a.Err == nil:
		c.log.DebugContext(ctx, "nodeaccess: request", attrs...)
	case a.WillRetry:
		c.log.InfoContext(ctx, "nodeaccess: request failed, retrying", append(attrs, "error", a.Err.Error(), "retry_in", a.Retry)...)
	default:
		c.log.WarnContext(ctx, "nodeaccess: request failed", append(attrs, "error", a.Err.Error())...)
	}
}

// capReader reads at most left bytes and records whether the body had more
// and the first read error.
type capReader struct {
	r    io.Reader
	left int64
	over bool
	err  error
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// Probe for one more byte to tell "exactly at the cap" from "over".
		var one [1]byte
		n, err := c.r.Read(one[:])
		if n > 0 {
			c.over = true
			return 0, nodeaccess.ErrResponseTooLarge
		}
		if err != nil && err != io.EOF {
			// The body broke off right at the cap: not a clean end.
			if c.err == nil {
				c.err = err
			}
			return 0, err
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// readCapped appends r to dst until EOF or until more than limit bytes were
// seen, in which case over is true.
func readCapped(dst []byte, r io.Reader, limit int64) (body []byte, over bool, err error) {
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		room := dst[len(dst):cap(dst)]
		// One byte past the limit tells "at the limit" from "over" (written
		// so that a limit near math.MaxInt64 cannot overflow).
		if left := limit - int64(len(dst)); int64(len(room)) > left {
			room = room[:left+1]
		}
		n, rerr := r.Read(room)
		dst = dst[:len(dst)+n]
		if int64(len(dst)) > limit {
			return dst[:limit], true, nil
		}
		if rerr == io.EOF {
			return dst, false, nil
		}
		if rerr != nil {
			return dst, false, rerr
		}
	}
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func getBuf() *[]byte { return bufPool.Get().(*[]byte) }

// GetBuf returns an empty byte slice from the transport's pool, for chain
// packages that build JSON-RPC params (which CallRPC copies); give it back
// with PutBuf. Never use one as a Request.Body: net/http may still read a
// body after the call returned.
func GetBuf() *[]byte { return getBuf() }

// PutBuf returns a buffer from GetBuf to the pool.
func PutBuf(b *[]byte) { putBuf(b) }

func putBuf(b *[]byte) {
	if cap(*b) > 1<<20 {
		return // keep the pool from holding on to large bodies
	}
	*b = (*b)[:0]
	bufPool.Put(b)
}
