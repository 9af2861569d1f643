package hyper

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Info sends any /info request to the node, POST {base}/{key}/info, and
// decodes the answer into out: the request types the SDK has no method for
// (clearinghouseState, openOrders, meta, spotMeta, l2Book, …), through the
// same transport as the typed calls, with the same retries, hooks, key
// masking, errors and budget.
//
// req is the request body: any value that encoding/json marshals to a JSON
// object with a "type" member, such as a struct with a `json:"type"` field,
// a map[string]any, or a json.RawMessage holding the body. The type, 1 to
// 64 ASCII letters and digits, names the call in errors, hooks and logs
// ("hyper: clearinghouseState: …"), and nodeaccess.WithCost(type, n)
// sets its cost by that name, on the node and the public API alike. out is a non-nil pointer that encoding/json decodes
// the answer into (a *json.RawMessage keeps it as it came), or nil to drop
// the answer. A nil req, one that does not marshal, is not a JSON object or
// has no valid "type", and an out that is not a pointer are refused as a
// *nodeaccess.InputError before anything is sent.
//
// The node's requests cost 1 request unit of the node-access plan's budget
// (nodeaccess.WithBudget) unless nodeaccess.WithCost says otherwise. A node
// answers 422 (ErrUnsupportedRequest) to a type it does not serve: allMids
// is one, and node-access services serve only part of /info; PublicInfo
// sends a request to the public API instead.
func (c *Client) Info(ctx context.Context, out, req any) error {
	return c.call(ctx, onNode, req, out)
}

// PublicInfo is Info for Hyperliquid's official public API, POST
// {public}/info (https://api.hyperliquid.xyz unless WithPublicURL chose another), which
// serves every /info request type and never receives the access key: a req
// whose body holds the key, in any spelling the SDK masks, is refused
// before anything is sent.
//
// Each request is charged its weight to the public API's weight budget
// (WithPublicBudget), not to the node-access plan. The
// default weights are those of Hyperliquid's API documentation, "Rate
// limits and user limits": 2 for allMids, l2Book, clearinghouseState,
// orderStatus, spotClearinghouseState and exchangeStatus, 60 for userRole,
// 20 for every other type. Some types (userFills, candleSnapshot, …) weigh
// more per item they return, which is not known before the answer: raise
// their weight with nodeaccess.WithCost(type, n) where that matters.
func (c *Client) PublicInfo(ctx context.Context, out, req any) error {
	return c.call(ctx, onPublic, req, out)
}

// call checks and marshals req, sends it to where and decodes the answer
// into out.
func (c *Client) call(ctx context.Context, where endpoint, req, out any) error {
	if err := transport.NilContext(ctx); err != nil {
		return c.node.Wrap("info", err)
	}
	typ, body, err := c.requestBody(where, req, out)
	if err != nil {
		if typ == "" {
			typ = "info"
		}
		return c.node.Wrap(typ, err)
	}
	t, resp, err := c.post(ctx, where, typ, body)
	if err != nil {
		return err
	}
	defer resp.Release()
	if out == nil {
		return nil
	}
	return c.node.Wrap(typ, t.DecodeJSON(&resp, out))
}

// maxType bounds the length of a request type.
const maxType = 64

// requestBody marshals req and returns its type and body, or an
// *nodeaccess.InputError (and the type, once it is known to be valid).
func (c *Client) requestBody(where endpoint, req, out any) (string, []byte, error) {
	if req == nil {
		return "", nil, &nodeaccess.InputError{Arg: "req", Reason: `nil request: want a value that marshals to a JSON object with a "type"`}
	}
	body, err := json.Marshal(req)
	if err != nil {
		// A MarshalJSON method's error could say anything: mask it.
		return "", nil, &nodeaccess.InputError{Arg: "req", Reason: "does not marshal to JSON: " + c.node.Mask(err.Error())}
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil || members == nil {
		return "", nil, &nodeaccess.InputError{Arg: "req", Reason: fmt.Sprintf("%T marshals to %s, not a JSON object", req, jsonKind(bytes.TrimSpace(body)))}
	}
	raw, ok := members["type"]
	if !ok {
		return "", nil, &nodeaccess.InputError{Arg: "req", Reason: `the request has no "type" member`}
	}
	var typ string
	if err := json.Unmarshal(raw, &typ); err != nil {
		return "", nil, &nodeaccess.InputError{Arg: "req", Reason: fmt.Sprintf(`the "type" member is %s, not a string`, jsonKind(raw))}
	}
	// The type names the call in errors and hooks, which never show the
	// key; checked first, so that no message quotes it.
	if c.node.Mask(typ) != typ {
		return "", nil, &nodeaccess.InputError{Arg: "req", Reason: `the "type" member holds the access key`}
	}
	if err := checkType(typ); err != nil {
		return "", nil, err
	}
	if out != nil {
		if v := reflect.ValueOf(out); v.Kind() != reflect.Pointer || v.IsNil() {
			return typ, nil, &nodeaccess.InputError{Arg: "out", Reason: fmt.Sprintf("%T is not a non-nil pointer", out)}
		}
	}
	if where == onPublic && c.node.Mask(string(body)) != string(body) {
		return typ, nil, &nodeaccess.InputError{Arg: "req", Reason: "the request holds the access key; the public API takes no key"}
	}
	return typ, body, nil
}

// checkType validates a request type: 1 to maxType ASCII letters and
// digits, as every type of Hyperliquid's /info is written.
func checkType(typ string) error {
	bad := func(why string) error {
		return &nodeaccess.InputError{Arg: "req", Reason: `the "type" ` + transport.Quote(typ) + " " + why}
	}
	if typ == "" {
		return bad("is empty")
	}
	if len(typ) > maxType {
		return &nodeaccess.InputError{Arg: "req", Reason: fmt.Sprintf(`the "type" member is %d bytes long, longer than %d`, len(typ), maxType)}
	}
	for i := 0; i < len(typ); i++ {
		if !isAlnum(typ[i]) {
			return bad("is not a request type: want ASCII letters and digits")
		}
	}
	return nil
}

// endpoint says where an /info request goes.
type endpoint int

const (
	onNode endpoint = iota
	onPublic
)

// post sends body, a request of type typ, to the /info endpoint at where,
// and returns the 2xx answer with the transport that read it (call
// Release when done). Its errors come wrapped once with typ as the
// operation. The public API's requests cost their weight.
func (c *Client) post(ctx context.Context, where endpoint, typ string, body []byte) (*transport.Client, transport.Response, error) {
	t, target, units := c.node, c.nodeInfo, 0 // 0: WithCost for typ, else 1
	if where == onPublic {
		t, target = c.public, c.publicInfo
		units = t.Cost(typ, publicWeight(typ))
	}
	req := transport.Request{Op: typ, Method: http.MethodPost, Target: target, Body: body, RetryIf: retryNull, Units: units}
	resp, err := t.Do(ctx, &req)
	if err != nil {
		return t, resp, c.node.Wrap(typ, serverError(t, where, err))
	}
	return t, resp, nil
}

// retryNull retries HTTP 500 with the body null, which Hyperliquid servers
// answer now and then to valid requests that succeed when repeated.
func retryNull(status int, body []byte) bool {
	return status == http.StatusInternalServerError && string(bytes.TrimSpace(body)) == "null"
}

// decode runs dec on a 2xx body and turns its failure into an
// ErrInvalidResponse error that shows the body's start (and says so when the
// body is not JSON at all, such as an HTML page).
func decode[T any](t *transport.Client, resp *transport.Response, dec func([]byte) (T, error)) (T, error) {
	v, err := dec(resp.Body)
	if err == nil {
		return v, nil
	}
	var zero T
	return zero, t.InvalidBody(resp, err)
}

// appendJSONString appends s as a JSON string. s must hold only printable
// ASCII other than '"' and '\\' (the values this package sends are checked
// for that first).
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}
