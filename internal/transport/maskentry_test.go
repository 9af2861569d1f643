package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keyDumper fails every request with an error quoting the request URL,
// which holds the key, as a careless RoundTripper (a proxy, a logging
// wrapper) might.
type keyDumper struct{ typed bool }

func (d keyDumper) RoundTrip(req *http.Request) (*http.Response, error) {
	if d.typed {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: fmt.Errorf("proxy refused %s", req.URL)}
	}
	return nil, fmt.Errorf("proxy refused %s: %w", req.URL, syscall.ECONNREFUSED)
}

// quoting decodes a JSON string and refuses it, quoting it, as a chain
// package's decoder does with a value it cannot read.
type quoting struct{}

func (*quoting) UnmarshalJSON(b []byte) error {
	var s string
	_ = json.Unmarshal(b, &s)
	return fmt.Errorf("%q is not an address", s)
}

// errBadValue is a sentinel that a decoder's error wraps.
var errBadValue = errors.New("bad value")

// TestEntryPointsMaskTheKey: every place where text the transport does not
// write itself enters an error (a user's RoundTripper, CheckRedirect or
// Limiter; a chain package's decoder, Check or Result; a method name or a
// template a caller gives) masks the key there: the error, the hook and
// the log show none, the sentinels and typed errors a caller tests for are
// still found, and no typed error was replaced by a stand-in.
func TestEntryPointsMaskTheKey(t *testing.T) {
	t.Parallel()
	// echoKey answers a JSON result that holds the key in every spelling
	// a JSON string can: as it is, %-escaped both ways, and with every
	// character outside ASCII \u-escaped.
	echoKey := func(key string) func(w http.ResponseWriter, r *http.Request, _ int) {
		return func(w http.ResponseWriter, r *http.Request, _ int) {
			w.Header().Set("Content-Type", "application/json")
			raw, _ := json.Marshal(key)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":"%s %s %s %s"}`, requestID(r),
				raw[1:len(raw)-1], url.PathEscape(key), url.QueryEscape(key), testkit.ASCIIJSON(key))
		}
	}
	cases := []struct {
		name string
		run  func(t *testing.T, key string, rec *testkit.Recorder) error
		// hooked: the call reaches the hook (it sends something).
		hooked bool
		check  func(t *testing.T, err error)
	}{
		{"RoundTripper error quoting the URL", func(t *testing.T, key string, rec *testkit.Recorder) error {
			c := newClient(t, "https://node.example", key, rec.Option(), fast, nodeaccess.WithRoundTripper(keyDumper{}))
			_, err := call(context.Background(), t, c)
			return err
		}, true, func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
			assert.ErrorIs(t, err, syscall.ECONNREFUSED)
			var ue *url.Error
			require.ErrorAs(t, err, &ue)
			assert.Equal(t, "https://node.example/REDACTED", ue.URL)
			assert.Contains(t, err.Error(), `Post "https://node.example/REDACTED": proxy refused https://node.example/REDACTED`)
		}},
		{"RoundTripper's *net.OpError quoting the URL", func(t *testing.T, key string, rec *testkit.Recorder) error {
			c := newClient(t, "https://node.example", key, rec.Option(), fast, nodeaccess.WithRoundTripper(keyDumper{typed: true}))
			_, err := call(context.Background(), t, c)
			return err
		}, true, func(t *testing.T, err error) {
			assert.Contains(t, err.Error(), "after 3 attempts", "a dial error is retried")
			var oe *net.OpError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, "dial", oe.Op)
			assert.Equal(t, "proxy refused https://node.example/REDACTED", oe.Err.Error())
		}},
		{"CheckRedirect error quoting the URL", func(t *testing.T, key string, rec *testkit.Recorder) error {
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				http.Redirect(w, r, r.URL.EscapedPath()+"/again?k="+url.QueryEscape(key), http.StatusTemporaryRedirect)
			})
			hc := &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
				return fmt.Errorf("no redirect to %s (from %s)", req.URL, via[0].URL.Path)
			}}
			c := newClient(t, srv.URL, key, rec.Option(), fast, nodeaccess.WithHTTPClient(hc), nodeaccess.WithMaxAttempts(1))
			_, err := call(context.Background(), t, c)
			return err
		}, true, func(t *testing.T, err error) {
			var ue *url.Error
			require.ErrorAs(t, err, &ue)
			assert.True(t, strings.HasSuffix(ue.URL, "/REDACTED/again?k=REDACTED"), ue.URL)
			assert.Contains(t, err.Error(), "/REDACTED/again?k=REDACTED (from /REDACTED)")
		}},
		{"stream decoder quoting the body, retryable", func(t *testing.T, key string, rec *testkit.Recorder) error {
			srv, _ := serve(t, echoKey(key))
			c := newClient(t, srv.URL, key, rec.Option(), fast)
			return c.Stream(context.Background(), &Request{Target: streamTarget(t, c)}, func(r *Response) error {
				b, _ := io.ReadAll(r.Stream)
				return Retryable(fmt.Errorf("%w: %w: body %s", nodeaccess.ErrInvalidResponse, errBadValue, b))
			})
		}, true, func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			assert.ErrorIs(t, err, errBadValue)
			assert.Contains(t, err.Error(), `"result":"REDACTED REDACTED REDACTED REDACTED"`)
		}},
		{"Check quoting the body", func(t *testing.T, key string, rec *testkit.Recorder) error {
			srv, _ := serve(t, echoKey(key))
			c := newClient(t, srv.URL, key, rec.Option(), fast)
			_, err := c.Do(context.Background(), &Request{Target: rpcTarget(t, c), Check: func(b []byte) error {
				return &nodeaccess.RPCError{Code: 429, Message: string(b)}
			}})
			return err
		}, true, func(t *testing.T, err error) {
			var re *nodeaccess.RPCError
			require.ErrorAs(t, err, &re)
			assert.Contains(t, re.Message, `"result":"REDACTED REDACTED REDACTED REDACTED"`)
			assert.ErrorIs(t, err, nodeaccess.ErrRateLimited)
		}},
		{"DecodeJSON of a value a decoder quotes", func(t *testing.T, key string, rec *testkit.Recorder) error {
			srv, _ := serve(t, echoKey(key))
			c := newClient(t, srv.URL, key, rec.Option(), fast)
			resp, err := c.Do(context.Background(), &Request{Target: rpcTarget(t, c)})
			require.NoError(t, err)
			defer resp.Release()
			var v struct{ Result quoting }
			return c.DecodeJSON(&resp, &v)
		}, true, func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			assert.Contains(t, err.Error(), `"REDACTED REDACTED REDACTED REDACTED" is not an address`)
		}},
		{"batch Result quoting the value", func(t *testing.T, key string, rec *testkit.Recorder) error {
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				b, _ := json.Marshal(key)
				fmt.Fprintf(w, `[{"jsonrpc":"2.0","id":1,"result":%s}]`, b)
			})
			c := newClient(t, srv.URL, key, rec.Option(), fast)
			var got error
			c.CallBatch(context.Background(), &Batch{Target: rpcTarget(t, c), Calls: []BatchCall{{Method: "eth_chainId"}},
				Result: func(_ int, raw []byte) error { return fmt.Errorf("%s is no quantity", raw) },
				Fail:   func(_ int, err error) { got = err }})
			return got
		}, true, func(t *testing.T, err error) {
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			assert.Contains(t, err.Error(), `eth_chainId result: "REDACTED" is no quantity`)
		}},
		{"Limiter error quoting the key", func(t *testing.T, key string, rec *testkit.Recorder) error {
			l := &countingLimiter{err: &nodeaccess.InputError{Arg: "store", Reason: "no bucket for " + key}}
			c := newClient(t, "http://127.0.0.1:1", key, rec.Option(), nodeaccess.WithBudget(l))
			_, err := call(context.Background(), t, c)
			return err
		}, false, func(t *testing.T, err error) {
			var ie *nodeaccess.InputError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, "no bucket for REDACTED", ie.Reason)
			assert.EqualError(t, err, "budget: invalid input: store: no bucket for REDACTED")
		}},
		{"JSON-RPC method that is the key", func(t *testing.T, key string, _ *testkit.Recorder) error {
			c := newClient(t, "http://127.0.0.1:1", key)
			_, err := c.CallRPC(context.Background(), &RPC{Target: rpcTarget(t, c), Method: key})
			return err
		}, false, func(t *testing.T, err error) {
			assert.ErrorContains(t, err, `bad JSON-RPC method name "REDACTED"`)
		}},
		{"batch method that is the key", func(t *testing.T, key string, _ *testkit.Recorder) error {
			c := newClient(t, "http://127.0.0.1:1", key)
			var got error
			c.CallBatch(context.Background(), &Batch{Target: rpcTarget(t, c), Calls: []BatchCall{{Method: "eth_chainId"}, {Method: key}},
				Result: func(int, []byte) error { return nil }, Fail: func(_ int, err error) { got = err }})
			return got
		}, false, func(t *testing.T, err error) {
			assert.ErrorContains(t, err, `bad JSON-RPC method name "REDACTED" in call 1`)
		}},
		{"template holding the key", func(t *testing.T, key string, _ *testkit.Recorder) error {
			c := newClient(t, "http://127.0.0.1:1", key)
			_, err := c.Target("{key}/"+key+"/{x}", "y", "1")
			return err
		}, false, func(t *testing.T, err error) {
			assert.ErrorContains(t, err, `no value for {x} in "{key}/REDACTED/{x}"`)
		}},
	}
	for _, key := range testkit.LeakKeys {
		for _, tc := range cases {
			t.Run(tc.name+"/"+url.PathEscape(key[:7]), func(t *testing.T) {
				t.Parallel()
				rec := &testkit.Recorder{}
				err := tc.run(t, key, rec)
				require.Error(t, err)
				testkit.AssertErrNoKey(t, key, err)
				tc.check(t, err)
				for _, typ := range StandIns(err) {
					assert.False(t, exportedType(typ), "%s was replaced by a stand-in: errors.As no longer finds it", typ)
				}
				if tc.hooked {
					assertRecordNoKey(t, key, rec)
				}
			})
		}
	}
}

// exportedType reports whether typ, a type as %T prints it, is one a
// caller can name in errors.As.
func exportedType(typ string) bool {
	name := typ[strings.LastIndexByte(typ, '.')+1:]
	return name != "" && name[0] >= 'A' && name[0] <= 'Z'
}
