package transport

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shape sets of the chain packages' NewFromURL.
var endpointShapes = map[string][]string{
	"evm.NewFromURL":    {"{key}", "{key}/evm"},
	"hyper.NewFromURL":  {"{key}", "{key}/info", "{key}/evm"},
	"beacon.NewFromURL": {"beacon/{key}"},
}

// allReasons are every reason ParseEndpoint may give for fn.
func allReasons(fn string) []string {
	return []string{reasonSpace, reasonParse, reasonAbsolute, reasonHost, reasonUser, reasonQuery, reasonEmpty, reasonDot,
		reasonSep, reasonText, reasonEscape, reasonName, shapeReason(fn, endpointShapes[fn])}
}

// upperEscapes writes the hex digits of every %-escape in s in upper case.
func upperEscapes(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1], b[i+2] = strings.ToUpper(string(b[i+1]))[0], strings.ToUpper(string(b[i+2]))[0]
		}
	}
	return string(b)
}

// checkEndpoint checks what ParseEndpoint made of endpoint. Accepted, the
// URL is accounted for to the byte: the base, the shape's literals and the
// key escaped as the transport sends it make the same URL (less one
// trailing slash; scheme case and escapes' hex case aside), and the
// transport masks all of it but the host and the literals. Refused, the error is an *nodeaccess.InputError on
// "endpoint" whose reason is one of the fixed sentences, so that it quotes
// nothing of the URL.
func checkEndpoint(t testing.TB, fn, endpoint string) (Endpoint, bool) {
	t.Helper()
	shapes := endpointShapes[fn]
	ep, err := ParseEndpoint(fn, endpoint, shapes...)
	if err != nil {
		var ie *nodeaccess.InputError
		require.True(t, errors.As(err, &ie), "%T %v", err, err)
		require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		require.Equal(t, "endpoint", ie.Arg)
		require.Contains(t, allReasons(fn), ie.Reason, "a reason built from the URL %q", endpoint)
		require.Equal(t, Endpoint{}, ep)
		return ep, false
	}
	require.Contains(t, shapes, ep.Shape)
	u, err := url.Parse(ep.Base)
	require.NoError(t, err)
	require.Empty(t, u.EscapedPath(), "a base with a path: %q", ep.Base)
	// The URL is the base, the shape's literals and the key, escaped as
	// Target escapes it.
	in, err := url.Parse(endpoint)
	require.NoError(t, err)
	want := in.Scheme + "://" + in.Host + strings.TrimSuffix(in.EscapedPath(), "/")
	got := ep.Base + "/" + strings.ReplaceAll(ep.Shape, "{key}", url.PathEscape(ep.Key))
	require.Equal(t, upperEscapes(want), upperEscapes(got), "the URL sent would not be the one given")
	// The transport takes the base and the key, and masks the key in its
	// place. (A key that is also part of the host, a literal or the mask,
	// such as "0" in "http://0/0" or "A", is masked wherever it shows, and
	// what remains cannot be told from the host and the literals.)
	c, err := New(Settings{Chain: "test", BaseURL: ep.Base, Key: ep.Key})
	require.NoError(t, err, "%q: New refuses the base or the key", endpoint)
	tg, err := c.Target(ep.Shape)
	require.NoError(t, err)
	masked := ep.Base + "/" + strings.ReplaceAll(ep.Shape, "{key}", Mask)
	if !slices.ContainsFunc(testkit.KeySpellings(ep.Key), func(s string) bool {
		return strings.Contains(strings.ToLower(masked), strings.ToLower(s))
	}) {
		require.Equal(t, masked, tg.Masked())
	}
	return ep, true
}

func TestParseEndpointAccepts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		fn, endpoint string
		want         Endpoint
	}{
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y", Endpoint{"https://node.example", testKey, "{key}"}},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y/", Endpoint{"https://node.example", testKey, "{key}"}},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y/evm", Endpoint{"https://node.example", testKey, "{key}/evm"}},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y/evm/", Endpoint{"https://node.example", testKey, "{key}/evm"}},
		{"evm.NewFromURL", "HTTP://127.0.0.1:8545/sEcReT-k3y", Endpoint{"http://127.0.0.1:8545", testKey, "{key}"}},
		{"evm.NewFromURL", "http://[::1]:8545/sEcReT-k3y", Endpoint{"http://[::1]:8545", testKey, "{key}"}},
		{"evm.NewFromURL", "https://node.example/sEcReT%25k3y:@+%3F%23%C3%A9", Endpoint{"https://node.example", escKey, "{key}"}},
		{"evm.NewFromURL", "https://node.example/sEcReT%25k3y:@+%3f%23%c3%a9", Endpoint{"https://node.example", escKey, "{key}"}},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3yé", Endpoint{"https://node.example", testKey + "é", "{key}"}},
		{"evm.NewFromURL", "https://node.example/Evmkey", Endpoint{"https://node.example", "Evmkey", "{key}"}},
		{"hyper.NewFromURL", "https://node.example/sEcReT-k3y", Endpoint{"https://node.example", testKey, "{key}"}},
		{"hyper.NewFromURL", "https://node.example/sEcReT-k3y/info/", Endpoint{"https://node.example", testKey, "{key}/info"}},
		{"hyper.NewFromURL", "https://node.example/sEcReT-k3y/evm", Endpoint{"https://node.example", testKey, "{key}/evm"}},
		{"beacon.NewFromURL", "https://node.example/beacon/sEcReT-k3y", Endpoint{"https://node.example", testKey, "beacon/{key}"}},
		{"beacon.NewFromURL", "https://node.example:5052/beacon/sEcReT-k3y/", Endpoint{"https://node.example:5052", testKey, "beacon/{key}"}},
	}
	for _, tc := range cases {
		got, ok := checkEndpoint(t, tc.fn, tc.endpoint)
		require.True(t, ok, tc.endpoint)
		assert.Equal(t, tc.want, got, tc.endpoint)
	}
}

// One URL for each way a URL can fail to be a documented shape, with the
// reason it gets.
func TestParseEndpointRefuses(t *testing.T) {
	t.Parallel()
	shape := func(fn string) string { return shapeReason(fn, endpointShapes[fn]) }
	cases := []struct{ fn, endpoint, reason string }{
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y\n", reasonSpace},
		{"evm.NewFromURL", " https://node.example/sEcReT-k3y", reasonSpace},
		{"evm.NewFromURL", "https://node.example/sEcReT k3y", reasonSpace},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y?x=1", reasonQuery},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y?", reasonQuery},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y#", reasonQuery},
		{"evm.NewFromURL", "https://node.example/?key=sEcReT-k3y", reasonQuery},
		{"evm.NewFromURL", "https://node.example/sEcReT%zz", reasonParse},
		{"evm.NewFromURL", "https://node.example:k3y/sEcReT", reasonParse},
		{"evm.NewFromURL", "http://[::1/sEcReT-k3y", reasonParse},
		{"evm.NewFromURL", "node.example/sEcReT-k3y", reasonAbsolute},
		{"evm.NewFromURL", "//node.example/sEcReT-k3y", reasonAbsolute},
		{"evm.NewFromURL", "ftp://node.example/sEcReT-k3y", reasonAbsolute},
		{"evm.NewFromURL", "https:sEcReT-k3y", reasonAbsolute},
		{"evm.NewFromURL", "https:///sEcReT-k3y", reasonAbsolute},
		{"evm.NewFromURL", "https://sEcReT-k3y@node.example/x", reasonUser},
		{"evm.NewFromURL", "http://\x82/sEcReT-k3y", reasonHost},
		{"evm.NewFromURL", "http://b%C3%BCcher.example/sEcReT-k3y", reasonHost},
		{"evm.NewFromURL", "http://[fe80::1%25en0]:8545/sEcReT-k3y", reasonHost},
		{"evm.NewFromURL", "http://node_example/sEcReT-k3y", reasonHost},
		{"evm.NewFromURL", "https://u:sEcReT-k3y@node.example/sEcReT-k3y", reasonUser},
		{"evm.NewFromURL", "https://node.example//sEcReT-k3y", reasonEmpty},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y//", reasonEmpty},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y//evm", reasonEmpty},
		{"evm.NewFromURL", "https://node.example/./sEcReT-k3y", reasonDot},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y/..", reasonDot},
		{"evm.NewFromURL", "https://node.example/%2e%2E", reasonDot},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y%2Fevm", reasonSep},
		{"evm.NewFromURL", "https://node.example/x%2fsEcReT-k3y", reasonSep},
		{"evm.NewFromURL", `https://node.example/sEcReT-k3y\evm`, reasonSep},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y%5Cevm", reasonSep},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y%0A", reasonText},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y%20", reasonText},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y%FF", reasonText},
		{"evm.NewFromURL", "https://node.example/%73EcReT-k3y", reasonEscape},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y;evm", reasonEscape},
		{"evm.NewFromURL", "https://node.example/sEcReT,k3y", reasonEscape},
		{"evm.NewFromURL", "https://node.example/sEcReT!k3y", reasonEscape},
		{"evm.NewFromURL", "https://node.example/evm", reasonName},
		{"evm.NewFromURL", "https://node.example/EVM/", reasonName},
		{"evm.NewFromURL", "https://node.example/%65vm", reasonName},
		{"evm.NewFromURL", "https://node.example/info", reasonName},
		{"evm.NewFromURL", "https://node.example/Beacon/evm", reasonName},
		{"evm.NewFromURL", "https://node.example", shape("evm.NewFromURL")},
		{"evm.NewFromURL", "https://node.example/", shape("evm.NewFromURL")},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y/info", shape("evm.NewFromURL")},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y/rpc", shape("evm.NewFromURL")},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y/EVM", shape("evm.NewFromURL")},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y/%65vm", shape("evm.NewFromURL")},
		{"evm.NewFromURL", "https://node.example/v2/sEcReT-k3y", shape("evm.NewFromURL")},
		{"evm.NewFromURL", "https://node.example/v2/sEcReT-k3y/eth", shape("evm.NewFromURL")},
		{"evm.NewFromURL", "https://node.example/sEcReT-k3y/evm/evm", shape("evm.NewFromURL")},
		{"hyper.NewFromURL", "https://node.example/sEcReT-k3y/Info", shape("hyper.NewFromURL")},
		{"hyper.NewFromURL", "https://node.example/hl/sEcReT-k3y/info", shape("hyper.NewFromURL")},
		{"hyper.NewFromURL", "https://node.example/sEcReT-k3y/info/evm", shape("hyper.NewFromURL")},
		{"hyper.NewFromURL", "https://node.example/info/", reasonName},
		{"hyper.NewFromURL", "https://node.example/evm/info", reasonName},
		{"beacon.NewFromURL", "https://node.example/sEcReT-k3y", shape("beacon.NewFromURL")},
		{"beacon.NewFromURL", "https://node.example/v1/beacon/sEcReT-k3y", shape("beacon.NewFromURL")},
		{"beacon.NewFromURL", "https://node.example/sEcReT-k3y/beacon/eth", shape("beacon.NewFromURL")},
		{"beacon.NewFromURL", "https://node.example/Beacon/sEcReT-k3y", shape("beacon.NewFromURL")},
		{"beacon.NewFromURL", "https://node.example/beacon/sEcReT-k3y/eth/v2/debug/beacon/states/head", shape("beacon.NewFromURL")},
		{"beacon.NewFromURL", "https://node.example/beacon", shape("beacon.NewFromURL")},
		{"beacon.NewFromURL", "https://node.example/beacon/", shape("beacon.NewFromURL")},
		{"beacon.NewFromURL", "https://node.example/beacon/beacon", reasonName},
	}
	for _, tc := range cases {
		_, err := ParseEndpoint(tc.fn, tc.endpoint, endpointShapes[tc.fn]...)
		require.Error(t, err, tc.endpoint)
		assert.Equal(t, "invalid input: endpoint: "+tc.reason, err.Error(), tc.endpoint)
		testkit.AssertErrNoKey(t, testKey, err)
		assert.NotContains(t, err.Error(), "node.example", "the host is not quoted either")
	}
}

// The class: every URL of the hostile corpus, for every shape set, is
// either refused with a fixed sentence or accounted for to the byte, with
// the key in the key's place.
func TestParseEndpointHostileCorpus(t *testing.T) {
	t.Parallel()
	for _, key := range testkit.LeakKeys {
		for fn, shapes := range endpointShapes {
			accepted := 0
			for _, endpoint := range testkit.HostileEndpoints("https://node.example", key) {
				ep, ok := checkEndpoint(t, fn, endpoint)
				if !ok {
					continue
				}
				accepted++
				if strings.Contains(endpoint, url.PathEscape(key)) {
					assert.Equal(t, key, ep.Key, "%s took %q with another key", fn, endpoint)
				}
			}
			assert.Equal(t, 2*len(shapes), accepted, "%s: each shape, with and without a trailing slash", fn)
		}
	}
}

func FuzzParseEndpoint(f *testing.F) {
	for _, s := range []string{"https://node.example/sEcReT-k3y", "https://node.example/sEcReT-k3y/evm/",
		"https://node.example/beacon/k", "http://[::1]:80/k/info", "http://\x82/0", "http://0/0", "http://0/A", "https://node.example/a%2Fb", "https://u@h/k"} {
		f.Add(s)
	}
	fns := slices.Sorted(func(yield func(string) bool) {
		for fn := range endpointShapes {
			if !yield(fn) {
				return
			}
		}
	})
	f.Fuzz(func(t *testing.T, endpoint string) {
		for _, fn := range fns {
			checkEndpoint(t, fn, endpoint)
		}
	})
}
