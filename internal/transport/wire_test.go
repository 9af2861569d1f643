package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"
)

const gockBase = "https://node.example"

// escaped counts the requests that got past gock to the network stand-in.
type escaped struct{ n atomic.Int32 }

func (e *escaped) RoundTrip(req *http.Request) (*http.Response, error) {
	e.n.Add(1)
	return nil, errors.New("request escaped gock: " + req.URL.Redacted())
}

// gockTransport returns a gock transport that falls back to a transport
// that fails and counts instead of reaching the network, and arranges for
// the test to fail if a request was unmatched, a mock unused, or a request
// escaped. gock is global: tests that use it must not run in parallel.
func gockTransport(t *testing.T) *gock.Transport {
	t.Helper()
	esc := &escaped{}
	gt := gock.NewTransport()
	gt.Transport = esc
	gock.Intercept()
	t.Cleanup(func() {
		assert.False(t, gock.HasUnmatchedRequest(), "unmatched requests: %d", len(gock.GetUnmatchedRequests()))
		assert.True(t, gock.IsDone(), "pending mocks: %d", len(gock.Pending()))
		assert.Zero(t, esc.n.Load(), "requests escaped gock")
		gock.OffAll()
	})
	return gt
}

// exactRequest matches a request whose method, URL, headers (all of them,
// as the SDK hands them to the transport) and body are exactly the given.
func exactRequest(t *testing.T, method, rawURL string, header http.Header, body string) gock.MatchFunc {
	return func(req *http.Request, _ *gock.Request) (bool, error) {
		var got []byte
		if req.Body != nil {
			var err error
			if got, err = io.ReadAll(req.Body); err != nil {
				return false, err
			}
			req.Body = io.NopCloser(bytes.NewReader(got))
		}
		ok := true
		check := func(cond bool, format string, args ...any) {
			if !cond {
				ok = false
				t.Errorf(format, args...)
			}
		}
		check(req.Method == method, "method %s, want %s", req.Method, method)
		check(req.URL.String() == rawURL, "URL\n got %s\nwant %s", req.URL, rawURL)
		check(fmt.Sprint(req.Header) == fmt.Sprint(header), "headers\n got %v\nwant %v", req.Header, header)
		check(string(got) == body, "body\n got %s\nwant %s", got, body)
		if body != "" {
			check(req.ContentLength == int64(len(body)), "ContentLength %d, want %d", req.ContentLength, len(body))
			check(req.GetBody != nil, "no GetBody")
		}
		return ok, nil
	}
}

func rpcHeaders(ua string) http.Header {
	return http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}, "User-Agent": {ua}}
}

func TestWireJSONRPC(t *testing.T) {
	ua := "nodeaccess-go/" + nodeaccess.Version
	require.Equal(t, "nodeaccess-go/0.1.0", ua)
	for _, tc := range []struct {
		name string
		opts func(*gock.Transport) []nodeaccess.Option
		ua   string
	}{
		{"round tripper", func(gt *gock.Transport) []nodeaccess.Option {
			return []nodeaccess.Option{nodeaccess.WithRoundTripper(gt)}
		}, ua},
		{"http client and user agent", func(gt *gock.Transport) []nodeaccess.Option {
			return []nodeaccess.Option{nodeaccess.WithHTTPClient(&http.Client{Transport: gt}), nodeaccess.WithUserAgent("myapp/1.2 (+https://x.example)")}
		}, ua + " myapp/1.2 (+https://x.example)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gt := gockTransport(t)
			c := newClient(t, gockBase, testKey, tc.opts(gt)...)
			tg := rpcTarget(t, c)
			calls := []struct{ method, params, body, reply, result string }{
				{"eth_chainId", "[]", `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}`,
					`{"jsonrpc":"2.0","id":1,"result":"0x1"}`, `"0x1"`},
				{"eth_call", `[{"to":"0x00000000000000000000000000000000000000aa","data":"0x01"},"latest"]`,
					`{"jsonrpc":"2.0","id":2,"method":"eth_call","params":[{"to":"0x00000000000000000000000000000000000000aa","data":"0x01"},"latest"]}`,
					`{"jsonrpc":"2.0","id":2,"result":"0x"}`, `"0x"`},
				{"net_version", "", `{"jsonrpc":"2.0","id":3,"method":"net_version"}`,
					"{\n  \"id\": 3,\n  \"result\": {\"a\": [1, {\"b\": \"}\"}]},\n  \"jsonrpc\": \"2.0\"\n}", `{"a": [1, {"b": "}"}]}`},
			}
			for _, cl := range calls {
				gock.New(gockBase).
					AddMatcher(exactRequest(t, "POST", gockBase+"/sEcReT-k3y", rpcHeaders(tc.ua), cl.body)).
					Reply(200).SetHeader("Content-Type", "application/json").BodyString(cl.reply)
			}
			for _, cl := range calls {
				var params []byte
				if cl.params != "" {
					params = []byte(cl.params)
				}
				res, err := c.CallRPC(context.Background(), &RPC{Target: tg, Method: cl.method, Params: params})
				require.NoError(t, err, cl.method)
				assert.Equal(t, cl.result, string(res.Raw))
				assert.Equal(t, 200, res.StatusCode)
				res.Release()
				res.Release() // idempotent
			}
		})
	}
}

func TestWireGET(t *testing.T) {
	gt := gockTransport(t)
	c := newClient(t, gockBase+"/v1/", escKey, nodeaccess.WithRoundTripper(gt), nodeaccess.WithUserAgent("app"))
	tg, err := c.Target("{key}/api/v3/{op}", "op", "account/states")
	require.NoError(t, err)
	hdr := http.Header{"Accept": {"application/json"}, "User-Agent": {"nodeaccess-go/" + nodeaccess.Version + " app"}}
	want := gockBase + "/v1/sEcReT%25k3y:@+%3F%23%C3%A9/api/v3/account%2Fstates?address=EQ%2Babc%2F%3D&limit=10"
	gock.New(gockBase).AddMatcher(exactRequest(t, "GET", want, hdr, "")).
		Reply(200).SetHeader("Content-Type", "application/json").BodyString(`{"ok":true}`)
	// A GET with another Accept and a POST with another content type.
	hdrOther := http.Header{"Accept": {"application/octet-stream"}, "User-Agent": {"nodeaccess-go/" + nodeaccess.Version + " app"}}
	gock.New(gockBase).AddMatcher(exactRequest(t, "GET", want, hdrOther, "")).Reply(200).BodyString("raw")
	hdrPost := http.Header{"Accept": {"application/json"}, "Content-Type": {"text/plain"}, "User-Agent": {"nodeaccess-go/" + nodeaccess.Version + " app"}}
	gock.New(gockBase).AddMatcher(exactRequest(t, "POST", want, hdrPost, "hello")).Reply(200).BodyString(`{}`)

	q := url.Values{"address": {"EQ+abc/="}, "limit": {"10"}}
	resp, err := c.Do(context.Background(), &Request{Op: "accountStates", Target: tg, Query: q})
	require.NoError(t, err)
	var v struct{ OK bool }
	require.NoError(t, c.DecodeJSON(&resp, &v))
	assert.True(t, v.OK)
	assert.Equal(t, int64(11), resp.ContentLength)
	resp.Release()

	resp, err = c.Do(context.Background(), &Request{Op: "raw", Target: tg, Query: q, Accept: "application/octet-stream"})
	require.NoError(t, err)
	assert.Equal(t, "raw", string(resp.Body))
	resp.Release()

	resp, err = c.Do(context.Background(), &Request{Op: "post", Method: "POST", Target: tg, Query: q, Body: []byte("hello"), ContentType: "text/plain"})
	require.NoError(t, err)
	resp.Release()
}

// TestWireNoRequestEscapes proves that the gock set-up fails closed: a
// request no mock matches is reported and never reaches the network.
func TestWireNoRequestEscapes(t *testing.T) {
	esc := &escaped{}
	gt := gock.NewTransport()
	gt.Transport = esc
	gock.Intercept()
	defer gock.OffAll()
	gock.New(gockBase).Post("/other").Reply(200)
	c := newClient(t, gockBase, testKey, nodeaccess.WithRoundTripper(gt), nodeaccess.WithMaxAttempts(1))
	_, err := call(context.Background(), t, c)
	require.Error(t, err)
	assert.ErrorIs(t, err, gock.ErrCannotMatch)
	assert.True(t, gock.HasUnmatchedRequest())
	assert.False(t, gock.IsDone())
	assert.Zero(t, esc.n.Load())
	testkit.AssertErrNoKey(t, testKey, err)

	// Without interception the fallback gets the request, not the network.
	gock.OffAll()
	_, err = call(context.Background(), t, c)
	require.Error(t, err)
	assert.Equal(t, int32(1), esc.n.Load())
	testkit.AssertErrNoKey(t, testKey, err)
}

// TestRPCIDsConcurrent runs many calls on one client at once: every id is
// used once, and each response echoes its request's id.
func TestRPCIDsConcurrent(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		id := requestID(r)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":"%s"}`, id, id)
	})
	c := newClient(t, srv.URL, testKey)
	other := newClient(t, srv.URL, testKey)
	const workers, each = 16, 8
	var mu sync.Mutex
	var ids []int
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				res, err := call(context.Background(), t, c)
				if !assert.NoError(t, err) {
					return
				}
				id, err := strconv.Atoi(string(bytes.Trim(res.Raw, `"`)))
				res.Release()
				assert.NoError(t, err)
				mu.Lock()
				ids = append(ids, id)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	sort.Ints(ids)
	require.Len(t, ids, workers*each)
	for i, id := range ids {
		require.Equal(t, i+1, id)
	}
	// Each client counts on its own.
	res, err := call(context.Background(), t, other)
	require.NoError(t, err)
	assert.Equal(t, `"1"`, string(res.Raw))
	res.Release()
}

// TestHeadersOnTheWire checks what a real server receives.
func TestHeadersOnTheWire(t *testing.T) {
	t.Parallel()
	got := make(chan *http.Request, 1)
	bodies := make(chan string, 1)
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		b, _ := io.ReadAll(r.Body)
		got <- r
		bodies <- string(b)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":null}`)
	})
	c := newClient(t, srv.URL, testKey, nodeaccess.WithUserAgent("bot/2"))
	res, err := c.CallRPC(context.Background(), &RPC{Target: rpcTarget(t, c), Method: "eth_blockNumber"})
	require.NoError(t, err)
	assert.Equal(t, "null", string(res.Raw))
	res.Release()
	r := <-got
	assert.Equal(t, "POST", r.Method)
	assert.Equal(t, "/sEcReT-k3y", r.RequestURI)
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	assert.Equal(t, "application/json", r.Header.Get("Accept"))
	assert.Equal(t, []string{"nodeaccess-go/" + nodeaccess.Version + " bot/2"}, r.Header.Values("User-Agent"))
	assert.Equal(t, int64(len(`{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}`)), r.ContentLength)
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}`, <-bodies)
}

func TestBadMethodName(t *testing.T) {
	t.Parallel()
	c := newClient(t, "http://127.0.0.1:1", testKey, nodeaccess.WithRoundTripper(&escaped{}))
	for _, m := range []string{"", `eth_call"`, "eth call", "eth/call", "é"} {
		_, err := c.CallRPC(context.Background(), &RPC{Target: rpcTarget(t, c), Method: m})
		require.Error(t, err, m)
		assert.Contains(t, err.Error(), "bad JSON-RPC method name")
	}
	// A rejected method uses no id.
	assert.Zero(t, c.ids.Load())
}

// lateReader is a RoundTripper that answers at once and reads the request
// body only after RoundTrip returned, as the RoundTripper contract allows
// (net/http's transport does so when a server answers before it has read
// the whole request).
type lateReader struct {
	mu     sync.Mutex
	bodies []io.ReadCloser
	n      int
}

func (l *lateReader) RoundTrip(req *http.Request) (*http.Response, error) {
	l.mu.Lock()
	l.n++
	id := l.n
	l.bodies = append(l.bodies, req.Body)
	l.mu.Unlock()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":"0x1"}`, id)
	return &http.Response{StatusCode: 200, Status: "200 OK", Header: http.Header{}, ContentLength: int64(len(body)),
		Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
}

// TestRequestBodyOutlivesCall: the bytes a transport reads after the call
// returned are still the call's request, not another call's.
func TestRequestBodyOutlivesCall(t *testing.T) {
	t.Parallel()
	rt := &lateReader{}
	c := newClient(t, "https://node.example", testKey, nodeaccess.WithRoundTripper(rt))
	tg := rpcTarget(t, c)
	const calls = 50
	for i := 1; i <= calls; i++ {
		params := fmt.Sprintf(`["%s"]`, strings.Repeat(strconv.Itoa(i%10), i))
		res, err := c.CallRPC(context.Background(), &RPC{Target: tg, Method: "m", Params: []byte(params)})
		require.NoError(t, err)
		res.Release()
	}
	for i, b := range rt.bodies {
		got, err := io.ReadAll(b)
		require.NoError(t, err)
		want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"m","params":["%s"]}`, i+1, strings.Repeat(strconv.Itoa((i+1)%10), i+1))
		require.Equal(t, want, string(got), "call %d", i+1)
	}
}
