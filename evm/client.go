package evm

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Client calls an EVM node's JSON-RPC endpoint. It is safe for concurrent
// use; make one per endpoint and share it.
type Client struct {
	t      *transport.Client
	target transport.Target
	head   *headCache // the chain's head, learnt only with a budget (cost.go)
	// maxBatch is the most calls one HTTP request of SendBatch carries;
	// learnt is a smaller limit a server's refusal named (0: none).
	maxBatch int
	learnt   *atomic.Int64 // a pointer: a Client may be copied (printed by value)
	// callData is the member name(s) of a call object's data
	// (WithCallDataMembers).
	callData callDataSpelling
	// latestOnly, when not empty, is why the client reads state at the
	// latest block only (latest.go).
	latestOnly string
	// unanchored, when not empty, is why no light client anchors the
	// client's chain (evm/verified refuses the client).
	unanchored string
	// follow is the chain's eth_getLogs range limit and block time, when
	// its constructor knows them (HyperEVM's: latest.go); zero: none.
	follow followProfile
}

type pathSuffixKey struct{}

// Option configures a Client when New makes it: a setting every client
// takes (the With… functions of package nodeaccess), or one of this
// package's With… functions, which another package's New refuses. It is
// nodeaccess.Option, so one slice of options serves clients of several
// chains.
type Option = nodeaccess.Option

// option makes an option of this package, called pkg.name in errors.
func option(name string, f config.Func) Option {
	return transport.Option("evm", "evm."+name, f)
}

// WithPathSuffix puts the JSON-RPC endpoint below the key: with suffix "evm"
// the client posts to {base}/{key}/evm instead of {base}/{key}, which is
// where node-access services serve Hyperliquid's EVM.
func WithPathSuffix(suffix string) Option {
	return option("WithPathSuffix", func(c *config.Config) error {
		s := strings.Trim(suffix, "/")
		for _, seg := range strings.Split(s, "/") {
			if seg == "" || seg == "." || seg == ".." || strings.ContainsAny(seg, "?#{}% \t\r\n") {
				return fmt.Errorf("evm: WithPathSuffix: bad path suffix %q", suffix)
			}
		}
		c.SetExt(pathSuffixKey{}, s)
		return nil
	})
}

// New returns a client for the node at baseURL with the access key key; it
// posts JSON-RPC to {baseURL}/{key}. Options from the nodeaccess package
// (retries, timeouts, HTTP client, hooks, budget) and of this package
// (WithPathSuffix, WithMaxBatchSize, WithCallDataMembers) apply.
func New(baseURL, key string, opts ...Option) (*Client, error) {
	fs, err := transport.Options("evm", opts)
	if err != nil {
		return nil, err
	}
	t, err := transport.New(transport.Settings{FromURL: "evm.NewFromURL", Ops: ops, Chain: "evm", BaseURL: baseURL, Key: key, Options: fs})
	if err != nil {
		return nil, err
	}
	tmpl := "{key}"
	if s, ok := t.Config().Ext(pathSuffixKey{}); ok {
		tmpl += "/" + s.(string)
	}
	target, err := t.Target(tmpl)
	if err != nil {
		return nil, fmt.Errorf("evm: %w", err)
	}
	maxBatch := defaultMaxBatchSize
	if n, ok := t.Config().Ext(maxBatchKey{}); ok {
		maxBatch = n.(int)
	}
	c := &Client{t: t, target: target, head: newHeadCache(), maxBatch: maxBatch, learnt: new(atomic.Int64)}
	if s, ok := t.Config().Ext(callDataKey{}); ok {
		c.callData = s.(callDataSpelling)
	}
	if why, ok := t.Config().Ext(latestOnlyKey{}); ok {
		c.latestOnly = why.(string)
	}
	if why, ok := t.Config().Ext(unanchoredKey{}); ok {
		c.unanchored = why.(string)
	}
	if p, ok := t.Config().Ext(followProfileKey{}); ok {
		c.follow = p.(followProfile)
	}
	return c, nil
}

// NewFromURL takes a whole endpoint URL as providers show it, with the
// access key in the path, and returns New(base, key, opts...). It takes
// exactly two shapes:
//
//	https://host/<KEY>      JSON-RPC at the key: New("https://host", key)
//	https://host/<KEY>/evm  Hyperliquid's EVM: the same with WithPathSuffix("evm")
//
// with http or https, a host name (ASCII letters, digits, '-', '.') or IP
// address, any port, and one trailing slash or none. Anything else is
// refused, so that no segment is ever mistaken for the key and shown
// unmasked: another segment before or after the key ("/v2/<KEY>",
// "/<KEY>/info", "/<KEY>/EVM"), an empty or dot segment, a query, a fragment
// or user info, a key segment that is one of the path names evm, info and
// beacon (the key is missing), that holds an escaped '/' or a '\', or that is
// not %-escaped exactly as it is sent (url.PathEscape). For a base URL with a
// path of its own ("https://host/v2" and a key), call New. The refusal is an
// error over a *nodeaccess.InputError whose message quotes no part of the
// URL.
func NewFromURL(endpoint string, opts ...Option) (*Client, error) {
	ep, err := transport.ParseEndpoint("evm.NewFromURL", endpoint, "{key}", "{key}/evm")
	if err != nil {
		return nil, fmt.Errorf("evm: %w", err)
	}
	if ep.Shape == "{key}/evm" {
		opts = append([]Option{WithPathSuffix("evm")}, opts...)
	}
	return New(ep.Base, ep.Key, opts...)
}

func (c *Client) describe() string {
	if c == nil {
		return "<nil>"
	}
	return "evm.Client{" + c.target.Masked() + "}"
}

// Format describes the client under every verb of fmt (%v, %s, %+v, %#v),
// its endpoint with the key masked, so that no formatting of a client can
// reach the key: fmt.Sprint(c) gives "evm.Client{https://host/REDACTED/evm}".
func (c *Client) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(c.describe())) }
