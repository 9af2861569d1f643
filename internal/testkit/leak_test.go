package testkit_test

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeySpellings(t *testing.T) {
	assert.Equal(t, []string{"sEcReT-k3y"}, testkit.KeySpellings("sEcReT-k3y"))
	assert.Equal(t, []string{
		`sEcReT%k3y:@+?#"é😀`,
		`sEcReT%25k3y:@+%3F%23%22%C3%A9%F0%9F%98%80`,
		`sEcReT%25k3y%3A%40%2B%3F%23%22%C3%A9%F0%9F%98%80`,
		`sEcReT%k3y:@+?#\"é😀`,
		`sEcReT%k3y:@+?#\"\u00e9\U0001f600`,
		`sEcReT%k3y:@+?#\"\u00e9\ud83d\ude00`,
	}, testkit.KeySpellings(`sEcReT%k3y:@+?#"é😀`), "raw, path, query, quoted (%q and JSON alike), %+q, ASCII-only JSON")
	assert.Contains(t, testkit.KeySpellings("a<\x01"), `a\u003c\u0001`, "JSON-quoted")
	assert.Contains(t, testkit.KeySpellings("a<\x01"), `a<\x01`, "Go-quoted")
}

func TestASCIIJSON(t *testing.T) {
	assert.Equal(t, `a\"\\\u00e9\ud83d\ude00\u000a~`, testkit.ASCIIJSON("a\"\\é😀\n~"))
}

func TestKeyPieces(t *testing.T) {
	assert.Nil(t, testkit.KeyPieces("abcdef"))
	assert.Equal(t, []string{"sEcReT"}, testkit.KeyPieces("sEcReT-k3y"))
	assert.Equal(t, []string{"ab cdé", "ab%20cd%C3%A9", "ab+cd%C3%A9", `ab cd\u00e9`}, testkit.KeyPieces("ab cdéfg"))
}

// AssertNoKey fails for every spelling and piece of the key, in any case,
// and passes for text without them.
func TestAssertNoKey(t *testing.T) {
	for _, key := range testkit.LeakKeys {
		leaks := append(testkit.KeySpellings(key), testkit.KeyPieces(key)...)
		leaks = append(leaks, strings.ToUpper(key), strings.ToLower(key[:6]), fmt.Sprintf("%q", key), url.PathEscape(key))
		for _, s := range leaks {
			f := &fakeT{}
			f.run(func(t testing.TB) { testkit.AssertNoKey(t, key, "text", "before "+s+" after") })
			assert.True(t, f.failed(), "key %q in %q not found", key, s)
			assert.Contains(t, f.failures(), "text leaks the key")
		}
		f := &fakeT{}
		f.run(func(t testing.TB) { testkit.AssertNoKey(t, key, "text", "https://node.example/REDACTED/v1 sEcRe k3y") })
		assert.False(t, f.failed(), f.failures())
	}
}

type wrapped struct{ errs []error }

func (w wrapped) Error() string   { return "joined" }
func (w wrapped) Unwrap() []error { return w.errs }

// AssertErrNoKey looks into the whole chain and the typed errors' fields.
func TestAssertErrNoKey(t *testing.T) {
	const key = "sEcReT-k3y"
	hidden := []error{
		&nodeaccess.HTTPError{StatusCode: 500, Body: []byte("at /sEcReT-k3y/")},
		&nodeaccess.HTTPError{StatusCode: 301, Location: "https://x/sEcReT-k3y"},
		&nodeaccess.RPCError{Code: 1, Data: "sEcReT-k3y"},
		&url.Error{Op: "Get", URL: "https://x/sEcReT", Err: errors.New("refused")},
		wrapped{[]error{errors.New("a"), fmt.Errorf("b: %w", errors.New("sEcReT-k3y"))}},
	}
	for _, e := range hidden {
		f := &fakeT{}
		f.run(func(t testing.TB) {
			testkit.AssertErrNoKey(t, key, &nodeaccess.OpError{Chain: "evm", Op: "eth_call", Err: e})
		})
		assert.True(t, f.failed(), "%#v", e)
	}
	f := &fakeT{}
	f.run(func(t testing.TB) { testkit.AssertErrNoKey(t, key, nil) })
	assert.True(t, f.failed(), "a nil error passes")

	f = &fakeT{}
	f.run(func(t testing.TB) {
		testkit.AssertErrNoKey(t, key, &nodeaccess.OpError{Chain: "evm", Op: "eth_call", Err: &nodeaccess.HTTPError{StatusCode: 503, URL: "https://x/REDACTED"}})
	})
	assert.False(t, f.failed(), f.failures())
}

func TestWalkErr(t *testing.T) {
	inner := errors.New("inner")
	var seen []error
	testkit.WalkErr(fmt.Errorf("outer: %w", wrapped{[]error{inner, nil}}), func(e error) { seen = append(seen, e) })
	require.Len(t, seen, 3)
	assert.Same(t, inner, seen[2])
}

func TestRequireInputError(t *testing.T) {
	good := &nodeaccess.OpError{Chain: "ton", Op: "accountStates", Err: &nodeaccess.InputError{Arg: "address", Reason: "bad"}}
	f := &fakeT{}
	f.run(func(t testing.TB) {
		oe, ie := testkit.RequireInputError(t, good, "address")
		assert.Equal(t, "ton", oe.Chain)
		assert.Equal(t, "bad", ie.Reason)
	})
	assert.False(t, f.failed(), f.failures())

	for name, tc := range map[string]struct {
		err error
		arg string
	}{
		"nil":         {nil, "address"},
		"other arg":   {good, "limit"},
		"not input":   {&nodeaccess.OpError{Chain: "ton", Op: "x", Err: nodeaccess.ErrUnavailable}, "address"},
		"no OpError":  {&nodeaccess.InputError{Arg: "address"}, "address"},
		"plain error": {errors.New("invalid input"), "address"},
	} {
		f := &fakeT{}
		f.run(func(t testing.TB) { testkit.RequireInputError(t, tc.err, tc.arg) })
		assert.True(t, f.stopped, name)
	}
}
