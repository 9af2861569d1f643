package testkit

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"gopkg.in/h2non/gock.v1"
)

// GockHTTPClient returns an HTTP client whose requests gock answers. A
// request that no mock matches never reaches the network: it fails the test
// (see Refuse). When the test ends, it fails if a request was left unmatched
// or a mock unused, and it turns gock off.
//
// The client's own transport is gock's: it does not call gock.Intercept,
// which would make http.DefaultTransport gock's for the whole process.
// (gock.New still does so while a mock is registered, until the cleanup's
// gock.Off; the SDK's clients never use http.DefaultTransport.)
func GockHTTPClient(t testing.TB) *http.Client {
	t.Helper()
	t.Cleanup(func() {
		assert.False(t, gock.HasUnmatchedRequest(), "unmatched requests: %v", gock.GetUnmatchedRequests())
		assert.True(t, gock.IsDone(), "pending mocks: %d", len(gock.Pending()))
		gock.Off()
		gock.CleanUnmatchedRequest()
	})
	tr := gock.NewTransport()
	tr.Transport = Refuse{T: t}
	return &http.Client{Transport: tr}
}

// Refuse is a RoundTripper that fails the test for any request it gets and
// answers it with an error: a client built on it proves that nothing was
// sent (bad input is refused before the network).
type Refuse struct {
	// T is the test to fail.
	T testing.TB
}

// RoundTrip fails the test, naming the request with its URL redacted, and
// returns an error.
func (r Refuse) RoundTrip(req *http.Request) (*http.Response, error) {
	r.T.Errorf("a request was sent: %s %s", req.Method, req.URL.Redacted())
	return nil, errors.New("testkit: request refused")
}

// ReadBody reads a request's body and puts an unread copy back, so that
// other matchers and the client's transport can still read it.
func ReadBody(req *http.Request) ([]byte, error) {
	if req.Body == nil {
		return nil, nil
	}
	got, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	req.Body = io.NopCloser(bytes.NewReader(got))
	return got, nil
}

// ExactPOST matches a POST whose escaped path is exactly path and whose body
// is exactly body, byte for byte, sent with the SDK's JSON Content-Type and
// no query. A request with another method or path does not match (it is
// another mock's); a matching path with anything else wrong fails the test.
func ExactPOST(t testing.TB, path, body string) gock.MatchFunc {
	return func(req *http.Request, _ *gock.Request) (bool, error) {
		if req.Method != http.MethodPost || req.URL.EscapedPath() != path {
			return false, nil
		}
		got, err := ReadBody(req)
		if err != nil {
			return false, err
		}
		if string(got) != body {
			t.Errorf("request body\n got %s\nwant %s", got, body)
			return false, nil
		}
		if req.URL.RawQuery != "" {
			t.Errorf("POST with a query %q", req.URL.RawQuery)
		}
		if ct := req.Header.Values("Content-Type"); len(ct) != 1 || ct[0] != "application/json" {
			t.Errorf("Content-Type %q, want application/json", ct)
		}
		return true, nil
	}
}

// ExactGET matches a GET whose escaped path is exactly path and whose raw
// query is exactly rawQuery, with exactly one value for each header in
// headers, equal to it, and with no body and no Content-Type. A request
// with another method or path does not match (it is another mock's); a
// matching path with anything else wrong fails the test.
func ExactGET(t testing.TB, path, rawQuery string, headers map[string]string) gock.MatchFunc {
	return func(req *http.Request, _ *gock.Request) (bool, error) {
		if req.Method != http.MethodGet || req.URL.EscapedPath() != path {
			return false, nil
		}
		ok := true
		if req.URL.RawQuery != rawQuery {
			t.Errorf("query\n got %s\nwant %s", req.URL.RawQuery, rawQuery)
			ok = false
		}
		for k, want := range headers {
			if got := req.Header.Values(k); len(got) != 1 || got[0] != want {
				t.Errorf("%s %q, want %q", k, got, want)
				ok = false
			}
		}
		if ct := req.Header.Get("Content-Type"); ct != "" {
			t.Errorf("a GET with Content-Type %q", ct)
			ok = false
		}
		body, err := ReadBody(req)
		if err != nil {
			return false, err
		}
		if len(body) != 0 {
			t.Errorf("a GET with a body: %q", body)
			ok = false
		}
		return ok, nil
	}
}

var _ http.RoundTripper = Refuse{}
