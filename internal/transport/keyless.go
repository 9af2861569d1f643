package transport

import (
	"encoding/json"
	"net/url"

	"github.com/nodeaccess/nodeaccess"
)

// keyless refuses a request of a keyless client (one that knows the key
// only to keep it from the host it talks to, such as Hyperliquid's public
// API) that would carry the key: in its URL's path or query, or in its
// body. It reads what is actually sent, as the host will read it: the
// escaped URL and its decoded path and query values ("+" a space, %XX a
// byte), the body's bytes, and, for a JSON body, every string in it once
// decoded (so "\u0053…" and "\u0026#83;…" spellings are seen for what they
// say). The matcher then recognises each spelling the masking documents
// within every one of those texts.
func (c *Client) keyless(r *Request) error {
	if c.sendKey || c.red == nil {
		return nil
	}
	u, _ := r.Target.withQuery(r.Query)
	texts := []string{u.String(), u.Path, u.RawQuery}
	if q, err := url.ParseQuery(u.RawQuery); err == nil {
		for k, vs := range q {
			texts = append(texts, k)
			texts = append(texts, vs...)
		}
	}
	for _, s := range texts {
		if c.red.holds(s) {
			return &nodeaccess.InputError{Arg: "request", Reason: "the URL holds the access key, which this host must never receive"}
		}
	}
	if len(r.Body) == 0 {
		return nil
	}
	if c.red.holds(string(r.Body)) {
		return &nodeaccess.InputError{Arg: "request", Reason: "the body holds the access key, which this host must never receive"}
	}
	var v any
	if json.Unmarshal(r.Body, &v) == nil && c.red.valueHolds(v) {
		return &nodeaccess.InputError{Arg: "request", Reason: "the body holds the access key, which this host must never receive"}
	}
	return nil
}
