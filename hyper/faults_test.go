package hyper_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
)

// reply is one canned HTTP answer.
type reply struct {
	status int
	ctype  string
	body   string
}

// script is a test server that answers its replies in order (the last one
// again once they run out) and records what it received.
type script struct {
	srv *httptest.Server

	mu      sync.Mutex
	replies []reply
	got     []recorded
}

type recorded struct {
	path   string
	header http.Header
	body   string
}

func newScript(t *testing.T, replies ...reply) *script {
	s := &script{replies: replies}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.got = append(s.got, recorded{path: r.URL.RequestURI(), header: r.Header.Clone(), body: string(body)})
		rep := s.replies[min(len(s.got), len(s.replies))-1]
		s.mu.Unlock()
		if rep.ctype != "" {
			w.Header().Set("Content-Type", rep.ctype)
		}
		w.WriteHeader(rep.status)
		_, _ = io.WriteString(w, rep.body)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *script) requests() []recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]recorded(nil), s.got...)
}

// faultClient returns a client whose node is node and whose public API is
// public (either may be nil), with fast retries.
func faultClient(t *testing.T, node, public *script, opts ...nodeaccess.Option) *hyper.Client {
	t.Helper()
	nodeURL, publicURL := "http://127.0.0.1:1", "http://127.0.0.1:1"
	if node != nil {
		nodeURL = node.srv.URL
	}
	if public != nil {
		publicURL = public.srv.URL
	}
	opts = append([]nodeaccess.Option{nodeaccess.WithBackoff(time.Millisecond, 2*time.Millisecond), hyper.WithPublicURL(publicURL)}, opts...)
	c, err := hyper.New(nodeURL, testKey, opts...)
	require.NoError(t, err)
	return c
}

const (
	deserialize = "Failed to deserialize the JSON body into the target type"
	vaultsBody  = `[{"vaultAddress":"0x07fd993f0fa3a185f7207adccd29f7a87404689d","equity":"688536.0314879999","lockedUntilTimestamp":1737697731869}]`
)

func Test422OnTheNode(t *testing.T) {
	node := newScript(t, reply{422, "text/plain; charset=utf-8", deserialize})
	c := faultClient(t, node, nil)
	_, err := c.UserVaultEquities(context.Background(), recordedUser)
	require.Error(t, err)
	assert.ErrorIs(t, err, hyper.ErrUnsupportedRequest)
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, 422, he.StatusCode)
	assert.Equal(t, "text/plain; charset=utf-8", he.ContentType)
	assert.Equal(t, deserialize, string(he.Body))
	assert.Equal(t, deserialize, he.Message)
	assert.NotErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.Equal(t, "hyper: userVaultEquities: request malformed or not served by this node: "+
		"HTTP 422 Unprocessable Entity: Failed to deserialize the JSON body into the target type "+
		"(the node answers 422 to a malformed body and to a request type it does not serve; "+
		"types such as allMids are served only by the public API: send them with PublicInfo)", err.Error())
	assert.Len(t, node.requests(), 1, "a 422 is not retried")
}

func Test422OnThePublicAPI(t *testing.T) {
	public := newScript(t, reply{422, "text/plain", deserialize + "\n"})
	c := faultClient(t, nil, public)
	_, err := c.AllMids(context.Background(), "xyz")
	require.ErrorIs(t, err, hyper.ErrUnsupportedRequest)
	assert.Equal(t, "hyper: allMids: request malformed or not served by the public API: HTTP 422 Unprocessable Entity: "+
		"Failed to deserialize the JSON body into the target type (the public API could not read the request: "+
		"check its type and fields)", err.Error())
	assert.Len(t, public.requests(), 1)
}

// A 422 with another body is a plain HTTPError.
func TestOther422(t *testing.T) {
	node := newScript(t, reply{422, "application/json", `{"error":"bad user"}`})
	c := faultClient(t, node, nil)
	_, err := c.UserVaultEquities(context.Background(), recordedUser)
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he)
	assert.NotErrorIs(t, err, hyper.ErrUnsupportedRequest)
	assert.Equal(t, "bad user", he.Message)
	assert.Equal(t, `{"error":"bad user"}`, string(he.Body))
	assert.Equal(t, `hyper: userVaultEquities: HTTP 422 Unprocessable Entity: bad user`, err.Error())
}

func Test500NullIsRetried(t *testing.T) {
	t.Run("node, then success", func(t *testing.T) {
		node := newScript(t, reply{500, "application/json", "null"}, reply{200, "application/json", vaultsBody})
		c := faultClient(t, node, nil)
		got, err := c.UserVaultEquities(context.Background(), recordedUser)
		require.NoError(t, err)
		require.Len(t, got, 1)
		assert.Equal(t, "688536.0314879999", got[0].Equity.String())
		reqs := node.requests()
		require.Len(t, reqs, 2)
		assert.Equal(t, reqs[0].body, reqs[1].body, "the retry sends the same body")
	})
	t.Run("public, then success", func(t *testing.T) {
		public := newScript(t, reply{500, "application/json", "null\n"}, reply{500, "application/json", " null"}, reply{200, "application/json", `{"BTC":"30135.0"}`})
		c := faultClient(t, nil, public)
		mids, err := c.AllMids(context.Background(), "")
		require.NoError(t, err)
		assert.Equal(t, 1, mids.Len())
		assert.Len(t, public.requests(), 3)
	})
	t.Run("until the attempts run out", func(t *testing.T) {
		node := newScript(t, reply{500, "application/json", "null"})
		c := faultClient(t, node, nil, nodeaccess.WithMaxAttempts(4))
		_, err := c.UserVaultEquities(context.Background(), recordedUser)
		assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
		var he *nodeaccess.HTTPError
		require.ErrorAs(t, err, &he)
		assert.Equal(t, 500, he.StatusCode)
		assert.Equal(t, "hyper: userVaultEquities: HTTP 500 Internal Server Error: null", err.Error())
		assert.Len(t, node.requests(), 4)
	})
	t.Run("other 500 bodies are final", func(t *testing.T) {
		node := newScript(t, reply{500, "text/plain", "internal error"})
		c := faultClient(t, node, nil)
		_, err := c.UserVaultEquities(context.Background(), recordedUser)
		assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
		assert.Len(t, node.requests(), 1)
	})
}

func Test429(t *testing.T) {
	t.Run("then success", func(t *testing.T) {
		public := newScript(t, reply{429, "application/json", `null`}, reply{200, "application/json", `{"ETH":"1903.95"}`})
		c := faultClient(t, nil, public)
		mids, err := c.AllMids(context.Background(), "")
		require.NoError(t, err)
		pMid, ok := mids.Get("ETH")
		p := pMid.Price
		require.True(t, ok)
		assert.Equal(t, "1903.95", p.String())
		assert.Len(t, public.requests(), 2)
	})
	t.Run("node, then success", func(t *testing.T) {
		node := newScript(t, reply{429, "", ""}, reply{200, "application/json", `[]`})
		c := faultClient(t, node, nil)
		got, err := c.UserVaultEquities(context.Background(), recordedUser)
		require.NoError(t, err)
		assert.Empty(t, got)
		assert.Len(t, node.requests(), 2)
	})
	t.Run("always", func(t *testing.T) {
		node := newScript(t, reply{429, "text/plain", "rate limited"})
		c := faultClient(t, node, nil)
		_, err := c.UserVaultEquities(context.Background(), recordedUser)
		assert.ErrorIs(t, err, nodeaccess.ErrRateLimited)
		var oe *nodeaccess.OpError
		require.ErrorAs(t, err, &oe)
		assert.Equal(t, "userVaultEquities", oe.Op)
		assert.Len(t, node.requests(), 3) // the default attempts
	})
}

const htmlPage = "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>"

func TestHTMLPage(t *testing.T) {
	t.Run("with 200", func(t *testing.T) {
		node := newScript(t, reply{200, "text/html", htmlPage})
		public := newScript(t, reply{200, "text/html", htmlPage})
		c := faultClient(t, node, public)
		_, err := c.UserVaultEquities(context.Background(), recordedUser)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		assert.Contains(t, err.Error(), "hyper: userVaultEquities: invalid response: body is HTML or XML, not JSON (content-type \"text/html\"")
		_, err = c.AllMids(context.Background(), "")
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		assert.Contains(t, err.Error(), "hyper: allMids: invalid response: body is HTML or XML, not JSON")
		assert.Len(t, node.requests(), 1, "a bad 200 body is not retried")
	})
	t.Run("with 502, retried", func(t *testing.T) {
		node := newScript(t, reply{502, "text/html", htmlPage}, reply{200, "application/json", vaultsBody})
		c := faultClient(t, node, nil)
		got, err := c.UserVaultEquities(context.Background(), recordedUser)
		require.NoError(t, err)
		assert.Len(t, got, 1)
	})
	t.Run("with 403", func(t *testing.T) {
		node := newScript(t, reply{403, "text/html", htmlPage})
		c := faultClient(t, node, nil)
		_, err := c.UserVaultEquities(context.Background(), recordedUser)
		assert.ErrorIs(t, err, nodeaccess.ErrUnauthorized)
		var he *nodeaccess.HTTPError
		require.ErrorAs(t, err, &he)
		assert.Equal(t, "text/html", he.ContentType)
	})
}

func TestBadBodies(t *testing.T) {
	cases := []struct {
		name, vaults, mids, want string
	}{
		{"truncated", `[{"vaultAddress":"0x07fd993f0fa3a185f7207adccd29f7a87404689d","equity":"1`, `{"BTC":"1`, "truncated JSON"},
		{"empty", ``, ``, "empty body"},
		{"null", `null`, `null`, "null"},
		{"wrong shape", `{"vaultAddress":"0x07fd993f0fa3a185f7207adccd29f7a87404689d"}`, `["BTC"]`, "want a JSON"},
		{"float-looking garbage", `[{"vaultAddress":"0x07fd993f0fa3a185f7207adccd29f7a87404689d","equity":"NaN"}]`, `{"BTC":"NaN"}`, `"NaN" is not a decimal number`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			node := newScript(t, reply{200, "application/json", tc.vaults})
			public := newScript(t, reply{200, "application/json", tc.mids})
			c := faultClient(t, node, public)
			_, err := c.UserVaultEquities(context.Background(), recordedUser)
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			assert.Contains(t, err.Error(), tc.want)
			_, err = c.AllMids(context.Background(), "")
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotErrorIs(t, err, nodeaccess.ErrNotFound)
		})
	}
}

// The public API answers null for a dex it does not know.
func TestUnknownDex(t *testing.T) {
	public := newScript(t, reply{200, "application/json", "null"})
	c := faultClient(t, nil, public)
	_, err := c.AllMids(context.Background(), "nope")
	require.ErrorIs(t, err, nodeaccess.ErrNotFound)
	assert.Equal(t, `hyper: allMids: dex "nope": unknown perp dex: not found (the public API answered null)`, err.Error())
	// What a 404 would match: the dex asked for does not exist.
	assert.ErrorIs(t, err, nodeaccess.ErrNotFound)
	for _, other := range []error{nodeaccess.ErrInvalidInput, nodeaccess.ErrInvalidResponse, nodeaccess.ErrUnavailable} {
		assert.NotErrorIs(t, err, other)
	}
	var op *nodeaccess.OpError
	require.ErrorAs(t, err, &op)
	assert.Equal(t, [2]string{"hyper", "allMids"}, [2]string{op.Chain, op.Op})
	reqs := public.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, `{"type":"allMids","dex":"nope"}`, reqs[0].body)
}

func TestResponseCap(t *testing.T) {
	public := newScript(t, reply{200, "application/json", fixture(t, "allMids_2025-12.json")})
	c := faultClient(t, nil, public, nodeaccess.WithMaxResponseBytes(1024))
	_, err := c.AllMids(context.Background(), "")
	assert.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge)
}

func TestContextEndsTheCall(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(block)
	c, err := hyper.New(srv.URL, testKey, hyper.WithPublicURL(srv.URL))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = c.AllMids(ctx, "")
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)
	assert.False(t, strings.Contains(err.Error(), testKey))
}
