package beacon_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"
)

const (
	testBase = "https://node.example"
	testKey  = "t3st-KEY"
	// statePrefix is the state route under the test key.
	statePrefix = "/beacon/" + testKey + "/eth/v2/debug/beacon/states/"
	acceptAuto  = "application/octet-stream;q=1,application/json;q=0.9"
)

// fast makes retries immediate.
var fast = nodeaccess.WithBackoff(time.Millisecond, 2*time.Millisecond)

// refuseAll is a transport that fails the test for any request: it proves
// that bad input sends nothing.
type refuseAll struct{ t *testing.T }

func (r refuseAll) RoundTrip(req *http.Request) (*http.Response, error) {
	r.t.Errorf("a request was sent: %s %s", req.Method, req.URL.Path)
	return nil, errors.New("refused")
}

// gockClient returns a client whose requests gock answers, and arranges for
// the test to fail if any request was left unmatched or any mock unused.
func gockClient(t *testing.T, opts ...nodeaccess.Option) *beacon.Client {
	t.Helper()
	t.Cleanup(func() {
		assert.False(t, gock.HasUnmatchedRequest(), "unmatched requests: %v", gock.GetUnmatchedRequests())
		assert.True(t, gock.IsDone(), "pending mocks: %d", len(gock.Pending()))
		gock.Off()
		gock.CleanUnmatchedRequest()
	})
	gock.Intercept()
	tr := gock.NewTransport()
	tr.Transport = refuseAll{t} // a request no mock matches never reaches the network
	opts = append([]nodeaccess.Option{nodeaccess.WithHTTPClient(&http.Client{Transport: tr})}, opts...)
	c, err := beacon.New(testBase, testKey, opts...)
	require.NoError(t, err)
	return c
}

// exactGet matches a GET of exactly path (escaped form) with exactly the
// Accept header accept and the SDK's User-Agent, and no body.
func exactGet(t *testing.T, path, accept string) gock.MatchFunc {
	return func(req *http.Request, _ *gock.Request) (bool, error) {
		ok := true
		if req.Method != http.MethodGet {
			t.Errorf("method %s", req.Method)
			ok = false
		}
		if got := req.URL.EscapedPath(); got != path {
			t.Errorf("path\n got %s\nwant %s", got, path)
			ok = false
		}
		if req.URL.RawQuery != "" {
			t.Errorf("query %q", req.URL.RawQuery)
			ok = false
		}
		if got := req.Header.Values("Accept"); len(got) != 1 || got[0] != accept {
			t.Errorf("Accept %q, want %q", got, accept)
			ok = false
		}
		if got := req.Header.Get("User-Agent"); got != "nodeaccess-go/"+nodeaccess.Version {
			t.Errorf("User-Agent %q", got)
			ok = false
		}
		if req.Header.Get("Content-Type") != "" {
			t.Errorf("a GET with Content-Type %q", req.Header.Get("Content-Type"))
			ok = false
		}
		return ok, nil
	}
}

// mockState answers one GET of the state route for id.
func mockState(t *testing.T, id, accept string) *gock.Response {
	return gock.New(testBase).Get(".*").AddMatcher(exactGet(t, statePrefix+id, accept)).Reply(200)
}

// counter counts a test server's requests.
type counter struct{ n atomic.Int32 }

func (c *counter) next() int { return int(c.n.Add(1)) }
func (c *counter) get() int  { return int(c.n.Load()) }

// serve starts a test server whose handler also gets the request's number
// (from 1).
func serve(t testing.TB, h func(w http.ResponseWriter, r *http.Request, n int)) (*httptest.Server, *counter) {
	t.Helper()
	cnt := &counter{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h(w, r, cnt.next())
	}))
	t.Cleanup(srv.Close)
	return srv, cnt
}

// newClient returns a client for a test server, failing the test on error.
func newClient(t testing.TB, base string, opts ...nodeaccess.Option) *beacon.Client {
	t.Helper()
	c, err := beacon.New(base, testKey, opts...)
	require.NoError(t, err)
	return c
}

// hijack takes over a test server's connection, to write broken responses.
func hijack(t testing.TB, w http.ResponseWriter, r *http.Request) (net.Conn, *bufio.ReadWriter) {
	_, _ = io.Copy(io.Discard, r.Body)
	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		t.Errorf("hijack: %v", err)
		panic(http.ErrAbortHandler)
	}
	return conn, rw
}

// brokenBody answers 200 with the headers given and a Content-Length of
// len(body), sends only the first cut bytes, and closes the connection.
func brokenBody(t testing.TB, w http.ResponseWriter, r *http.Request, ctype, fork string, body []byte, cut int) {
	conn, rw := hijack(t, w, r)
	defer conn.Close()
	fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nEth-Consensus-Version: %s\r\nContent-Length: %d\r\n\r\n", ctype, fork, len(body))
	_, _ = rw.Write(body[:cut])
	_ = rw.Flush()
}

// recorder keeps every attempt a hook saw.
type recorder struct {
	mu   sync.Mutex
	atts []nodeaccess.Attempt
}

func (r *recorder) hook(a nodeaccess.Attempt) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.atts = append(r.atts, a)
}

func (r *recorder) all() []nodeaccess.Attempt {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]nodeaccess.Attempt(nil), r.atts...)
}

// patternBody returns n bytes of a known pattern.
func patternBody(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*31 + i>>11)
	}
	return b
}

func TestNew(t *testing.T) {
	c, err := beacon.New(testBase+"/", testKey)
	require.NoError(t, err)
	assert.Equal(t, "beacon.Client{https://node.example/beacon/REDACTED}", c.String())
	for _, s := range []string{fmt.Sprintf("%v", c), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c)} {
		assert.NotContains(t, s, testKey)
	}
	assert.Equal(t, beacon.EncodingAuto, c.Encoding())
	assert.Equal(t, beacon.MainnetPreset(), c.Preset())
	assert.Equal(t, "<nil>", (*beacon.Client)(nil).String())

	c, err = beacon.New(testBase, testKey, beacon.WithEncoding(beacon.EncodingJSON), beacon.WithPreset(beacon.MinimalPreset()))
	require.NoError(t, err)
	assert.Equal(t, beacon.EncodingJSON, c.Encoding())
	assert.Equal(t, beacon.MinimalPreset(), c.Preset())

	for name, opts := range map[string][]nodeaccess.Option{
		"unknown encoding":  {beacon.WithEncoding(beacon.Encoding(3))},
		"zero preset":       {beacon.WithPreset(beacon.Preset{})},
		"evm option":        {evm.WithPathSuffix("evm")},
		"bad nodeaccess op": {nodeaccess.WithTimeout(-1)},
	} {
		_, err := beacon.New(testBase, testKey, opts...)
		require.Error(t, err, name)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, name)
		assert.NotContains(t, err.Error(), testKey, name)
	}
	_, err = beacon.New(testBase, testKey, evm.WithPathSuffix("evm"))
	assert.Contains(t, err.Error(), "evm.WithPathSuffix is an option of another package, not of beacon")
	// beacon options are refused by other chains' clients.
	_, err = evm.New(testBase, testKey, beacon.WithEncoding(beacon.EncodingSSZ))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "beacon.WithEncoding is an option of another package, not of evm")
	_, err = evm.New(testBase, testKey, beacon.WithPreset(beacon.MinimalPreset()))
	assert.Contains(t, err.Error(), "beacon.WithPreset is an option of another package, not of evm")

	for _, bad := range []struct{ base, key string }{{"", testKey}, {"ftp://x", testKey}, {testBase, ""}, {testBase, "a/b"}, {testBase + "?k=" + testKey, testKey}} {
		_, err := beacon.New(bad.base, bad.key)
		require.Error(t, err, bad)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, bad)
		assert.NotContains(t, err.Error(), testKey, bad)
	}
}

func TestEncodingString(t *testing.T) {
	assert.Equal(t, []string{"auto", "ssz", "json", "Encoding(9)"},
		[]string{beacon.EncodingAuto.String(), beacon.EncodingSSZ.String(), beacon.EncodingJSON.String(), beacon.Encoding(9).String()})
}

func TestNewFromURL(t *testing.T) {
	c, err := beacon.NewFromURL("https://node.example/beacon/" + testKey)
	require.NoError(t, err)
	assert.Equal(t, "beacon.Client{https://node.example/beacon/REDACTED}", c.String())
	c, err = beacon.NewFromURL("https://node.example/v1/beacon/" + testKey + "/")
	require.NoError(t, err)
	assert.Equal(t, "beacon.Client{https://node.example/v1/beacon/REDACTED}", c.String())
	c, err = beacon.NewFromURL("https://node.example/beacon/"+testKey, beacon.WithEncoding(beacon.EncodingSSZ))
	require.NoError(t, err)
	assert.Equal(t, beacon.EncodingSSZ, c.Encoding())
	for _, bad := range []string{"https://node.example/", "https://node.example/" + testKey, "https://node.example/evm/" + testKey,
		"node.example/beacon/" + testKey, "https://node.example/beacon/" + testKey + "?x=1"} {
		_, err = beacon.NewFromURL(bad)
		require.Error(t, err, bad)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, bad)
		assert.NotContains(t, err.Error(), testKey, bad)
	}
}

// The state calls' path: the key under /beacon, then the state id.
func TestNewFromURLRequestPath(t *testing.T) {
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		assert.Equal(t, "/v1/beacon/"+testKey+"/eth/v2/debug/beacon/states/head", r.URL.EscapedPath())
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Eth-Consensus-Version", "fulu")
		_, _ = io.WriteString(w, "ssz")
	})
	c, err := beacon.NewFromURL(srv.URL + "/v1/beacon/" + testKey)
	require.NoError(t, err)
	var sb strings.Builder
	d, err := c.DownloadState(context.Background(), beacon.Head, &sb)
	require.NoError(t, err)
	assert.Equal(t, "ssz", sb.String())
	assert.Equal(t, int64(3), d.Bytes)
}
