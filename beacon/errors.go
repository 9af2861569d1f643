package beacon

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Sentinels of the client calls, for errors.Is.
var (
	// ErrIntegrity is matched by every *IntegrityError: a state asked for by
	// its root whose hash tree root is another.
	ErrIntegrity = errors.New("state root mismatch")
	// ErrDebugDisabled is matched by an *APIError whose response says the
	// node does not serve the /eth/v2/debug routes at all (many nodes turn
	// them off, and some providers block them).
	ErrDebugDisabled = errors.New("debug API not served")
)

// IntegrityError is a state asked for by its root (RootID) whose hash tree
// root is not that root: the node sent another state, or a corrupted one.
// It matches ErrIntegrity and nodeaccess.ErrInvalidResponse.
type IntegrityError struct {
	// Want is the root that was asked for.
	Want Root
	// Got is the hash tree root of the state that came.
	Got Root
}

// Error names both roots.
func (e *IntegrityError) Error() string {
	return "state root mismatch: asked for 0x" + hex.EncodeToString(e.Want[:]) +
		", got a state whose hash tree root is 0x" + hex.EncodeToString(e.Got[:])
}

// Is matches ErrIntegrity and nodeaccess.ErrInvalidResponse.
func (e *IntegrityError) Is(target error) bool {
	return target == ErrIntegrity || target == nodeaccess.ErrInvalidResponse
}

// APIError is an error response of the beacon node to a state call (any
// status outside 2xx), with the beacon API's error body
// {"code":…,"message":…,"stacktraces":[…]} read when the node sent one.
//
// It matches what its HTTP status matches (errors.Is nodeaccess.ErrNotFound
// for 404, nodeaccess.ErrRateLimited for 429, nodeaccess.ErrUnavailable for
// 5xx, …), and errors.As reaches the *nodeaccess.HTTPError beneath it. A
// response that says the node does not serve the debug routes (DebugDisabled)
// matches ErrDebugDisabled only (not nodeaccess.ErrNotFound, nor
// nodeaccess.ErrUnavailable for a 501), so that "the state is not there" and
// "the route is not there" stay apart:
//
//   - 405 and 501 always mean the route is not served;
//   - a 404 means the route is not served when its body is not a beacon
//     error body (no JSON "message": a bare 404, a text or HTML page, an
//     empty body) or when the message speaks of a route ("Route GET:/eth/v2/…
//     not found"); any other 404 means the state was not found.
type APIError struct {
	// StateID is the state id asked for, in its wire form.
	StateID string
	// StatusCode is the HTTP status, such as 404.
	StatusCode int
	// Code is the body's "code" member, 0 when the body had none.
	Code int
	// Message is the body's "message" member (the access key masked), ""
	// when the body had none.
	Message string
	// DebugDisabled is true when the response says that the node does not
	// serve the debug routes at all (see above).
	DebugDisabled bool
	// HTTP is the response as the transport saw it: status line, content
	// type, the start of the body, Retry-After, the masked URL.
	HTTP *nodeaccess.HTTPError

	// asked is the encoding the call's Accept header asked for (see
	// WithEncoding), for the hint of a 406.
	asked Encoding
}

// Error names the state id, the status and the server's message.
func (e *APIError) Error() string {
	var b strings.Builder
	if e.DebugDisabled {
		b.WriteString("the node does not serve the debug API (/eth/v2/debug/beacon/states); enable it on the node or use a provider that serves it: ")
	} else {
		b.WriteString("state ")
		b.WriteString(e.StateID)
		b.WriteString(": ")
	}
	switch {
	case e.HTTP == nil:
		b.WriteString("HTTP ")
		b.WriteString(strconv.Itoa(e.StatusCode))
		if e.Message != "" {
			b.WriteString(": ")
			b.WriteString(e.Message)
		}
	case e.Message != "":
		b.WriteString("HTTP ")
		b.WriteString(statusText(e.HTTP))
		if e.HTTP.Location != "" {
			fmt.Fprintf(&b, " (redirect to %s)", e.HTTP.Location)
		}
		if e.HTTP.RetryAfter > 0 {
			fmt.Fprintf(&b, " (retry after %s)", e.HTTP.RetryAfter)
		}
		b.WriteString(": ")
		b.WriteString(e.Message)
	default:
		b.WriteString(e.HTTP.Error())
	}
	if e.StatusCode == 406 {
		switch e.asked {
		case EncodingSSZ:
			b.WriteString(" (the node cannot serve SSZ, which WithEncoding(EncodingSSZ) asked for; WithEncoding(EncodingAuto) accepts JSON too)")
		case EncodingJSON:
			b.WriteString(" (the node cannot serve JSON, which WithEncoding(EncodingJSON) asked for; WithEncoding(EncodingAuto) accepts SSZ too)")
		default:
			b.WriteString(" (the node serves the state in neither SSZ nor JSON, though the request accepted both)")
		}
	}
	return b.String()
}

func statusText(he *nodeaccess.HTTPError) string {
	if he.Status != "" {
		return he.Status
	}
	return strconv.Itoa(he.StatusCode)
}

// Is matches ErrDebugDisabled when DebugDisabled is set, and otherwise what
// the HTTP status matches (see nodeaccess.HTTPError.Unwrap).
func (e *APIError) Is(target error) bool {
	if e.DebugDisabled {
		return target == ErrDebugDisabled
	}
	return e.HTTP != nil && target != nil && e.HTTP.Unwrap() == target
}

// As sets a **nodeaccess.HTTPError target to HTTP. (APIError does not
// Unwrap to it, so that a disabled route's 404 does not match
// nodeaccess.ErrNotFound.)
func (e *APIError) As(target any) bool {
	if p, ok := target.(**nodeaccess.HTTPError); ok && e.HTTP != nil {
		*p = e.HTTP
		return true
	}
	return false
}

// apiError turns a transport error for state id into an *APIError when it is
// an error response, and returns it unchanged otherwise. mask removes the
// access key from the server's message (which JSON escapes could have hidden
// from the transport's own masking); asked is the encoding the request
// asked for.
func apiError(err error, id StateID, mask func(string) string, asked Encoding) error {
	var he *nodeaccess.HTTPError
	if !errors.As(err, &he) {
		return err
	}
	e := &APIError{StateID: id.String(), StatusCode: he.StatusCode, HTTP: he, asked: asked}
	code, msg, hasBody := parseErrorBody(he.Body, mask)
	if hasBody {
		e.Code, e.Message = code, msg
	}
	switch he.StatusCode {
	case 405, 501:
		e.DebugDisabled = true
	case 404:
		e.DebugDisabled = !hasBody || strings.Contains(strings.ToLower(msg), "route")
	}
	return e
}

// maxMessage caps the message an APIError keeps.
const maxMessage = 1000

// parseErrorBody reads the code and message of a beacon error body
// {"code":404,"message":"…","stacktraces":[…]}; ok is false when b is not a
// JSON object with a non-empty string "message". b may be cut short (the
// transport keeps the first 4 KiB), so the members are read one by one and
// what came before the cut counts. The code may be a number or a string;
// "statusCode" (used by web frameworks in front of some nodes) stands in
// for a missing "code". The message goes through mask and is then cut to
// maxMessage: in that order, so that a cut through the access key leaves no
// piece of it.
func parseErrorBody(b []byte, mask func(string) string) (code int, msg string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, "", false
	}
	var statusCode int
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		key, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			break
		}
		switch key {
		case "code":
			code = jsonInt(raw)
		case "statusCode":
			statusCode = jsonInt(raw)
		case "message":
			var s string
			if json.Unmarshal(raw, &s) == nil {
				msg = s
			}
		}
	}
	msg = strings.Join(strings.Fields(msg), " ")
	if msg == "" {
		return 0, "", false
	}
	msg = transport.Cut(mask(msg), maxMessage)
	if code == 0 {
		code = statusCode
	}
	return code, msg, true
}

// jsonInt reads a JSON number or a string holding one; 0 otherwise.
func jsonInt(raw json.RawMessage) int {
	s := strings.Trim(string(raw), `"`)
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}
