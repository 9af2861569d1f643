package hyper_test

import (
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

const (
	testBase = "https://node.example"
	testKey  = "t3st-KEY"
	nodeInfo = testBase + "/" + testKey + "/info"
)

// gockClient returns a client whose requests gock answers (see
// testkit.GockHTTPClient: unmatched requests and unused mocks fail the test,
// and a request no mock matches never reaches the network).
func gockClient(t *testing.T, opts ...nodeaccess.Option) *hyper.Client {
	t.Helper()
	opts = append([]nodeaccess.Option{nodeaccess.WithHTTPClient(testkit.GockHTTPClient(t))}, opts...)
	c, err := hyper.New(testBase, testKey, opts...)
	require.NoError(t, err)
	return c
}

// exactRequest matches a POST to exactly wantURL whose body is exactly
// wantBody, with the SDK's JSON headers (see testkit.ExactPOST). For a
// request to the public API (keyless) it also fails the test when the key
// shows anywhere in the request: URL, host, any header, body.
func exactRequest(t *testing.T, wantURL, wantBody string, keyless bool) gock.MatchFunc {
	u, err := url.Parse(wantURL)
	require.NoError(t, err)
	post := testkit.ExactPOST(t, u.EscapedPath(), wantBody)
	return func(req *http.Request, greq *gock.Request) (bool, error) {
		if req.URL.String() != wantURL {
			return false, nil // another mock's request
		}
		ok, err := post(req, greq)
		if ok && keyless {
			body, err := testkit.ReadBody(req)
			if err != nil {
				return false, err
			}
			assertRequestHasNoKey(t, req, body)
		}
		return ok, err
	}
}

// assertRequestHasNoKey fails when the key shows, in any spelling or piece,
// in the request's URL, host, headers or body.
func assertRequestHasNoKey(t *testing.T, req *http.Request, body []byte) {
	t.Helper()
	where := map[string]string{"url": req.URL.String(), "host": req.Host, "body": string(body)}
	for k, vs := range req.Header {
		where["header "+k] = k + ": " + strings.Join(vs, ", ")
	}
	for w, s := range where {
		testkit.AssertNoKey(t, testKey, "the public request's "+w, s)
	}
}

// mockInfo expects one POST of wantBody to wantURL and answers it with a
// 200 JSON response.
func mockInfo(t *testing.T, wantURL, wantBody, response string) {
	keyless := !strings.Contains(wantURL, testKey)
	gock.New(wantURL).Post("/").AddMatcher(exactRequest(t, wantURL, wantBody, keyless)).
		Reply(200).SetHeader("Content-Type", "application/json").BodyString(response)
}

// fixture reads a recorded body from testdata.
func fixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	return string(b)
}

// mainnetAPIURL is the public API a client asks by default.
const mainnetAPIURL = "https://api.hyperliquid.xyz"

// countKind is the number of mids of kind k.
func countKind(m *hyper.Mids, k hyper.KeyKind) int {
	n := 0
	for _, e := range m.All() {
		if e.Kind == k {
			n++
		}
	}
	return n
}
