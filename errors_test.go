package nodeaccess_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
)

var sentinels = []error{
	nodeaccess.ErrInvalidInput, nodeaccess.ErrRateLimited, nodeaccess.ErrUnauthorized, nodeaccess.ErrNotFound,
	nodeaccess.ErrUnavailable, nodeaccess.ErrInvalidResponse, nodeaccess.ErrResponseTooLarge,
}

// matches returns the sentinels err matches.
func matches(err error) []error {
	var out []error
	for _, s := range sentinels {
		if errors.Is(err, s) {
			out = append(out, s)
		}
	}
	return out
}

// ErrUnverified is a kind of ErrInvalidResponse (an answer that does not
// prove what it says is an answer that is not what the operation returns),
// and of no other root sentinel.
func TestErrUnverifiedRefinesInvalidResponse(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []error{nodeaccess.ErrInvalidResponse}, matches(nodeaccess.ErrUnverified))
	assert.Equal(t, []error{nodeaccess.ErrInvalidResponse}, matches(fmt.Errorf("evm: %w: balance", nodeaccess.ErrUnverified)))
	assert.NotErrorIs(t, nodeaccess.ErrInvalidResponse, nodeaccess.ErrUnverified)
	assert.Equal(t, "unverified: invalid response", nodeaccess.ErrUnverified.Error())
}

func TestHTTPErrorIs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status int
		want   []error
	}{
		{400, nil},
		{401, []error{nodeaccess.ErrUnauthorized}},
		{403, []error{nodeaccess.ErrUnauthorized}},
		{404, []error{nodeaccess.ErrNotFound}},
		{405, nil},
		{409, nil},
		{429, []error{nodeaccess.ErrRateLimited}},
		{302, nil},
		{499, nil},
		{500, []error{nodeaccess.ErrUnavailable}},
		{502, []error{nodeaccess.ErrUnavailable}},
		{503, []error{nodeaccess.ErrUnavailable}},
		{504, []error{nodeaccess.ErrUnavailable}},
		{599, []error{nodeaccess.ErrUnavailable}},
		{600, nil},
	} {
		err := &nodeaccess.HTTPError{StatusCode: tc.status}
		assert.Equal(t, tc.want, matches(err), "status %d", tc.status)
		// Wrapped, the same.
		assert.Equal(t, tc.want, matches(fmt.Errorf("op: %w", err)), "wrapped status %d", tc.status)
	}
}

func TestHTTPErrorText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  nodeaccess.HTTPError
		want string
	}{
		{nodeaccess.HTTPError{StatusCode: 503}, "HTTP 503"},
		{nodeaccess.HTTPError{StatusCode: 503, Status: "503 Service Unavailable"}, "HTTP 503 Service Unavailable"},
		{nodeaccess.HTTPError{StatusCode: 503, Status: "503 Service Unavailable", Body: []byte("  upstream\n\n  down \t")},
			"HTTP 503 Service Unavailable: upstream down"},
		{nodeaccess.HTTPError{StatusCode: 429, Status: "429 Too Many Requests", RetryAfter: 90 * time.Second, Body: []byte(`{"error":"slow down"}`)},
			`HTTP 429 Too Many Requests (retry after 1m30s): {"error":"slow down"}`},
		{nodeaccess.HTTPError{StatusCode: 301, Status: "301 Moved Permanently", Location: "https://x.example/REDACTED"},
			"HTTP 301 Moved Permanently (redirect to https://x.example/REDACTED)"},
		{nodeaccess.HTTPError{StatusCode: 400, Status: "400 Bad Request", Body: []byte(strings.Repeat("a", 201))},
			"HTTP 400 Bad Request: " + strings.Repeat("a", 200) + "…"},
		{nodeaccess.HTTPError{StatusCode: 400, Status: "400 Bad Request", Body: []byte(strings.Repeat("a", 200))},
			"HTTP 400 Bad Request: " + strings.Repeat("a", 200)},
		// A cut never splits a UTF-8 sequence.
		{nodeaccess.HTTPError{StatusCode: 400, Status: "400 Bad Request", Body: []byte(strings.Repeat("a", 199) + "éé")},
			"HTTP 400 Bad Request: " + strings.Repeat("a", 199) + "…"},
		{nodeaccess.HTTPError{StatusCode: 400, Body: []byte(" \n ")}, "HTTP 400"},
		// The server's code from its body, where it is not the status.
		{nodeaccess.HTTPError{StatusCode: 400, Status: "400 Bad Request", Message: "bad", Code: 499, Body: []byte(`{"code":499,"message":"bad"}`)},
			"HTTP 400 Bad Request: bad (code 499)"},
		{nodeaccess.HTTPError{StatusCode: 404, Status: "404 Not Found", Message: "no state", Code: 404}, "HTTP 404 Not Found: no state"},
		{nodeaccess.HTTPError{StatusCode: 500, Code: -32000}, "HTTP 500 (code -32000)"},
	} {
		assert.Equal(t, tc.want, tc.err.Error())
	}
}

func TestRPCError(t *testing.T) {
	t.Parallel()
	e := &nodeaccess.RPCError{Code: -32601, Message: "method not found", Data: map[string]any{"m": "x"}}
	assert.Equal(t, "json-rpc error -32601: method not found", e.Error())
	assert.Equal(t, -32601, e.ErrorCode())
	assert.Equal(t, map[string]any{"m": "x"}, e.ErrorData())
	assert.Nil(t, (&nodeaccess.RPCError{Code: 3}).ErrorData())
	// The interfaces go-ethereum's rpc.Error and rpc.DataError declare.
	var _ interface {
		Error() string
		ErrorCode() int
	} = e
	var _ interface {
		Error() string
		ErrorData() any
	} = e
	for code, limited := range map[int]bool{-32005: true, 429: true, -32000: false, 3: false, -32601: false} {
		err := &nodeaccess.RPCError{Code: code}
		if limited {
			assert.Equal(t, []error{nodeaccess.ErrRateLimited}, matches(err), "code %d", code)
		} else {
			assert.Empty(t, matches(err), "code %d", code)
		}
	}
	// -32005 is also the code of refusals of a query's size (Infura's
	// eth_getLogs cap, Besu's range limit): those are no rate limit, which
	// waiting would cure and which pauses a budget, but a refusal a
	// smaller query passes.
	for msg, size := range map[string]bool{
		"query returned more than 10000 results":                                        true,
		"query returned more than 10000 results. Try with this block range [0x1, 0x2].": true,
		"Requested range exceeds maximum RPC range limit":                               true,
		"block range too large, max range: 1000":                                        true,
		"query returns too many logs, narrow your filter: 20000":                        true,
		"limit exceeded": false,
		"daily request count exceeded, request rate limited": false,
		"Batch size limit exceeded":                          false,
	} {
		want := nodeaccess.ErrRateLimited
		if size {
			want = nodeaccess.ErrResponseTooLarge
		}
		assert.Equal(t, []error{want}, matches(&nodeaccess.RPCError{Code: -32005, Message: msg}), "%q", msg)
	}
}

// TestRPCErrorCodeIsStatus: an error object whose code is an HTTP status
// matches what that status matches in an HTTPError, code for code (one
// classification, whichever envelope carries the status: TON's
// {"ok":false,"code":503} in an HTTP 200); JSON-RPC's own codes and an EVM
// revert's 3 are no status and match nothing but what TestRPCError and
// TestRPCErrorResponseTooLarge say.
func TestRPCErrorCodeIsStatus(t *testing.T) {
	t.Parallel()
	for code := 100; code <= 599; code++ {
		want := matches(&nodeaccess.HTTPError{StatusCode: code})
		assert.Equal(t, want, matches(&nodeaccess.RPCError{Code: code, Message: "boom"}), "code %d", code)
	}
	for code, want := range map[int]error{429: nodeaccess.ErrRateLimited, 401: nodeaccess.ErrUnauthorized, 403: nodeaccess.ErrUnauthorized,
		404: nodeaccess.ErrNotFound, 500: nodeaccess.ErrUnavailable, 503: nodeaccess.ErrUnavailable, 542: nodeaccess.ErrUnavailable, 599: nodeaccess.ErrUnavailable} {
		assert.Equal(t, []error{want}, matches(&nodeaccess.RPCError{Code: code}), "code %d", code)
	}
	for _, code := range []int{0, 1, 2, 3, 400, 416, 422, 600, 1000, -32000, -32001, -32002, -32003, -32004, -32006, -32007, -32009, -32010,
		-32012, -32015, -32600, -32601, -32602, -32603, -32700, -38001, -503, -429} {
		assert.Empty(t, matches(&nodeaccess.RPCError{Code: code, Message: "boom"}), "code %d", code)
	}
}

// TestRPCErrorResponseTooLarge checks which error objects are a server's
// refusal to send an answer over its size cap: jsonrpsee's codes with
// their messages, and another server's spelling of the same; not the same
// codes with another meaning, nor the same words under another code.
func TestRPCErrorResponseTooLarge(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code int
		msg  string
		want bool
	}{
		// jsonrpsee's OVERSIZED_RESPONSE (HyperEVM's answer in
		// hyperliquid-dex/node issue #65) and TOO_BIG_BATCH_RESPONSE.
		{-32008, "Response is too big", true},
		{-32011, "The batch response was too large", true},
		{-32011, "Response size limit exceeded. Max response size 1000 bytes", true},
		{-32008, "RESPONSE IS TOO BIG", true},
		// The codes with another meaning (-32008 is "no snapshot" on
		// Solana), and the words under another code.
		{-32008, "No snapshot", false},
		{-32011, "Transaction history is not available from this node", false},
		{-32008, "", false},
		{-32000, "Response is too big", false},
		{-32003, "response too large", false},
		{-32010, "The batch request was too large", false},
	} {
		err := &nodeaccess.RPCError{Code: tc.code, Message: tc.msg, Data: "Exceeded max limit of 1048576"}
		if tc.want {
			assert.Equal(t, []error{nodeaccess.ErrResponseTooLarge}, matches(err), "%d %q", tc.code, tc.msg)
		} else {
			assert.Empty(t, matches(err), "%d %q", tc.code, tc.msg)
		}
	}
}

func TestOpError(t *testing.T) {
	t.Parallel()
	he := &nodeaccess.HTTPError{StatusCode: 503, Status: "503 Service Unavailable"}
	err := error(&nodeaccess.OpError{Chain: "evm", Op: "eth_call", Err: he})
	assert.Equal(t, "evm: eth_call: HTTP 503 Service Unavailable", err.Error())
	assert.Equal(t, []error{nodeaccess.ErrUnavailable}, matches(err))
	var got *nodeaccess.HTTPError
	assert.ErrorAs(t, err, &got)
	assert.Same(t, he, got)
	assert.Same(t, he, errors.Unwrap(err))

	ctxErr := &nodeaccess.OpError{Chain: "beacon", Op: "state", Err: context.DeadlineExceeded}
	assert.ErrorIs(t, ctxErr, context.DeadlineExceeded)
	assert.Empty(t, matches(ctxErr))
	assert.Equal(t, "beacon: state: context deadline exceeded", ctxErr.Error())

	// Formatting prints the message.
	assert.Equal(t, "evm: eth_call: HTTP 503 Service Unavailable", fmt.Sprintf("%v", err))
	assert.Equal(t, "evm: eth_call: HTTP 503 Service Unavailable", fmt.Sprintf("%+v", err))
}

func TestInputError(t *testing.T) {
	t.Parallel()
	err := &nodeaccess.InputError{Arg: "to", Reason: `"0x0" is the zero address`}
	assert.Equal(t, `invalid input: to: "0x0" is the zero address`, err.Error())
	assert.Equal(t, []error{nodeaccess.ErrInvalidInput}, matches(err))
	wrapped := &nodeaccess.OpError{Chain: "evm", Op: "eth_call", Err: err}
	assert.Equal(t, []error{nodeaccess.ErrInvalidInput}, matches(wrapped))
	var ie *nodeaccess.InputError
	assert.ErrorAs(t, wrapped, &ie)
	assert.Equal(t, "to", ie.Arg)
}

func TestSentinelsDistinct(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, s := range sentinels {
		assert.False(t, seen[s.Error()], "duplicate message %q", s)
		seen[s.Error()] = true
		assert.Equal(t, []error{s}, matches(s))
	}
}
