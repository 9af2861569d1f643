package hyper_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// The server's own message of an error body is HTTPError.Message, on the
// node and on the public API, for the typed calls and the generic one:
// Hyperliquid's plain-text 422, a gateway's text or JSON, and nothing for
// Hyperliquid's JSON null, an HTML page or JSON without a message.
func TestHTTPErrorMessage(t *testing.T) {
	cases := []struct {
		name   string
		status int
		ctype  string
		body   string
		want   string
	}{
		{"Hyperliquid's 422", 422, "text/plain; charset=utf-8", deserialize, deserialize},
		{"422 with serde's detail", 422, "text/plain", deserialize + ": missing field `user` at line 1 column 18\n",
			deserialize + ": missing field `user` at line 1 column 18"},
		{"gateway text", 403, "text/plain", "  invalid API key \n", "invalid API key"},
		{"JSON string", 400, "application/json", `"user not found"`, "user not found"},
		{"JSON error member", 401, "application/json", `{"error":"unauthorized","code":401}`, "unauthorized"},
		{"JSON message member", 404, "application/json", `{"code":404,"message":"no such path"}`, "no such path"},
		{"error before message", 400, "application/json", `{"message":"second","error":"first"}`, "first"},
		{"empty error, then message", 400, "application/json", `{"error":"","message":"second"}`, "second"},
		{"error that is not a string", 400, "application/json", `{"error":{"code":1}}`, ""},
		{"member names are exact", 400, "application/json", `{"Error":"x","MESSAGE":"y"}`, ""},
		{"Hyperliquid's 500 null", 500, "application/json", "null", ""},
		{"JSON number", 400, "application/json", "42", ""},
		{"HTML page", 403, "text/html", htmlPage, ""},
		{"empty body", 404, "text/plain", "", ""},
	}
	calls := map[string]func(c *hyper.Client) error{
		"node UserVaultEquities": func(c *hyper.Client) error {
			_, err := c.UserVaultEquities(context.Background(), recordedUser)
			return err
		},
		"public AllMids": func(c *hyper.Client) error {
			_, err := c.AllMids(context.Background(), "")
			return err
		},
		"node Info": func(c *hyper.Client) error {
			return c.Info(context.Background(), nil, map[string]string{"type": "openOrders", "user": recordedUser.Hex()})
		},
		"public PublicInfo": func(c *hyper.Client) error {
			return c.PublicInfo(context.Background(), nil, map[string]string{"type": "spotMeta"})
		},
	}
	for _, tc := range cases {
		for name, call := range calls {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				srv := newScript(t, reply{tc.status, tc.ctype, tc.body})
				c := faultClient(t, srv, srv, nodeaccess.WithMaxAttempts(1))
				err := call(c)
				var he *nodeaccess.HTTPError
				require.ErrorAs(t, err, &he)
				assert.Equal(t, tc.status, he.StatusCode)
				assert.Equal(t, tc.want, he.Message)
				assert.Equal(t, tc.body, string(he.Body), "Body stays as the server sent it")
				if tc.want != "" {
					assert.Contains(t, err.Error(), ": "+tc.want)
				}
			})
		}
	}
}

// A server's message that echoes the key, JSON-escaped so that the body's
// own masking sees another spelling, shows no key once unescaped.
func TestHTTPErrorMessageMasksTheKey(t *testing.T) {
	for _, key := range testkit.LeakKeys {
		body := `{"error":"no such key ` + testkit.ASCIIJSON(key) + `"}`
		srv := newScript(t, reply{403, "application/json", body})
		c, err := hyper.New(srv.srv.URL, key, hyper.WithPublicURL(srv.srv.URL), nodeaccess.WithMaxAttempts(1))
		require.NoError(t, err)
		for _, err := range []error{
			func() error { _, err := c.UserVaultEquities(context.Background(), recordedUser); return err }(),
			c.PublicInfo(context.Background(), nil, map[string]string{"type": "meta"}),
		} {
			var he *nodeaccess.HTTPError
			require.ErrorAs(t, err, &he)
			assert.Equal(t, "no such key REDACTED", he.Message)
			testkit.AssertNoKey(t, key, "Message", he.Message)
			testkit.AssertErrNoKey(t, key, err)
		}
	}
}

// One error pattern (issue 22): the package's sentinels are plain values
// that wrap the root sentinel they refine, and no error a call returns
// holds a type of this package: classified errors wrap the sentinel and
// the server's *nodeaccess.HTTPError with %w, which errors.Is and
// errors.As find without Is or As methods.
func TestErrorsAreOfOnePattern(t *testing.T) {
	assert.Nil(t, errors.Unwrap(hyper.ErrUnsupportedRequest))

	produce := map[string]func(t *testing.T) error{
		"422 on the node": func(t *testing.T) error {
			c := faultClient(t, newScript(t, reply{422, "text/plain", deserialize}), nil)
			_, err := c.UserVaultEquities(context.Background(), recordedUser)
			require.ErrorIs(t, err, hyper.ErrUnsupportedRequest)
			return err
		},
		"422 on the public API": func(t *testing.T) error {
			c := faultClient(t, nil, newScript(t, reply{422, "text/plain", deserialize}))
			err := c.PublicInfo(context.Background(), nil, map[string]string{"type": "nope"})
			require.ErrorIs(t, err, hyper.ErrUnsupportedRequest)
			return err
		},
		"unknown dex": func(t *testing.T) error {
			c := faultClient(t, nil, newScript(t, reply{200, "application/json", "null"}))
			_, err := c.AllMids(context.Background(), "nope")
			require.ErrorIs(t, err, nodeaccess.ErrNotFound)
			return err
		},
		"invalid body": func(t *testing.T) error {
			c := faultClient(t, newScript(t, reply{200, "application/json", `{}`}), nil)
			_, err := c.UserVaultEquities(context.Background(), recordedUser)
			require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			return err
		},
		"bad input": func(t *testing.T) error {
			c := faultClient(t, nil, nil)
			_, err := c.AllMids(context.Background(), "x y")
			require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
			return err
		},
	}
	const pkg = "github.com/nodeaccess/nodeaccess/hyper"
	for name, p := range produce {
		t.Run(name, func(t *testing.T) {
			err := p(t)
			var oe *nodeaccess.OpError
			require.ErrorAs(t, err, &oe)
			testkit.WalkErr(err, func(e error) {
				typ := reflect.TypeOf(e)
				for typ.Kind() == reflect.Pointer {
					typ = typ.Elem()
				}
				assert.NotEqual(t, pkg, typ.PkgPath(), "%s: an error of type %T in the chain", name, e)
				_, hasIs := e.(interface{ Is(error) bool })
				_, hasAs := e.(interface{ As(any) bool })
				assert.False(t, hasIs || hasAs, "%s: %T has an Is or As method", name, e)
			})
		})
	}
}
