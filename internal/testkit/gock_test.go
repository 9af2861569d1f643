package testkit_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"
)

// The gock client leaves http.DefaultTransport alone: only the client's
// own transport is gock's.
func TestGockHTTPClientLeavesDefaultTransport(t *testing.T) {
	testkit.GockHTTPClient(t)
	assert.False(t, gock.Intercepting(), "http.DefaultTransport is gock's")
}

// post sends a POST of body to u with c, returning the status (0 on error).
func post(c *http.Client, u, ctype, body string) int {
	res, err := c.Post(u, ctype, strings.NewReader(body))
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode
}

func TestGockHTTPClient(t *testing.T) {
	const u = "https://node.example/k/rpc"
	cases := []struct {
		name   string
		mock   bool
		send   func(c *http.Client) int
		status int
		fails  string
	}{
		{"matched", true, func(c *http.Client) int { return post(c, u, "application/json", "{}") }, 200, ""},
		{"mock unused", true, func(*http.Client) int { return 0 }, 0, "pending mocks: 1"},
		{"nothing mocked: refused", false, func(c *http.Client) int { return post(c, u, "application/json", "{}") }, 0, "a request was sent: POST https://node.example/k/rpc"},
		{"another mock", true, func(c *http.Client) int {
			post(c, u, "application/json", "{}")
			return post(c, "https://node.example/other", "application/json", "{}")
		}, 0, "unmatched requests"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeT{}
			f.run(func(ft testing.TB) {
				c := testkit.GockHTTPClient(ft)
				if tc.mock {
					gock.New("https://node.example").Post(".*").AddMatcher(testkit.ExactPOST(ft, "/k/rpc", "{}")).Reply(200)
				}
				assert.Equal(t, tc.status, tc.send(c))
			})
			if tc.fails == "" {
				assert.False(t, f.failed(), f.failures())
			} else {
				assert.Contains(t, f.failures(), tc.fails)
			}
			assert.False(t, gock.Intercepting(), "gock is off after the test")
			assert.False(t, gock.HasUnmatchedRequest())
		})
	}
}

// checkMatch runs the matcher m makes on req and checks its verdict, ok,
// and what it reported: nothing when fails is "", else a failure holding
// fails.
func checkMatch(t *testing.T, m func(testing.TB) gock.MatchFunc, name string, req *http.Request, ok bool, fails string) {
	t.Helper()
	f := &fakeT{}
	var got bool
	f.run(func(ft testing.TB) {
		var err error
		got, err = m(ft)(req, nil)
		require.NoError(t, err)
	})
	assert.Equal(t, ok, got, name)
	if fails == "" {
		assert.False(t, f.failed(), "%s: %s", name, f.failures())
	} else {
		assert.Contains(t, f.failures(), fails, name)
	}
}

func TestExactPOST(t *testing.T) {
	m := func(ft testing.TB) gock.MatchFunc { return testkit.ExactPOST(ft, "/a%2Fb", `{"x":1}`) }
	req := func(method, target, ctype, body string) *http.Request {
		r, err := http.NewRequest(method, "https://h.example"+target, strings.NewReader(body))
		require.NoError(t, err)
		if ctype != "" {
			r.Header.Set("Content-Type", ctype)
		}
		return r
	}
	cases := []struct {
		name  string
		req   *http.Request
		ok    bool
		fails string
	}{
		{"exact", req("POST", "/a%2Fb", "application/json", `{"x":1}`), true, ""},
		{"other path", req("POST", "/a/b", "application/json", `{"x":1}`), false, ""},
		{"GET", req("GET", "/a%2Fb", "application/json", `{"x":1}`), false, ""},
		{"other body", req("POST", "/a%2Fb", "application/json", `{"x": 1}`), false, "request body"},
		{"a query", req("POST", "/a%2Fb?k=v", "application/json", `{"x":1}`), true, "POST with a query"},
		{"no Content-Type", req("POST", "/a%2Fb", "", `{"x":1}`), true, "Content-Type"},
		{"other Content-Type", req("POST", "/a%2Fb", "text/plain", `{"x":1}`), true, "Content-Type"},
	}
	for _, tc := range cases {
		checkMatch(t, m, tc.name, tc.req, tc.ok, tc.fails)
		if tc.ok {
			b, err := io.ReadAll(tc.req.Body)
			require.NoError(t, err)
			assert.Equal(t, `{"x":1}`, string(b), "the body is put back")
		}
	}
}

func TestExactGET(t *testing.T) {
	m := func(ft testing.TB) gock.MatchFunc {
		return testkit.ExactGET(ft, "/s/1", "a=1&b=2", map[string]string{"Accept": "application/json"})
	}
	req := func(method, target, body string, h http.Header) *http.Request {
		r, err := http.NewRequest(method, "https://h.example"+target, strings.NewReader(body))
		require.NoError(t, err)
		if body == "" {
			r.Body = nil
		}
		for k, vs := range h {
			r.Header[k] = vs
		}
		return r
	}
	accept := http.Header{"Accept": {"application/json"}}
	cases := []struct {
		name  string
		req   *http.Request
		ok    bool
		fails string
	}{
		{"exact", req("GET", "/s/1?a=1&b=2", "", accept), true, ""},
		{"other path", req("GET", "/s/2?a=1&b=2", "", accept), false, ""},
		{"POST", req("POST", "/s/1?a=1&b=2", "", accept), false, ""},
		{"other query", req("GET", "/s/1?b=2&a=1", "", accept), false, "query"},
		{"no Accept", req("GET", "/s/1?a=1&b=2", "", nil), false, "Accept"},
		{"two Accept", req("GET", "/s/1?a=1&b=2", "", http.Header{"Accept": {"application/json", "text/plain"}}), false, "Accept"},
		{"Content-Type", req("GET", "/s/1?a=1&b=2", "", http.Header{"Accept": {"application/json"}, "Content-Type": {"application/json"}}), false, "Content-Type"},
		{"a body", req("GET", "/s/1?a=1&b=2", "x", accept), false, "a GET with a body"},
	}
	for _, tc := range cases {
		checkMatch(t, m, tc.name, tc.req, tc.ok, tc.fails)
	}
}

func TestRefuse(t *testing.T) {
	f := &fakeT{}
	req, err := http.NewRequest("GET", "https://u:pw@h.example/x", nil)
	require.NoError(t, err)
	res, err := testkit.Refuse{T: f}.RoundTrip(req)
	assert.Nil(t, res)
	require.Error(t, err)
	assert.Equal(t, "a request was sent: GET https://u:xxxxx@h.example/x", f.failures())
}
