package transport

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// echo is a body that repeats the request URL in every spelling a server
// might use.
func echo(r *http.Request) string {
	return fmt.Sprintf("no route for %s (path %s, uri %s, q %s)", r.URL.String(), r.URL.Path, r.RequestURI, url.QueryEscape(r.URL.Path))
}

// leakCase is one way a call can fail; check asserts the error's kind.
type leakCase struct {
	name string
	// setup returns the base URL and extra options; it may start servers.
	setup func(t *testing.T, key string) (string, []nodeaccess.Option)
	ctx   time.Duration // a context timeout, 0 for none
	check func(t *testing.T, err error)
}

var leakCases = []leakCase{
	{
		name: "connection refused",
		setup: func(t *testing.T, _ string) (string, []nodeaccess.Option) {
			return "http://" + closedPort(t), nil
		},
		check: func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
			assert.ErrorIs(t, err, syscall.ECONNREFUSED)
			assert.Contains(t, err.Error(), "service unavailable after 3 attempts: Post \"http://127.0.0.1:")
			assert.Contains(t, err.Error(), "/REDACTED\": dial tcp")
		},
	},
	{
		name: "DNS failure",
		setup: func(t *testing.T, _ string) (string, []nodeaccess.Option) {
			// The SDK's transport, without a proxy from the environment
			// that would do the lookup instead.
			tr := DefaultTransport()
			tr.Proxy = nil
			return "https://nodeaccess-test.invalid/v1", []nodeaccess.Option{nodeaccess.WithRoundTripper(tr)}
		},
		check: func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
			var dnsErr *net.DNSError
			require.ErrorAs(t, err, &dnsErr)
			assert.Equal(t, "nodeaccess-test.invalid", dnsErr.Name)
			assert.Contains(t, err.Error(), `"https://nodeaccess-test.invalid/v1/REDACTED"`)
		},
	},
	{
		name: "attempt timeout",
		setup: func(t *testing.T, _ string) (string, []nodeaccess.Option) {
			srv, _ := serve(t, slowHeaders)
			return srv.URL, []nodeaccess.Option{nodeaccess.WithTimeout(50 * time.Millisecond), nodeaccess.WithMaxAttempts(2)}
		},
		check: func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
			assert.Contains(t, err.Error(), "service unavailable after 2 attempts: attempt timed out after 50ms")
		},
	},
	{
		name: "context deadline",
		setup: func(t *testing.T, _ string) (string, []nodeaccess.Option) {
			srv, _ := serve(t, slowBody)
			return srv.URL, nil
		},
		ctx: 100 * time.Millisecond,
		check: func(t *testing.T, err error) {
			assert.ErrorIs(t, err, context.DeadlineExceeded)
		},
	},
	{
		name: "TLS failure",
		setup: func(t *testing.T, _ string) (string, []nodeaccess.Option) {
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { rpcOK(w, r, "1") }))
			srv.Config.ErrorLog = discardLog()
			srv.StartTLS()
			t.Cleanup(srv.Close)
			return srv.URL, nil
		},
		check: func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
			var cve *tls.CertificateVerificationError
			assert.ErrorAs(t, err, &cve)
			assert.Contains(t, err.Error(), "certificate")
		},
	},
	{
		name: "redirect, own client",
		setup: func(t *testing.T, _ string) (string, []nodeaccess.Option) {
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				w.Header().Set("Location", "https://elsewhere.example"+r.URL.EscapedPath()+"?k="+url.QueryEscape(r.URL.Path[1:]))
				w.WriteHeader(307)
				io.WriteString(w, echo(r))
			})
			return srv.URL, nil
		},
		check: func(t *testing.T, err error) {
			var he *nodeaccess.HTTPError
			require.ErrorAs(t, err, &he)
			assert.Equal(t, 307, he.StatusCode)
			assert.Equal(t, "https://elsewhere.example/REDACTED?k=REDACTED", he.Location)
		},
	},
	{
		name: "redirect loop, user client",
		setup: func(t *testing.T, _ string) (string, []nodeaccess.Option) {
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				http.Redirect(w, r, r.URL.String(), http.StatusFound)
			})
			return srv.URL, []nodeaccess.Option{nodeaccess.WithHTTPClient(&http.Client{})}
		},
		check: func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
			assert.Contains(t, err.Error(), "/REDACTED\": stopped after 10 redirects")
		},
	},
	{
		name: "4xx echoing the URL",
		setup: func(t *testing.T, _ string) (string, []nodeaccess.Option) {
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				w.WriteHeader(404)
				io.WriteString(w, echo(r))
			})
			return srv.URL, nil
		},
		check: func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrNotFound)
			assert.Equal(t, "HTTP 404 Not Found: no route for /REDACTED (path /REDACTED, uri /REDACTED, q %2FREDACTED)", err.Error())
		},
	},
	{
		name: "5xx echoing the URL",
		setup: func(t *testing.T, _ string) (string, []nodeaccess.Option) {
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				w.WriteHeader(503)
				io.WriteString(w, echo(r))
			})
			return srv.URL, nil
		},
		check: func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
			assert.Contains(t, err.Error(), "HTTP 503 Service Unavailable: no route for /REDACTED")
		},
	},
	{
		name: "4xx echo straddling the body cap",
		setup: func(t *testing.T, _ string) (string, []nodeaccess.Option) {
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				w.WriteHeader(400)
				io.WriteString(w, strings.Repeat(".", ErrorBodyCap-8)+r.URL.String()+strings.Repeat(".", 100))
			})
			return srv.URL, nil
		},
		check: func(t *testing.T, err error) {
			var he *nodeaccess.HTTPError
			require.ErrorAs(t, err, &he)
			assert.LessOrEqual(t, len(he.Body), ErrorBodyCap)
			assert.Contains(t, string(he.Body), "/REDA")
		},
	},
	{
		name: "JSON-RPC error naming the key",
		setup: func(t *testing.T, key string) (string, []nodeaccess.Option) {
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				msg, _ := json.Marshal("key " + key + " is over its limit; see " + r.URL.String())
				data, _ := json.Marshal(map[string]any{"url": r.URL.String(), "keys": []string{key, url.PathEscape(key)}, key: 1})
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32005,"message":%s,"data":%s}}`, requestID(r), msg, data)
			})
			return srv.URL, nil
		},
		check: func(t *testing.T, err error) {
			var re *nodeaccess.RPCError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, "key REDACTED is over its limit; see /REDACTED", re.Message)
			assert.Equal(t, map[string]any{"url": "/REDACTED", "keys": []any{"REDACTED", "REDACTED"}, "REDACTED": 1.0}, re.Data)
			assert.ErrorIs(t, err, nodeaccess.ErrRateLimited)
		},
	},
	{
		name: "JSON-RPC error data string",
		setup: func(t *testing.T, key string) (string, []nodeaccess.Option) {
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				data, _ := json.Marshal("for " + key)
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":3,"message":"execution reverted","data":%s}}`, requestID(r), data)
			})
			return srv.URL, nil
		},
		check: func(t *testing.T, err error) {
			var re *nodeaccess.RPCError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, "for REDACTED", re.Data)
		},
	},
	{
		name: "200 HTML echoing the URL near the snippet's end",
		setup: func(t *testing.T, _ string) (string, []nodeaccess.Option) {
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				w.Header().Set("Content-Type", "text/html")
				io.WriteString(w, "<html>"+strings.Repeat(" ", 105)+r.URL.String()+"</html>")
			})
			return srv.URL, nil
		},
		check: func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			assert.Contains(t, err.Error(), "body is HTML or XML")
		},
	},
	{
		name: "200 invalid JSON echoing the key",
		setup: func(t *testing.T, key string) (string, []nodeaccess.Option) {
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"result":%s}`, key)
			})
			return srv.URL, nil
		},
		check: func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			assert.Contains(t, err.Error(), `:REDACTED}`)
		},
	},
}

// TestKeyNeverLeaks runs every failure with a plain key and with a key that
// needs escaping, and checks the error, the hook and the log.
func TestKeyNeverLeaks(t *testing.T) {
	t.Parallel()
	for _, key := range []string{testKey, escKey} {
		for _, lc := range leakCases {
			t.Run(lc.name+"/"+url.PathEscape(key[:7]), func(t *testing.T) {
				t.Parallel()
				base, opts := lc.setup(t, key)
				rec := &testkit.Recorder{}
				c := newClient(t, base, key, append([]nodeaccess.Option{rec.Option(), fast}, opts...)...)
				ctx := context.Background()
				if lc.ctx > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, lc.ctx)
					defer cancel()
				}
				_, err := call(ctx, t, c)
				require.Error(t, err)
				lc.check(t, err)
				testkit.AssertErrNoKey(t, key, err)
				assertRecordNoKey(t, key, rec)
				// Wrapping for the chain keeps the error's kind and adds nothing.
				wrapped := c.Wrap("eth_chainId", err)
				testkit.AssertErrNoKey(t, key, wrapped)
				assert.Equal(t, "test: eth_chainId: "+err.Error(), wrapped.Error())
				for _, s := range []error{nodeaccess.ErrUnavailable, nodeaccess.ErrRateLimited, nodeaccess.ErrNotFound,
					nodeaccess.ErrInvalidResponse, context.DeadlineExceeded} {
					assert.Equal(t, errors.Is(err, s), errors.Is(wrapped, s), "Wrap changed errors.Is(%v)", s)
				}
			})
		}
	}
}

func TestClientFormatting(t *testing.T) {
	t.Parallel()
	for _, key := range []string{testKey, escKey} {
		c := newClient(t, "https://node.example/v1", key)
		s := fmt.Sprintf("%v %+v %#v %s %q %x", c, c, c, c, c, c)
		testkit.AssertNoKey(t, key, "client formatting", s)
		assert.Equal(t, "test client for https://node.example/v1 (key REDACTED)", c.String())
		tg := rpcTarget(t, c)
		testkit.AssertNoKey(t, key, "target formatting", fmt.Sprintf("%v %+v %#v %s", tg, tg, tg, tg.Masked()))
		assert.Equal(t, "<nil>", (*Client)(nil).String())
	}
}

// TestBaseHoldingTheKey: a user who passes the whole endpoint as the base
// URL and the key again gets no key in masked URLs either.
func TestBaseHoldingTheKey(t *testing.T) {
	t.Parallel()
	// A base URL that holds the key (the whole endpoint passed as the base)
	// is refused, in any spelling and any part but the host, and the error
	// shows no key.
	for _, base := range []string{
		"https://node.example/" + url.PathEscape(escKey),
		"https://node.example/v2/" + url.PathEscape(escKey) + "/",
		"https://node.example/api?key=" + url.QueryEscape(escKey),
		"https://" + url.PathEscape(escKey) + "@node.example/",
		"https://node.example/#" + escKey,
	} {
		_, err := New(Settings{Chain: "test", BaseURL: base, Key: escKey, FromURL: "test.NewFromURL"})
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie, base)
		assert.Equal(t, "baseURL", ie.Arg)
		testkit.AssertErrNoKey(t, escKey, err)
		if strings.HasPrefix(base, "https://node.example/") && !strings.ContainsAny(base, "?#") {
			// Refused for holding the key; the others for their query,
			// user information or fragment already.
			assert.Contains(t, err.Error(), "the base URL holds the access key")
			assert.Contains(t, err.Error(), "test.NewFromURL")
		}
	}
	// The key in the host is the host's own business: the key goes there.
	_, err := New(Settings{Chain: "test", BaseURL: "https://node0.example", Key: "0"})
	require.NoError(t, err)
}

// TestEmptyKeyWithKeyInURL: an empty key beside a base URL whose last path
// segment looks like one says so and points to the constructor that takes
// the whole endpoint, quoting no part of the URL.
func TestEmptyKeyWithKeyInURL(t *testing.T) {
	t.Parallel()
	const k = "a1B2c3D4e5F6g7H8i9J0"
	for _, fromURL := range []string{"evm.NewFromURL", ""} {
		_, err := New(Settings{Chain: "evm", BaseURL: "https://eth.node.example/v2/" + k, FromURL: fromURL})
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie)
		assert.Equal(t, "key", ie.Arg)
		assert.Contains(t, err.Error(), "access key is empty; the base URL's last path segment looks like one")
		assert.NotContains(t, err.Error(), k)
		if fromURL != "" {
			assert.Contains(t, err.Error(), "or the whole endpoint URL to evm.NewFromURL")
		} else {
			assert.Contains(t, err.Error(), "and the key as its own argument")
		}
	}
	// A path that looks like no key gets the plain message.
	_, err := New(Settings{Chain: "evm", BaseURL: "https://eth.node.example/api/v2/rpc"})
	require.Error(t, err)
	assert.Equal(t, "evm: invalid input: key: access key is empty", err.Error())
}

func TestRedactor(t *testing.T) {
	t.Parallel()
	r := newRedactor(escKey)
	in := "a " + escKey + " b sEcReT%25k3y:@+%3F%23%C3%A9 c sEcReT%25k3y%3A%40%2B%3F%23%C3%A9"
	assert.Equal(t, "a REDACTED b REDACTED c REDACTED", r.Text(in))
	b := []byte(in)
	assert.Equal(t, "a REDACTED b REDACTED c REDACTED", string(r.Bytes(b)))
	assert.Equal(t, in, string(b), "Bytes must not modify its argument")
	assert.Equal(t, "nothing", r.Text("nothing"))
	assert.Nil(t, newRedactor(""))
	assert.Equal(t, "x "+testKey, newRedactor("").Text("x "+testKey))

	// Err keeps what errors.Is needs and drops what prints the key.
	inner := errors.New("dial failed for " + testKey)
	wrapped := fmt.Errorf("%w: %w", nodeaccess.ErrUnavailable, &url.Error{Op: "Post", URL: "https://h/" + testKey, Err: syscall.ECONNREFUSED})
	red := newRedactor(testKey)
	got := red.Err(wrapped)
	assert.ErrorIs(t, got, nodeaccess.ErrUnavailable)
	assert.ErrorIs(t, got, syscall.ECONNREFUSED)
	testkit.AssertErrNoKey(t, testKey, got)
	got = red.Err(fmt.Errorf("context: %w", inner))
	testkit.AssertErrNoKey(t, testKey, got)
	assert.Equal(t, "context: dial failed for REDACTED", got.Error())
	clean := errors.New("clean")
	assert.Same(t, clean, red.Err(clean))
	assert.NoError(t, red.Err(nil))
}

func TestRedactorHead(t *testing.T) {
	t.Parallel()
	r := newRedactor(escKey)
	esc := url.PathEscape(escKey)
	body := []byte(strings.Repeat("x", 10) + esc + "tail")
	for n := 0; n <= len(body)+2; n++ {
		got := string(r.Head(body, n))
		testkit.AssertNoKey(t, escKey, fmt.Sprintf("Head(%d)", n), got)
		assert.LessOrEqual(t, len(got), n)
		// The first n bytes of the body, a key that starts among them
		// masked whole.
		want := string(body[:min(n, len(body))])
		if n > 10 {
			want = "xxxxxxxxxxREDACTED" + string(body[min(n, 10+len(esc)):min(n, len(body))])
		}
		assert.Equal(t, want[:min(n, len(want))], got, "n=%d", n)
	}
}

// discardLog keeps expected TLS handshake errors out of the test output.
func discardLog() *log.Logger { return log.New(io.Discard, "", 0) }

// TestClientMask: Mask removes every form of the key, for chain packages
// that show unescaped server text.
func TestClientMask(t *testing.T) {
	t.Parallel()
	c := newClient(t, "https://node.example", escKey)
	assert.Equal(t, "a REDACTED b REDACTED c", c.Mask("a "+escKey+" b sEcReT%25k3y%3A%40%2B%3F%23%C3%A9 c"))
	assert.Equal(t, "nothing", c.Mask("nothing"))
	k := newClient(t, "https://node.example", testKey)
	assert.Equal(t, "bad key REDACTED", k.Mask("bad key "+testKey))
}

// TestRedactASCIIEscapedKey: a server that escapes every non-ASCII
// character in its JSON (Python's json.dumps) writes a key such as "kéy"
// as "k\u00e9y"; that spelling is masked too, in either case of hex digit,
// with a surrogate pair beyond the BMP, and as Go's %+q writes it.
func TestRedactASCIIEscapedKey(t *testing.T) {
	r := newRedactor("kéy😀x")
	for _, in := range []string{
		`{"error":"bad key k\u00e9y\ud83d\ude00x"}`,
		`{"error":"bad key k\u00E9y\uD83D\uDE00x"}`,
		`"k\u00e9y\U0001f600x"`,
	} {
		got := r.Text(in)
		assert.NotContains(t, got, `k\u00`, in)
		assert.Contains(t, got, Mask, in)
	}
	// ASCII characters stay raw in that spelling, '<' included, which
	// encoding/json would write as \u003c.
	r = newRedactor(`a<"é`)
	assert.Equal(t, `{"e":"REDACTED"}`, r.Text(`{"e":"a<\"\u00e9"}`))
}
