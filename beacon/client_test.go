package beacon_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
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

// gockClient returns a client whose requests gock answers (see
// testkit.GockHTTPClient: unmatched requests and unused mocks fail the test).
func gockClient(t *testing.T, opts ...nodeaccess.Option) *beacon.Client {
	t.Helper()
	opts = append([]nodeaccess.Option{nodeaccess.WithHTTPClient(testkit.GockHTTPClient(t))}, opts...)
	c, err := beacon.New(testBase, testKey, opts...)
	require.NoError(t, err)
	return c
}

// mockState answers one GET of the state route for id.
func mockState(t *testing.T, id, accept string) *gock.Response {
	return gock.New(testBase).Get(".*").
		AddMatcher(testkit.ExactGET(t, statePrefix+id, "", map[string]string{"Accept": accept, "User-Agent": "nodeaccess-go/" + nodeaccess.Version})).Reply(200)
}

// serve starts a test server whose handler also gets the request's number
// (from 1); see testkit.Serve.
var serve = testkit.Serve

// newClient returns a client for a test server, failing the test on error.
func newClient(t testing.TB, base string, opts ...nodeaccess.Option) *beacon.Client {
	t.Helper()
	c, err := beacon.New(base, testKey, opts...)
	require.NoError(t, err)
	return c
}

// brokenBody answers 200 with the headers given and a Content-Length of
// len(body), sends only the first cut bytes, and closes the connection.
func brokenBody(t testing.TB, w http.ResponseWriter, r *http.Request, ctype, fork string, body []byte, cut int) {
	conn, rw := testkit.Hijack(t, w, r)
	defer conn.Close()
	fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nEth-Consensus-Version: %s\r\nContent-Length: %d\r\n\r\n", ctype, fork, len(body))
	_, _ = rw.Write(body[:cut])
	_ = rw.Flush()
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
	assert.Equal(t, "<nil>", (*beacon.Client)(nil).String())

	// The options show in what the client does: the Accept header it
	// sends, the preset it decodes with.
	srv := beacontest.NewT(t, beacontest.WithStates(beacontest.NewState(beacon.Deneb, beacon.MinimalPreset(), 8, 3)))
	c, err = beacon.New(srv.URL, srv.Key(), beacon.WithEncoding(beacon.EncodingJSON), beacon.WithPreset(beacon.MinimalPreset()))
	require.NoError(t, err)
	st, body, err := c.State(context.Background(), beacon.Head)
	require.NoError(t, err)
	assert.Equal(t, beacon.EncodingJSON, body.Encoding)
	assert.Equal(t, beacon.MinimalPreset(), st.Preset)
	c, err = beacon.New(srv.URL, srv.Key())
	require.NoError(t, err)
	_, _, err = c.State(context.Background(), beacon.Head)
	assert.ErrorIs(t, err, beacon.ErrInvalidState, "a minimal state read with the mainnet preset, the default")

	for name, opts := range map[string][]nodeaccess.Option{
		"unknown encoding":  {beacon.WithEncoding(beacon.Encoding(3))},
		"incomplete preset": {beacon.WithPreset(beacon.Preset{Name: "incomplete"})},
		"bad nodeaccess op": {nodeaccess.WithTimeout(-1)},
	} {
		_, err := beacon.New(testBase, testKey, opts...)
		require.Error(t, err, name)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, name)
		assert.NotContains(t, err.Error(), testKey, name)
	}

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

// The state calls' path from NewFromURL: the key under /beacon, then the
// state id.
func TestNewFromURLRequestPath(t *testing.T) {
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		assert.Equal(t, "/beacon/"+testKey+"/eth/v2/debug/beacon/states/head", r.URL.EscapedPath())
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Eth-Consensus-Version", "fulu")
		_, _ = io.WriteString(w, "ssz")
	})
	c, err := beacon.NewFromURL(srv.URL + "/beacon/" + testKey)
	require.NoError(t, err)
	var sb strings.Builder
	d, err := c.DownloadState(context.Background(), beacon.Head, &sb)
	require.NoError(t, err)
	assert.Equal(t, "ssz", sb.String())
	assert.Equal(t, int64(3), d.Bytes)
}
