package ton

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Call sends a request of TON's API v2 or v3 that the package has no typed
// call for, through the same client: the key where each API version puts
// it, its masking in errors, logs and hooks, the retries, the hooks and the
// budget of the typed calls. It decodes the answer into out.
//
// path names the endpoint as the APIs' addresses do after "/api/":
// "v2/" and a method for API v2 ("v2/getMasterchainInfo", "v2/shards",
// "v2/getBlockHeader"), "v3/" and a path for API v3
// ("v3/masterchainBlockShards", "v3/jetton/masters"). The request goes to
// {base}/api/v2/{key}/<method> or to {base}/{key}/api/v3/<path>.
//
// params are the request's parameters. url.Values (or nil) are sent as the
// query of a GET. Any other value is marshalled with encoding/json and sent
// as the body of a POST, for the endpoints the APIs serve by POST (v2
// sendBoc, runGetMethod, estimateFee; v3 message, runGetMethod,
// estimateFee). With WithJSONRPC a v2 call is instead a JSON-RPC request
// posted to {base}/api/v2/{key}/jsonRPC, with the method and params: a JSON
// object, into which url.Values go as strings (a list for a repeated
// parameter), which toncenter's servers convert to the numbers a method
// takes. Send 64-bit numbers (a shard, a logical time) as strings in any
// form; a shard goes to v2 as strconv.FormatInt(int64(s), 10) and to v3
// as s.String().
//
// out receives the answer decoded by encoding/json: for v2 the result, the
// "result" member of {"ok":true,"result":…} or of the JSON-RPC answer (a
// body without that envelope is decoded whole); for v3 the body. A nil out
// drops the answer; a *json.RawMessage keeps it as sent. Any other out must
// be a non-nil pointer.
//
// Each try costs one request unit, or what nodeaccess.WithCost set for the
// call's name: the method for v2, the path after "v3/" for v3, the names of
// the typed calls' operations too (WithCost("accountStates", 2) prices
// AccountStates and Call(ctx, "v3/accountStates", …) alike). Errors, hooks
// and logs name the call the same way ("ton: getMasterchainInfo: …").
//
// Errors and retries are those of every call of the package (see the
// package documentation): a non-2xx answer is a *nodeaccess.HTTPError with
// the server's message, a TON error inside a 2xx body a
// *nodeaccess.RPCError; 429 and 5xx answers are retried, and lite-server
// failures match ErrNotYetAvailable or ErrUnreadableTransaction. A 422
// stays the server's HTTPError: toncenter's servers answer it for
// parameters they refuse, the indexer also for some failed database
// queries. A body that does not decode into out is an error matching
// nodeaccess.ErrInvalidResponse. A path not of the form above (each part
// between slashes made of ASCII letters, digits and "-._~", and not "." or
// ".."), params that do not marshal, or a path, parameter or body that
// holds the access key, are an *nodeaccess.InputError, and nothing is sent.
func (c *Client) Call(ctx context.Context, out any, path string, params any) error {
	if err := transport.NilContext(ctx); err != nil {
		return c.t.Wrap("call", err)
	}
	ep, err := c.endpoint(path)
	if err != nil {
		return c.t.Wrap("call", err)
	}
	if out != nil {
		if v := reflect.ValueOf(out); v.Kind() != reflect.Pointer || v.IsNil() {
			return c.t.Wrap(ep.name, &nodeaccess.InputError{Arg: "out", Reason: fmt.Sprintf("%T is not a non-nil pointer (or nil, to drop the answer)", out)})
		}
	}
	req, err := c.request(ep, params)
	if err != nil {
		return c.t.Wrap(ep.name, err)
	}
	resp, err := c.send(ctx, req)
	if err != nil {
		return c.t.Wrap(ep.name, err)
	}
	_, err = decode(c, &resp, func(body []byte) (struct{}, error) {
		payload, err := ep.payload(body)
		if err != nil || out == nil {
			return struct{}{}, err
		}
		return struct{}{}, json.Unmarshal(payload, out)
	})
	return c.t.Wrap(ep.name, err)
}

// endpoint is a parsed Call path: the API version and the name (the v2
// method, or the v3 path after "v3/").
type endpoint struct {
	v3   bool
	name string
}

// endpoint parses and checks path (see Call).
func (c *Client) endpoint(path string) (endpoint, error) {
	if c.t.Mask(path) != path {
		return endpoint{}, &nodeaccess.InputError{Arg: "path", Reason: "it holds the access key"}
	}
	bad := func(why string) (endpoint, error) {
		return endpoint{}, &nodeaccess.InputError{Arg: "path", Reason: transport.Quote(path) + " " + why}
	}
	version, name, _ := strings.Cut(path, "/")
	var ep endpoint
	switch version {
	case "v2":
	case "v3":
		ep.v3 = true
	default:
		return bad(`does not start with "v2/" or "v3/" (the part of the API's address after /api/, such as "v2/getMasterchainInfo")`)
	}
	ep.name = name
	for seg := range strings.SplitSeq(name, "/") {
		switch {
		case seg == "":
			return bad("has an empty part: no part of it may be empty")
		case seg == "." || seg == "..":
			return bad(`has a part "` + seg + `", which would move out of the API`)
		case !unreserved(seg):
			return bad(`has a character other than ASCII letters, digits and "-._~" in a part`)
		case !ep.v3 && seg != name:
			return bad(`names more than a method: a v2 path is "v2/" and one method`)
		}
	}
	return ep, nil
}

// unreserved reports whether s holds only the characters RFC 3986 leaves
// unreserved in a URL, which need no escaping anywhere.
func unreserved(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !('a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '-' || b == '.' || b == '_' || b == '~') {
			return false
		}
	}
	return true
}

// request builds the request of a Call: a GET with params as its query
// (url.Values or nil), else a POST with params as its JSON body; for v2 with
// WithJSONRPC a JSON-RPC request. Params holding the key are refused.
func (c *Client) request(ep endpoint, params any) (*transport.Request, error) {
	var query url.Values
	var body []byte
	switch p := params.(type) {
	case nil:
	case url.Values:
		for name, vals := range p {
			if c.t.Mask(name) != name || slices.ContainsFunc(vals, func(v string) bool { return c.t.Mask(v) != v }) {
				return nil, &nodeaccess.InputError{Arg: "params", Reason: "a parameter holds the access key"}
			}
		}
		query = p
	default:
		b, err := json.Marshal(p)
		if err != nil {
			return nil, &nodeaccess.InputError{Arg: "params", Reason: fmt.Sprintf("%T does not marshal to JSON: %v", p, err)}
		}
		if c.t.Mask(string(b)) != string(b) {
			return nil, &nodeaccess.InputError{Arg: "params", Reason: "the body holds the access key"}
		}
		body = b
	}
	req := &transport.Request{Op: ep.name, Method: http.MethodGet, Query: query}
	if !ep.v3 && c.useRPC {
		params, err := rpcParams(query, body)
		if err != nil {
			return nil, err
		}
		req.Method, req.Target, req.Query, req.Body = http.MethodPost, c.rpc, nil, c.rpcRequest(ep.name, params)
		return req, nil
	}
	var err error
	if ep.v3 {
		req.Target, err = c.t.Target("{key}/api/v3/" + ep.name)
	} else {
		req.Target, err = c.t.Target("api/v2/{key}/{method}", "method", ep.name)
	}
	if err != nil {
		return nil, fmt.Errorf("ton: %w", err)
	}
	if body != nil {
		req.Method, req.Body = http.MethodPost, body
	}
	return req, nil
}

// rpcParams returns the params object of a JSON-RPC request: the query's
// parameters as strings (a list for a repeated one), or the body, which
// must be a JSON object.
func rpcParams(query url.Values, body []byte) ([]byte, error) {
	if body != nil {
		if t := bytes.TrimSpace(body); len(t) == 0 || t[0] != '{' {
			return nil, &nodeaccess.InputError{Arg: "params", Reason: "JSON-RPC params must be a JSON object, not " + transport.Quote(string(t))}
		}
		return body, nil
	}
	obj := make(map[string]any, len(query))
	for name, vals := range query {
		switch len(vals) {
		case 0:
		case 1:
			obj[name] = vals[0]
		default:
			obj[name] = vals
		}
	}
	return json.Marshal(obj) // strings always marshal
}

// rpcRequest returns a JSON-RPC request for method (checked: no character
// JSON escapes) with params, a JSON object.
func (c *Client) rpcRequest(method string, params []byte) []byte {
	b := make([]byte, 0, 64+len(method)+len(params))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = strconv.AppendUint(b, c.ids.Add(1), 10)
	b = append(b, `,"method":"`...)
	b = append(b, method...)
	b = append(b, `","params":`...)
	b = append(b, params...)
	return append(b, '}')
}

// payload returns what a 2xx body of ep answers (see Call): for v2 the
// result of its envelope, or the body when it has none; for v3 the body. A
// TON error in the body is a *nodeaccess.RPCError.
func (ep endpoint) payload(body []byte) ([]byte, error) {
	t := bytes.TrimSpace(body)
	if len(t) == 0 || t[0] != '{' {
		return body, nil // a bare value: out's decoding judges it
	}
	if ep.v3 && !bytes.Contains(t, []byte(`"error"`)) && !bytes.Contains(t, []byte(`"ok"`)) {
		return body, nil // no error member: spare a second parse
	}
	var env errorEnvelope
	if err := json.Unmarshal(t, &env); err != nil {
		return nil, fmt.Errorf("body is not JSON: %v", err)
	}
	if err := bodyError(&env); err != nil {
		return nil, err
	}
	switch {
	case ep.v3:
		return body, nil
	case len(env.Result) > 0:
		return env.Result, nil
	case env.OK != nil:
		return nil, fmt.Errorf(`"ok" is true but the body has no "result"`)
	}
	return body, nil
}
