package transport

import (
	"errors"
	"net/http"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
)

// InvalidBody says what a body that is not JSON at all is, whatever the
// chain's decoder said about it; a JSON body keeps the decoder's reason.
func TestInvalidBodyNamesNonJSON(t *testing.T) {
	t.Parallel()
	c := newClient(t, "https://node.example", testKey)
	why := errors.New("the decoder's reason")
	for _, tc := range []struct{ body, want string }{
		{"<html>502 Bad Gateway " + testKey + "</html>", `body is HTML or XML, not JSON (content-type "text/html", body starts "<html>502 Bad Gateway REDACTED</html>")`},
		{"  ", `empty body (content-type "text/html", body starts "  ")`},
		{`{"result":[1,2`, `body is truncated JSON: unexpected end of JSON input (content-type "text/html", body starts "{\"result\":[1,2")`},
		{`{"result":"x"}`, `the decoder's reason (content-type "text/html", body starts "{\"result\":\"x\"}")`},
	} {
		resp := &Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(tc.body)}
		err := c.InvalidBody(resp, why)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		assert.Equal(t, "invalid response: "+tc.want, err.Error(), tc.body)
	}
}
