package hyper

import (
	"bytes"
	"context"
	"errors"
	"net/http"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// ErrUnsupportedRequest matches the answer Hyperliquid servers give, HTTP 422
// with the text "Failed to deserialize the JSON body into the target type",
// both to a body they cannot read and to a request type they do not serve.
// Node-access services answer it for the types only the public API serves;
// this SDK sends those to the public API itself. The error also matches
// (errors.As) the server's *nodeaccess.HTTPError.
var ErrUnsupportedRequest = errors.New("request malformed or not served")

// unsupportedError is a 422 "Failed to deserialize" answer.
type unsupportedError struct {
	where, hint string
	http        *nodeaccess.HTTPError
}

func (e *unsupportedError) Error() string {
	return ErrUnsupportedRequest.Error() + " by " + e.where + ": " + e.http.Error() + " (" + e.hint + ")"
}

func (e *unsupportedError) Unwrap() []error { return []error{ErrUnsupportedRequest, e.http} }

// endpoint says where an /info request goes.
type endpoint int

const (
	onNode endpoint = iota
	onPublic
)

// info posts body to the /info endpoint at where and returns the whole 2xx
// response (call Release when done). Errors are not yet wrapped with op.
func (c *Client) info(ctx context.Context, where endpoint, op string, body []byte) (transport.Response, error) {
	t, target := c.node, c.nodeInfo
	if where == onPublic {
		t, target = c.public, c.publicInfo
	}
	req := transport.Request{Op: op, Method: http.MethodPost, Target: target, Body: body, RetryIf: retryNull}
	resp, err := t.Do(ctx, &req)
	if err == nil {
		return resp, nil
	}
	var he *nodeaccess.HTTPError
	if errors.As(err, &he) && he.StatusCode == http.StatusUnprocessableEntity &&
		bytes.HasPrefix(bytes.TrimSpace(he.Body), []byte("Failed to deserialize")) {
		if where == onPublic {
			return resp, &unsupportedError{where: "the public API", http: he,
				hint: "the public API could not read the request: check the request type and the dex name"}
		}
		return resp, &unsupportedError{where: "this node", http: he,
			hint: "the node answers 422 to a malformed body and to a request type it does not serve; " +
				"types such as allMids are served only by the public API (" + c.publicURL + "), where this SDK sends them"}
	}
	return resp, err
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
