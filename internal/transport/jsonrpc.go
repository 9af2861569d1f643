package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/nodeaccess/nodeaccess"
)

// RPC is one JSON-RPC 2.0 call.
type RPC struct {
	// Op names the operation; it defaults to Method.
	Op string
	// Target is the endpoint URL.
	Target Target
	// Method is the JSON-RPC method name (letters, digits, '_' and '.').
	Method string
	// Params is the JSON encoding of the params (an array or an object);
	// nil sends no params member.
	Params []byte
	// Timeout is the operation's default per-attempt timeout.
	Timeout time.Duration
	// RelaxID skips the id echo check for this call (servers known not to
	// echo it); the client-wide WithoutRPCIDCheck does the same for all.
	RelaxID bool
	// Units is each attempt's cost (see Request.Units).
	Units int
}

// RPCResult is the raw result member of a JSON-RPC response. Raw points into
// a pooled buffer: decode it, then call Release.
type RPCResult struct {
	Response
	// Raw is the JSON text of the result member (possibly null).
	Raw []byte
}

// CallRPC sends a JSON-RPC 2.0 request with a fresh id from the client's
// counter, checks the response envelope (jsonrpc "2.0", the echoed id, result
// or error) and returns the raw result. A JSON-RPC error object becomes a
// *nodeaccess.RPCError with the key scrubbed; a bad envelope an
// ErrInvalidResponse error.
func (c *Client) CallRPC(ctx context.Context, call *RPC) (RPCResult, error) {
	if !validMethod(call.Method) {
		return RPCResult{}, fmt.Errorf("transport: bad JSON-RPC method name %q", c.red.Text(call.Method))
	}
	id := c.ids.Add(1)
	// The body may be pooled: every attempt sends its own copy of it.
	bp := getBuf()
	defer putBuf(bp)
	b := appendRequest((*bp)[:0], id, call.Method, call.Params)
	*bp = b
	op := call.Op
	if op == "" {
		op = call.Method
	}
	req := Request{Op: op, Method: http.MethodPost, Target: call.Target, Body: b, Timeout: call.Timeout, Units: call.Units}
	resp, err := c.Do(ctx, &req)
	if err != nil {
		return RPCResult{}, err
	}
	raw, err := c.checkEnvelope(&resp, id, call.RelaxID || c.cfg.RelaxRPCID)
	if err != nil {
		resp.Release()
		return RPCResult{}, err
	}
	return RPCResult{Response: resp, Raw: raw}, nil
}

// checkEnvelope validates a JSON-RPC response and returns its raw result.
func (c *Client) checkEnvelope(resp *Response, id uint64, relax bool) ([]byte, error) {
	env, err := parseEnvelope(resp.Body)
	if err != nil {
		return nil, c.InvalidBody(resp, err)
	}
	if !bytes.Equal(env.version, []byte(`"2.0"`)) {
		return nil, c.InvalidBody(resp, fmt.Errorf("jsonrpc member is %s, want \"2.0\"", c.orAbsent(env.version)))
	}
	hasErr := env.errObj != nil && !isNull(env.errObj)
	// JSON-RPC 2.0 lets a server answer an error with "id": null when it
	// could not read the request's id; that error is still the answer.
	idOK := relax || idMatches(env.id, id) || hasErr && isNull(env.id)
	if !idOK {
		return nil, c.InvalidBody(resp, fmt.Errorf("response id %s does not echo request id %d", c.orAbsent(env.id), id))
	}
	if hasErr {
		return nil, c.rpcError(resp, env.errObj)
	}
	if env.result == nil {
		return nil, c.InvalidBody(resp, fmt.Errorf("response has neither result nor error"))
	}
	return env.result, nil
}

func validMethod(m string) bool {
	if m == "" {
		return false
	}
	for i := 0; i < len(m); i++ {
		ch := m[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '.') {
			return false
		}
	}
	return true
}

// orAbsent shows a member's raw JSON for a message: "absent" when it is
// missing, else its start (40 bytes) with the key masked before the cut, so
// that the cut cannot leave part of the key visible.
func (c *Client) orAbsent(raw []byte) string {
	if raw == nil {
		return "absent"
	}
	s := c.red.Head(raw, 40)
	if len(raw) > 40 {
		return string(s) + "…"
	}
	return string(s)
}

func isNull(raw []byte) bool { return string(raw) == "null" }

func idMatches(raw []byte, id uint64) bool {
	var tmp [20]byte
	return bytes.Equal(raw, strconv.AppendUint(tmp[:0], id, 10))
}

func (c *Client) rpcError(resp *Response, raw []byte) error {
	var obj struct {
		Code    *json.Number `json:"code"`
		Message string       `json:"message"`
		Data    any          `json:"data"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil || obj.Code == nil {
		return c.invalidJSON(resp, fmt.Errorf("malformed error object %s", c.orAbsent(raw)))
	}
	code, err := obj.Code.Int64()
	if err != nil {
		return c.invalidJSON(resp, fmt.Errorf("error code %s is not an integer", obj.Code.String()))
	}
	obj.Data = c.red.value(obj.Data)
	return &nodeaccess.RPCError{Code: int(code), Message: c.red.Text(obj.Message), Data: obj.Data}
}

// InvalidBody returns an error matching nodeaccess.ErrInvalidResponse that
// says why the body was rejected and shows its content type and its start,
// all with the key masked: why may quote a value from the body. A body that
// is not JSON at all is reported as such (empty, truncated, an HTML page)
// instead of by the decoder's why.
func (c *Client) InvalidBody(resp *Response, why error) error {
	if !json.Valid(resp.Body) {
		var raw json.RawMessage
		if err := json.Unmarshal(resp.Body, &raw); err != nil {
			why = jsonProblem(resp.Body, err)
		}
	}
	return c.invalidJSON(resp, why)
}

// invalidJSON is InvalidBody for a body already known to be JSON: its work
// does not grow with the body (it reads the body's start only), so a
// splitter may report one error per member of a large answer and stay
// linear in it.
func (c *Client) invalidJSON(resp *Response, why error) error {
	why = c.red.Err(why)
	ct := c.red.Text(resp.Header.Get("Content-Type"))
	if errors.Is(why, nodeaccess.ErrInvalidResponse) {
		// A refinement of ErrInvalidResponse (ErrUnverified) says so
		// itself: its message is not prefixed with it a second time.
		return fmt.Errorf("%w (content-type %q, body starts %q)", why, ct, c.red.Head(resp.Body, 120))
	}
	return fmt.Errorf("%w: %w (content-type %q, body starts %q)", nodeaccess.ErrInvalidResponse, why, ct, c.red.Head(resp.Body, 120))
}

// DecodeJSON unmarshals a JSON body into v, turning any failure into an
// ErrInvalidResponse error that tells a truncated body and a non-JSON body
// (such as an HTML error page) apart.
func (c *Client) DecodeJSON(resp *Response, v any) error {
	if err := json.Unmarshal(resp.Body, v); err != nil {
		return c.InvalidBody(resp, err)
	}
	return nil
}

// jsonProblem names what is wrong with a body that failed to decode.
func jsonProblem(body []byte, err error) error {
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) == 0:
		return fmt.Errorf("empty body")
	case trimmed[0] == '<':
		return fmt.Errorf("body is HTML or XML, not JSON")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset >= int64(len(body)) || err.Error() == "unexpected end of JSON input" {
		return fmt.Errorf("body is truncated JSON: %w", err)
	}
	return err
}

// appendRequest appends the JSON-RPC 2.0 request object of one call to b:
// its id, method and, when not nil, its params (already JSON).
func appendRequest(b []byte, id uint64, method string, params []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = strconv.AppendUint(b, id, 10)
	b = append(b, `,"method":"`...)
	b = append(b, method...)
	b = append(b, '"')
	if params != nil {
		b = append(b, `,"params":`...)
		b = append(b, params...)
	}
	return append(b, '}')
}
