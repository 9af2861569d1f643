package beacon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Sentinels of the client calls, for errors.Is.
var (
	// ErrIntegrity: a state asked for by its root (RootID) whose hash tree
	// root is another, so the node sent another state or a corrupted one.
	// The error names both roots and also matches
	// nodeaccess.ErrInvalidResponse.
	ErrIntegrity = errors.New("state root mismatch")
	// ErrDebugDisabled: the node does not serve the /eth/v2/debug routes
	// at all (many nodes turn them off, and some providers block them). The
	// error wraps the response's *nodeaccess.HTTPError, so it also matches
	// what its status matches (nodeaccess.ErrNotFound for a 404,
	// nodeaccess.ErrUnavailable for a 501): test ErrDebugDisabled first to
	// tell "the route is not there" from "the state is not there".
	ErrDebugDisabled = errors.New("the node does not serve the debug API")
)

// integrityError is the error of a state asked for by want whose root is
// got.
func integrityError(want, got Root) error {
	return fmt.Errorf("%w: %w: asked for %s, got a state whose hash tree root is %s", nodeaccess.ErrInvalidResponse, ErrIntegrity, want, got)
}

// stateError gives an error response to a state call its meaning in the
// beacon API: the *nodeaccess.HTTPError gets the node's message (masked by
// mask) and code from the {"code","message"} body, and the error names the state
// id, or says that the node does not serve the debug routes
// (ErrDebugDisabled):
//
//   - 405 and 501 always mean the route is not served;
//   - a 404 means the route is not served when its body is not a beacon
//     error body (no JSON "message": a bare 404, a text or HTML page, an
//     empty body) or when the message speaks of a route ("Route GET:/eth/v2/…
//     not found"); any other 404 means the state was not found.
//
// asked is the encoding the request's Accept header asked for, for the hint
// of a 406. An error that is not an error response comes back unchanged.
func stateError(err error, id StateID, mask func(string) string, asked Encoding) error {
	var he *nodeaccess.HTTPError
	if !errors.As(err, &he) {
		return err
	}
	msg, code, hasBody := errorMessage(he.Body, mask)
	he.Message, he.Code = msg, code
	disabled := false
	switch he.StatusCode {
	case 405, 501:
		disabled = true
	case 404:
		disabled = !hasBody || strings.Contains(strings.ToLower(msg), "route")
	}
	if disabled {
		return fmt.Errorf("%w (/eth/v2/debug/beacon/states); enable it on the node or use a provider that serves it: %w", ErrDebugDisabled, he)
	}
	hint := ""
	if he.StatusCode == 406 {
		switch asked {
		case EncodingSSZ:
			hint = " (the node cannot serve SSZ, which WithEncoding(EncodingSSZ) asked for; WithEncoding(EncodingAuto) accepts JSON too)"
		case EncodingJSON:
			hint = " (the node cannot serve JSON, which WithEncoding(EncodingJSON) asked for; WithEncoding(EncodingAuto) accepts SSZ too)"
		default:
			hint = " (the node serves the state in neither SSZ nor JSON, though the request accepted both)"
		}
	}
	return fmt.Errorf("state %s: %w%s", id, he, hint)
}

// withMessage fills an error response's Message from the beacon API's
// error body; err comes back, changed in place or not.
func withMessage(err error, mask func(string) string) error {
	var he *nodeaccess.HTTPError
	if errors.As(err, &he) {
		he.Message, he.Code, _ = errorMessage(he.Body, mask)
	}
	return err
}

// maxMessage caps the message kept from an error body.
const maxMessage = 1000

// errorMessage reads the message and the code of a beacon error body
// {"code":404,"message":"…","stacktraces":[…]}; code is 0 when the body has
// no integer "code" (of 32 bits), and ok is false when b is not a JSON
// object with a non-empty string "message". b may be cut short (the
// transport keeps the first 4 KiB), so the members are read one by one and
// what came before the cut counts. The message goes through mask and is
// then cut to maxMessage: in that order, so that a cut through the access
// key leaves no piece of it.
func errorMessage(b []byte, mask func(string) string) (msg string, code int, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", 0, false
	}
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
		case "message":
			var s string
			if json.Unmarshal(raw, &s) == nil {
				msg = s
			}
		case "code": // a number, or a number in a string
			var n int32
			if json.Unmarshal(raw, &n) == nil {
				code = int(n)
			} else if len(raw) > 2 && raw[0] == '"' && json.Unmarshal(raw[1:len(raw)-1], &n) == nil {
				code = int(n)
			}
		}
	}
	msg = strings.Join(strings.Fields(msg), " ")
	if msg == "" {
		return "", code, false
	}
	return transport.Cut(mask(msg), maxMessage), code, true
}
