package beacon_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixture is a generated state with its encodings and root.
type fixture struct {
	state *beacon.State
	ssz   []byte
	json  []byte // the beacon API's whole response, flags {true, false}
	root  beacon.Root
}

var (
	fixturesMu sync.Mutex
	fixtures   = map[beacon.Version]*fixture{}
)

// minimalFixture returns a deterministic minimal-preset state of fork v
// with 64 validators, encoded both ways.
func minimalFixture(t testing.TB, v beacon.Version) *fixture {
	t.Helper()
	fixturesMu.Lock()
	defer fixturesMu.Unlock()
	if f, ok := fixtures[v]; ok {
		return f
	}
	s := beacontest.NewState(v, beacon.MinimalPreset(), 64, 42)
	ssz, err := marshalSSZ(s)
	require.NoError(t, err)
	var js bytes.Buffer
	require.NoError(t, beacon.WriteState(&js, s, beacon.EncodingJSON, &beacon.Flags{ExecutionOptimistic: true, Finalized: false}))
	root, err := beacon.HashTreeRoot(s)
	require.NoError(t, err)
	f := &fixture{state: s, ssz: ssz, json: js.Bytes(), root: root}
	fixtures[v] = f
	return f
}

// stateHandler serves body with the content type and fork header given
// ("" leaves a header out), with a Content-Length.
func stateHandler(body []byte, ctype, fork string) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, r *http.Request, _ int) {
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		if fork != "" {
			w.Header().Set("Eth-Consensus-Version", fork)
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	}
}

// sameState checks that got encodes to want's SSZ bytes.
func sameState(t *testing.T, want []byte, got *beacon.State) {
	t.Helper()
	require.NotNil(t, got)
	b, err := marshalSSZ(got)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want, b), "decoded state differs from the one served")
}

// State decodes SSZ and JSON responses of every fork, chosen by the
// response's Content-Type.
func TestStateEveryForkBothEncodings(t *testing.T) {
	for _, v := range allForks() {
		f := minimalFixture(t, v)
		t.Run(v.String()+"/ssz", func(t *testing.T) {
			srv, _ := serve(t, stateHandler(f.ssz, "application/octet-stream", v.String()))
			c := newClient(t, srv.URL, beacon.WithPreset(beacon.MinimalPreset()))
			res, body, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
			require.NoError(t, err)
			sameState(t, f.ssz, res)
			assert.Equal(t, v, res.Version)
			assert.Equal(t, v, res.Version)
			assert.Equal(t, beacon.MinimalPreset(), res.Preset)
			assert.Nil(t, body.Flags, "SSZ carries no flags")
			assert.Equal(t, beacon.EncodingSSZ, body.Encoding)
			assert.Equal(t, "application/octet-stream", body.ContentType)
			assert.Equal(t, int64(len(f.ssz)), body.Bytes)
		})
		t.Run(v.String()+"/json", func(t *testing.T) {
			srv, _ := serve(t, stateHandler(f.json, "application/json", v.String()))
			c := newClient(t, srv.URL, beacon.WithPreset(beacon.MinimalPreset()))
			res, body, err := c.State(context.Background(), beacon.Finalized, beacon.StateOptions{})
			require.NoError(t, err)
			sameState(t, f.ssz, res)
			assert.Equal(t, v, res.Version)
			require.NotNil(t, body.Flags)
			assert.Equal(t, beacon.Flags{ExecutionOptimistic: true}, *body.Flags)
			assert.Equal(t, beacon.EncodingJSON, body.Encoding)
			assert.Equal(t, int64(len(f.json)), body.Bytes)
		})
	}
}

// A server that sends JSON when SSZ was asked: decoded as JSON.
func TestStateJSONWhenSSZAsked(t *testing.T) {
	f := minimalFixture(t, beacon.Deneb)
	var accept string
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		accept = r.Header.Get("Accept")
		stateHandler(f.json, "application/json; charset=utf-8", "deneb")(w, r, n)
	})
	c := newClient(t, srv.URL, beacon.WithPreset(beacon.MinimalPreset()), beacon.WithEncoding(beacon.EncodingSSZ))
	res, body, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "application/octet-stream", accept)
	assert.Equal(t, beacon.EncodingJSON, body.Encoding)
	sameState(t, f.ssz, res)
	require.NotNil(t, body.Flags)
}

// JSON without the version header: the body's version decides. With a
// header that disagrees with the body: an invalid response.
func TestStateJSONVersionHeader(t *testing.T) {
	f := minimalFixture(t, beacon.Capella)
	srv, _ := serve(t, stateHandler(f.json, "application/json", ""))
	c := newClient(t, srv.URL, beacon.WithPreset(beacon.MinimalPreset()))
	res, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.NoError(t, err)
	assert.Equal(t, beacon.Capella, res.Version)
	sameState(t, f.ssz, res)

	srv, cnt := serve(t, stateHandler(f.json, "application/json", "deneb"))
	c = newClient(t, srv.URL, beacon.WithPreset(beacon.MinimalPreset()))
	_, _, err = c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.Error(t, err)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.Equal(t, 1, cnt.Get(), "not retried")
}

// An SSZ body whose header names another fork does not decode as a state.
func TestStateSSZWrongFork(t *testing.T) {
	f := minimalFixture(t, beacon.Electra)
	srv, cnt := serve(t, stateHandler(f.ssz, "application/octet-stream", "altair"))
	c := newClient(t, srv.URL, beacon.WithPreset(beacon.MinimalPreset()))
	_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.Error(t, err)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.ErrorIs(t, err, beacon.ErrInvalidState)
	var de *beacon.DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "ssz", de.Format)
	assert.Contains(t, err.Error(), "beacon: getStateV2: invalid response: ssz: ")
	assert.Equal(t, 1, cnt.Get(), "a complete but invalid body is not fetched again")
}

// The preset matters: a minimal state does not decode as mainnet.
func TestStatePresetMismatch(t *testing.T) {
	f := minimalFixture(t, beacon.Phase0)
	srv, _ := serve(t, stateHandler(f.ssz, "application/octet-stream", "phase0"))
	c := newClient(t, srv.URL)
	_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	assert.ErrorIs(t, err, beacon.ErrInvalidState)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
}

// A state asked for by its root is verified against it.
func TestStateRootVerification(t *testing.T) {
	f := minimalFixture(t, beacon.Fulu)
	for _, enc := range []struct{ ctype, name string }{{"application/octet-stream", "ssz"}, {"application/json", "json"}} {
		body := f.ssz
		if enc.name == "json" {
			body = f.json
		}
		t.Run(enc.name, func(t *testing.T) {
			var paths []string
			var mu sync.Mutex
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
				mu.Lock()
				paths = append(paths, r.URL.EscapedPath())
				mu.Unlock()
				stateHandler(body, enc.ctype, "fulu")(w, r, n)
			})
			c := newClient(t, srv.URL, beacon.WithPreset(beacon.MinimalPreset()))
			res, _, err := c.State(context.Background(), beacon.RootID(f.root), beacon.StateOptions{})
			require.NoError(t, err)
			sameState(t, f.ssz, res)

			wrong := f.root
			wrong[31] ^= 1
			_, _, err = c.State(context.Background(), beacon.RootID(wrong), beacon.StateOptions{})
			require.Error(t, err)
			assert.ErrorIs(t, err, beacon.ErrIntegrity)
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			assert.Equal(t, fmt.Sprintf("beacon: getStateV2: invalid response: state root mismatch: asked for 0x%x, got a state whose hash tree root is 0x%x", wrong[:], f.root[:]), err.Error())

			_, _, err = c.State(context.Background(), beacon.RootID(wrong), beacon.StateOptions{SkipVerify: true})
			require.NoError(t, err)

			// Other ids are not verified.
			_, _, err = c.State(context.Background(), beacon.Head, beacon.StateOptions{})
			require.NoError(t, err)

			assert.Equal(t, []string{
				"/beacon/" + testKey + "/eth/v2/debug/beacon/states/" + fmt.Sprintf("0x%x", f.root[:]),
				"/beacon/" + testKey + "/eth/v2/debug/beacon/states/" + fmt.Sprintf("0x%x", wrong[:]),
				"/beacon/" + testKey + "/eth/v2/debug/beacon/states/" + fmt.Sprintf("0x%x", wrong[:]),
				"/beacon/" + testKey + "/eth/v2/debug/beacon/states/head",
			}, paths)
		})
	}
}

// The real Sepolia genesis state, fetched by its published root.
func TestStateSepoliaGenesisByRoot(t *testing.T) {
	raw, err := os.ReadFile("testdata/sepolia-genesis.ssz")
	require.NoError(t, err)
	srv, _ := serve(t, stateHandler(raw, "application/octet-stream", "phase0"))
	c := newClient(t, srv.URL)
	id, err := beacon.ParseStateID(testRootHex)
	require.NoError(t, err)
	res, body, err := c.State(context.Background(), id, beacon.StateOptions{})
	require.NoError(t, err)
	assert.Equal(t, beacon.Phase0, res.Version)
	assert.Len(t, res.Validators, 1570)
	assert.Equal(t, beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "phase0", Bytes: int64(len(raw)), ContentType: "application/octet-stream"}, body)
}

// A body that breaks off mid-stream is fetched again and decoded from the
// start; one that breaks off every time ends as ErrUnavailable.
func TestStateTruncatedBody(t *testing.T) {
	f := minimalFixture(t, beacon.Altair)
	t.Run("then whole", func(t *testing.T) {
		srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 1 {
				brokenBody(t, w, r, "application/octet-stream", "altair", f.ssz, len(f.ssz)/2)
				return
			}
			stateHandler(f.ssz, "application/octet-stream", "altair")(w, r, n)
		})
		rec := &testkit.Recorder{}
		c := newClient(t, srv.URL, fast, beacon.WithPreset(beacon.MinimalPreset()), nodeaccess.WithHook(rec.Hook))
		res, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
		require.NoError(t, err)
		sameState(t, f.ssz, res)
		assert.Equal(t, 2, cnt.Get())
		atts := rec.Attempts()
		require.Len(t, atts, 2)
		assert.ErrorIs(t, atts[0].Err, io.ErrUnexpectedEOF)
		assert.True(t, atts[0].WillRetry)
	})
	t.Run("every time", func(t *testing.T) {
		srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
			brokenBody(t, w, r, "application/json", "altair", f.json, len(f.json)-10)
		})
		c := newClient(t, srv.URL, fast, beacon.WithPreset(beacon.MinimalPreset()))
		_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
		require.Error(t, err)
		assert.Equal(t, 3, cnt.Get())
		assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
		assert.Equal(t, "beacon: getStateV2: service unavailable after 3 attempts: unexpected EOF", err.Error())
	})
	t.Run("cut without a length", func(t *testing.T) {
		// No Content-Length, connection closed early: to HTTP the body
		// ended cleanly, and only the decoder sees that it is short.
		srv, cnt := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
			conn, rw := testkit.Hijack(t, w, r)
			defer conn.Close()
			fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nEth-Consensus-Version: altair\r\nConnection: close\r\n\r\n")
			_, _ = rw.Write(f.ssz[:len(f.ssz)/3])
			_ = rw.Flush()
		})
		c := newClient(t, srv.URL, fast, beacon.WithPreset(beacon.MinimalPreset()))
		_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
		require.Error(t, err)
		assert.Equal(t, 1, cnt.Get())
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		assert.ErrorIs(t, err, beacon.ErrInvalidState)
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	})
}

// Garbage with the right headers: invalid, not retried.
func TestStateGarbageBody(t *testing.T) {
	for _, tc := range []struct{ ctype, body string }{
		{"application/octet-stream", "\x00\x01\x02"},
		{"application/json", `{"version":"fulu","execution_optimistic":false,"finalized":false,"data":{"slot":"x"}}`},
		{"application/json", `<html>not json</html>`},
	} {
		srv, cnt := serve(t, stateHandler([]byte(tc.body), tc.ctype, "fulu"))
		c := newClient(t, srv.URL, fast)
		_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
		require.Error(t, err, tc.body)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, tc.body)
		assert.ErrorIs(t, err, beacon.ErrInvalidState, tc.body)
		assert.Equal(t, 1, cnt.Get(), tc.body)
	}
}

// A JSON body naming a fork this package does not decode, without a
// header: the decoder's unsupported-version error, shaped like the header's.
func TestStateJSONBodyUnsupportedVersion(t *testing.T) {
	srv, _ := serve(t, stateHandler([]byte(`{"version":"heze","execution_optimistic":false,"finalized":true,"data":{}}`), "application/json", ""))
	c := newClient(t, srv.URL)
	_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.Error(t, err)
	assert.ErrorIs(t, err, beacon.ErrUnsupportedVersion)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.Equal(t, `beacon: getStateV2: invalid response: unsupported version "heze": this package decodes phase0 to gloas (DownloadState still saves such a state undecoded)`, err.Error())
}

func TestStateProgress(t *testing.T) {
	s := beacontest.NewState(beacon.Fulu, beacon.MainnetPreset(), 20000, 7)
	ssz, err := marshalSSZ(s)
	require.NoError(t, err)
	srv, _ := serve(t, stateHandler(ssz, "application/octet-stream", "fulu"))
	c := newClient(t, srv.URL)
	p := &progressLog{}
	res, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{Progress: p.fn})
	require.NoError(t, err)
	assert.Len(t, res.Validators, 20000)
	require.Greater(t, len(ssz), 3*progressStep, "the test needs several steps")
	p.checkSteps(t, int64(len(ssz)), int64(len(ssz)))
}

// A state saved by DownloadState reads back with ReadState, both
// encodings.
func TestDownloadThenReadState(t *testing.T) {
	f := minimalFixture(t, beacon.Bellatrix)
	for _, tc := range []struct {
		ctype string
		body  []byte
		flags *beacon.Flags
	}{
		{"application/octet-stream", f.ssz, nil},
		{"application/json", f.json, &beacon.Flags{ExecutionOptimistic: true}},
	} {
		srv, _ := serve(t, stateHandler(tc.body, tc.ctype, "bellatrix"))
		c := newClient(t, srv.URL)
		var buf bytes.Buffer
		d, err := c.DownloadState(context.Background(), beacon.Justified, &buf, beacon.DownloadOptions{})
		require.NoError(t, err)
		assert.Equal(t, tc.body, buf.Bytes())
		assert.Equal(t, tc.flags, d.Flags)
		st, flags, err := beacon.ReadState(&buf, d, beacon.ReadOptions{Preset: beacon.MinimalPreset()})
		require.NoError(t, err)
		sameState(t, f.ssz, st)
		assert.Equal(t, tc.flags, flags)
	}
}

// TestGloasClientState: Client.State accepts Eth-Consensus-Version: gloas
// and decodes Lodestar's state, SSZ and JSON, verified against Lodestar's
// root when asked by that root.
func TestGloasClientState(t *testing.T) {
	v := gloasVectors[0]
	root := vectorRoot(t, v.name)
	for _, enc := range []struct{ ctype, ext string }{{"application/octet-stream", ".ssz"}, {"application/json", ".json"}} {
		t.Run(enc.ext, func(t *testing.T) {
			srv, _ := serve(t, stateHandler(readVector(t, v, enc.ext), enc.ctype, "gloas"))
			c := newClient(t, srv.URL, beacon.WithPreset(v.preset))
			res, _, err := c.State(context.Background(), beacon.RootID(root), beacon.StateOptions{})
			require.NoError(t, err)
			assert.Equal(t, beacon.Gloas, res.Version)
			assert.Len(t, res.Builders, 5)
			assert.Len(t, res.Validators, 21)
		})
	}
}
