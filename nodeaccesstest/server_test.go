package nodeaccesstest_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsonError is a chain's error body, as the chain servers write it.
func jsonError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"code":%d,"message":%q,"path":%q}`, status, msg, r.URL.Path)
}

// start serves "POST /{key}/info" (echoing the request body with a prefix)
// and "GET /open" (no key).
func start(t *testing.T, key string) *nodeaccesstest.Server {
	t.Helper()
	s, err := nodeaccesstest.Start(key, jsonError)
	require.NoError(t, err)
	t.Cleanup(s.Close)
	s.HandleFunc("POST /{key}/info", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"got":%s}`, b)
	})
	s.HandleFunc("GET /open", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "open to all")
	})
	return s
}

type answer struct {
	status int
	header http.Header
	body   string
}

func do(t *testing.T, c *http.Client, method, url, body string) (answer, error) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	resp, err := c.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, string(b)}, err
}

func TestStartKey(t *testing.T) {
	s := start(t, "")
	assert.Regexp(t, `^[0-9a-f]{32}$`, s.Key())
	assert.Regexp(t, `^http://127\.0\.0\.1:\d+$`, s.URL)
	other := start(t, "")
	assert.NotEqual(t, s.Key(), other.Key())

	s = start(t, "Ab0._~-z")
	assert.Equal(t, "Ab0._~-z", s.Key())

	for _, bad := range []string{"a/b", "a b", "k%2F", "ключ", "a?b", "a#b"} {
		_, err := nodeaccesstest.Start(bad, nil)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "may hold only ASCII letters, digits and ._~-")
	}
}

func TestKeyIsCheckedExactly(t *testing.T) {
	s := start(t, "the-key")
	c := http.DefaultClient

	a, err := do(t, c, "POST", s.URL+"/the-key/info", `{"type":"x"}`)
	require.NoError(t, err)
	assert.Equal(t, answer{200, a.header, `{"got":{"type":"x"}}`}, a)

	for _, wrong := range []string{"the-keyX", "the-ke", "THE-KEY", "x", "the-key.", "the%2Dkey-"} {
		a, err := do(t, c, "POST", s.URL+"/"+wrong+"/info", `{}`)
		require.NoError(t, err)
		assert.Equal(t, 403, a.status, wrong)
		assert.Equal(t, `{"code":403,"message":"invalid access key","path":"/`+strings.ReplaceAll(wrong, "%2D", "-")+`/info"}`, a.body, wrong)
		assert.Equal(t, "application/json", a.header.Get("Content-Type"))
	}

	// A route without {key} needs none.
	a, err = do(t, c, "GET", s.URL+"/open", "")
	require.NoError(t, err)
	assert.Equal(t, 200, a.status)
	assert.Equal(t, "open to all", a.body)
	assert.Equal(t, 1+6+1, s.RequestCount())
}

func TestUnknownPathAndMethod(t *testing.T) {
	s := start(t, "k")
	for _, p := range []string{"/", "/k", "/k/info/more", "/k/other", "/open/x"} {
		a, err := do(t, http.DefaultClient, "POST", s.URL+p, "")
		require.NoError(t, err)
		assert.Equal(t, 404, a.status, p)
		assert.Equal(t, `{"code":404,"message":"not found","path":"`+p+`"}`, a.body, p)
	}
	a, err := do(t, http.DefaultClient, "GET", s.URL+"/k/info", "")
	require.NoError(t, err)
	assert.Equal(t, 405, a.status)
	assert.Equal(t, "POST", a.header.Get("Allow"))
	assert.Equal(t, `{"code":405,"message":"method not allowed","path":"/k/info"}`, a.body)

	// HEAD is served where GET is.
	a, err = do(t, http.DefaultClient, "HEAD", s.URL+"/open", "")
	require.NoError(t, err)
	assert.Equal(t, 200, a.status)
}

func TestDefaultErrorWriter(t *testing.T) {
	s, err := nodeaccesstest.Start("k", nil)
	require.NoError(t, err)
	defer s.Close()
	a, err := do(t, http.DefaultClient, "GET", s.URL+"/nothing", "")
	require.NoError(t, err)
	assert.Equal(t, 404, a.status)
	assert.Equal(t, "not found\n", a.body)
	assert.Equal(t, "text/plain; charset=utf-8", a.header.Get("Content-Type"))
}

// TestWriteError: a handler a test registers answers in the chain's own
// error body through Server.WriteError, as the server's refusals do.
func TestWriteError(t *testing.T) {
	s := start(t, "k")
	s.HandleFunc("GET /{key}/teapot", func(w http.ResponseWriter, r *http.Request) {
		s.WriteError(w, r, http.StatusTeapot, "short and stout")
	})
	a, err := do(t, http.DefaultClient, "GET", s.URL+"/k/teapot", "")
	require.NoError(t, err)
	assert.Equal(t, 418, a.status)
	assert.Equal(t, `{"code":418,"message":"short and stout","path":"/k/teapot"}`, a.body)
	// The refusal of a wrong key goes the same way.
	a, err = do(t, http.DefaultClient, "GET", s.URL+"/wrong/teapot", "")
	require.NoError(t, err)
	assert.Equal(t, 403, a.status)
	assert.Equal(t, `{"code":403,"message":"invalid access key","path":"/wrong/teapot"}`, a.body)
}
