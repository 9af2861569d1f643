package testkit_test

import (
	"context"
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

// shown is a client that prints what it was made with.
type shown string

func (s shown) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(s)) }

// guessing is the rule NewFromURL had before issue 11: the last segment is
// the key, whatever it is, and the rest of the URL is the base.
func guessing(endpoint string, _ nodeaccess.Option) (fmt.Formatter, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" || u.RawQuery != "" {
		return nil, fmt.Errorf("x: %w", &nodeaccess.InputError{Arg: "endpoint", Reason: "does not parse"})
	}
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	i := strings.LastIndexByte(p, '/')
	if i < 0 || i == len(p)-1 {
		return nil, fmt.Errorf("x: %w", &nodeaccess.InputError{Arg: "endpoint", Reason: "no key"})
	}
	return shown(u.Scheme + "://" + u.Host + p[:i] + "/REDACTED"), nil
}

// quoting takes only http://host/<KEY>, for the leak keys, but quotes the
// URL it refuses.
func quoting(endpoint string, _ nodeaccess.Option) (fmt.Formatter, error) {
	for _, k := range testkit.LeakKeys {
		host, rest, ok := strings.Cut(strings.TrimPrefix(endpoint, "http://"), "/")
		if strings.HasPrefix(endpoint, "http://") && ok && !strings.ContainsAny(host, "@ ") &&
			(rest == url.PathEscape(k) || rest == url.PathEscape(k)+"/") {
			return shown("http://" + host + "/REDACTED"), nil
		}
	}
	return nil, &nodeaccess.InputError{Arg: "endpoint", Reason: fmt.Sprintf("%q is not https://host/<KEY>", endpoint)}
}

// CheckNewFromURL fails a NewFromURL that guesses where the key is, and
// one whose refusal quotes the URL.
func TestCheckNewFromURLFails(t *testing.T) {
	check := func(newFn func(string, nodeaccess.Option) (fmt.Formatter, error)) string {
		f := &fakeT{}
		f.run(func(t testing.TB) {
			testkit.CheckNewFromURL(t, testkit.NewFromURLCheck{
				New:    newFn,
				Shapes: map[string][]string{"{key}": {"{key}"}},
				Call:   func(context.Context, fmt.Formatter) error { return errors.New("no request made") },
			})
		})
		require.True(t, f.failed())
		return f.failures()
	}
	got := check(guessing)
	assert.Contains(t, got, `accepted "http://127.0.0.1:`)
	assert.Contains(t, got, `/sEcReT-k3y/rpc", which is not a documented shape`)
	assert.Contains(t, got, "client from an undocumented shape leaks the key")

	got = check(quoting)
	assert.NotContains(t, got, "which is not a documented shape")
	assert.Contains(t, got, "refusal leaks the key")
	assert.Contains(t, got, "quotes a segment")
	// The fakes send nothing, and say so: the wire check fails too.
	assert.Contains(t, got, "two attempts at each documented path")
}

// The corpus holds the issue's own URLs, and no URL twice.
func TestHostileEndpoints(t *testing.T) {
	eps := testkit.HostileEndpoints("https://host", "KEY")
	for _, want := range []string{"https://host/KEY/info", "https://host/KEY/rpc", "https://host/v2/KEY/eth", "https://host/v2/KEY",
		"https://host/KEY", "https://host/KEY/evm/", "https://host/beacon/KEY", "https://host/evm", "https://host//KEY",
		"https://host/KEY%2Fevm", "https://host/KEY?x=1", "https://KEY@host/KEY", "https://host/%2e/KEY", "https://host/KEY/EVM"} {
		assert.Contains(t, eps, want)
	}
	assert.NotContains(t, eps, "https://host/rpc", "a plausible key of its own")
	seen := map[string]bool{}
	for _, e := range eps {
		require.False(t, seen[e], e)
		seen[e] = true
	}
}
