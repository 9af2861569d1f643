package testkit

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
)

// pathNames are the literal segments of the shapes the chain packages'
// NewFromURL take.
var pathNames = []string{"evm", "info", "beacon"}

// endpointWords returns the path segments HostileEndpoints combines: the
// key path-escaped, alone and spelt or joined in ways a parser could read
// as another segment, the path names in their case and others, segments
// other services put around a key, and empty and dot segments.
func endpointWords(key string) (withKey, others []string) {
	k := url.PathEscape(key)
	withKey = []string{
		k,
		k + "%2Fevm", k + "%2finfo", "evm%2F" + k, "x%2F" + k, // an escaped '/' joining the key to a segment
		k + `%5Cevm`, k + `\evm`, // a backslash, which some servers read as '/'
		k + ";x", "%61" + k, // a path parameter; an escape url.PathEscape would not write
	}
	others = []string{
		"evm", "info", "beacon", "EVM", "Info", "BEACON", "%65vm", "%62eacon",
		"rpc", "eth", "v2",
		"", ".", "..", "%2e", "%2E%2e",
	}
	return withKey, others
}

// HostileEndpoints returns endpoint URLs on base ("https://host", no path)
// built around key: every path of one or two segments drawn from the key
// (escaped, or joined to another segment in ways a server could split) and
// from segments that name endpoints, services and versions ("evm", "info",
// "beacon" in any case or %-escaped, "rpc", "eth", "v2"), or that are empty
// or dot segments; every path of three segments with the key in any place
// among path names, "rpc", "eth", "v2", empty and dot segments; each with and without a
// trailing slash; and the key alone or beside a path name (what the
// documented shapes look like) again with a query, an empty query, a
// fragment, an empty fragment, the key as user info, another scheme, no
// scheme, and white space. Paths holding no key are kept only when all
// their segments are path names, empty or dot segments ("/rpc" is a
// plausible key of its own). Every URL is either a shape some NewFromURL
// documents, with the key in the key's place, or one it must refuse.
func HostileEndpoints(base, key string) []string {
	withKey, others := endpointWords(key)
	words := append(slices.Clone(withKey), others...)
	short := []string{"evm", "info", "beacon", "rpc", "eth", "v2", "", ".."}
	isKey := func(w string) bool { return slices.Contains(withKey, w) }
	plausibleKey := func(w string) bool { return slices.Contains([]string{"rpc", "eth", "v2"}, w) }
	var paths [][]string
	for _, a := range words {
		paths = append(paths, []string{a})
		for _, b := range words {
			paths = append(paths, []string{a, b})
		}
	}
	k := withKey[0]
	for _, a := range short {
		for _, b := range short {
			paths = append(paths, []string{k, a, b}, []string{a, k, b}, []string{a, b, k})
		}
	}
	u, err := url.Parse(base)
	if err != nil {
		panic(err)
	}
	var out []string
	for _, p := range paths {
		holdsKey := slices.ContainsFunc(p, isKey)
		if !holdsKey && slices.ContainsFunc(p, plausibleKey) {
			continue
		}
		path := "/" + strings.Join(p, "/")
		out = append(out, base+path, base+path+"/")
		if !decorate(p, withKey[0]) {
			continue
		}
		out = append(out,
			base+path+"?x=1", base+path+"?", base+path+"#frag", base+path+"#",
			u.Scheme+"://"+url.PathEscape(key)+"@"+u.Host+path,
			"ftp://"+u.Host+path, u.Host+path, "//"+u.Host+path,
			base+path+" ", base+path+"\n", " "+base+path,
		)
	}
	out = append(out, u.Scheme+"://user:"+url.PathEscape(key)+"@"+u.Host+"/"+url.PathEscape(key))
	slices.Sort(out)
	return slices.Compact(out)
}

// decorate reports whether HostileEndpoints adds the query, fragment,
// user info, scheme and white space variants to path p: the key alone, and
// the key beside a path name, the shapes those variants would otherwise
// pass as.
func decorate(p []string, k string) bool {
	switch len(p) {
	case 1:
		return p[0] == k
	case 2:
		return p[0] == k && slices.Contains(pathNames, p[1]) || p[1] == k && slices.Contains(pathNames, p[0])
	}
	return false
}

// NewFromURLCheck describes a chain package's NewFromURL for
// CheckNewFromURL.
type NewFromURLCheck struct {
	// New calls NewFromURL(endpoint, opt).
	New func(endpoint string, opt nodeaccess.Option) (fmt.Stringer, error)
	// Shapes maps each path shape NewFromURL documents ("{key}/evm") to
	// the paths, with "{key}", that Call requests on a client made from
	// it, in order.
	Shapes map[string][]string
	// Call makes requests with a client New returned, one to each path of
	// its shape's list, and returns their errors (errors.Join).
	Call func(ctx context.Context, c fmt.Stringer) error
}

// CheckNewFromURL checks, for each key of LeakKeys, that NewFromURL takes
// exactly the shapes it documents and that no URL it takes shows the key.
//
// Each documented shape, with and without a trailing slash and the key
// path-escaped in its place, makes a client whose every rendering masks
// the key, and whose Call reaches the server at exactly the documented
// paths with the key, two attempts each (the server answers 503 with a
// body echoing the path), returning errors, hook attempts and log records
// that all mask it. Every other URL of HostileEndpoints is refused
// with an *nodeaccess.InputError on "endpoint" (matching
// nodeaccess.ErrInvalidInput) that shows no spelling of the key and no
// other segment of the path, and sends nothing.
func CheckNewFromURL(t testing.TB, c NewFromURLCheck) {
	t.Helper()
	for _, key := range LeakKeys {
		var mu sync.Mutex
		var got []string
		srv, cnt := Serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
			mu.Lock()
			got = append(got, r.URL.EscapedPath())
			mu.Unlock()
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = fmt.Fprintf(w, "busy: %s", r.URL.EscapedPath())
		})
		k := url.PathEscape(key)
		accepted := map[string]bool{}
		for shape, wire := range c.Shapes {
			for _, slash := range []string{"", "/"} {
				ep := srv.URL + "/" + strings.ReplaceAll(shape, "{key}", k) + slash
				accepted[ep] = true
				mu.Lock()
				got = nil
				mu.Unlock()
				var rec Recorder
				opt := Bundle(rec.Option(), nodeaccess.WithMaxAttempts(2), nodeaccess.WithBackoff(time.Millisecond, 2*time.Millisecond))
				cl, err := c.New(ep, opt)
				require.NoError(t, err, "the documented shape %s", shape)
				AssertNoKey(t, key, "client "+shape, fmt.Sprintf("%v|%+v|%#v|%s|%q", cl, cl, cl, cl, cl)+cl.String())
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				err = c.Call(ctx, cl)
				cancel()
				AssertErrNoKey(t, key, err)
				var want []string
				for _, w := range wire {
					w = "/" + strings.ReplaceAll(w, "{key}", k)
					want = append(want, w, w)
				}
				mu.Lock()
				assert.Equal(t, want, got, "shape %s: two attempts at each documented path", shape)
				mu.Unlock()
				atts := rec.Attempts()
				assert.Len(t, atts, len(want), "shape %s: the hook saw every attempt", shape)
				for _, a := range atts {
					AssertNoKey(t, key, "hook attempt "+shape, fmt.Sprintf("%v %+v %s %v", a, a, a.URL, a.Err))
				}
				assert.NotEmpty(t, rec.Log(), "shape %s: the attempts were logged", shape)
				AssertNoKey(t, key, "log "+shape, rec.Log())
			}
		}
		calls := cnt.Get()

		_, words := endpointWords(key)
		for _, ep := range HostileEndpoints(srv.URL, key) {
			if accepted[ep] {
				continue
			}
			cl, err := c.New(ep, nodeaccess.Option{})
			if err == nil {
				t.Errorf("accepted %q, which is not a documented shape", ep)
				AssertNoKey(t, key, "client from an undocumented shape", fmt.Sprintf("%v", cl))
				continue
			}
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, ep)
			var ie *nodeaccess.InputError
			if assert.ErrorAs(t, err, &ie, ep) {
				assert.Equal(t, "endpoint", ie.Arg, ep)
			}
			AssertNoKey(t, key, "refusal", fmt.Sprintf("%v %+v %#v %#v", err, err, err, ie))
			msg := strings.ToLower(err.Error())
			for _, w := range words {
				if len(w) > 1 && !slices.Contains(pathNames, strings.ToLower(w)) && w != ".." {
					assert.NotContains(t, msg, strings.ToLower(w), "the refusal of %q quotes a segment", ep)
				}
			}
		}
		assert.Equal(t, calls, cnt.Get(), "a refused URL sent nothing")
	}
}
