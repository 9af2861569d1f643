package beacon_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"
)

var testRoot = beacon.Root{0xfb, 0x9a, 0xfe, 0x32, 0x15, 0x0f, 0xa3, 0x9f, 0x4b, 0x34, 0x6b, 0xe2, 0x51, 0x9a, 0x67, 0xe2,
	0xa4, 0xf5, 0xef, 0xcd, 0x50, 0xa1, 0xdc, 0x19, 0x2c, 0x3f, 0x6b, 0x3d, 0x01, 0x3d, 0x27, 0x98}

const testRootHex = "0xfb9afe32150fa39f4b346be2519a67e2a4f5efcd50a1dc192c3f6b3d013d2798"

// The exact Accept header of each encoding, on both calls.
func TestAcceptHeaderPerEncoding(t *testing.T) {
	for _, tc := range []struct {
		enc    beacon.Encoding
		accept string
	}{
		{beacon.EncodingAuto, "application/octet-stream;q=1,application/json;q=0.9"},
		{beacon.EncodingSSZ, "application/octet-stream"},
		{beacon.EncodingJSON, "application/json"},
	} {
		t.Run(tc.enc.String(), func(t *testing.T) {
			c := gockClient(t, beacon.WithEncoding(tc.enc))
			mockState(t, "finalized", tc.accept).SetHeader("Content-Type", "application/octet-stream").
				SetHeader("Eth-Consensus-Version", "fulu").BodyString("\x01\x02\x03")
			var buf bytes.Buffer
			d, err := c.DownloadState(context.Background(), beacon.Finalized, &buf, beacon.DownloadOptions{})
			require.NoError(t, err)
			assert.Equal(t, []byte{1, 2, 3}, buf.Bytes())
			assert.Equal(t, beacon.Body{Fork: "fulu", Encoding: beacon.EncodingSSZ, ContentType: "application/octet-stream", Bytes: 3}, d)

			mockState(t, "head", tc.accept).Status(404).SetHeader("Content-Type", "application/json").
				BodyString(`{"code":404,"message":"NOT_FOUND: beacon state at head","stacktraces":[]}`)
			_, _, err = c.State(context.Background(), beacon.Head, beacon.StateOptions{})
			assert.ErrorIs(t, err, nodeaccess.ErrNotFound)
		})
	}
}

// Each state id form in the path, on State (answered 404, which names the
// id) and on DownloadState.
func TestStateIDInPath(t *testing.T) {
	for _, tc := range []struct {
		id   beacon.StateID
		wire string
	}{
		{beacon.Head, "head"},
		{beacon.Genesis, "genesis"},
		{beacon.Finalized, "finalized"},
		{beacon.Justified, "justified"},
		{beacon.SlotID(0), "0"},
		{beacon.SlotID(7340032), "7340032"},
		{beacon.SlotID(1<<64 - 1), "18446744073709551615"},
		{beacon.RootID(testRoot), testRootHex},
		{mustParse(t, "0XFB9AFE32150FA39F4B346BE2519A67E2A4F5EFCD50A1DC192C3F6B3D013D2798"), testRootHex},
		{mustParse(t, "00042"), "42"},
	} {
		t.Run(tc.wire, func(t *testing.T) {
			c := gockClient(t)
			mockState(t, tc.wire, acceptAuto).Status(404).SetHeader("Content-Type", "application/json").
				BodyString(`{"code":404,"message":"NOT_FOUND: beacon state for ` + tc.wire + `","stacktraces":[]}`)
			_, _, err := c.State(context.Background(), tc.id, beacon.StateOptions{})
			require.Error(t, err)
			assert.Equal(t, "beacon: getStateV2: state "+tc.wire+": HTTP 404 Not Found: NOT_FOUND: beacon state for "+tc.wire, err.Error())
			var he *nodeaccess.HTTPError
			require.ErrorAs(t, err, &he)
			assert.Equal(t, "NOT_FOUND: beacon state for "+tc.wire, he.Message)
			assert.NotErrorIs(t, err, beacon.ErrDebugDisabled)

			mockState(t, tc.wire, acceptAuto).SetHeader("Content-Type", "application/json").
				SetHeader("Eth-Consensus-Version", "phase0").BodyString(`{"version":"phase0"}`)
			var buf bytes.Buffer
			_, err = c.DownloadState(context.Background(), tc.id, &buf, beacon.DownloadOptions{})
			require.NoError(t, err)
			assert.Equal(t, `{"version":"phase0"}`, buf.String())
		})
	}
}

func mustParse(t *testing.T, s string) beacon.StateID {
	id, err := beacon.ParseStateID(s)
	require.NoError(t, err)
	return id
}

// Both content types, whatever was asked; the JSON envelope's version and
// flags come from the start of the body.
func TestDownloadContentTypes(t *testing.T) {
	ssz := string(patternBody(5000))
	const js = `{"version":"deneb","execution_optimistic":false,"finalized":true,"data":{"genesis_time":"1"}}`
	const late = `{"version":"altair","data":{},"finalized":true,"execution_optimistic":true}`
	for _, tc := range []struct {
		name, ctype, fork, body string
		enc                     beacon.Encoding
		want                    beacon.Body
	}{
		{"ssz", "application/octet-stream", "fulu", ssz, beacon.EncodingAuto,
			beacon.Body{Fork: "fulu", Encoding: beacon.EncodingSSZ, ContentType: "application/octet-stream", Bytes: 5000}},
		{"json", "application/json", "deneb", js, beacon.EncodingAuto,
			beacon.Body{Fork: "deneb", Encoding: beacon.EncodingJSON, ContentType: "application/json", Bytes: int64(len(js)), Flags: &beacon.Flags{Finalized: true}}},
		{"json when ssz was asked", "application/json; charset=utf-8", "deneb", js, beacon.EncodingSSZ,
			beacon.Body{Fork: "deneb", Encoding: beacon.EncodingJSON, ContentType: "application/json; charset=utf-8", Bytes: int64(len(js)), Flags: &beacon.Flags{Finalized: true}}},
		{"json without version header", "application/json", "", js, beacon.EncodingJSON,
			beacon.Body{Fork: "deneb", Encoding: beacon.EncodingJSON, ContentType: "application/json", Bytes: int64(len(js)), Flags: &beacon.Flags{Finalized: true}}},
		{"json, flags after data", "application/json", "", late, beacon.EncodingJSON,
			beacon.Body{Fork: "altair", Encoding: beacon.EncodingJSON, ContentType: "application/json", Bytes: int64(len(late)), Flags: &beacon.Flags{ExecutionOptimistic: true, Finalized: true}}},
		{"ssz without content type when ssz was asked", "", "capella", ssz, beacon.EncodingSSZ,
			beacon.Body{Fork: "capella", Encoding: beacon.EncodingSSZ, Bytes: 5000}},
		{"ssz in upper case", "Application/Octet-Stream", "bellatrix", ssz, beacon.EncodingAuto,
			beacon.Body{Fork: "bellatrix", Encoding: beacon.EncodingSSZ, ContentType: "Application/Octet-Stream", Bytes: 5000}},
		{"heze", "application/octet-stream", "heze", ssz, beacon.EncodingAuto,
			beacon.Body{Fork: "heze", Encoding: beacon.EncodingSSZ, ContentType: "application/octet-stream", Bytes: 5000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := gockClient(t, beacon.WithEncoding(tc.enc))
			accept := map[beacon.Encoding]string{beacon.EncodingAuto: acceptAuto, beacon.EncodingSSZ: "application/octet-stream", beacon.EncodingJSON: "application/json"}[tc.enc]
			r := mockState(t, "head", accept)
			if tc.ctype != "" {
				r.SetHeader("Content-Type", tc.ctype)
			}
			if tc.fork != "" {
				r.SetHeader("Eth-Consensus-Version", tc.fork)
			}
			r.BodyString(tc.body)
			var buf bytes.Buffer
			d, err := c.DownloadState(context.Background(), beacon.Head, &buf, beacon.DownloadOptions{})
			require.NoError(t, err)
			assert.Equal(t, tc.body, buf.String())
			assert.Equal(t, tc.want, d)
		})
	}
}

// An SSZ body needs the version header: without it both calls fail before
// reading or writing anything.
func TestSSZWithoutVersionHeader(t *testing.T) {
	c := gockClient(t)
	mockState(t, "head", acceptAuto).SetHeader("Content-Type", "application/octet-stream").BodyString("abc")
	_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.Error(t, err)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.Equal(t, "beacon: getStateV2: invalid response: an SSZ body without an Eth-Consensus-Version header cannot be decoded (the header is the only place that names its fork)", err.Error())

	mockState(t, "head", acceptAuto).SetHeader("Content-Type", "application/octet-stream").BodyString("abc")
	var buf bytes.Buffer
	_, err = c.DownloadState(context.Background(), beacon.Head, &buf, beacon.DownloadOptions{})
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.Contains(t, err.Error(), "without an Eth-Consensus-Version header")
	assert.Zero(t, buf.Len(), "nothing written")
}

// A fork this package does not decode is a clear error on State, and
// DownloadState still saves it.
func TestUnsupportedVersion(t *testing.T) {
	for _, ctype := range []string{"application/octet-stream", "application/json"} {
		c := gockClient(t)
		mockState(t, "head", acceptAuto).SetHeader("Content-Type", ctype).
			SetHeader("Eth-Consensus-Version", "heze").BodyString("body")
		_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
		require.Error(t, err, ctype)
		assert.ErrorIs(t, err, beacon.ErrUnsupportedVersion, ctype)
		// Issue 11 point 7: every operation error matches a root sentinel;
		// an answer this package cannot read is an invalid response.
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, ctype)
		assert.Equal(t, `beacon: getStateV2: invalid response: unsupported version "heze": this package decodes phase0 to gloas (DownloadState still saves such a state undecoded)`, err.Error())
	}
}

// A 200 whose Content-Type is neither SSZ nor JSON is refused before
// anything is read or written.
func TestUnexpectedContentType(t *testing.T) {
	for _, ctype := range []string{"text/html; charset=utf-8", "text/plain", "application/ssz", "application/json-seq", ";;"} {
		c := gockClient(t)
		mockState(t, "head", acceptAuto).SetHeader("Content-Type", ctype).SetHeader("Eth-Consensus-Version", "fulu").BodyString("<html></html>")
		_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
		require.Error(t, err, ctype)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, ctype)
		assert.Contains(t, err.Error(), `is neither application/octet-stream (SSZ) nor application/json`, ctype)

		mockState(t, "head", acceptAuto).SetHeader("Content-Type", ctype).SetHeader("Eth-Consensus-Version", "fulu").BodyString("<html></html>")
		var buf bytes.Buffer
		_, err = c.DownloadState(context.Background(), beacon.Head, &buf, beacon.DownloadOptions{})
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, ctype)
		assert.Zero(t, buf.Len(), ctype)
	}
	// No Content-Type at all, when both were acceptable.
	c := gockClient(t)
	mockState(t, "head", acceptAuto).SetHeader("Eth-Consensus-Version", "fulu").BodyString("x")
	_, err := c.DownloadState(context.Background(), beacon.Head, &bytes.Buffer{}, beacon.DownloadOptions{})
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.Contains(t, err.Error(), "the response has no Content-Type")
}

// The beacon API's error bodies: the message surfaces, 404 for a state
// names it, a route that is not served is told apart.
func TestErrorBodies(t *testing.T) {
	long := `{"code":404,"message":"NOT_FOUND: beacon state for slot 9","stacktraces":["` + strings.Repeat("at x.y(Z.java:1) ", 400) + `"]}`
	for _, tc := range []struct {
		name     string
		status   int
		ctype    string
		body     string
		err      string // the whole error's text ("": not checked)
		message  string // HTTPError.Message
		disabled bool
		is       []error
		isNot    []error
	}{
		{"lighthouse state not found", 404, "application/json", `{"code":404,"message":"NOT_FOUND: beacon state for slot 9","stacktraces":[]}`,
			"beacon: getStateV2: state 9: HTTP 404 Not Found: NOT_FOUND: beacon state for slot 9", "NOT_FOUND: beacon state for slot 9", false,
			[]error{nodeaccess.ErrNotFound}, []error{beacon.ErrDebugDisabled, nodeaccess.ErrUnavailable}},
		{"prysm state not found, code last", 404, "application/json", `{"message":"Could not get state: state not found","code":404}`,
			"beacon: getStateV2: state 9: HTTP 404 Not Found: Could not get state: state not found", "Could not get state: state not found", false,
			[]error{nodeaccess.ErrNotFound}, []error{beacon.ErrDebugDisabled}},
		{"code as a string", 404, "application/json", `{"code":"404","message":"State not found"}`,
			"beacon: getStateV2: state 9: HTTP 404 Not Found: State not found", "State not found", false,
			[]error{nodeaccess.ErrNotFound}, []error{beacon.ErrDebugDisabled}},
		{"body cut after 4 KiB", 404, "application/json", long,
			"beacon: getStateV2: state 9: HTTP 404 Not Found: NOT_FOUND: beacon state for slot 9", "NOT_FOUND: beacon state for slot 9", false,
			[]error{nodeaccess.ErrNotFound}, []error{beacon.ErrDebugDisabled}},
		// A route that is not served matches ErrDebugDisabled, and what its
		// status matches (the error wraps the HTTPError): the 404s
		// nodeaccess.ErrNotFound, 501 nodeaccess.ErrUnavailable.
		{"bare 404", 404, "text/plain; charset=utf-8", "404 page not found\n",
			"beacon: getStateV2: the node does not serve the debug API (/eth/v2/debug/beacon/states); enable it on the node or use a provider that serves it: HTTP 404 Not Found: 404 page not found", "", true,
			[]error{beacon.ErrDebugDisabled, nodeaccess.ErrNotFound}, nil},
		{"empty 404", 404, "", "",
			"beacon: getStateV2: the node does not serve the debug API (/eth/v2/debug/beacon/states); enable it on the node or use a provider that serves it: HTTP 404 Not Found", "", true,
			[]error{beacon.ErrDebugDisabled, nodeaccess.ErrNotFound}, nil},
		{"json 404 without a message", 404, "application/json", `{"code":404}`,
			"", "", true, []error{beacon.ErrDebugDisabled, nodeaccess.ErrNotFound}, nil},
		{"route not found (fastify)", 404, "application/json", `{"message":"Route GET:/eth/v2/debug/beacon/states/9 not found","error":"Not Found","statusCode":404}`,
			"beacon: getStateV2: the node does not serve the debug API (/eth/v2/debug/beacon/states); enable it on the node or use a provider that serves it: HTTP 404 Not Found: Route GET:/eth/v2/debug/beacon/states/9 not found", "Route GET:/eth/v2/debug/beacon/states/9 not found", true,
			[]error{beacon.ErrDebugDisabled, nodeaccess.ErrNotFound}, nil},
		{"405", 405, "application/json", `{"code":405,"message":"Method Not Allowed"}`,
			"beacon: getStateV2: the node does not serve the debug API (/eth/v2/debug/beacon/states); enable it on the node or use a provider that serves it: HTTP 405 Method Not Allowed: Method Not Allowed", "Method Not Allowed", true,
			[]error{beacon.ErrDebugDisabled}, []error{nodeaccess.ErrNotFound}},
		{"501", 501, "text/plain", "not implemented",
			"", "", true, []error{beacon.ErrDebugDisabled, nodeaccess.ErrUnavailable}, nil},
		{"400 invalid state id", 400, "application/json", `{"code":400,"message":"Invalid state ID: 9","stacktraces":[]}`,
			"beacon: getStateV2: state 9: HTTP 400 Bad Request: Invalid state ID: 9", "Invalid state ID: 9", false,
			nil, []error{nodeaccess.ErrInvalidInput, nodeaccess.ErrNotFound, beacon.ErrDebugDisabled}},
		{"406", 406, "application/json", `{"code":406,"message":"Accepted media type not supported"}`,
			"beacon: getStateV2: state 9: HTTP 406 Not Acceptable: Accepted media type not supported (the node serves the state in neither SSZ nor JSON, though the request accepted both)", "Accepted media type not supported", false,
			nil, []error{nodeaccess.ErrNotFound}},
		{"500", 500, "application/json", `{"code":500,"message":"Internal server error: state regen failed","stacktraces":["a","b"]}`,
			"beacon: getStateV2: state 9: HTTP 500 Internal Server Error: Internal server error: state regen failed", "Internal server error: state regen failed", false,
			[]error{nodeaccess.ErrUnavailable}, []error{beacon.ErrDebugDisabled}},
		{"500 not json", 500, "text/html", "<html>oops</html>",
			"beacon: getStateV2: state 9: HTTP 500 Internal Server Error: <html>oops</html>", "", false,
			[]error{nodeaccess.ErrUnavailable}, nil},
		{"401", 401, "application/json", `{"code":401,"message":"unauthorized"}`,
			"beacon: getStateV2: state 9: HTTP 401 Unauthorized: unauthorized", "unauthorized", false,
			[]error{nodeaccess.ErrUnauthorized}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := gockClient(t)
			r := mockState(t, "9", acceptAuto).Status(tc.status)
			if tc.ctype != "" {
				r.SetHeader("Content-Type", tc.ctype)
			}
			r.BodyString(tc.body)
			_, _, err := c.State(context.Background(), beacon.SlotID(9), beacon.StateOptions{})
			require.Error(t, err)
			if tc.err != "" {
				assert.Equal(t, tc.err, err.Error())
			}
			assert.Equal(t, tc.disabled, errors.Is(err, beacon.ErrDebugDisabled))
			var he *nodeaccess.HTTPError
			require.ErrorAs(t, err, &he)
			assert.Equal(t, tc.status, he.StatusCode)
			assert.Equal(t, tc.message, he.Message)
			assert.Equal(t, "https://node.example/beacon/REDACTED/eth/v2/debug/beacon/states/9", he.URL)
			var oe *nodeaccess.OpError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, "beacon", oe.Chain)
			assert.Equal(t, "getStateV2", oe.Op)
			for _, s := range tc.is {
				assert.ErrorIs(t, err, s)
			}
			for _, s := range tc.isNot {
				assert.NotErrorIs(t, err, s)
			}

			// DownloadState reports the same error and writes nothing.
			r = mockState(t, "9", acceptAuto).Status(tc.status)
			if tc.ctype != "" {
				r.SetHeader("Content-Type", tc.ctype)
			}
			r.BodyString(tc.body)
			var buf bytes.Buffer
			_, derr := c.DownloadState(context.Background(), beacon.SlotID(9), &buf, beacon.DownloadOptions{})
			assert.Equal(t, err.Error(), derr.Error())
			assert.Zero(t, buf.Len())
		})
	}
}

// 429 and 503 are retried by the transport; the last error keeps the
// server's message when the retries run out.
func TestRetriedStatuses(t *testing.T) {
	c := gockClient(t, fast)
	mockState(t, "head", acceptAuto).Status(503).SetHeader("Content-Type", "application/json").BodyString(`{"code":503,"message":"Node is syncing"}`)
	mockState(t, "head", acceptAuto).Status(429).BodyString("slow down")
	mockState(t, "head", acceptAuto).SetHeader("Content-Type", "application/octet-stream").SetHeader("Eth-Consensus-Version", "fulu").BodyString("ok")
	var buf bytes.Buffer
	d, err := c.DownloadState(context.Background(), beacon.Head, &buf, beacon.DownloadOptions{})
	require.NoError(t, err)
	assert.Equal(t, "ok", buf.String())
	assert.Equal(t, int64(2), d.Bytes)

	for range 3 {
		mockState(t, "head", acceptAuto).Status(503).SetHeader("Content-Type", "application/json").BodyString(`{"code":503,"message":"Node is syncing"}`)
	}
	_, _, err = c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.Error(t, err)
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.Equal(t, "beacon: getStateV2: state head: HTTP 503 Service Unavailable: Node is syncing", err.Error())
}

// Bad input sends nothing: gock has no mock, and any request would be
// unmatched.
func TestBadInputSendsNothing(t *testing.T) {
	c := gockClient(t)
	check := func(err error, arg string) {
		t.Helper()
		oe, _ := testkit.RequireInputError(t, err, arg)
		assert.Equal(t, "getStateV2", oe.Op)
		testkit.AssertErrNoKey(t, testKey, err)
	}
	_, _, err := c.State(context.Background(), beacon.StateID(""), beacon.StateOptions{})
	check(err, "stateID")
	assert.Equal(t, "beacon: getStateV2: invalid input: stateID: the zero StateID names no state (use Head, Genesis, Finalized, Justified, SlotID, RootID or ParseStateID)", err.Error())
	_, err = c.DownloadState(context.Background(), beacon.StateID(""), &bytes.Buffer{}, beacon.DownloadOptions{})
	check(err, "stateID")
	_, err = c.DownloadState(context.Background(), beacon.Head, nil, beacon.DownloadOptions{})
	check(err, "w")
	assert.Empty(t, gock.GetUnmatchedRequests())
}

// A cancelled context returns the context's error, nothing sent.
func TestCancelledContext(t *testing.T) {
	c, err := beacon.New(testBase, testKey, nodeaccess.WithRoundTripper(testkit.Refuse{T: t}))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = c.State(ctx, beacon.Head, beacon.StateOptions{})
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
	_, err = c.DownloadState(ctx, beacon.Head, &bytes.Buffer{}, beacon.DownloadOptions{})
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
}

// A redirect is not followed (the key would travel with it); the error
// says where it pointed, with the key masked.
func TestRedirectNotFollowed(t *testing.T) {
	srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Location", "https://other.example/beacon/"+testKey+"/x")
		w.WriteHeader(http.StatusTemporaryRedirect)
		_, _ = w.Write([]byte(`{"code":307,"message":"moved"}`))
	})
	c := newClient(t, srv.URL)
	_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.Error(t, err)
	assert.Equal(t, 1, cnt.Get())
	assert.Equal(t, "beacon: getStateV2: state head: HTTP 307 Temporary Redirect (redirect to https://other.example/beacon/REDACTED/x): moved", err.Error())
}

// A StateID is a string a caller can write by hand: every call parses it
// before sending. One that is not a state id is refused with an error that
// quotes it, and nothing is sent; one in a non-canonical spelling (leading
// zeros, upper-case hex) goes out in the canonical one.
func TestHandMadeStateIDChecked(t *testing.T) {
	c := gockClient(t)
	for _, id := range []beacon.StateID{"latest", "Head", " head", "head/../genesis", "-1", "0x12", "1e3", "18446744073709551616"} {
		_, _, err := c.State(context.Background(), id, beacon.StateOptions{})
		testkit.RequireInputError(t, err, "stateID")
		assert.Contains(t, err.Error(), strconv.Quote(string(id)))
		_, err = c.DownloadState(context.Background(), id, &bytes.Buffer{}, beacon.DownloadOptions{})
		testkit.RequireInputError(t, err, "stateID")
	}
	assert.Empty(t, gock.GetUnmatchedRequests())

	const accept = "application/octet-stream;q=1,application/json;q=0.9"
	for id, wire := range map[beacon.StateID]string{
		"007": "7",
		beacon.StateID(strings.ToUpper(testRootHex)): testRootHex,
	} {
		mockState(t, wire, accept).Status(404).SetHeader("Content-Type", "application/json").
			BodyString(`{"code":404,"message":"NOT_FOUND: beacon state","stacktraces":[]}`)
		_, err := c.DownloadState(context.Background(), id, &bytes.Buffer{}, beacon.DownloadOptions{})
		assert.ErrorIs(t, err, nodeaccess.ErrNotFound, "%s", id)
	}
}

// The 406 hint matches the encoding the call asked for.
func TestNotAcceptableHint(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotAcceptable)
		_, _ = io.WriteString(w, `{"code":406,"message":"Accepted media type not supported"}`)
	}))
	defer srv.Close()
	for enc, want := range map[beacon.Encoding]string{
		beacon.EncodingAuto: " (the node serves the state in neither SSZ nor JSON, though the request accepted both)",
		beacon.EncodingSSZ:  " (the node cannot serve SSZ, which WithEncoding(EncodingSSZ) asked for; WithEncoding(EncodingAuto) accepts JSON too)",
		beacon.EncodingJSON: " (the node cannot serve JSON, which WithEncoding(EncodingJSON) asked for; WithEncoding(EncodingAuto) accepts SSZ too)",
	} {
		c, err := beacon.New(srv.URL, "k3y", beacon.WithEncoding(enc), nodeaccess.WithMaxAttempts(1))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = c.State(context.Background(), beacon.Head, beacon.StateOptions{})
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Fatalf("%s: err = %v, want the suffix %q", enc, err, want)
		}
		_, err = c.DownloadState(context.Background(), beacon.Head, io.Discard, beacon.DownloadOptions{})
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Fatalf("%s: download: err = %v, want the suffix %q", enc, err, want)
		}
	}
}
