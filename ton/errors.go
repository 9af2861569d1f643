package ton

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess/ton/internal/wire"

	"github.com/nodeaccess/nodeaccess"
)

// ErrRepeatedPage matches the error that ends a walk (AllAccountStates,
// AllPendingTransactions, AllBlockTransactions) when a next page holds an
// item an earlier page already yielded (for AllAccountStates over a server
// that answers one state per account, a state of an account already
// yielded, changed or not): what a server that ignores offset (or
// after_lt/after_hash) answers, whether it repeats its page or its data
// changed between the calls. The v3 walkers end so only after a page that
// held exactly the limit, behind which more items may hide; after a shorter
// page, the repeat ends them without an error (a server that does not page
// answered everything it had). The error also matches
// nodeaccess.ErrInvalidResponse.
var ErrRepeatedPage = fmt.Errorf("%w: server repeated an item of an earlier page", nodeaccess.ErrInvalidResponse)

// ErrNotYetAvailable matches the error of a call for a block the server's
// lite server does not have yet: toncenter's 500 "LITE_SERVER_NOTREADY: …
// not in db" (or another LITE_SERVER_NOTREADY) or "LITE_SERVER_UNKNOWN:
// specified mc block is older than block's masterchain ref", in any form a
// server or gateway sends them (the HTTP status, a JSON-RPC answer, an
// error body in a 200). Lite servers lag behind the newest shard blocks,
// and a block too new for them is answered so. The call was retried within
// the client's attempts (nodeaccess.WithMaxAttempts, nodeaccess.WithBackoff)
// before it returned this: ask again later. A seqno that will never exist
// is answered the same way, and so also reads as not yet available. The
// error also matches nodeaccess.ErrUnavailable, and reaches the server's
// *nodeaccess.HTTPError (a non-2xx answer) or *nodeaccess.RPCError (an
// error body in a 2xx answer).
var ErrNotYetAvailable = fmt.Errorf("%w: block not yet available", nodeaccess.ErrUnavailable)

// ErrUnreadableTransaction matches the error of a getBlockTransactionsExt
// page that holds a transaction the server cannot turn into JSON: tonlib's
// 500 "Error occured while creating tonlib_api::raw_transaction: Failed to
// unpack …" (toncenter/ton-http-api issue 183: "… Failed to unpack balance
// (2)", a balance beyond int64). The failure is the same on every try, so
// the call is not retried; one such transaction fails every page that holds
// it, and pages that stop before it are served. AllBlockTransactions
// therefore narrows its page around it and yields this error for that
// transaction alone, then goes on with the rest of the block. The error
// also matches nodeaccess.ErrUnavailable, and reaches the server's
// *nodeaccess.HTTPError (a non-2xx answer) or *nodeaccess.RPCError (an
// error body in a 2xx answer).
var ErrUnreadableTransaction = fmt.Errorf("%w: the server cannot read a transaction of the block", nodeaccess.ErrUnavailable)

// The server messages that classify an error (see classify).
const (
	msgNotReady       = "LITE_SERVER_NOTREADY"
	msgNotInDB        = "not in db"
	msgOlderThanRef   = "specified mc block is older than block's masterchain ref"
	msgCreatingTx     = "Error occured while creating tonlib_api::raw_transaction"
	msgFailedToUnpack = "Failed to unpack"
)

// notYetAvailable reports whether a server's message says that its lite
// server does not have the block yet.
func notYetAvailable(msg string) bool {
	return strings.Contains(msg, msgNotReady) || strings.Contains(msg, msgNotInDB) || strings.Contains(msg, msgOlderThanRef)
}

// unreadableTransaction reports whether a server's message is tonlib's
// failure to convert a transaction, which the same request repeats.
func unreadableTransaction(msg string) bool {
	return strings.Contains(msg, msgCreatingTx) || strings.Contains(msg, msgFailedToUnpack)
}

// classify wraps a server's 5xx error (code: the HTTP status or the body's
// code) with ErrNotYetAvailable or ErrUnreadableTransaction when its message
// says so; other errors pass unchanged.
func classify(code int, msg string, err error) error {
	if code < 500 || code > 599 {
		return err
	}
	switch {
	case unreadableTransaction(msg):
		return fmt.Errorf("%w: %w", ErrUnreadableTransaction, err)
	case notYetAvailable(msg):
		return fmt.Errorf("%w: %w", ErrNotYetAvailable, err)
	}
	return err
}

// errorEnvelope holds the members of a body that may carry a TON error:
// v2 {"ok":false,"error":"…","code":N}, v2 {"ok":false,"result":"…","code":N},
// v3 {"error":"…"}, and a JSON-RPC error object {"error":{"code":N,"message":"…"}}.
type errorEnvelope struct {
	OK     *bool           `json:"ok"`
	Error  json.RawMessage `json:"error"`
	Result json.RawMessage `json:"result"`
	Code   json.RawMessage `json:"code"`
}

// failure returns the server's error in e: its code (0 when it sent none)
// and its message, whole: the caller masks the key in it before capping it
// (Client.scrub), since a message cut first could end inside the key. ok is
// false when e is not an error.
func (e *errorEnvelope) failure() (code int, msg string, ok bool) {
	failed := e.OK != nil && !*e.OK
	if len(e.Error) > 0 && string(e.Error) != "null" {
		var s string
		var obj struct {
			Code    json.RawMessage `json:"code"`
			Message *string         `json:"message"`
		}
		switch {
		case json.Unmarshal(e.Error, &s) == nil:
			msg, failed = s, true
		case json.Unmarshal(e.Error, &obj) == nil && obj.Message != nil:
			msg, code, failed = *obj.Message, parseCode(obj.Code), true
		}
	}
	if !failed {
		return 0, "", false
	}
	if msg == "" {
		var s string
		if json.Unmarshal(e.Result, &s) == nil {
			msg = s // the v2 rate-limit body puts its message in result
		}
	}
	if code == 0 {
		code = parseCode(e.Code)
	}
	if strings.TrimSpace(msg) == "" {
		msg = "the server sent no message"
	}
	return code, msg, true
}

// parseCode reads an error code sent as a number or a numeric string; 0
// when absent or unreadable.
func parseCode(raw json.RawMessage) int {
	var n wire.Num
	if len(raw) == 0 || json.Unmarshal(raw, &n) != nil || !n.Set {
		return 0
	}
	v, err := strconv.ParseInt(n.Text, 10, 32)
	if err != nil {
		return 0
	}
	return int(v)
}

// parseErrorBody reads a body in one of the TON error forms.
func parseErrorBody(body []byte) (code int, msg string, ok bool) {
	var e errorEnvelope
	if json.Unmarshal(body, &e) != nil {
		return 0, "", false
	}
	return e.failure()
}

// withServerMessage fills a non-2xx answer's HTTPError with the server's
// message when its body is one of the TON error forms; other errors pass
// unchanged. The HTTPError's body is already scrubbed of the key; the
// message is scrubbed again after JSON decoding, which may have turned an
// escaped key (such as "\u00e9" for "é") into the key itself.
//
// A 5xx whose message says the lite server does not have the block yet, or
// cannot read a transaction, is wrapped with ErrNotYetAvailable or
// ErrUnreadableTransaction (classify); so is such an error sent in a 2xx
// body, which faultInBody or the decoder turned into the call's
// *nodeaccess.RPCError.
func (c *Client) withServerMessage(err error) error {
	switch e := err.(type) {
	case *nodeaccess.HTTPError:
		code, msg, ok := parseErrorBody(e.Body)
		if !ok {
			return err
		}
		e.Message, e.Code = c.scrub(msg), code
		if code < 500 || code > 599 {
			code = e.StatusCode // else a 5xx body code classifies, as the body names it
		}
		return classify(code, e.Message, e)
	case *nodeaccess.RPCError:
		return classify(e.Code, e.Message, e)
	}
	return err
}

// bodyError returns the server's error when a 2xx body is a TON error. Its
// message is the server's whole message: decode masks and caps it.
func bodyError(e *errorEnvelope) error {
	if code, msg, ok := e.failure(); ok {
		return &nodeaccess.RPCError{Code: code, Message: msg}
	}
	return nil
}
