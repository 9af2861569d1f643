package testkit

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/nodeaccess/nodeaccess"
)

// LeakKeys are access keys for leak tests: a plain one, and one that path
// and query escaping, quoting and ASCII-only JSON all spell differently
// (a '%', reserved characters, a two-byte and a four-byte character). Both
// start with "sEcReT", so a key cut short is still found.
var LeakKeys = []string{"sEcReT-k3y", "sEcReT%k3y:@+?#é😀"}

// pieceLen is how many leading characters of a key count as a leak.
const pieceLen = 6

// KeySpellings returns the ways key could show in text: as it is, path- and
// query-escaped, Go-quoted (%q, strconv.Quote), Go-quoted in ASCII (%+q),
// JSON-quoted, and JSON with every non-ASCII character \u-escaped (as
// Python servers write it), each without the surrounding quotes; duplicates
// removed.
func KeySpellings(key string) []string {
	q := strconv.Quote(key)
	qa := strconv.QuoteToASCII(key)
	js, _ := json.Marshal(key) // a string always marshals
	return dedupe([]string{
		key,
		url.PathEscape(key),
		url.QueryEscape(key),
		q[1 : len(q)-1],
		qa[1 : len(qa)-1],
		string(js[1 : len(js)-1]),
		ASCIIJSON(key),
	})
}

// KeyPieces returns the parts of key whose presence alone is a leak: its
// first six characters, in each spelling of KeySpellings (a key cut short,
// or masked only at its end, still leaks). A key of six characters or fewer
// has no pieces beyond its spellings.
func KeyPieces(key string) []string {
	if utf8.RuneCountInString(key) <= pieceLen {
		return nil
	}
	n := 0
	for i := range key {
		if n == pieceLen {
			return KeySpellings(key[:i])
		}
		n++
	}
	return nil
}

// AssertNoKey fails the test when s holds key in any spelling of
// KeySpellings, or any piece of KeyPieces, compared without regard to
// case. what names s in the failure.
func AssertNoKey(t testing.TB, key, what, s string) {
	t.Helper()
	low := strings.ToLower(s)
	for _, f := range append(KeySpellings(key), KeyPieces(key)...) {
		if strings.Contains(low, strings.ToLower(f)) {
			t.Errorf("%s leaks the key (%q):\n%s", what, f, s)
			return
		}
	}
}

// AssertErrNoKey fails the test when err is nil, or when key shows in any
// rendering of err (%v, %+v, %#v, %s, %q), of any error it wraps (through
// Unwrap() error and Unwrap() []error), or in the fields of the SDK's typed
// errors and *url.Error found on the way.
func AssertErrNoKey(t testing.TB, key string, err error) {
	t.Helper()
	if err == nil {
		t.Errorf("no error: want one whose every rendering is without the key")
		return
	}
	AssertNoKey(t, key, "error", fmt.Sprintf("%v %+v %#v %s %q", err, err, err, err, err))
	WalkErr(err, func(e error) {
		AssertNoKey(t, key, fmt.Sprintf("wrapped error %T", e), e.Error()+" "+fmt.Sprintf("%#v %+v", e, e))
		switch x := e.(type) {
		case *url.Error:
			AssertNoKey(t, key, "url.Error.URL", x.URL)
		case *nodeaccess.HTTPError:
			AssertNoKey(t, key, "HTTPError fields", string(x.Body)+" "+x.URL+" "+x.Location+" "+x.Status+" "+x.ContentType)
		case *nodeaccess.RPCError:
			AssertNoKey(t, key, "RPCError fields", x.Message+" "+fmt.Sprintf("%#v", x.Data))
		}
	})
	var ue *url.Error
	if errors.As(err, &ue) {
		AssertNoKey(t, key, "errors.As url.Error", ue.URL+" "+ue.Error())
	}
}

// WalkErr calls fn on err and on every error it wraps, depth first, through
// Unwrap() error and Unwrap() []error.
func WalkErr(err error, fn func(error)) {
	if err == nil {
		return
	}
	fn(err)
	switch x := err.(type) {
	case interface{ Unwrap() error }:
		WalkErr(x.Unwrap(), fn)
	case interface{ Unwrap() []error }:
		for _, e := range x.Unwrap() {
			WalkErr(e, fn)
		}
	}
}

// ASCIIJSON writes s as the inside of a JSON string with every character
// outside printable ASCII \u-escaped (é as \u00e9, 😀 as a surrogate pair),
// as Python servers do by default.
func ASCIIJSON(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		case r < 0x20 || r > 0x7e:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func dedupe(in []string) []string {
	out := in[:0]
	seen := make(map[string]bool, len(in))
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
