package hyper_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// echoServer answers every request with status, and a body made by body
// from the request's path (which holds the key on the node).
func echoServer(t *testing.T, status int, ctype string, body func(path string) string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body(r.URL.Path))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// observed collects everything a client reports: hook payloads and log
// records.
type observed struct{ testkit.Recorder }

// options makes a client report to o, with quick retries.
func (o *observed) options() []nodeaccess.Option {
	return []nodeaccess.Option{o.Option(), nodeaccess.WithBackoff(time.Millisecond, 2*time.Millisecond)}
}

// check fails when the key shows in a hook payload or the log.
func (o *observed) check(t *testing.T, key string) {
	t.Helper()
	for _, a := range o.Attempts() {
		testkit.AssertNoKey(t, key, "hook payload", fmt.Sprintf("%v %+v %s %v", a, a, a.URL, a.Err))
	}
	testkit.AssertNoKey(t, key, "log", o.Log())
}

// Every failure of the node's /info that echoes the key, in every spelling,
// shows no key in the error, the hook payloads or the logs.
func TestNodeFailuresDoNotLeakTheKey(t *testing.T) {
	long := strings.Repeat("x", 70)
	cases := []struct {
		name   string
		status int
		ctype  string
		body   func(path string) string
	}{
		{"422 echoing the path", 422, "text/plain", func(p string) string { return deserialize + ": " + p }},
		{"500 echoing the path", 500, "text/plain", func(p string) string { return "error at " + p }},
		{"429 echoing the path", 429, "application/json", func(p string) string { return `{"path":"` + p + `"}` }},
		{"HTML 200 echoing the path", 200, "text/html", func(p string) string { return "<html>" + p + "</html>" }},
		{"equity holding the path", 200, "application/json", func(p string) string {
			return `[{"vaultAddress":"0x07fd993f0fa3a185f7207adccd29f7a87404689d","equity":"` + p + `"}]`
		}},
		{"long equity holding the path", 200, "application/json", func(p string) string {
			return `[{"vaultAddress":"0x07fd993f0fa3a185f7207adccd29f7a87404689d","equity":"` + long + p + long + `"}]`
		}},
		{"vault address holding the path", 200, "application/json", func(p string) string {
			return `[{"vaultAddress":"` + p + `","equity":"1"}]`
		}},
		{"key cut by the body cap", 200, "text/plain", func(p string) string { return strings.Repeat("y", 110) + p }},
	}
	for _, key := range testkit.LeakKeys {
		for _, tc := range cases {
			t.Run(tc.name+"/"+key, func(t *testing.T) {
				srv := echoServer(t, tc.status, tc.ctype, tc.body)
				var o observed
				c, err := hyper.New(srv.URL, key, append(o.options(), hyper.WithPublicURL(srv.URL))...)
				require.NoError(t, err)
				_, err = c.UserVaultEquities(context.Background(), recordedUser)
				// The generic call, decoding into the typed result's shape.
				var out []struct {
					VaultAddress common.Address `json:"vaultAddress"`
					Equity       int            `json:"equity"`
				}
				errInfo := c.Info(context.Background(), &out, map[string]string{"type": "userVaultEquities", "user": recordedUser.Hex()})
				for _, err := range []error{err, errInfo} {
					require.Error(t, err)
					testkit.AssertNoKey(t, key, "error", fmt.Sprintf("%v|%+v|%#v|%s", err, err, err, err.Error()))
					testkit.AssertErrNoKey(t, key, err)
					var he *nodeaccess.HTTPError
					if tc.status != 200 {
						require.ErrorAs(t, err, &he)
						testkit.AssertNoKey(t, key, "HTTPError", fmt.Sprintf("%s %s %s %s", he.URL, he.Body, he.Message, he.Error()))
					}
				}
				o.check(t, key)
				assert.NotEmpty(t, o.Attempts())
			})
		}
	}
}

// The public API never receives the key, on success and on failures that
// are retried, in the path, any header or the body.
func TestPublicRequestsCarryNoKey(t *testing.T) {
	for _, key := range testkit.LeakKeys {
		public := newScript(t, reply{500, "application/json", "null"}, reply{429, "", ""}, reply{200, "application/json", `{"BTC":"1"}`},
			reply{422, "text/plain", deserialize}, reply{200, "text/html", htmlPage})
		node := newScript(t, reply{200, "application/json", "[]"})
		var o observed
		c, err := hyper.New(node.srv.URL, key, append(o.options(), hyper.WithPublicURL(public.srv.URL))...)
		require.NoError(t, err)
		_, err = c.AllMids(context.Background(), "")
		require.NoError(t, err)
		_, err = c.AllMids(context.Background(), "xyz")
		require.ErrorIs(t, err, hyper.ErrUnsupportedRequest)
		testkit.AssertNoKey(t, key, "error", fmt.Sprintf("%v %+v", err, err))
		_, err = c.AllMids(context.Background(), "")
		require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		testkit.AssertNoKey(t, key, "error", fmt.Sprintf("%v %+v", err, err))
		// The generic call: the same keyless transport.
		var raw json.RawMessage
		err = c.PublicInfo(context.Background(), &raw, map[string]string{"type": "meta"})
		require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		testkit.AssertErrNoKey(t, key, err)

		reqs := public.requests()
		require.Len(t, reqs, 6)
		for i, r := range reqs {
			what := fmt.Sprintf("public request %d", i)
			testkit.AssertNoKey(t, key, what+" path", r.path)
			testkit.AssertNoKey(t, key, what+" body", r.body)
			for k, vs := range r.header {
				testkit.AssertNoKey(t, key, what+" header "+k, k+": "+strings.Join(vs, ","))
			}
			assert.Equal(t, "/info", r.path)
		}
		assert.Empty(t, node.requests(), "allMids never goes to the node")
		o.check(t, key)
	}
}

// A network failure (connection refused) prints the URL in Go's own error;
// the key is masked there too (the HyperEVM client's: package hypercore).
func TestRefusedConnectionDoesNotLeakTheKey(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := "http://" + l.Addr().String()
	require.NoError(t, l.Close())
	for _, key := range testkit.LeakKeys {
		var o observed
		c, err := hyper.New(addr, key, append(o.options(), hyper.WithPublicURL(addr))...)
		require.NoError(t, err)
		_, err = c.UserVaultEquities(context.Background(), recordedUser)
		require.ErrorIs(t, err, nodeaccess.ErrUnavailable)
		assert.Contains(t, err.Error(), "REDACTED")
		testkit.AssertNoKey(t, key, "error", fmt.Sprintf("%v %+v", err, err))
		o.check(t, key)
	}
}

func TestClientFormattingHidesTheKey(t *testing.T) {
	for _, key := range testkit.LeakKeys {
		c, err := hyper.New("https://node.example/v1/", key)
		require.NoError(t, err)
		s := fmt.Sprintf("%v %+v %#v %s %q %x %d", c, c, c, c, c, c, c)
		testkit.AssertNoKey(t, key, "client", s)
		testkit.AssertNoKey(t, key, "client value", fmt.Sprintf("%v %+v %#v", *c, *c, *c))
		assert.Equal(t, "hyper.Client{node https://node.example/v1/REDACTED/info, public https://api.hyperliquid.xyz/info}", c.String())
	}
	var nilClient *hyper.Client
	assert.Equal(t, "<nil>", fmt.Sprint(nilClient))
}

// A public API URL that holds the key is refused without quoting it.
func TestPublicURLHoldingTheKeyIsRefused(t *testing.T) {
	for _, key := range testkit.LeakKeys {
		for _, u := range []string{
			"https://proxy.example/" + url.PathEscape(key),
			"https://proxy.example/" + url.PathEscape(key) + "/",
			"https://proxy.example/a/" + url.PathEscape(key) + "/b",
			"https://proxy.example/x" + url.PathEscape(key),
			"https://proxy.example/" + url.PathEscape(key) + "y/info",
			// spellings the old check missed: lower-case percent-escapes
			// of every character, and the key's ASCII letters in upper case.
			"https://proxy.example/" + lowerEscapeAll(key),
			"https://proxy.example/" + url.PathEscape(asciiUpper(key)),
		} {
			_, err := hyper.New(testBase, key, hyper.WithPublicURL(u))
			require.Error(t, err, u)
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
			assert.Equal(t, "hyper: invalid input: option: the public API URL holds the access key; the public API takes no key", err.Error())
		}
		_, err := hyper.New(testBase, key, hyper.WithPublicURL("https://proxy.example/?k="+url.QueryEscape(key)))
		require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		testkit.AssertNoKey(t, key, "option error", err.Error())
	}
}

// A long string passed where an address belongs (a whole endpoint URL, key
// included) goes nowhere and shows no piece of the key.
func TestLongAddressInputLeaksNoPieceOfTheKey(t *testing.T) {
	for _, key := range append([]string{"SeCrEtKeY0123456789abcdefABCDEF"}, testkit.LeakKeys...) {
		c, err := hyper.New(testBase, key, nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))
		require.NoError(t, err)
		for k := 1; k < len(key); k++ { // k bytes of the key before byte 64
			user := "https://n.example/" + strings.Repeat("x", 64-len("https://n.example/")-k) + key + "/info"
			// The text as a request member goes nowhere.
			err := c.PublicInfo(context.Background(), nil, map[string]string{"type": "userRole", "user": user})
			require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
			testkit.AssertErrNoKey(t, key, err)
		}
	}
}

// lowerEscapeAll percent-escapes every byte of s, hex digits in lower case.
func lowerEscapeAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02x", s[i])
	}
	return b.String()
}

// asciiUpper returns s with its ASCII letters in upper case.
func asciiUpper(s string) string {
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s)
}
