package hyper_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"
)

const (
	testBase = "https://node.example"
	testKey  = "t3st-KEY"
	nodeInfo = testBase + "/" + testKey + "/info"
)

// gockClient returns a client whose requests gock answers, and arranges for
// the test to fail if any request was left unmatched or any mock unused. A
// request no mock matches never reaches the network.
func gockClient(t *testing.T, opts ...nodeaccess.Option) *hyper.Client {
	t.Helper()
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
	tr.Transport = refuseAll{t}
	opts = append([]nodeaccess.Option{nodeaccess.WithHTTPClient(&http.Client{Transport: tr})}, opts...)
	c, err := hyper.New(testBase, testKey, opts...)
	require.NoError(t, err)
	return c
}

// exactRequest matches a POST to exactly wantURL whose body is exactly
// wantBody, with the SDK's JSON headers. For a request to the public API
// (keyless) it also fails the test when the key shows anywhere in the
// request: URL, any header, body.
func exactRequest(t *testing.T, wantURL, wantBody string, keyless bool) gock.MatchFunc {
	return func(req *http.Request, _ *gock.Request) (bool, error) {
		got, err := io.ReadAll(req.Body)
		if err != nil {
			return false, err
		}
		req.Body = io.NopCloser(bytes.NewReader(got))
		if req.URL.String() != wantURL {
			return false, nil // another mock's request
		}
		if string(got) != wantBody {
			t.Errorf("request body\n got %s\nwant %s", got, wantBody)
			return false, nil
		}
		if req.Method != http.MethodPost {
			t.Errorf("method %s", req.Method)
		}
		if ct := req.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
		if keyless {
			assertRequestHasNoKey(t, req, got)
		}
		return true, nil
	}
}

// assertRequestHasNoKey fails when the key shows in the request's URL,
// headers or body.
func assertRequestHasNoKey(t *testing.T, req *http.Request, body []byte) {
	t.Helper()
	where := map[string]string{"url": req.URL.String(), "host": req.Host, "body": string(body)}
	for k, vs := range req.Header {
		where["header "+k] = k + ": " + strings.Join(vs, ", ")
	}
	for w, s := range where {
		if strings.Contains(strings.ToLower(s), strings.ToLower(testKey)) {
			t.Errorf("the public request carries the key in its %s: %s", w, s)
		}
	}
}

// mockInfo expects one POST of wantBody to wantURL and answers it with a
// 200 JSON response.
func mockInfo(t *testing.T, wantURL, wantBody, response string) {
	keyless := !strings.Contains(wantURL, testKey)
	gock.New(wantURL).Post("/").AddMatcher(exactRequest(t, wantURL, wantBody, keyless)).
		Reply(200).SetHeader("Content-Type", "application/json").BodyString(response)
}

// refuseAll is a transport that fails the test for any request: it proves
// that bad input sends nothing.
type refuseAll struct{ t *testing.T }

func (r refuseAll) RoundTrip(req *http.Request) (*http.Response, error) {
	r.t.Errorf("a request was sent: %s %s", req.Method, req.URL.Redacted())
	return nil, errors.New("refused")
}

// fixture reads a recorded body from testdata.
func fixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	return string(b)
}

// attempts records the attempts a hook sees.
type attempts struct {
	mu   sync.Mutex
	list []nodeaccess.Attempt
}

func (a *attempts) hook(at nodeaccess.Attempt) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.list = append(a.list, at)
}

func (a *attempts) all() []nodeaccess.Attempt {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]nodeaccess.Attempt(nil), a.list...)
}

// The gock helper leaves http.DefaultTransport alone: only the client's
// own transport is gock's.
func TestGockHelperLeavesDefaultTransport(t *testing.T) {
	gockClient(t)
	assert.False(t, gock.Intercepting(), "http.DefaultTransport is gock's")
}
