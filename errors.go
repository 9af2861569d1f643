package nodeaccess

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Sentinel errors. Every error an SDK call returns can be tested against
// these with errors.Is, or reaches one of the types below with errors.As;
// the typed errors below, and the chain packages' own sentinels and types,
// match the ones that fit them. "The server answered" a status below means
// either envelope of it: the HTTP status of the answer (*HTTPError), or the
// code of an error object inside a 2xx answer when that code is an HTTP
// status (*RPCError: TON's {"ok":false,"code":503}, say).
var (
	// ErrInvalidInput: the call's arguments were rejected: by the SDK
	// before anything was sent (*InputError), or by the server as bad
	// input (a TON v3 422 that refuses the parameters, over the server's
	// *HTTPError).
	ErrInvalidInput = errors.New("invalid input")
	// ErrRateLimited: the server answered 429 (or an equivalent), also after
	// the retries the client was allowed.
	ErrRateLimited = errors.New("rate limited")
	// ErrUnauthorized: the server answered 401 or 403, usually a wrong or
	// revoked access key.
	ErrUnauthorized = errors.New("unauthorized")
	// ErrNotFound: the server answered 404, or said in another way that
	// what was asked for does not exist (hyper's AllMids: the public API
	// answers null for a perp dex it does not know).
	ErrNotFound = errors.New("not found")
	// ErrUnavailable: the server answered 5xx, or the network failed, and
	// the retries the client was allowed did not help.
	ErrUnavailable = errors.New("service unavailable")
	// ErrInvalidResponse: the server answered 2xx with a body that is not
	// what the operation returns (not JSON, an HTML page, truncated JSON, a
	// JSON-RPC envelope with a wrong version or id), or one this SDK cannot
	// read (beacon.ErrUnsupportedVersion: a state of a fork it does not
	// know), or pages that contradict one another (ton.ErrRepeatedPage).
	ErrInvalidResponse = errors.New("invalid response")
	// ErrResponseTooLarge: the response body exceeded the client's cap (see
	// WithMaxResponseBytes), and was not read further; or the server
	// refused to send an answer over a cap of its own (an *RPCError that
	// matches it: see RPCError.Unwrap). A smaller request may pass.
	ErrResponseTooLarge = errors.New("response too large")
	// ErrUnverified: the server's answer does not prove what it says
	// against the root the caller trusts (package evm/verified: a
	// balance, a storage value or a trie node the state root does not
	// commit to, a proof for another account, slot or root, a node missing
	// or left over), or answers another question than the one asked. It
	// is a kind of ErrInvalidResponse, which it also matches.
	ErrUnverified = fmt.Errorf("unverified: %w", ErrInvalidResponse)
)

// HTTPError is a response with a status outside 2xx. The access key never
// appears in it: URL is masked, and Status, ContentType, Body and Location
// are scrubbed of every spelling of it the package documentation lists.
type HTTPError struct {
	// StatusCode is the HTTP status code, such as 429.
	StatusCode int
	// Status is the status line the server sent, such as "429 Too Many Requests".
	Status string
	// ContentType is the response's Content-Type header.
	ContentType string
	// Body is the start of the response body (at most 4 KiB), with the
	// access key replaced by "REDACTED" wherever the server echoed it, in
	// any of the spellings the package documentation lists (percent-,
	// JSON- and HTML-escaped, character by character).
	Body []byte
	// Message is the server's own message, read from its error body by the
	// chain package that knows the body's shape (TON's {"error":…}, the
	// beacon API's {"code":…,"message":…}), with the access key masked as
	// in Body; "" when the body has none the chain package reads.
	Message string
	// Code is the server's own code from the same error body (the beacon
	// API's {"code":…}, TON's "code", a JSON-RPC error object's code), or 0
	// when the body has none the chain package reads. It is most often the
	// status; when it is not, Error shows it ("(code 499)").
	Code int
	// RetryAfter is the delay the server asked for in a Retry-After header
	// (seconds or an HTTP date), or 0 when it sent none, an unreadable one,
	// or one that means "now". A delay beyond 2^31 seconds (about 68
	// years), a number too large for int64 included, reads as 2^31 seconds:
	// longer than any cap, so the call ends at once.
	RetryAfter time.Duration
	// Method is the request method.
	Method string
	// URL is the request URL with the access key masked.
	URL string
	// Location is the Location header of a redirect (3xx) with the access
	// key masked. The SDK never follows a redirect to another origin
	// (scheme, host or port), so that the key in the path never travels to
	// a place the user did not name: such a 3xx ends the call with this
	// error. Without WithHTTPClient no redirect is followed at all; with it,
	// redirects within the origin are followed as the user's client follows
	// them (see WithHTTPClient).
	Location string
}

// Error describes the status, the server's message (else the start of the
// body), and the server's code where it differs from the status.
func (e *HTTPError) Error() string {
	var b strings.Builder
	b.WriteString("HTTP ")
	if e.Status != "" {
		b.WriteString(e.Status)
	} else {
		b.WriteString(strconv.Itoa(e.StatusCode))
	}
	if e.Location != "" {
		fmt.Fprintf(&b, " (redirect to %s)", e.Location)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	msg := bodySnippet([]byte(e.Message), 200)
	if msg == "" {
		msg = bodySnippet(e.Body, 200)
	}
	if msg != "" {
		b.WriteString(": ")
		b.WriteString(msg)
	}
	if e.Code != 0 && e.Code != e.StatusCode {
		fmt.Fprintf(&b, " (code %d)", e.Code)
	}
	return b.String()
}

// Unwrap returns the sentinel the status matches: ErrRateLimited for 429,
// ErrUnauthorized for 401 and 403, ErrNotFound for 404, ErrUnavailable for
// 5xx; nil for any other status.
func (e *HTTPError) Unwrap() error { return statusFault(e.StatusCode) }

// statusFault is the one classification of a fault by its HTTP status,
// whichever envelope carries the status: the response's status line
// (HTTPError) or an error object's code that names an HTTP status (RPCError,
// such as TON's {"ok":false,"code":503} in an HTTP 200). ErrRateLimited for
// 429, ErrUnauthorized for 401 and 403, ErrNotFound for 404, ErrUnavailable
// for 500 to 599; nil for any other code, JSON-RPC's own (-32768 to -32000)
// and an EVM revert's 3 included.
func statusFault(code int) error {
	switch {
	case code == 429:
		return ErrRateLimited
	case code == 401 || code == 403:
		return ErrUnauthorized
	case code == 404:
		return ErrNotFound
	case code >= 500 && code <= 599:
		return ErrUnavailable
	}
	return nil
}

// bodySnippet returns the body's first max bytes on one line, for messages.
func bodySnippet(body []byte, max int) string {
	s := strings.TrimSpace(string(body))
	if len(s) > max {
		for max > 0 && !utf8.RuneStart(s[max]) {
			max-- // cut before a character, not inside it
		}
		s = s[:max] + "…"
	}
	return strings.Join(strings.Fields(s), " ")
}

// RPCError is a JSON-RPC 2.0 error object returned by the server. Its
// methods ErrorCode and ErrorData are the ones go-ethereum's rpc.Error and
// rpc.DataError interfaces look for, so helpers written for go-ethereum (such
// as abi revert decoding) work on it. The access key is scrubbed from
// Message and Data.
type RPCError struct {
	// Code is the error code, such as -32601 or 3 (execution reverted).
	Code int
	// Message is the server's message.
	Message string
	// Data is the decoded "data" member, nil when absent. For an EVM revert
	// it is the revert bytes as a 0x-prefixed hex string.
	Data any
}

// Error returns the code and the message.
func (e *RPCError) Error() string {
	return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message)
}

// ErrorCode returns Code.
func (e *RPCError) ErrorCode() int { return e.Code }

// ErrorData returns Data.
func (e *RPCError) ErrorData() any { return e.Data }

// Unwrap returns the sentinel the error object matches. A code that is an
// HTTP status matches what that status matches in an HTTPError, whichever
// envelope carried it (TON's {"ok":false,"code":N} in a 2xx answer carries
// the HTTP status of the fault; some gateways put one in a JSON-RPC error
// object): ErrRateLimited for 429, ErrUnauthorized for 401 and 403,
// ErrNotFound for 404, ErrUnavailable for 500 to 599. Of JSON-RPC's own
// codes: ErrRateLimited for -32005, the code providers use for rate limits;
// ErrResponseTooLarge for a server's refusal to send an answer larger than
// its own cap: code -32008 ("Response is too big", the answer to one call,
// from jsonrpsee servers such as reth and HyperEVM's) or -32011 ("The batch
// response was too large"), with a message that says the response is too
// big or over a limit, and code -32005 with a message that speaks of
// results, logs or a block range (Infura's "query returned more than 10000
// results", Besu's "Requested range exceeds maximum RPC range limit"): a
// refusal of what the query asks for, which a smaller query passes and
// which waiting does not cure. Nil for any other error object (an EVM
// revert's 3, the other -32xxx codes).
func (e *RPCError) Unwrap() error {
	switch {
	case e.Code == -32005 && refusesQuery(e.Message):
		return ErrResponseTooLarge
	case e.Code == -32005:
		return ErrRateLimited
	case (e.Code == -32008 || e.Code == -32011) && refusesSize(e.Message):
		return ErrResponseTooLarge
	}
	return statusFault(e.Code)
}

// refusesQuery reports whether a -32005 message refuses the size of the
// query rather than its rate: it speaks of results, logs or a range.
func refusesQuery(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "result") || strings.Contains(m, "logs") || strings.Contains(m, "range")
}

// refusesSize reports whether a server's message says that a response is
// too large: "Response is too big", "The batch response was too large",
// "Response size limit exceeded".
func refusesSize(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "response") &&
		(strings.Contains(m, "too big") || strings.Contains(m, "too large") || strings.Contains(m, "exceed"))
}

// OpError wraps every error an operation returns, once, with the chain and
// operation it came from: "evm: eth_call: HTTP 503 Service Unavailable".
// Use errors.Is and errors.As to reach the cause.
type OpError struct {
	// Chain is the package that made the call: "evm", "hyper", "ton", "beacon".
	Chain string
	// Op is the operation, such as "eth_call" or "accountStates".
	Op string
	// Err is the cause.
	Err error
}

// Error returns "chain: op: cause".
func (e *OpError) Error() string { return e.Chain + ": " + e.Op + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *OpError) Unwrap() error { return e.Err }

// InputError is an argument the SDK rejected before sending anything. It
// matches ErrInvalidInput. It names the argument and quotes the bad value; it
// never contains the access key.
type InputError struct {
	// Arg names the argument, such as "to" or "block".
	Arg string
	// Reason says what is wrong, quoting the value.
	Reason string
}

// Error returns "invalid input: arg: reason".
func (e *InputError) Error() string { return "invalid input: " + e.Arg + ": " + e.Reason }

// Unwrap returns ErrInvalidInput.
func (e *InputError) Unwrap() error { return ErrInvalidInput }
