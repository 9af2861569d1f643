package nodeaccesstest

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

type faultKind uint8

const (
	rateLimited faultKind = iota + 1
	serverError
	slowBody
	truncatedBody
	dropConnection
)

// Fault is a failure a [Server] answers with, on demand: see
// [Server.FailNext]. The zero Fault is not a fault; make one with the
// functions below.
type Fault struct {
	kind   faultKind
	status int
	wait   time.Duration // Retry-After for rateLimited, the pause for slowBody
}

// RateLimited answers 429 Too Many Requests with the header Retry-After set
// to retryAfter in whole seconds, rounded up (a zero or negative duration
// sends "0"), and the chain's error body. The server does not run.
func RateLimited(retryAfter time.Duration) Fault {
	return Fault{kind: rateLimited, status: http.StatusTooManyRequests, wait: retryAfter}
}

// ServerError answers the given status, which must be a 4xx or 5xx code
// (ServerError panics otherwise, like a wrong argument to httptest), with
// the chain's error body for it. The server does not run.
func ServerError(status int) Fault {
	if status < 400 || status > 599 {
		panic(fmt.Sprintf("nodeaccesstest.ServerError: status %d is not a 4xx or 5xx code", status))
	}
	return Fault{kind: serverError, status: status}
}

// SlowBody lets the server answer and delays the body: the status, the
// headers (with the body's Content-Length) and the first half of the body are
// sent at once, the rest after a pause of delay. The pause ends early when
// the client goes away or the server is closed.
func SlowBody(delay time.Duration) Fault {
	return Fault{kind: slowBody, wait: delay}
}

// TruncatedBody lets the server answer and cuts the body: the status, the
// headers (with the whole body's Content-Length) and the first half of the
// body are sent, then the connection is closed. The client reads an
// unexpected end of the body. An empty body is sent as a Content-Length of
// 1 and no byte, so that it is cut too. A HEAD request has no body to cut:
// it gets the headers, and the connection is closed after them.
func TruncatedBody() Fault { return Fault{kind: truncatedBody} }

// DropConnection reads the request and closes the connection without an
// answer. The client sees the connection end before any response.
//
// Go's http.Transport hides such a drop from a GET (or any replayable
// request) sent on a reused keep-alive connection: it re-sends the request
// by itself on another connection, again while the connection it took had
// been used before, and the server counts every attempt. To make a GET
// client see the drop, start from a fresh connection (CloseIdleConnections
// on its transport first) or queue one drop more than the client has idle
// connections. A POST is not re-sent unless it carries an Idempotency-Key
// or X-Idempotency-Key header.
func DropConnection() Fault { return Fault{kind: dropConnection} }

// String says what the fault does, for test logs.
func (f Fault) String() string {
	switch f.kind {
	case rateLimited:
		return "429 with Retry-After " + retryAfter(f.wait)
	case serverError:
		return "HTTP " + strconv.Itoa(f.status)
	case slowBody:
		return "slow body (pause " + f.wait.String() + ")"
	case truncatedBody:
		return "truncated body"
	case dropConnection:
		return "dropped connection"
	}
	return "no fault"
}

// retryAfter is d as a Retry-After value: whole seconds, rounded up.
func retryAfter(d time.Duration) string {
	if d <= 0 {
		return "0"
	}
	return strconv.FormatInt(int64((d+time.Second-1)/time.Second), 10)
}
