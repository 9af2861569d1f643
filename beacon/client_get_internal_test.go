package beacon

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
)

// FuzzGetPath: any path Get accepts becomes a URL below the key whose
// segments, unescaped, are exactly the path's, so no path can climb out of
// {base}/beacon/{key} or add a query; any other is an InputError that does
// not show the key.
func FuzzGetPath(f *testing.F) {
	for _, s := range []string{"/eth/v1/node/version", "eth/v1/beacon/headers/0xab", "/a/../b", "/a//b", "/a?b", "/a%2e%2e", "/é/ /x", "/k3y-SECRET", ""} {
		f.Add(s, "v")
	}
	const key = "k3y-SECRET"
	c, err := New("https://node.example/base", key)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path, qv string) {
		q := url.Values{"q": {qv}}
		segs, err := c.pathSegments(path, q)
		if err != nil {
			if !errors.Is(err, nodeaccess.ErrInvalidInput) {
				t.Fatalf("%q: %v is not an InputError", path, err)
			}
			if strings.Contains(err.Error(), key) {
				t.Fatalf("%q: the error shows the key: %v", path, err)
			}
			return
		}
		req, err := c.newRequest("/"+path, segs, q, mediaJSON)
		if err != nil {
			t.Fatalf("%q: %v", path, err)
		}
		masked := req.Target.Masked()
		const prefix = "https://node.example/base/beacon/REDACTED/"
		if !strings.HasPrefix(masked, prefix) {
			t.Fatalf("%q: URL %q", path, masked)
		}
		got := strings.Split(strings.TrimPrefix(masked, prefix), "/")
		want := strings.Split(strings.TrimPrefix(path, "/"), "/")
		if len(got) != len(want) {
			t.Fatalf("%q: segments %q, want %q", path, got, want)
		}
		for i := range got {
			s, err := url.PathUnescape(got[i])
			if err != nil || s != want[i] {
				t.Fatalf("%q: segment %d is %q, want %q", path, i, got[i], want[i])
			}
		}
		if strings.Contains(masked, key) {
			t.Fatalf("%q: the masked URL shows the key", path)
		}
	})
}
