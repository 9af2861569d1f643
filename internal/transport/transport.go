package transport

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
)

// Settings are what a chain package passes to New.
type Settings struct {
	// Chain names the package for errors and hooks ("evm").
	Chain string
	// BaseURL is the node's base URL as the user gave it.
	BaseURL string
	// Key is the access key; empty only when Keyless is set.
	Key string
	// Keyless makes a client for a public API that takes no key: {key}
	// targets are refused, and a Key given with Keyless is never sent, only
	// masked wherever it appears (a URL the user built with it by mistake).
	Keyless bool
	// FromURL names the chain's constructor that takes a whole endpoint URL
	// ("evm.NewFromURL"), "" when it has none: errors point to it.
	FromURL string
	// Ops is what the client can send, against which the user's costs are
	// checked; nil checks none.
	Ops *Ops
	// Options are the user's options. A chain's own defaults (a longer
	// timeout, a larger body cap) are not options: they are the
	// Request.Timeout and Request.MaxBytes of its calls, which the user's
	// options override.
	Options []config.Func
}

// Client sends requests for one chain client. It is safe for concurrent use.
type Client struct {
	chain string
	base  *url.URL
	// red holds the access key (nil for none) behind a pointer, so that fmt
	// never reaches it; sendKey is false for a keyless client, whose red
	// only masks a key given by mistake.
	red     *redactor
	sendKey bool
	// Requests go through hc, a copy of the user's *http.Client that
	// follows only same-origin redirects (redirect.go), when the user gave
	// one, and straight to rt otherwise (no redirects are followed then).
	hc    *http.Client
	rt    http.RoundTripper
	ownRT bool // rt is the SDK's own transport, which never modifies requests

	cfg      config.Config
	attempts int
	hook     func(context.Context, nodeaccess.Attempt)
	log      *slog.Logger
	ua       []string
	budget   nodeaccess.Limiter // nil: no budget (budget.go)
	// call and batchCall are what the client tells a nodeaccess.Budget
	// about each Wait (budget.go).
	call, batchCall config.BudgetCall

	// userMaxBytes is the user's WithMaxResponseBytes, 0 when not set.
	userMaxBytes int64

	ids atomic.Uint64

	// headers shared read-only by requests sent through the SDK's own
	// transport, which never modifies them.
	hdrPostJSON http.Header
	hdrGetJSON  http.Header
}

// New validates the base URL, the key and the options, and returns a client.
// Errors name the bad value, never the key.
func New(s Settings) (*Client, error) {
	red := newRedactor(s.Key)
	if s.Keyless {
		s.Key = ""
	}
	base, err := parseBase(s.BaseURL)
	if err != nil {
		// The message quotes the base URL, which may hold the key.
		reason := red.Text(err.Error())
		return nil, fmt.Errorf("%s: %w", s.Chain, &nodeaccess.InputError{Arg: "baseURL", Reason: reason})
	}
	if !s.Keyless {
		if err := checkKey(s.Key); err != nil {
			if s.Key == "" && keyLikeLastSegment(base) {
				err = fmt.Errorf("%w; the base URL's last path segment looks like one: pass the key as its own argument, %s", err, wholeEndpoint(s.FromURL))
			}
			return nil, fmt.Errorf("%s: %w", s.Chain, &nodeaccess.InputError{Arg: "key", Reason: err.Error()})
		}
		if baseHolds(red, s.BaseURL) {
			// The key would travel twice, once where the service does not
			// expect it; and the URL would be shown in errors.
			return nil, fmt.Errorf("%s: %w", s.Chain, &nodeaccess.InputError{Arg: "baseURL", Reason: "the base URL holds the access key: pass the URL without it (the client puts the key where the service expects it), " + wholeEndpoint(s.FromURL)})
		}
	}
	c := &Client{chain: s.Chain, base: base, red: red, sendKey: s.Key != ""}
	for _, o := range s.Options {
		if o == nil {
			continue
		}
		if err := o(&c.cfg); err != nil {
			// An option's message may quote its value (a URL, a header),
			// which may hold the key.
			return nil, fmt.Errorf("%s: %w", s.Chain, &nodeaccess.InputError{Arg: "option", Reason: c.red.Text(err.Error())})
		}
	}
	if err := s.Ops.checkCosts(c.cfg.Costs); err != nil {
		// The name quoted may be the key, given by mistake.
		err.Reason = c.red.Text(err.Reason)
		return nil, fmt.Errorf("%s: %w", s.Chain, err)
	}
	if c.red.holds(c.cfg.UserAgent) {
		// The SDK never puts the key in a header.
		return nil, fmt.Errorf("%s: %w", s.Chain, &nodeaccess.InputError{Arg: "option", Reason: "WithUserAgent: the user agent holds the access key"})
	}
	c.applyDefaults()
	c.budget, _ = c.cfg.Budget.(nodeaccess.Limiter)
	c.call = config.BudgetCall{MaxPause: c.cfg.MaxRetryAfter}
	c.batchCall = config.BudgetCall{MaxPause: c.cfg.MaxRetryAfter, Whole: true}
	return c, nil
}

func (c *Client) applyDefaults() {
	cfg := &c.cfg
	c.attempts = cfg.MaxAttempts
	if c.attempts == 0 {
		c.attempts = config.DefaultMaxAttempts
	}
	if cfg.BackoffBase == 0 {
		cfg.BackoffBase, cfg.BackoffMax = config.DefaultBackoffBase, config.DefaultBackoffMax
	}
	if !cfg.MaxRetryAfterSet {
		cfg.MaxRetryAfter = config.DefaultMaxRetryAfter
	}
	c.userMaxBytes = cfg.MaxResponseBytes
	if cfg.MaxResponseBytes == 0 {
		cfg.MaxResponseBytes = config.DefaultMaxResponseBytes
	}
	if h, ok := cfg.Hook.(func(context.Context, nodeaccess.Attempt)); ok {
		c.hook = h
	}
	c.log = cfg.Logger
	ua := "nodeaccess-go/" + nodeaccess.Version
	if cfg.UserAgent != "" {
		ua += " " + cfg.UserAgent
	}
	c.ua = []string{ua}
	switch {
	case cfg.HTTPClient != nil:
		c.hc = c.guardRedirects(cfg.HTTPClient)
	case cfg.RoundTripper != nil:
		c.rt = cfg.RoundTripper
	default:
		c.rt, c.ownRT = sharedTransport, true
	}
	c.hdrPostJSON = http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}, "User-Agent": c.ua}
	c.hdrGetJSON = http.Header{"Accept": {"application/json"}, "User-Agent": c.ua}
}

// sharedTransport is the SDK's default transport, shared by every client
// that has no HTTP client or transport of its own, so that connections to a
// host are pooled across clients.
var sharedTransport = DefaultTransport()

// DefaultTransport returns the transport the SDK's own client uses: HTTP
// keep-alive with a pool large enough for many goroutines per host (net/http's
// default keeps only 2 idle connections per host, so concurrent callers would
// keep opening new ones), HTTP/2 when the server offers it, and bounded dial,
// TLS and header waits.
func DefaultTransport() *http.Transport {
	return &http.Transport{
		Proxy: http.ProxyFromEnvironment,
		DialContext: (&net.Dialer{
			Timeout:   10 * time.Second,
			KeepAlive: 30 * time.Second,
		}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          512,
		MaxIdleConnsPerHost:   128,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: 1 * time.Second,
		ResponseHeaderTimeout: 0, // bounded by the per-attempt timeout instead
	}
}

// Config returns the resolved configuration, for chain-specific settings.
func (c *Client) Config() *config.Config { return &c.cfg }

// BaseMasked returns the base URL, with the key masked should the user have
// put it there too.
func (c *Client) BaseMasked() string { return c.red.Text(c.base.String()) }

// Wrap wraps err once in a *nodeaccess.OpError naming the chain and op; nil
// stays nil and an *OpError is not wrapped again. The errors the transport
// returns have the key masked where server text entered them; what the
// chain package adds goes through Err here: an input the user gave that
// holds the key (a *nodeaccess.InputError quoting it, a message built with
// fmt.Errorf), masked with its types and sentinels kept. A typed error of a
// chain package that may hold server or user text is built with the key
// masked (Mask, MaskCut) before it gets here.
func (c *Client) Wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*nodeaccess.OpError); ok {
		return c.red.Err(err) // a chain package may have built it itself
	}
	return &nodeaccess.OpError{Chain: c.chain, Op: op, Err: c.red.Err(err)}
}

// Mask returns s with every form of the access key replaced by Mask, for a
// chain package that shows text taken from a response (a server's message
// after JSON unescaping, say) in an error of its own.
func (c *Client) Mask(s string) string { return c.red.Text(s) }

// String describes the client without its key.
func (c *Client) String() string {
	if c == nil {
		return "<nil>"
	}
	if !c.sendKey {
		return fmt.Sprintf("%s client for %s (no key)", c.chain, c.BaseMasked())
	}
	return fmt.Sprintf("%s client for %s (key %s)", c.chain, c.BaseMasked(), Mask)
}

// Format prints String for every verb, so that no formatting of a client
// (%v, %+v, %#v, %s) can reach the key.
func (c *Client) Format(f fmt.State, verb rune) { _, _ = f.Write([]byte(c.String())) }

// Options returns what a chain package's options do, in order (see
// config.Collect): one owned by another package, or a value that
// is no option, is an InputError naming it, wrapped as New's
// errors are.
func Options[O any](chain string, opts []O) ([]config.Func, error) {
	fs, err := config.Collect(chain, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", chain, &nodeaccess.InputError{Arg: "option", Reason: err.Error()})
	}
	return fs, nil
}

// NilContext returns an *nodeaccess.InputError when ctx is nil, as net/http
// refuses one: every operation checks it first, so that a nil context is
// reported before anything else and nothing is sent. Nil otherwise.
func NilContext(ctx context.Context) error {
	if ctx == nil {
		return &nodeaccess.InputError{Arg: "ctx", Reason: "nil context.Context (pass context.Background() or a context of the caller's)"}
	}
	return nil
}

// wholeEndpoint says how to pass a whole endpoint URL, key included.
func wholeEndpoint(fromURL string) string {
	if fromURL == "" {
		return "and the key as its own argument"
	}
	return "or the whole endpoint URL to " + fromURL
}

// keyLikeLastSegment reports whether the last segment of u's path looks
// like an access key: 16 or more letters, digits, '-' or '_', letters and
// digits both among them (as providers' keys are), which no API path
// segment is.
func keyLikeLastSegment(u *url.URL) bool {
	p := strings.TrimSuffix(u.Path, "/")
	seg := p[strings.LastIndexByte(p, '/')+1:]
	if len(seg) < 16 {
		return false
	}
	var letter, digit bool
	for _, c := range seg {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letter = true
		case c == '-' || c == '_':
		default:
			return false
		}
	}
	return letter && digit
}

// baseHolds reports whether rawURL holds the key in its user information,
// path, query or fragment: where the user put it by mistake. The host is
// not read: the key goes to that host anyway, and a short key may spell a
// part of any host name.
func baseHolds(red *redactor, rawURL string) bool {
	rest := rawURL
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	auth, tail := rest, ""
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		auth, tail = rest[:i], rest[i:]
	}
	if i := strings.LastIndexByte(auth, '@'); i >= 0 && red.holds(auth[:i]) {
		return true
	}
	return red.holds(tail)
}

// Option makes a chain package's own option: one that owner's New alone
// takes, called name in errors ("evm.WithMaxBatchSize").
func Option(owner, name string, f config.Func) nodeaccess.Option {
	return config.Make(owner, name, f).(nodeaccess.Option)
}
