package transport

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTargetTemplates(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, base, key, tmpl string
		vars                  []string
		want, masked          string
	}{
		{"key", "https://node.example", testKey, "{key}", nil,
			"https://node.example/sEcReT-k3y", "https://node.example/REDACTED"},
		{"evm suffix", "https://node.example", testKey, "{key}/evm", nil,
			"https://node.example/sEcReT-k3y/evm", "https://node.example/REDACTED/evm"},
		{"info", "https://node.example", testKey, "{key}/info", nil,
			"https://node.example/sEcReT-k3y/info", "https://node.example/REDACTED/info"},
		{"api v2 method", "https://node.example", testKey, "api/v2/{key}/{method}", []string{"method", "getBalance"},
			"https://node.example/api/v2/sEcReT-k3y/getBalance", "https://node.example/api/v2/REDACTED/getBalance"},
		{"api v3 op", "https://node.example", testKey, "{key}/api/v3/{op}", []string{"op", "accountStates"},
			"https://node.example/sEcReT-k3y/api/v3/accountStates", "https://node.example/REDACTED/api/v3/accountStates"},
		{"beacon state", "https://node.example", testKey, "beacon/{key}/eth/v2/debug/beacon/states/{id}", []string{"id", "head"},
			"https://node.example/beacon/sEcReT-k3y/eth/v2/debug/beacon/states/head",
			"https://node.example/beacon/REDACTED/eth/v2/debug/beacon/states/head"},
		{"path prefix", "https://node.example/v1/eth", testKey, "{key}", nil,
			"https://node.example/v1/eth/sEcReT-k3y", "https://node.example/v1/eth/REDACTED"},
		{"trailing slash", "https://node.example/", testKey, "{key}/evm", nil,
			"https://node.example/sEcReT-k3y/evm", "https://node.example/REDACTED/evm"},
		{"prefix and trailing slashes", "https://node.example/v1//", testKey, "{key}", nil,
			"https://node.example/v1/sEcReT-k3y", "https://node.example/v1/REDACTED"},
		{"escaped prefix kept", "https://node.example/a%2Fb", testKey, "{key}", nil,
			"https://node.example/a%2Fb/sEcReT-k3y", "https://node.example/a%2Fb/REDACTED"},
		{"port", "http://127.0.0.1:8545", testKey, "{key}", nil,
			"http://127.0.0.1:8545/sEcReT-k3y", "http://127.0.0.1:8545/REDACTED"},
		{"escaped key", "https://node.example", escKey, "{key}/evm", nil,
			"https://node.example/sEcReT%25k3y:@+%3F%23%C3%A9/evm", "https://node.example/REDACTED/evm"},
		{"slash in var", "https://node.example", testKey, "beacon/{key}/eth/v2/debug/beacon/states/{id}", []string{"id", "a/../../b"},
			"https://node.example/beacon/sEcReT-k3y/eth/v2/debug/beacon/states/a%2F..%2F..%2Fb",
			"https://node.example/beacon/REDACTED/eth/v2/debug/beacon/states/a%2F..%2F..%2Fb"},
		{"query and fragment in var", "https://node.example", testKey, "{key}/api/v3/{op}", []string{"op", "x?y=1#z"},
			"https://node.example/sEcReT-k3y/api/v3/x%3Fy=1%23z", "https://node.example/REDACTED/api/v3/x%3Fy=1%23z"},
		{"escape in var stays literal", "https://node.example", testKey, "{key}/api/v3/{op}", []string{"op", "%2e%2e"},
			"https://node.example/sEcReT-k3y/api/v3/%252e%252e", "https://node.example/REDACTED/api/v3/%252e%252e"},
		{"no template", "https://node.example/v1/", testKey, "", nil,
			"https://node.example/v1", "https://node.example/v1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newClient(t, tc.base, tc.key)
			tg, err := c.Target(tc.tmpl, tc.vars...)
			require.NoError(t, err)
			assert.Equal(t, tc.want, tg.t.url.String())
			assert.Equal(t, tc.masked, tg.Masked())
			testkit.AssertNoKey(t, tc.key, "Masked", tg.Masked())
			// The escaped form round-trips: the path a server sees decodes to
			// the key and the values, segment by segment.
			back, err := url.Parse(tc.want)
			require.NoError(t, err)
			assert.Equal(t, tg.t.url.Path, back.Path)
		})
	}
}

// TestTargetOnTheWire checks the request line a server receives.
func TestTargetOnTheWire(t *testing.T) {
	t.Parallel()
	uris := make(chan string, 4)
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		uris <- r.RequestURI
		segs := strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), "/"), "/")
		w.Header().Set("X-Segments", strings.Join(segs, "|"))
		w.WriteHeader(204)
	})
	c := newClient(t, srv.URL+"/pre/", escKey)
	tg, err := c.Target("beacon/{key}/states/{id}", "id", "../x/..")
	require.NoError(t, err)
	resp, err := c.Do(context.Background(), &Request{Op: "state", Target: tg,
		Query: url.Values{"cursor": {"ab+/c=="}, "q": {"a b&c"}}})
	require.NoError(t, err)
	defer resp.Release()
	assert.Equal(t, "/pre/beacon/sEcReT%25k3y:@+%3F%23%C3%A9/states/..%2Fx%2F..?cursor=ab%2B%2Fc%3D%3D&q=a+b%26c", <-uris)
	// Four segments after the prefix: the var stayed one segment.
	assert.Equal(t, "pre|beacon|sEcReT%25k3y:@+%3F%23%C3%A9|states|..%2Fx%2F..", resp.Header.Get("X-Segments"))
}

func TestTargetQueryMasked(t *testing.T) {
	t.Parallel()
	c := newClient(t, "https://node.example", escKey)
	tg, err := c.Target("{key}/api/v3/{op}", "op", "runGetMethod")
	require.NoError(t, err)
	u, masked := tg.withQuery(url.Values{"b": {"x+/="}, "a": {"é"}})
	assert.Equal(t, "https://node.example/sEcReT%25k3y:@+%3F%23%C3%A9/api/v3/runGetMethod?a=%C3%A9&b=x%2B%2F%3D", u.String())
	assert.Equal(t, "https://node.example/REDACTED/api/v3/runGetMethod?a=%C3%A9&b=x%2B%2F%3D", masked)
	// The target itself is unchanged.
	assert.Empty(t, tg.t.url.RawQuery)
	u2, m2 := tg.withQuery(nil)
	assert.Same(t, tg.t.url, u2)
	assert.Equal(t, tg.Masked(), m2)
}

func TestTargetErrors(t *testing.T) {
	t.Parallel()
	c := newClient(t, "https://node.example", testKey)
	for _, tc := range []struct {
		name, tmpl string
		vars       []string
		want       string
	}{
		{"odd vars", "{key}/{op}", []string{"op"}, "odd number"},
		{"unclosed", "{key}/{op", []string{"op", "x"}, "unclosed placeholder"},
		{"missing var", "{key}/{op}", []string{"id", "x"}, "no value for {op}"},
	} {
		_, err := c.Target(tc.tmpl, tc.vars...)
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
		testkit.AssertNoKey(t, testKey, tc.name, err.Error())
	}
	// A value that is no path segment of its own (empty, "." or "..") would
	// let a server or a proxy that normalises paths drop a segment.
	for _, v := range []string{"", ".", ".."} {
		_, err := c.Target("beacon/{key}/eth/v2/debug/beacon/states/{id}", "id", v)
		require.Error(t, err, "value %q", v)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, "value %q", v)
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie)
		assert.Equal(t, "id", ie.Arg)
		testkit.AssertNoKey(t, testKey, "var error", err.Error())
	}
}

func TestKeylessClient(t *testing.T) {
	t.Parallel()
	c, err := New(Settings{Chain: "hyper", BaseURL: "https://api.node.example/", Key: "ignored", Keyless: true})
	require.NoError(t, err)
	tg, err := c.Target("info")
	require.NoError(t, err)
	assert.Equal(t, "https://api.node.example/info", tg.t.url.String())
	assert.Equal(t, "https://api.node.example/info", tg.Masked())
	_, err = c.Target("{key}/info")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "keyless")
	assert.Equal(t, "hyper client for https://api.node.example (no key)", c.String())
	assert.Equal(t, "https://api.node.example", c.BaseMasked())
	assert.Equal(t, "text with REDACTED", c.red.Text("text with ignored"), "a key given with Keyless is still masked")

	// A key the user put into a keyless client's URL by mistake is masked
	// everywhere the client shows the URL, and never becomes a {key}.
	c, err = New(Settings{Chain: "hyper", BaseURL: "https://proxy.example/x" + testKey, Key: testKey, Keyless: true})
	require.NoError(t, err)
	tg, err = c.Target("info")
	require.NoError(t, err)
	assert.Equal(t, "https://proxy.example/xREDACTED/info", tg.Masked())
	assert.Equal(t, "hyper client for https://proxy.example/xREDACTED (no key)", c.String())
	assert.Equal(t, "https://proxy.example/xREDACTED", c.BaseMasked())

	// An empty key needs Keyless.
	_, err = New(Settings{Chain: "hyper", BaseURL: "https://api.node.example"})
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
}

func TestBadBaseURL(t *testing.T) {
	t.Parallel()
	cases := []struct {
		base string
		want string // part of the message: the bad value or what is wrong
	}{
		{"", "empty"},
		{"   ", "empty"},
		{"node.example/v1", `"node.example/v1"`},
		{"/v1", `"/v1"`},
		{"ftp://node.example", `"ftp://node.example": scheme must be http or https`},
		{"https://", `"https://" has no host`},
		{"https://node.example?net=main", `"https://node.example?net=main" has a query`},
		{"https://node.example/?", `has a query`},
		{"https://node.example#frag", `"https://node.example#frag" has a fragment`},
		{"https://user:pass@node.example", `"https://node.example" (user information left out) carries user info`},
		{"https://node.example/%zz", `"https://node.example/%zz" does not parse`},
		{"http://[::1", `"http://[::1" does not parse`},
		// A base that holds the key itself: the message names the value
		// with the key masked.
		{"ftp://node.example/sEcReT-k3y", `"ftp://node.example/REDACTED"`},
		{"https://node.example/?key=sEcReT-k3y", `"https://node.example/?key=REDACTED" has a query`},
	}
	for _, tc := range cases {
		_, err := New(Settings{Chain: "evm", BaseURL: tc.base, Key: testKey})
		require.Error(t, err, "base %q", tc.base)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, "base %q", tc.base)
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie, "base %q", tc.base)
		assert.Equal(t, "baseURL", ie.Arg)
		assert.Contains(t, err.Error(), tc.want, "base %q", tc.base)
		assert.True(t, strings.HasPrefix(err.Error(), "evm: invalid input: baseURL: "), err.Error())
		assert.NotContains(t, err.Error(), "pass@")
		testkit.AssertNoKey(t, testKey, "base URL error", err.Error())
	}
}

func TestBadKey(t *testing.T) {
	t.Parallel()
	cases := []struct{ key, want string }{
		{"", "access key is empty"},
		{"sEcReT/k3y", "contains '/' at byte 6"},
		{"sEcReT k3y", "white space at byte 6"},
		{"sEcReT\tk3y", "white space at byte 6"},
		{"sEcReT\u00a0k3y", "white space at byte 6"},
		{"sEcReT-k3y\n", "white space at byte 10"},
		{"sEcReT\x00k3y", "control character at byte 6"},
		{"sEcReT\x7fk3y", "control character at byte 6"},
		{"sEcReT\xffk3y", "not valid UTF-8 at byte 6"},
		{".", "dot segment"},
		{"..", "dot segment"},
	}
	for _, tc := range cases {
		_, err := New(Settings{Chain: "evm", BaseURL: "https://node.example", Key: tc.key})
		require.Error(t, err, "key %q", tc.key)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie)
		assert.Equal(t, "key", ie.Arg)
		assert.Contains(t, err.Error(), tc.want)
		if len(tc.key) > 2 {
			testkit.AssertNoKey(t, tc.key, "key error", err.Error())
			assert.NotContains(t, err.Error(), "k3y")
		}
	}
}

func TestInputErrorIsNotOtherSentinels(t *testing.T) {
	t.Parallel()
	_, err := New(Settings{Chain: "evm", BaseURL: "ftp://x", Key: testKey})
	require.Error(t, err)
	for _, s := range []error{nodeaccess.ErrUnavailable, nodeaccess.ErrInvalidResponse, nodeaccess.ErrNotFound} {
		assert.False(t, errors.Is(err, s), "%v", s)
	}
}
