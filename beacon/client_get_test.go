package beacon_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"
)

// headerAnswer is the beacon API's getBlockHeader answer, whose data the
// package's containers decode.
type headerAnswer struct {
	ExecutionOptimistic bool `json:"execution_optimistic"`
	Finalized           bool `json:"finalized"`
	Data                struct {
		Root      beacon.Root `json:"root"`
		Canonical bool        `json:"canonical"`
		Header    struct {
			Message   beacon.BeaconBlockHeader `json:"message"`
			Signature beacon.BLSSignature      `json:"signature"`
		} `json:"header"`
	} `json:"data"`
}

// Get sends the path below the key, each segment escaped, the query as
// given, Accept: application/json and nothing else, and decodes a real
// mainnet header (recorded by another SDK) into the package's own types:
// its hash tree root is the root the node named.
func TestGetRealHeader(t *testing.T) {
	data, err := os.ReadFile("testdata/header-585321.json")
	require.NoError(t, err)
	body := `{"execution_optimistic":false,"finalized":true,"data":` + string(data) + `}`
	c := gockClient(t)
	gock.New(testBase).Get(".*").
		AddMatcher(testkit.ExactGET(t, "/beacon/"+testKey+"/eth/v1/beacon/headers/585321", "", map[string]string{"Accept": "application/json", "User-Agent": "nodeaccess-go/" + nodeaccess.Version})).
		Reply(200).SetHeader("Content-Type", "application/json").BodyString(body)
	var got headerAnswer
	require.NoError(t, c.Get(context.Background(), &got, "/eth/v1/beacon/headers/585321", nil))
	assert.True(t, got.Finalized)
	assert.True(t, got.Data.Canonical)
	assert.Equal(t, beacon.Slot(585321), got.Data.Header.Message.Slot)
	assert.Equal(t, beacon.ValidatorIndex(29787), got.Data.Header.Message.ProposerIndex)
	root, err := beacon.HashTreeRoot(got.Data.Header.Message)
	require.NoError(t, err)
	assert.Equal(t, got.Data.Root, root)
	assert.Equal(t, "0xbc354f1a5f27f8d096eee9e6b6139e1b730385f9752513832a57c9849a149df7", root.String())
}

// The query is encoded as url.Values does, the path's segments are
// escaped one by one, a leading '/' is optional, out may be nil or a
// *json.RawMessage.
func TestGetWire(t *testing.T) {
	c := gockClient(t)
	headers := map[string]string{"Accept": "application/json"}
	gock.New(testBase).Get(".*").
		AddMatcher(testkit.ExactGET(t, "/beacon/"+testKey+"/eth/v1/beacon/states/head/validators", "id=0x01&id=7&status=active_ongoing", headers)).
		Reply(200).SetHeader("Content-Type", "application/json").BodyString(`{"data":[]}`)
	gock.New(testBase).Get(".*").
		AddMatcher(testkit.ExactGET(t, "/beacon/"+testKey+"/eth/v1/node/a%20b/%C3%A9", "", headers)).
		Reply(200).SetHeader("Content-Type", "application/json").BodyString(`{"data":{"version":"x"}}`)
	gock.New(testBase).Get(".*").
		AddMatcher(testkit.ExactGET(t, "/beacon/"+testKey+"/eth/v1/node/version", "", headers)).
		Reply(200).SetHeader("Content-Type", "application/json").BodyString(`{"data":{"version":"Lighthouse/v8.0.0"}}`)
	var raw json.RawMessage
	q := url.Values{"status": {"active_ongoing"}, "id": {"0x01", "7"}}
	require.NoError(t, c.Get(context.Background(), &raw, "eth/v1/beacon/states/head/validators", q))
	assert.JSONEq(t, `{"data":[]}`, string(raw))
	require.NoError(t, c.Get(context.Background(), nil, "/eth/v1/node/a b/é", nil))
	var v struct {
		Data struct{ Version string } `json:"data"`
	}
	require.NoError(t, c.Get(context.Background(), &v, "/eth/v1/node/version", nil))
	assert.Equal(t, "Lighthouse/v8.0.0", v.Data.Version)
}

// Bad input is an InputError naming what is wrong (never the key), and
// nothing is sent (gock fails on any request).
func TestGetBadInput(t *testing.T) {
	rec := &testkit.Recorder{}
	c := gockClient(t, nodeaccess.WithHook(rec.Hook))
	for _, tc := range []struct {
		path  string
		query url.Values
		want  string
	}{
		{"", nil, `beacon: /: invalid input: path: empty`},
		{"/", nil, `beacon: /: invalid input: path: empty`},
		{"/eth/v1//node", nil, `beacon: /eth/v1//node: invalid input: path: "/eth/v1//node": segment 3 is empty`},
		{"/eth/v1/node/", nil, `beacon: /eth/v1/node/: invalid input: path: "/eth/v1/node/": segment 4 is empty`},
		{"/eth/../debug", nil, `beacon: /eth/../debug: invalid input: path: "/eth/../debug": segment 2 is ".."`},
		{"/eth/./v1", nil, `beacon: /eth/./v1: invalid input: path: "/eth/./v1": segment 2 is "."`},
		{"/eth/v1/node?x=1", nil, `beacon: /eth/v1/node?x=1: invalid input: path: "/eth/v1/node?x=1": segment 3 holds '?', '#' or '%' (give the query as query; the path is sent escaped)`},
		{"/eth/v1/node%2Fx", nil, `beacon: /eth/v1/node%2Fx: invalid input: path: "/eth/v1/node%2Fx": segment 3 holds '?', '#' or '%' (give the query as query; the path is sent escaped)`},
		{"/eth/v1/" + testKey + "/x", nil, `beacon: /eth/v1/REDACTED/x: invalid input: path: holds the access key`},
		{"/eth/v1/node", url.Values{"k": {"a" + testKey}}, `beacon: /eth/v1/node: invalid input: query: holds the access key`},
		{"/eth/v1/node", url.Values{testKey: {"1"}}, `beacon: /eth/v1/node: invalid input: query: holds the access key`},
	} {
		err := c.Get(context.Background(), nil, tc.path, tc.query)
		require.Error(t, err, tc.path)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, tc.path)
		var ie *nodeaccess.InputError
		assert.ErrorAs(t, err, &ie, tc.path)
		assert.Equal(t, tc.want, err.Error())
		testkit.AssertErrNoKey(t, testKey, err)
	}
	assert.Empty(t, rec.Attempts(), "nothing sent")
}

// An error response is a *nodeaccess.HTTPError with the node's message; a
// body that is not JSON, or does not fit out, matches ErrInvalidResponse.
func TestGetErrors(t *testing.T) {
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/missing"):
			w.WriteHeader(404)
			_, _ = w.Write([]byte(`{"code":404,"message":"NOT_FOUND: block 9 (key ` + testKey + `)"}`))
		case strings.HasSuffix(r.URL.Path, "/html"):
			_, _ = w.Write([]byte(`<html>` + testKey + `</html>`))
		default:
			_, _ = w.Write([]byte(`{"data":{"slot":"x"}}`))
		}
	})
	c := newClient(t, srv.URL, nodeaccess.WithMaxAttempts(1))
	ctx := context.Background()

	err := c.Get(ctx, nil, "/eth/v1/beacon/headers/missing", nil)
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, 404, he.StatusCode)
	assert.Equal(t, "NOT_FOUND: block 9 (key REDACTED)", he.Message)
	assert.ErrorIs(t, err, nodeaccess.ErrNotFound)
	assert.NotErrorIs(t, err, beacon.ErrDebugDisabled)
	var oe *nodeaccess.OpError
	require.ErrorAs(t, err, &oe)
	assert.Equal(t, "/eth/v1/beacon/headers/missing", oe.Op)
	assert.Equal(t, "beacon: /eth/v1/beacon/headers/missing: HTTP 404 Not Found: NOT_FOUND: block 9 (key REDACTED)", err.Error())

	var out struct{ Data beacon.BeaconBlockHeader }
	err = c.Get(ctx, &out, "/eth/v1/beacon/headers/html", nil)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	err = c.Get(ctx, &out, "/eth/v1/beacon/headers/head", nil)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.Contains(t, err.Error(), "decoding the answer into *struct")
	testkit.AssertErrNoKey(t, testKey, err)
}

// The node's code from its {"code","message"} body is the HTTPError's
// Code, for the state calls and Get alike; the error's text shows it where
// it is not the status (a 400 whose body says 499), and not where it is.
func TestErrorBodyCode(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		code   int
		text   string // the HTTPError's text
	}{
		{400, `{"code":499,"message":"request cancelled"}`, 499, "HTTP 400 Bad Request: request cancelled (code 499)"},
		{500, `{"message":"regen failed","code":503,"stacktraces":[]}`, 503, "HTTP 500 Internal Server Error: regen failed (code 503)"},
		{400, `{"code":400,"message":"Invalid state ID: 9"}`, 400, "HTTP 400 Bad Request: Invalid state ID: 9"},
		{400, `{"code":"499","message":"code as a string"}`, 499, "HTTP 400 Bad Request: code as a string (code 499)"},
		{400, `{"code":1e3,"message":"not an integer"}`, 0, "HTTP 400 Bad Request: not an integer"},
		{400, `{"code":4294967296,"message":"over 32 bits"}`, 0, "HTTP 400 Bad Request: over 32 bits"},
		{400, `{"message":"no code"}`, 0, "HTTP 400 Bad Request: no code"},
	} {
		srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(tc.status)
			_, _ = w.Write([]byte(tc.body))
		})
		c := newClient(t, srv.URL, nodeaccess.WithMaxAttempts(1))
		_, _, serr := c.State(context.Background(), beacon.SlotID(9))
		gerr := c.Get(context.Background(), nil, "/eth/v1/beacon/headers/9", nil)
		for _, err := range []error{serr, gerr} {
			var he *nodeaccess.HTTPError
			require.ErrorAs(t, err, &he, tc.body)
			assert.Equal(t, tc.code, he.Code, tc.body)
			assert.Equal(t, tc.text, he.Error())
			assert.True(t, strings.HasSuffix(err.Error(), tc.text), err.Error())
		}
	}
}

// The generic call goes through the client's transport like the typed
// ones: the budget charges it 1 unit unless WithCost names its path, and
// hooks see it under that name. Here it fetches a state from the local
// server as JSON, which the server writes with the package's encoder.
func TestGetCost(t *testing.T) {
	srv := beacontest.NewT(t)
	rec := &testkit.Recorder{}
	b, err := nodeaccess.NewBudget(1000, 100)
	require.NoError(t, err)
	c, err := srv.Client(nodeaccess.WithBudget(b), nodeaccess.WithHook(rec.Hook),
		nodeaccess.WithCost("/eth/v2/debug/beacon/states/head", 7))
	require.NoError(t, err)
	var head, fin struct {
		Version string `json:"version"`
		Data    struct {
			Slot beacon.Slot `json:"slot,string"`
		} `json:"data"`
	}
	require.NoError(t, c.Get(context.Background(), &head, "eth/v2/debug/beacon/states/head", nil))
	require.NoError(t, c.Get(context.Background(), &fin, "/eth/v2/debug/beacon/states/finalized", nil))
	assert.Equal(t, "fulu", head.Version)
	hi, _ := srv.Lookup(beacon.Head)
	fi, _ := srv.Lookup(beacon.Finalized)
	assert.Equal(t, hi.Slot, head.Data.Slot)
	assert.Equal(t, fi.Slot, fin.Data.Slot)
	assert.NotEqual(t, hi.Slot, fi.Slot)
	atts := rec.Attempts()
	require.Len(t, atts, 2)
	assert.Equal(t, "/eth/v2/debug/beacon/states/head", atts[0].Op)
	assert.Equal(t, 7, atts[0].Units)
	assert.Equal(t, "/eth/v2/debug/beacon/states/finalized", atts[1].Op)
	assert.Equal(t, 1, atts[1].Units)
}
