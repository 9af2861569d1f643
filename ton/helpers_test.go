package ton_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"
)

const (
	testBase = "https://ton.node.example"
	testKey  = "t3st-KEY"
)

// gockClient returns a client whose requests gock answers, and arranges for
// the test to fail if any request was left unmatched or any mock unused.
func gockClient(t *testing.T, opts ...nodeaccess.Option) *ton.Client {
	t.Helper()
	opts = append([]nodeaccess.Option{nodeaccess.WithHTTPClient(gockHTTPClient(t))}, opts...)
	c, err := ton.New(testBase, testKey, opts...)
	require.NoError(t, err)
	return c
}

// gockHTTPClient returns an HTTP client whose requests gock answers; the
// test fails if a request is left unmatched or a mock unused.
func gockHTTPClient(t *testing.T) *http.Client {
	t.Cleanup(func() {
		assert.False(t, gock.HasUnmatchedRequest(), "unmatched requests: %v", gock.GetUnmatchedRequests())
		assert.True(t, gock.IsDone(), "pending mocks: %d", len(gock.Pending()))
		gock.Off()
		gock.CleanUnmatchedRequest()
	})
	// The client's own transport is gock's: no gock.Intercept(), which would
	// make http.DefaultTransport gock's for the whole process. (gock.New, in
	// the mock helpers, still does so while a mock is registered, up to
	// gock.Off above; the SDK's clients never use http.DefaultTransport.)
	tr := gock.NewTransport()
	tr.Transport = refuseAll{t} // a request no mock matches never reaches the network
	return &http.Client{Transport: tr}
}

// exactGET matches a GET whose escaped path and raw query are exactly the
// given ones, byte for byte.
func exactGET(t *testing.T, path, rawQuery string) gock.MatchFunc {
	return func(req *http.Request, _ *gock.Request) (bool, error) {
		if req.Method != http.MethodGet || req.URL.EscapedPath() != path {
			return false, nil
		}
		if req.URL.RawQuery != rawQuery {
			t.Errorf("query\n got %s\nwant %s", req.URL.RawQuery, rawQuery)
			return false, nil
		}
		if a := req.Header.Get("Accept"); a != "application/json" {
			t.Errorf("Accept %q", a)
		}
		return true, nil
	}
}

// exactPOST matches a POST to path whose body is exactly want.
func exactPOST(t *testing.T, path, want string) gock.MatchFunc {
	return func(req *http.Request, _ *gock.Request) (bool, error) {
		if req.Method != http.MethodPost || req.URL.EscapedPath() != path {
			return false, nil
		}
		got, err := io.ReadAll(req.Body)
		if err != nil {
			return false, err
		}
		req.Body = io.NopCloser(bytes.NewReader(got))
		if string(got) != want {
			t.Errorf("request body\n got %s\nwant %s", got, want)
			return false, nil
		}
		if req.URL.RawQuery != "" {
			t.Errorf("POST with a query %q", req.URL.RawQuery)
		}
		if ct := req.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
		return true, nil
	}
}

// mockGET expects one GET with exactly path and rawQuery and answers it.
func mockGET(t *testing.T, path, rawQuery string, status int, body string) {
	gock.New(testBase).Get(".*").AddMatcher(exactGET(t, path, rawQuery)).
		Reply(status).SetHeader("Content-Type", "application/json").BodyString(body)
}

// mockPOST expects one POST with exactly body to path and answers it.
func mockPOST(t *testing.T, path, body string, status int, response string) {
	gock.New(testBase).Post(".*").AddMatcher(exactPOST(t, path, body)).
		Reply(status).SetHeader("Content-Type", "application/json").BodyString(response)
}

// refuseAll is a transport that fails the test for any request: it proves
// that nothing was sent.
type refuseAll struct{ t *testing.T }

func (r refuseAll) RoundTrip(req *http.Request) (*http.Response, error) {
	r.t.Errorf("a request was sent: %s %s", req.Method, req.URL.Path)
	return nil, errors.New("refused")
}

func testdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return b
}

const (
	blockFixture   = "v2_getBlockTransactionsExt_blockpi_mc39984096.json"
	v3TxFixture    = "v3_transactions_axelar_amplifier.json"
	vectorsFixture = "address_vectors.txt"
)

// Paths of the four operations for testKey.
const (
	pathBlock   = "/api/v2/" + testKey + "/getBlockTransactionsExt"
	pathRPC     = "/api/v2/" + testKey + "/jsonRPC"
	pathStates  = "/" + testKey + "/api/v3/accountStates"
	pathPending = "/" + testKey + "/api/v3/pendingTransactions"
)

// The gock helper leaves http.DefaultTransport alone: only the client's
// own transport is gock's.
func TestGockHelperLeavesDefaultTransport(t *testing.T) {
	gockClient(t)
	assert.False(t, gock.Intercepting(), "http.DefaultTransport is gock's")
}
