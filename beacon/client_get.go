package beacon

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Get sends any GET request of the beacon API, such as
// "/eth/v1/beacon/headers/head" or "/eth/v1/beacon/states/head/finality_checkpoints",
// to {baseURL}/beacon/{key}{path}?{query}, through the same transport as
// State: the key in the path and masked everywhere else, the retries, the
// hooks, the logger and the budget. It asks for JSON and decodes the whole
// answer into out as json.Unmarshal does (out nil: the answer is read and
// dropped; a *json.RawMessage keeps it as it came).
//
// path is the route with its ids filled in, its segments separated by '/'
// (a leading '/' is optional); each segment is sent path-escaped, so none
// may be empty, "." or "..", nor hold '?', '#' or '%': give the query as
// query. A path or query that holds the access key is refused too. Such
// input is a *nodeaccess.InputError, and nothing is sent.
//
// The call's operation name, in errors, hooks and logs, and for
// nodeaccess.WithCost, is the path with its leading '/'
// ("/eth/v1/node/version"); each attempt costs 1 request unit unless
// WithCost says otherwise. The nodeaccess defaults for ordinary calls
// apply (timeout, body cap); a large answer, such as every validator of a
// mainnet state, needs nodeaccess.WithMaxResponseBytes.
//
// Errors: an error response is a *nodeaccess.HTTPError whose Message and
// Code are the node's, from the beacon API's {"code","message"} body; an
// answer that is not JSON, or does not fit out, matches
// nodeaccess.ErrInvalidResponse.
func (c *Client) Get(ctx context.Context, out any, path string, query url.Values) error {
	if err := transport.NilContext(ctx); err != nil {
		return c.t.Wrap("get", err)
	}
	op := "/" + strings.TrimPrefix(path, "/")
	segs, err := c.pathSegments(path, query)
	if err != nil {
		return c.t.Wrap(c.t.MaskCut(op, maxQuoted), err)
	}
	req, err := c.newRequest(op, segs, query, mediaJSON)
	if err != nil {
		return c.t.Wrap(op, err)
	}
	resp, err := c.t.Do(ctx, req)
	if err != nil {
		return c.t.Wrap(op, withMessage(err, c.t.Mask))
	}
	defer resp.Release()
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(resp.Body, out); err != nil {
		return c.t.Wrap(op, fmt.Errorf("%w: decoding the answer into %T: %s", nodeaccess.ErrInvalidResponse, out, c.t.Mask(err.Error())))
	}
	return nil
}

// pathSegments checks a Get's path and query and returns the path's
// segments.
func (c *Client) pathSegments(path string, query url.Values) ([]string, error) {
	p := strings.TrimPrefix(path, "/")
	if p == "" {
		return nil, &nodeaccess.InputError{Arg: "path", Reason: "empty"}
	}
	if c.t.Mask(path) != path {
		return nil, &nodeaccess.InputError{Arg: "path", Reason: "holds the access key"}
	}
	for k, vs := range query {
		if c.t.Mask(k) != k {
			return nil, &nodeaccess.InputError{Arg: "query", Reason: "holds the access key"}
		}
		for _, v := range vs {
			if c.t.Mask(v) != v {
				return nil, &nodeaccess.InputError{Arg: "query", Reason: "holds the access key"}
			}
		}
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		why := ""
		switch {
		case s == "":
			why = "is empty"
		case s == "." || s == "..":
			why = "is " + strconv.Quote(s)
		case strings.ContainsAny(s, "?#%"):
			why = "holds '?', '#' or '%' (give the query as query; the path is sent escaped)"
		}
		if why != "" {
			return nil, &nodeaccess.InputError{Arg: "path", Reason: fmt.Sprintf("%s: segment %d %s", strconv.Quote(transport.Cut(path, maxQuoted)), i+1, why)}
		}
	}
	return segs, nil
}

// newRequest returns the request of operation op for the route whose
// segments are segs, below {base}/beacon/{key}; every segment is
// path-escaped.
func (c *Client) newRequest(op string, segs []string, query url.Values, accept string) (*transport.Request, error) {
	var tmpl strings.Builder
	tmpl.WriteString("beacon/{key}")
	vars := make([]string, 0, 2*len(segs))
	for i, s := range segs {
		name := "s" + strconv.Itoa(i)
		tmpl.WriteString("/{" + name + "}")
		vars = append(vars, name, s)
	}
	tg, err := c.t.Target(tmpl.String(), vars...)
	if err != nil {
		return nil, err
	}
	return &transport.Request{Op: op, Method: "GET", Target: tg, Query: query, Accept: accept}, nil
}
