package beacontest

import (
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/stretchr/testify/assert"
)

func TestNegotiate(t *testing.T) {
	const (
		ssz  = beacon.EncodingSSZ
		json = beacon.EncodingJSON
		none = beacon.Encoding(255)
	)
	cases := []struct {
		accept []string
		want   beacon.Encoding
	}{
		{nil, json},             // no header
		{[]string{""}, json},    // an empty one
		{[]string{" , "}, json}, // blank ranges only
		{[]string{"*/*"}, json}, // a wildcard: the default
		{[]string{"application/*"}, json},
		{[]string{"application/json"}, json},
		{[]string{"application/octet-stream"}, ssz},
		{[]string{"Application/Octet-Stream"}, ssz}, // media types are case-insensitive
		// what beacon.Client sends by default (EncodingAuto)
		{[]string{"application/octet-stream;q=1,application/json;q=0.9"}, ssz},
		{[]string{"application/json;q=0.9, application/octet-stream"}, ssz},
		{[]string{"application/octet-stream;q=0.5,application/json"}, json},
		// equal quality: named beats wildcard, then the first named
		{[]string{"application/octet-stream, application/json"}, ssz},
		{[]string{"application/json, application/octet-stream"}, json},
		{[]string{"*/*, application/octet-stream"}, ssz},
		{[]string{"application/*;q=0.8, application/octet-stream;q=0.8"}, ssz},
		// two header lines count as one list
		{[]string{"application/json;q=0.1", "application/octet-stream"}, ssz},
		// the most specific range decides: q=0 on a named type refuses it
		{[]string{"application/json;q=0, */*"}, ssz},
		{[]string{"application/octet-stream;q=0, */*;q=0.1"}, json},
		{[]string{"*/*;q=0.1, application/octet-stream;q=0"}, json},
		// a parameter other than q does not matter
		{[]string{"application/json; charset=utf-8"}, json},
		// nothing acceptable: 406
		{[]string{"text/html"}, none},
		{[]string{"application/json;q=0"}, none},
		{[]string{"application/octet-stream;q=0,application/json;q=0"}, none},
		{[]string{"*/*;q=0"}, none},
		{[]string{"application/ssz"}, none},
		// ranges that do not parse match nothing
		{[]string{"garbage"}, none},
		{[]string{"application/json;q=2"}, none},
		{[]string{"application/json;q=x"}, none},
		{[]string{"application/json;q=NaN"}, none},
		{[]string{"application/json;q=-1, application/octet-stream;q=0.3"}, ssz},
		{[]string{"application/json;;;"}, none},
	}
	for _, c := range cases {
		got, ok := negotiate(c.accept)
		if c.want == none {
			assert.False(t, ok, "%q: got %s", c.accept, got)
			continue
		}
		if assert.True(t, ok, "%q", c.accept) {
			assert.Equal(t, c.want, got, "%q", c.accept)
		}
	}
}

// negotiate never panics, answers one of the two encodings when it accepts,
// and accepts whenever a range names one of the types at a positive
// quality without another range refusing it.
func FuzzNegotiate(f *testing.F) {
	for _, s := range []string{"", "*/*", "application/octet-stream;q=1,application/json;q=0.9", "application/json", "text/html", "application/json;q=0, */*", "a/b;q=1.5,,", "application/octet-stream;q=0.001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		enc, ok := negotiate([]string{accept})
		if ok && enc != beacon.EncodingSSZ && enc != beacon.EncodingJSON {
			t.Fatalf("%q: encoding %s", accept, enc)
		}
		if strings.TrimSpace(strings.ReplaceAll(accept, ",", "")) == "" && (!ok || enc != beacon.EncodingJSON) {
			t.Fatalf("%q: a blank header must mean JSON", accept)
		}
		// A line refusing both types by name never turns a refusal into
		// an acceptance.
		if _, ok2 := negotiate([]string{accept, "application/octet-stream;q=0,application/json;q=0"}); ok2 && !ok {
			t.Fatalf("%q: refusing both types made the header acceptable", accept)
		}
	})
}
