package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var redirectStatuses = []int{301, 302, 303, 307, 308}

// seen records the requests a server received: method, path and headers.
type seen struct {
	mu   sync.Mutex
	reqs []*http.Request
}

func (s *seen) add(r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, &http.Request{Method: r.Method, URL: r.URL, Header: r.Header.Clone()})
}

func (s *seen) all() []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.reqs...)
}

// assertNoKeyInHeaders fails when any header of any request holds the key.
func assertNoKeyInHeaders(t *testing.T, key string, reqs []*http.Request) {
	t.Helper()
	for _, r := range reqs {
		for k, vs := range r.Header {
			for _, v := range vs {
				testkit.AssertNoKey(t, key, "header "+k+" of "+r.Method+" "+r.URL.Path, v)
			}
		}
	}
}

// post sends one POST through c's Do to {base}/{key}.
func post(ctx context.Context, t *testing.T, c *Client) (Response, error) {
	return c.Do(ctx, &Request{Op: "test", Method: http.MethodPost, Target: rpcTarget(t, c), Body: []byte(`{"x":1}`)})
}

// userClients are the *http.Clients a user may pass: bare, with a jar and
// a CheckRedirect that allows everything, with a timeout and a transport
// that adds a header of its own.
func userClients(t *testing.T) map[string]*http.Client {
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return map[string]*http.Client{
		"bare":                   {},
		"jar, allow-all checker": {Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return nil }},
		"timeout, own transport": {Timeout: 10 * time.Second, Transport: headerRT{http.DefaultTransport}},
	}
}

// headerRT adds a header of its own to every request (on a copy).
type headerRT struct{ rt http.RoundTripper }

func (h headerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-User", "mine")
	return h.rt.RoundTrip(r)
}

// TestRedirectToAnotherOriginIsNotFollowed: whatever *http.Client the user
// passes, a redirect to another port, host or scheme ends the call as an
// *HTTPError with the Location masked; the other origin receives nothing.
func TestRedirectToAnotherOriginIsNotFollowed(t *testing.T) {
	t.Parallel()
	for _, key := range []string{testKey, escKey} {
		var other seen
		b, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) { other.add(r); rpcOK(w, r, "1") })
		for name, hc := range userClients(t) {
			for _, status := range redirectStatuses {
				for _, where := range []string{
					b.URL, // another port
					strings.Replace(b.URL, "127.0.0.1", "localhost", 1), // another host
				} {
					var first seen
					a, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
						first.add(r)
						w.Header().Set("Location", where+r.URL.EscapedPath())
						w.WriteHeader(status)
					})
					c := newClient(t, a.URL, key, nodeaccess.WithHTTPClient(hc), fast)
					_, err := post(context.Background(), t, c)
					var he *nodeaccess.HTTPError
					require.ErrorAs(t, err, &he, "%s %d", name, status)
					assert.Equal(t, status, he.StatusCode)
					assert.Equal(t, where+"/"+Mask, he.Location)
					testkit.AssertErrNoKey(t, key, err)
					assert.Len(t, first.all(), 1, "a 3xx is not retried")
					assertNoKeyInHeaders(t, key, first.all())
				}
			}
		}
		assert.Empty(t, other.all(), "the other origin received a request")
	}
}

// TestRedirectToAnotherSchemeIsNotFollowed: same host and port, https
// instead of http.
func TestRedirectToAnotherSchemeIsNotFollowed(t *testing.T) {
	t.Parallel()
	var got seen
	a, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		got.add(r)
		w.Header().Set("Location", "https://"+r.Host+r.URL.EscapedPath())
		w.WriteHeader(307)
	})
	c := newClient(t, a.URL, testKey, nodeaccess.WithHTTPClient(&http.Client{}))
	_, err := post(context.Background(), t, c)
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, "https://"+strings.TrimPrefix(a.URL, "http://")+"/"+Mask, he.Location)
	assert.Len(t, got.all(), 1)
}

// TestSameOriginRedirectIsFollowed: a redirect within the origin is
// followed as net/http follows it, with no Referer (which would be the
// URL with the key) and no header holding the key.
func TestSameOriginRedirectIsFollowed(t *testing.T) {
	t.Parallel()
	for _, key := range []string{testKey, escKey} {
		for name, hc := range userClients(t) {
			for _, status := range redirectStatuses {
				var got seen
				a, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
					got.add(r)
					if r.URL.Path == "/next" {
						io.WriteString(w, `{"ok":true}`)
						return
					}
					http.Redirect(w, r, "/next", status)
				})
				c := newClient(t, a.URL, key, nodeaccess.WithHTTPClient(hc))
				resp, err := post(context.Background(), t, c)
				require.NoError(t, err, "%s %d", name, status)
				assert.Equal(t, `{"ok":true}`, string(resp.Body))
				resp.Release()
				reqs := got.all()
				require.Len(t, reqs, 2)
				assert.Empty(t, reqs[1].Header.Values("Referer"), "%s %d: Referer sent", name, status)
				assertNoKeyInHeaders(t, key, reqs)
				want := http.MethodPost
				if status <= 303 {
					want = http.MethodGet // as net/http does
				}
				assert.Equal(t, want, reqs[1].Method)
			}
		}
	}
}

// TestUserClientSettingsApply: the user's CheckRedirect (which sees no
// Referer), Jar and Timeout still apply.
func TestUserClientSettingsApply(t *testing.T) {
	t.Parallel()
	a, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		switch r.URL.Path {
		case "/next":
			if ck, err := r.Cookie("session"); err != nil || ck.Value != "s1" {
				w.WriteHeader(400)
				io.WriteString(w, "no cookie")
				return
			}
			io.WriteString(w, "{}")
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		default:
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "s1", Path: "/"})
			http.Redirect(w, r, "/next", http.StatusTemporaryRedirect)
		}
	})
	// CheckRedirect: called, sees no Referer, and its error ends the call.
	refuse := errors.New("no redirects, thanks")
	var referers []string
	hc := &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
		referers = append(referers, req.Header.Get("Referer"))
		return refuse
	}}
	c := newClient(t, a.URL, testKey, nodeaccess.WithHTTPClient(hc), nodeaccess.WithMaxAttempts(1))
	_, err := post(context.Background(), t, c)
	assert.ErrorIs(t, err, refuse)
	assert.Equal(t, []string{""}, referers)
	testkit.AssertErrNoKey(t, testKey, err)

	// Jar: the cookie set with the redirect comes back on the next request.
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	c = newClient(t, a.URL, testKey, nodeaccess.WithHTTPClient(&http.Client{Jar: jar}))
	resp, err := post(context.Background(), t, c)
	require.NoError(t, err)
	resp.Release()
	u, _ := url.Parse(a.URL)
	assert.Len(t, jar.Cookies(u), 1)

	// Timeout: the user's, shorter than the SDK's.
	c = newClient(t, a.URL, testKey, nodeaccess.WithHTTPClient(&http.Client{Timeout: 100 * time.Millisecond}), nodeaccess.WithMaxAttempts(1))
	tg, err := c.Target("slow")
	require.NoError(t, err)
	start := time.Now()
	_, err = c.Do(context.Background(), &Request{Op: "test", Target: tg})
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	within(t, time.Since(start), time.Second, "a call under the user's 100ms Timeout")
}

// clientFields is what a user's *http.Client holds, funcs by address.
func clientFields(hc *http.Client) string {
	var check uintptr
	if hc.CheckRedirect != nil {
		check = reflect.ValueOf(hc.CheckRedirect).Pointer()
	}
	return fmt.Sprintf("%p %p %x %s", hc.Transport, hc.Jar, check, hc.Timeout)
}

// TestUserClientUnchanged: New and calls leave the user's client as it was.
func TestUserClientUnchanged(t *testing.T) {
	t.Parallel()
	a, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		if r.URL.Path == "/next" {
			io.WriteString(w, "{}")
			return
		}
		http.Redirect(w, r, "/next", http.StatusFound)
	})
	for name, hc := range userClients(t) {
		before := clientFields(hc)
		c := newClient(t, a.URL, testKey, nodeaccess.WithHTTPClient(hc))
		resp, err := post(context.Background(), t, c)
		require.NoError(t, err)
		resp.Release()
		assert.Equal(t, before, clientFields(hc), name)
	}
}

// TestUserAgentHoldingTheKeyIsRefused: the SDK puts nothing of the key in a
// header, the User-Agent the user asked for included.
func TestUserAgentHoldingTheKeyIsRefused(t *testing.T) {
	t.Parallel()
	_, err := New(Settings{Chain: "test", BaseURL: "https://node.example", Key: escKey,
		Options: funcs(nodeaccess.WithUserAgent("app/1 " + url.QueryEscape(escKey)))})
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	var ie *nodeaccess.InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "option", ie.Arg)
	testkit.AssertErrNoKey(t, escKey, err)
}
