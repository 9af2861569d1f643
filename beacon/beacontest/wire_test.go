package beacontest_test

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The exact wire: path, status, headers and body, by raw HTTP.
func TestWireSuccess(t *testing.T) {
	st := smallState(beacon.Deneb, 42, 0, 0, 1)
	srv := start(t, beacontest.WithStates(st))
	ssz, err := marshalSSZ(st)
	require.NoError(t, err)
	js := jsonOf(t, st, beacon.Flags{Finalized: true})
	root, err := beacon.HashTreeRoot(st)
	require.NoError(t, err)
	base := srv.URL + "/beacon/" + testKey + "/eth/v2/debug/beacon/states/"

	cases := []struct {
		accept []string
		ssz    bool
	}{
		{nil, false},
		{[]string{"application/json"}, false},
		{[]string{"*/*"}, false},
		{[]string{"application/octet-stream"}, true},
		{[]string{"application/octet-stream;q=1,application/json;q=0.9"}, true},
		{[]string{"application/json;q=0.9", "application/octet-stream"}, true},
	}
	for _, id := range []string{"head", "genesis", "finalized", "justified", "42", "0042", string(beacon.RootID(root)), strings.ToUpper(string(beacon.RootID(root))[2:])} {
		if !strings.HasPrefix(id, "0x") && len(id) == 64 {
			id = "0x" + id // the root with upper-case digits
		}
		for _, c := range cases {
			status, h, body := raw(t, http.MethodGet, base+id, c.accept...)
			require.Equal(t, http.StatusOK, status, "%s %q", id, c.accept)
			want, ct := js, "application/json"
			if c.ssz {
				want, ct = ssz, "application/octet-stream"
			}
			assert.Equal(t, ct, h.Get("Content-Type"), "%s %q", id, c.accept)
			assert.Equal(t, "deneb", h.Get("Eth-Consensus-Version"))
			assert.Equal(t, strconv.Itoa(len(want)), h.Get("Content-Length"))
			assert.Equal(t, "Accept", h.Get("Vary"))
			assert.True(t, bytes.Equal(want, body), "%s %q: body", id, c.accept)
		}
	}

	// HEAD: the same headers, no body.
	status, h, body := raw(t, http.MethodHead, base+"head", "application/octet-stream")
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, strconv.Itoa(len(ssz)), h.Get("Content-Length"))
	assert.Equal(t, "deneb", h.Get("Eth-Consensus-Version"))
	assert.Empty(t, body)
}

// Every error carries the beacon error body, as application/json, and no
// Eth-Consensus-Version.
func TestWireErrors(t *testing.T) {
	st := smallState(beacon.Capella, 42, 0, 0, 1)
	srv := start(t, beacontest.WithStates(st))
	base := srv.URL + "/beacon/" + testKey + "/eth/v2/debug/beacon/states/"
	long := strings.Repeat("z", 100)
	cases := []struct {
		method, url string
		accept      []string
		status      int
		message     string
	}{
		{"GET", base + "43", nil, 404, "NOT_FOUND: beacon state at slot 43"},
		{"GET", base + "0x" + strings.Repeat("ab", 32), nil, 404, "NOT_FOUND: beacon state for state root 0x" + strings.Repeat("ab", 32)},
		{"GET", base + "latest", nil, 400, `BAD_REQUEST: invalid state ID: "latest"`},
		{"GET", base + "-1", nil, 400, `BAD_REQUEST: invalid state ID: "-1"`},
		{"GET", base + "0x1234", nil, 400, `BAD_REQUEST: invalid state ID: "0x1234"`},
		{"GET", base + "18446744073709551616", nil, 400, `BAD_REQUEST: invalid state ID: "18446744073709551616"`},
		{"GET", base + "Head", nil, 400, `BAD_REQUEST: invalid state ID: "Head"`},
		{"GET", base + long, nil, 400, `BAD_REQUEST: invalid state ID: "` + long[:80] + `…"`},
		{"GET", base + "head", []string{"text/html"}, 406, "NOT_ACCEPTABLE: the state is served as application/octet-stream (SSZ) or application/json; the request accepts neither"},
		{"GET", base + "head", []string{"application/json;q=0"}, 406, "NOT_ACCEPTABLE: the state is served as application/octet-stream (SSZ) or application/json; the request accepts neither"},
		{"GET", srv.URL + "/beacon/wrong-key/eth/v2/debug/beacon/states/head", nil, 403, "FORBIDDEN: invalid access key"},
		{"GET", srv.URL + "/beacon/" + testKey + "x/eth/v2/debug/beacon/states/head", nil, 403, "FORBIDDEN: invalid access key"},
		{"GET", srv.URL + "/beacon/" + testKey + "/eth/v1/debug/beacon/states/head", nil, 404, "NOT_FOUND: route not found"},
		{"GET", srv.URL + "/" + testKey + "/eth/v2/debug/beacon/states/head", nil, 404, "NOT_FOUND: route not found"},
		{"GET", base + "head/extra", nil, 404, "NOT_FOUND: route not found"},
		{"POST", base + "head", nil, 405, "METHOD_NOT_ALLOWED: method not allowed"},
	}
	for _, c := range cases {
		status, h, body := raw(t, c.method, c.url, c.accept...)
		name := c.method + " " + strings.Replace(c.url, srv.URL, "", 1)
		assert.Equal(t, c.status, status, name)
		assert.Equal(t, "application/json", h.Get("Content-Type"), name)
		assert.Empty(t, h.Get("Eth-Consensus-Version"), name)
		want := `{"code":` + strconv.Itoa(c.status) + `,"message":` + jsonString(c.message) + `,"stacktraces":[]}`
		assert.Equal(t, want, string(body), name)
		assert.Equal(t, strconv.Itoa(len(body)), h.Get("Content-Length"), name)
		assert.NotContains(t, string(body), testKey, name)
		if c.status == 405 {
			assert.Equal(t, "GET, HEAD", h.Get("Allow"))
		}
	}
}

// jsonString is s as encoding/json writes it (the messages hold no
// character it escapes but the quote).
func jsonString(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
