package beacon

import (
	"fmt"

	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Client fetches beacon states from a consensus-layer node through a
// node-access service. It is safe for concurrent use; make one per endpoint
// and share it.
type Client struct {
	t      *transport.Client
	enc    Encoding
	preset Preset
	masked string // the endpoint with the key masked, for String
}

// New returns a client for the node at baseURL with the access key key; it
// reads states from {baseURL}/beacon/{key}/eth/v2/debug/beacon/states/{id}.
// Options from the nodeaccess package (retries, timeouts, body cap, HTTP
// client, hooks, logger) and this package's WithEncoding and WithPreset
// apply.
//
// The state calls default to a per-attempt timeout of 15 minutes and a
// body cap of 4 GiB, not the nodeaccess defaults for ordinary calls;
// nodeaccess.WithTimeout and nodeaccess.WithMaxResponseBytes replace them.
func New(baseURL, key string, opts ...Option) (*Client, error) {
	fs, err := transport.Options("beacon", opts)
	if err != nil {
		return nil, err
	}
	t, err := transport.New(transport.Settings{FromURL: "beacon.NewFromURL", Ops: ops, Chain: "beacon", BaseURL: baseURL, Key: key, Options: fs})
	if err != nil {
		return nil, err
	}
	c := &Client{t: t, enc: EncodingAuto, preset: MainnetPreset()}
	if e, ok := t.Config().Ext(encodingKey{}); ok {
		c.enc = e.(Encoding)
	}
	if p, ok := t.Config().Ext(presetKey{}); ok {
		c.preset = p.(Preset)
	}
	tg, err := t.Target("beacon/{key}")
	if err != nil {
		return nil, fmt.Errorf("beacon: %w", err)
	}
	c.masked = tg.Masked()
	return c, nil
}

// NewFromURL takes the node's endpoint as providers show it, with the
// access key in the path, and returns New(base, key, opts...). It takes
// exactly one shape:
//
//	https://host/beacon/<KEY>
//
// with http or https, a host name (ASCII letters, digits, '-', '.') or IP
// address, any port, and one trailing slash or none. Anything else is
// refused, so that no segment is ever mistaken for the key and shown
// unmasked: another segment before /beacon or after the key
// ("/v1/beacon/<KEY>", "/beacon/<KEY>/eth"), "/Beacon", an empty or dot
// segment, a query, a fragment or user info, a key segment that is one of the
// path names evm, info and beacon (the key is missing), that holds an escaped
// '/' or a '\', or that is not %-escaped exactly as it is sent
// (url.PathEscape). For a base URL with a path of its own ("https://host/v1"
// and a key), call New. The refusal is an error over a *nodeaccess.InputError
// whose message quotes no part of the URL.
func NewFromURL(endpoint string, opts ...Option) (*Client, error) {
	ep, err := transport.ParseEndpoint("beacon.NewFromURL", endpoint, "beacon/{key}")
	if err != nil {
		return nil, fmt.Errorf("beacon: %w", err)
	}
	return New(ep.Base, ep.Key, opts...)
}

// String describes the client; the key is masked.
func (c *Client) String() string {
	if c == nil {
		return "<nil>"
	}
	return "beacon.Client{" + c.masked + "}"
}

// Format prints String for every verb, so that no formatting of a client
// (%v, %+v, %#v) can reach the key.
func (c *Client) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(c.String())) }

// request returns the state request for id with the client's Accept header
// and the state calls' default timeout and cap.
func (c *Client) request(op string, id StateID) (*transport.Request, error) {
	if id == "" {
		return nil, zeroStateIDError()
	}
	id, err := ParseStateID(string(id)) // any StateID("…") a caller made is checked before sending
	if err != nil {
		return nil, err
	}
	req, err := c.newRequest(op, []string{"eth", "v2", "debug", "beacon", "states", string(id)}, nil, c.enc.accept())
	if err != nil {
		return nil, err
	}
	req.Timeout, req.MaxBytes = stateTimeout, maxStateBytes
	return req, nil
}
