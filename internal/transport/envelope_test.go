package transport

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// canned is a RoundTripper that answers every request with the same
// response, counting requests. No network is involved.
type canned struct {
	status int
	ctype  string
	body   string
	header http.Header
	n      atomic.Int32
}

func (c *canned) RoundTrip(req *http.Request) (*http.Response, error) {
	c.n.Add(1)
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		_ = req.Body.Close()
	}
	h := http.Header{}
	for k, v := range c.header {
		h[k] = v
	}
	if c.ctype != "" {
		h.Set("Content-Type", c.ctype)
	}
	st := c.status
	if st == 0 {
		st = 200
	}
	return &http.Response{
		StatusCode:    st,
		Status:        strconv.Itoa(st) + " " + http.StatusText(st),
		Header:        h,
		Body:          io.NopCloser(strings.NewReader(c.body)),
		ContentLength: int64(len(c.body)),
		Request:       req,
	}, nil
}

// cannedCall makes one JSON-RPC call (id 1) against body.
func cannedCall(t *testing.T, body string, opts ...nodeaccess.Option) (RPCResult, *canned, error) {
	t.Helper()
	rt := &canned{body: body, ctype: "application/json"}
	c := newClient(t, "https://node.example", testKey, append([]nodeaccess.Option{nodeaccess.WithRoundTripper(rt), fast}, opts...)...)
	res, err := call(context.Background(), t, c)
	return res, rt, err
}

func TestEnvelopeResults(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, body, raw string }{
		{"hex", `{"jsonrpc":"2.0","id":1,"result":"0x"}`, `"0x"`},
		{"null result", `{"jsonrpc":"2.0","id":1,"result":null}`, `null`},
		{"null error", `{"jsonrpc":"2.0","id":1,"error":null,"result":true}`, `true`},
		{"member order and space", " \r\n{ \"result\" : [1, 2] ,\n\t\"id\" : 1 , \"jsonrpc\" : \"2.0\" } \n", `[1, 2]`},
		{"nested with braces in strings", `{"jsonrpc":"2.0","id":1,"result":{"s":"}{][\"\\","a":[{"b":"]"}],"n":-1.5e3}}`,
			`{"s":"}{][\"\\","a":[{"b":"]"}],"n":-1.5e3}`},
		{"unknown members", `{"jsonrpc":"2.0","x":{"result":1},"id":1,"y":[],"result":"ok"}`, `"ok"`},
		{"duplicate member, last wins", `{"jsonrpc":"2.0","id":1,"result":1,"result":2}`, `2`},
		{"escaped member names", `{"\u006asonrpc":"2.0","\u0069d":1,"res\u0075lt":"0x1"}`, `"0x1"`},
		{"escape in another member name", `{"jsonrpc":"2.0","id":1,"x\"y":1,"result":"0x2"}`, `"0x2"`},
		{"number result", `{"jsonrpc":"2.0","id":1,"result":12345678901234567890}`, `12345678901234567890`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, rt, err := cannedCall(t, tc.body)
			require.NoError(t, err)
			assert.Equal(t, tc.raw, string(res.Raw))
			res.Release()
			assert.Equal(t, int32(1), rt.n.Load())
		})
	}
}

func TestEnvelopeRPCError(t *testing.T) {
	t.Parallel()
	res, rt, err := cannedCall(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"the method eth_foo does not exist","data":{"x":[1,"y"]}}}`)
	require.Error(t, err)
	assert.Nil(t, res.Raw)
	var re *nodeaccess.RPCError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, -32601, re.Code)
	assert.Equal(t, -32601, re.ErrorCode())
	assert.Equal(t, "the method eth_foo does not exist", re.Message)
	assert.Equal(t, map[string]any{"x": []any{1.0, "y"}}, re.ErrorData())
	assert.Equal(t, "json-rpc error -32601: the method eth_foo does not exist", err.Error())
	assert.False(t, errors.Is(err, nodeaccess.ErrInvalidResponse))
	assert.False(t, errors.Is(err, nodeaccess.ErrRateLimited))
	assert.Equal(t, int32(1), rt.n.Load(), "an RPC error is not retried")

	// A revert: code 3 and the revert data as a hex string.
	_, _, err = cannedCall(t, `{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted: nope","data":"0x08c379a0"}}`)
	require.ErrorAs(t, err, &re)
	assert.Equal(t, &nodeaccess.RPCError{Code: 3, Message: "execution reverted: nope", Data: "0x08c379a0"}, re)

	// Error wins over result; no data means nil.
	_, _, err = cannedCall(t, `{"jsonrpc":"2.0","id":1,"result":"0x1","error":{"code":-32000,"message":"header not found"}}`)
	require.ErrorAs(t, err, &re)
	assert.Equal(t, &nodeaccess.RPCError{Code: -32000, Message: "header not found"}, re)

	// Rate limit codes match ErrRateLimited and are not retried by the
	// transport (it cannot know the server wants a retry).
	_, rt, err = cannedCall(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"limit exceeded"}}`)
	assert.ErrorIs(t, err, nodeaccess.ErrRateLimited)
	assert.Equal(t, int32(1), rt.n.Load())
}

func TestEnvelopeInvalid(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, body, want string }{
		{"missing jsonrpc", `{"id":1,"result":"0x"}`, `jsonrpc member is absent, want "2.0"`},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":1,"result":"0x"}`, `jsonrpc member is "1.0", want "2.0"`},
		{"jsonrpc number", `{"jsonrpc":2.0,"id":1,"result":"0x"}`, `jsonrpc member is 2.0, want "2.0"`},
		{"id mismatch", `{"jsonrpc":"2.0","id":2,"result":"0x"}`, `response id 2 does not echo request id 1`},
		{"id as string", `{"jsonrpc":"2.0","id":"1","result":"0x"}`, `response id "1" does not echo request id 1`},
		{"id as 1.0", `{"jsonrpc":"2.0","id":1.0,"result":"0x"}`, `response id 1.0 does not echo`},
		{"id missing", `{"jsonrpc":"2.0","result":"0x"}`, `response id absent does not echo`},
		{"id null", `{"jsonrpc":"2.0","id":null,"result":"0x"}`, `response id null does not echo`},
		{"batch", `[{"jsonrpc":"2.0","id":1,"result":"0x"}]`, `not a JSON object`},
		{"null body", `null`, `not a JSON object`},
		{"string body", `"0x"`, `not a JSON object`},
		{"neither result nor error", `{"jsonrpc":"2.0","id":1}`, `neither result nor error`},
		{"only null error", `{"jsonrpc":"2.0","id":1,"error":null}`, `neither result nor error`},
		{"error not an object", `{"jsonrpc":"2.0","id":1,"error":"boom"}`, `malformed error object "boom"`},
		{"error without code", `{"jsonrpc":"2.0","id":1,"error":{"message":"x"}}`, `malformed error object`},
		{"error code not integer", `{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}`, `error code 1.5 is not an integer`},
		{"invalid JSON", `{"jsonrpc":"2.0","id":1,"result":0x}`, `invalid character 'x'`},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,"result":1}}`, `invalid character '}' after top-level value`},
		{"truncated", `{"jsonrpc":"2.0","id":1,"result":"0x`, `body is truncated JSON`},
		{"empty", ``, `empty body`},
		{"HTML", "<!DOCTYPE html>\n<html><body>Bad gateway</body></html>", `body is HTML or XML, not JSON`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, rt, err := cannedCall(t, tc.body)
			require.Error(t, err)
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), `content-type "application/json"`)
			var re *nodeaccess.RPCError
			assert.False(t, errors.As(err, &re))
			assert.False(t, errors.Is(err, nodeaccess.ErrUnavailable))
			assert.Equal(t, int32(1), rt.n.Load(), "an invalid body is not retried")
		})
	}
}

func TestEnvelopeRelaxedID(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":"1","result":"0x"}`,
		`{"jsonrpc":"2.0","id":7,"result":"0x"}`,
		`{"jsonrpc":"2.0","result":"0x"}`,
	} {
		res, _, err := cannedCall(t, body, nodeaccess.WithoutRPCIDCheck())
		require.NoError(t, err, body)
		assert.Equal(t, `"0x"`, string(res.Raw))
		res.Release()

		rt := &canned{body: body}
		c := newClient(t, "https://node.example", testKey, nodeaccess.WithRoundTripper(rt))
		res, err = c.CallRPC(context.Background(), &RPC{Target: rpcTarget(t, c), Method: "m", RelaxID: true})
		require.NoError(t, err, body)
		assert.Equal(t, `"0x"`, string(res.Raw))
		res.Release()
		// The same client still checks ids on calls that do not relax.
		_, err = c.CallRPC(context.Background(), &RPC{Target: rpcTarget(t, c), Method: "m"})
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	}
	// The version is still checked.
	_, _, err := cannedCall(t, `{"jsonrpc":"1.0","id":"1","result":"0x"}`, nodeaccess.WithoutRPCIDCheck())
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
}

func TestParseEnvelopeDirect(t *testing.T) {
	t.Parallel()
	env, err := parseEnvelope([]byte(`{"jsonrpc":"2.0","id":3,"error":{"code":3,"message":"execution reverted: nope","data":"0x08c379a0"}}`))
	require.NoError(t, err)
	assert.Equal(t, `"2.0"`, string(env.version))
	assert.Equal(t, `3`, string(env.id))
	assert.Nil(t, env.result)
	assert.Equal(t, `{"code":3,"message":"execution reverted: nope","data":"0x08c379a0"}`, string(env.errObj))

	env, err = parseEnvelope([]byte(`{}`))
	require.NoError(t, err)
	assert.Equal(t, envelope{}, env)
	env, err = parseEnvelope([]byte(` { } `))
	require.NoError(t, err)
	assert.Equal(t, envelope{}, env)
}

func TestDecodeJSON(t *testing.T) {
	t.Parallel()
	c := newClient(t, "https://node.example", testKey)
	resp := func(body, ct string) *Response {
		return &Response{StatusCode: 200, Header: http.Header{"Content-Type": {ct}}, Body: []byte(body)}
	}
	var v struct{ A int }
	require.NoError(t, c.DecodeJSON(resp(`{"A":7}`, "application/json"), &v))
	assert.Equal(t, 7, v.A)
	for _, tc := range []struct{ body, ct, want string }{
		{"", "application/json", "empty body"},
		{" \n ", "application/json", "empty body"},
		{"<html>", "text/html", `body is HTML or XML, not JSON (content-type "text/html", body starts "<html>")`},
		{`{"A":`, "application/json", "body is truncated JSON"},
		{`{"A":"x"}`, "application/json", "cannot unmarshal string"},
		{`{"A":1} x`, "application/json", "invalid character 'x' after top-level value"},
	} {
		err := c.DecodeJSON(resp(tc.body, tc.ct), &v)
		require.Error(t, err, tc.body)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		assert.Contains(t, err.Error(), tc.want)
	}
	// The body shown is capped.
	long := `{"A":"` + strings.Repeat("z", 500)
	err := c.DecodeJSON(resp(long, "application/json"), &v)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `body starts "{\"A\":\"zzz`)
	assert.Less(t, len(err.Error()), 300)
}

// JSON-RPC 2.0 allows "id": null on an error the server could not tie to a
// request id (a parse error); the error is still the answer, in strict mode.
func TestEnvelopeErrorWithNullID(t *testing.T) {
	t.Parallel()
	_, _, err := cannedCall(t, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`)
	var re *nodeaccess.RPCError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, -32700, re.Code)
	assert.Equal(t, "parse error", re.Message)
	// A result with a null id is still not an answer to this request.
	_, _, err = cannedCall(t, `{"jsonrpc":"2.0","id":null,"result":"0x"}`)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	// An error with another request's id is not ours either.
	_, _, err = cannedCall(t, `{"jsonrpc":"2.0","id":9,"error":{"code":-32000,"message":"x"}}`)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
}
