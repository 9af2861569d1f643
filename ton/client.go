package ton

import (
	"bytes"
	"context"
	"fmt"
	"sync/atomic"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Client calls a TON node-access endpoint: API v2 (getBlockTransactionsExt,
// in its REST or its JSON-RPC form), API v3 (accountStates,
// pendingTransactions), and any other endpoint of either with Call. It is
// safe for concurrent use; make one per endpoint and share it.
type Client struct {
	t *transport.Client

	blockREST transport.Target // GET  {base}/api/v2/{key}/getBlockTransactionsExt
	idsREST   transport.Target // GET  {base}/api/v2/{key}/getBlockTransactions
	rpc       transport.Target // POST {base}/api/v2/{key}/jsonRPC
	states    transport.Target // GET  {base}/{key}/api/v3/accountStates
	pending   transport.Target // GET  {base}/{key}/api/v3/pendingTransactions

	useRPC bool
	ids    atomic.Uint64
}

type jsonRPCKey struct{}

// Option configures a Client when New makes it: a setting every client
// takes (the With… functions of package nodeaccess), or one of this
// package's With… functions, which another package's New refuses. It is
// nodeaccess.Option, so one slice of options serves clients of several
// chains.
type Option = nodeaccess.Option

// option makes an option of this package, called pkg.name in errors.
func option(name string, f config.Func) Option {
	return transport.Option("ton", "ton."+name, f)
}

// WithJSONRPC makes the client's API v2 calls (BlockTransactions,
// AllBlockTransactions, and Call with a "v2/" path) use the JSON-RPC form of
// API v2, POST {base}/api/v2/{key}/jsonRPC, instead of the REST form (GET
// {base}/api/v2/{key}/getBlockTransactionsExt, say). Both return the same
// result.
//
// In this form a call asks for at most 256 transactions, whatever
// BlockTransactionsQuery.Count says: toncenter's servers run a JSON-RPC
// call under a short timeout, which a large count, fetched from the lite
// server 256 at a time, runs out of; 256 is one lite-server call. A block with more transactions comes back Incomplete,
// and AllBlockTransactions goes on with the next page as in the REST form.
func WithJSONRPC() Option {
	return option("WithJSONRPC", func(c *config.Config) error {
		c.SetExt(jsonRPCKey{}, true)
		return nil
	})
}

// New returns a client for the TON node at baseURL with the access key key.
// API v2 calls go to {baseURL}/api/v2/{key}/… and API v3 calls to
// {baseURL}/{key}/api/v3/…, as node-access services lay them out. Options
// from the nodeaccess package and WithJSONRPC apply.
func New(baseURL, key string, opts ...Option) (*Client, error) {
	fs, err := transport.Options("ton", opts)
	if err != nil {
		return nil, err
	}
	t, err := transport.New(transport.Settings{Ops: ops, Chain: "ton", BaseURL: baseURL, Key: key, Options: fs})
	if err != nil {
		return nil, err
	}
	c := &Client{t: t}
	for _, x := range []struct {
		dst  *transport.Target
		tmpl string
	}{
		{&c.blockREST, "api/v2/{key}/getBlockTransactionsExt"},
		{&c.idsREST, "api/v2/{key}/getBlockTransactions"},
		{&c.rpc, "api/v2/{key}/jsonRPC"},
		{&c.states, "{key}/api/v3/accountStates"},
		{&c.pending, "{key}/api/v3/pendingTransactions"},
	} {
		if *x.dst, err = t.Target(x.tmpl); err != nil {
			return nil, fmt.Errorf("ton: %w", err)
		}
	}
	if v, ok := t.Config().Ext(jsonRPCKey{}); ok {
		c.useRPC = v.(bool)
	}
	return c, nil
}

// String describes the client; the key is masked.
func (c *Client) String() string {
	if c == nil {
		return "<nil>"
	}
	form := "REST"
	if c.useRPC {
		form = "JSON-RPC"
	}
	return "ton.Client{" + c.t.BaseMasked() + ", key " + transport.Mask + ", v2 " + form + "}"
}

// Format prints String for every verb, so that no formatting of a client
// (%v, %+v, %#v) can reach the key.
func (c *Client) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(c.String())) }

// maxMessage caps a server message taken into an error.
const maxMessage = 512

// scrub makes a server message safe to show: it masks every spelling of
// the key (the transport's Mask: raw, path- and query-escaped, %q, JSON and
// ASCII-escaped JSON) and only then caps the message, so that a key the cap
// would cut through is masked whole rather than left half visible.
func (c *Client) scrub(msg string) string {
	return c.t.MaskCut(msg, maxMessage)
}

// retry5xx makes a 5xx retryable (the transport retries 429, 502, 503 and
// 504 itself): TON servers answer 500 for a lite server that is not ready
// (or does not have the block yet) and 542 for other transient lite-server
// failures. Not tonlib's failure to convert a transaction (see
// ErrUnreadableTransaction): the same request fails the same way again.
func retry5xx(status int, body []byte) bool {
	if status < 500 || status > 599 {
		return false
	}
	_, msg, ok := parseErrorBody(body)
	return !ok || !unreadableTransaction(msg)
}

// maxErrorBody bounds the 2xx bodies faultInBody parses: TON error bodies
// are short, and the large bodies of real answers are not parsed twice.
const maxErrorBody = 4 << 10

// faultInBody retries a 2xx answer whose body is a TON error whose code is
// a status r retries (transport.Retried: 429, 502, 503, 504, and r.RetryIf,
// by default retry5xx: every 5xx but tonlib's failure to convert a
// transaction), as it would retry that status: {"ok":false,"result":
// "Ratelimit exceed","code":429} or {"ok":false,"error":"…","code":503} in
// an HTTP 200, as some gateways send them. After the last attempt it is the
// call's *nodeaccess.RPCError, which matches the status's sentinel (code
// 429 nodeaccess.ErrRateLimited, a 5xx nodeaccess.ErrUnavailable). Other
// error bodies are left to the operation's decoder, which returns the same
// RPCError without retrying.
func (c *Client) faultInBody(r *transport.Request, body []byte) error {
	if len(body) > maxErrorBody || !bytes.Contains(body, []byte(`"error"`)) && !bytes.Contains(body, []byte(`"ok"`)) {
		return nil
	}
	code, msg, ok := parseErrorBody(body)
	if !ok || !transport.Retried(r, code, body) {
		return nil
	}
	return transport.Retryable(&nodeaccess.RPCError{Code: code, Message: c.scrub(msg)})
}

// send sends r with the retries every TON call has (r.RetryIf, retry5xx
// when unset), for a fault in either envelope: a non-2xx status, or a TON
// error in a 2xx body whose code is that status (faultInBody); it returns
// the 2xx response. A non-2xx answer is the transport's
// *nodeaccess.HTTPError, with the server's message in Message and its code
// in Code when its body is one of the TON error forms (withServerMessage). The typed calls and
// Call all go through it.
func (c *Client) send(ctx context.Context, r *transport.Request) (transport.Response, error) {
	if r.RetryIf == nil {
		r.RetryIf = retry5xx
	}
	r.Check = func(body []byte) error { return c.faultInBody(r, body) }
	resp, err := c.t.Do(ctx, r)
	if err != nil {
		return resp, c.withServerMessage(err)
	}
	return resp, nil
}

// decode runs dec on a 2xx body and releases it. A server error found in
// the body (a *nodeaccess.RPCError) is returned with its message scrubbed;
// any other decoding failure is an ErrInvalidResponse error that shows the
// start of the body.
func decode[T any](c *Client, resp *transport.Response, dec func([]byte) (T, error)) (T, error) {
	defer resp.Release()
	v, err := dec(resp.Body)
	if err != nil {
		var zero T
		if re, ok := err.(*nodeaccess.RPCError); ok {
			re.Message = c.scrub(re.Message)
			return zero, classify(re.Code, re.Message, re)
		}
		return zero, c.t.InvalidBody(resp, err)
	}
	return v, nil
}
