package hyper

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// ErrUnsupportedRequest matches the answer Hyperliquid servers give, HTTP 422
// with the text "Failed to deserialize the JSON body into the target type",
// both to a body they cannot read and to a request type they do not serve.
// Node-access services answer it for the types only the public API serves
// (allMids, which AllMids sends there; PublicInfo sends any other). The
// error also matches (errors.As) the server's *nodeaccess.HTTPError, whose
// Message holds the server's text.
var ErrUnsupportedRequest = errors.New("request malformed or not served")

// errUnknownDex is the error of AllMids when the public API answered null
// (HTTP 200) for the dex named: its answer to a dex name it does not know.
// It matches nodeaccess.ErrNotFound, as a 404 does: what was asked for
// does not exist.
var errUnknownDex = fmt.Errorf("unknown perp dex: %w", nodeaccess.ErrNotFound)

// serverError fills the Message of the server's *nodeaccess.HTTPError
// from its body, and classifies Hyperliquid's 422 "Failed to deserialize"
// as ErrUnsupportedRequest. Other errors come back as they are.
func serverError(t *transport.Client, where endpoint, err error) error {
	var he *nodeaccess.HTTPError
	if !errors.As(err, &he) {
		return err
	}
	he.Message = t.Mask(errorMessage(he.Body))
	if he.StatusCode != http.StatusUnprocessableEntity || !strings.HasPrefix(he.Message, "Failed to deserialize") {
		return err
	}
	if where == onPublic {
		return fmt.Errorf("%w by the public API: %w (the public API could not read the request: check its type and fields)",
			ErrUnsupportedRequest, he)
	}
	return fmt.Errorf("%w by this node: %w (the node answers 422 to a malformed body and to a request type it does not serve; "+
		"types such as allMids are served only by the public API: send them with PublicInfo)", ErrUnsupportedRequest, he)
}

// errorMessage reads the server's message from an error body (already
// masked): the text of a plain-text body, such as Hyperliquid's 422
// "Failed to deserialize the JSON body into the target type"; the value of
// a JSON string; the "error" or "message" string of a JSON object, as the
// gateways of node-access services write them. It is "" for JSON null
// (Hyperliquid's 500 body), an HTML page and any other body.
func errorMessage(body []byte) string {
	b := bytes.TrimSpace(body)
	switch {
	case len(b) == 0 || b[0] == '<':
		return ""
	case b[0] == '"':
		var s string
		if json.Unmarshal(b, &s) == nil {
			return strings.TrimSpace(s)
		}
		return ""
	case b[0] == '{':
		var obj map[string]json.RawMessage
		if json.Unmarshal(b, &obj) != nil {
			return ""
		}
		for _, name := range []string{"error", "message"} {
			var s string
			if json.Unmarshal(obj[name], &s) == nil && strings.TrimSpace(s) != "" {
				return strings.TrimSpace(s)
			}
		}
		return ""
	case json.Valid(b):
		return "" // null, a number, an array: no message
	}
	return string(b)
}
