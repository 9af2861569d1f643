package beacon_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDownloadEnvelopeAnyOrder serves a JSON state, without the
// Eth-Consensus-Version header, with its envelope's members in each of
// the 24 orders and the state object's members shuffled, in writes of
// varied sizes: DownloadState reports the body's version and both flags
// whatever the order (Lodestar sends them after "data"), the same as
// DecodeJSON of the saved body returns.
func TestDownloadEnvelopeAnyOrder(t *testing.T) {
	p := beacon.MinimalPreset()
	for _, v := range []beacon.Version{beacon.Phase0, beacon.Deneb, beacon.Fulu} {
		flags := beacon.Flags{ExecutionOptimistic: v != beacon.Deneb, Finalized: v != beacon.Fulu}
		tree := parseJSONTree(t, jsonEncodeResponse(t, beacontest.NewState(v, p, 4, 3), flags))
		for pi, perm := range permutations(4) {
			rng := rand.New(rand.NewPCG(uint64(v), uint64(pi)))
			body := tree.bytes(jsonStyle{order: shuffledOrder(perm, rng)})
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				w.Header().Set("Content-Type", "application/json")
				for off := 0; off < len(body); {
					n := min(1+rng.IntN(5000), len(body)-off)
					_, _ = w.Write(body[off : off+n])
					_ = http.NewResponseController(w).Flush()
					off += n
				}
			})
			var buf bytes.Buffer
			d, err := newClient(t, srv.URL).DownloadState(context.Background(), beacon.Head, &buf, beacon.DownloadOptions{})
			require.NoError(t, err)
			require.Equal(t, body, buf.Bytes())
			assert.Equal(t, v.String(), d.Fork, "order %v", perm)
			require.NotNil(t, d.Flags, "order %v", perm)
			assert.Equal(t, flags, *d.Flags, "order %v", perm)
			st, gotFlags, err := beacon.ReadState(&buf, d, beacon.ReadOptions{Preset: p}) // the Body as it came
			require.NoError(t, err)
			assert.Equal(t, v, st.Version)
			assert.Equal(t, *d.Flags, *gotFlags)
		}
	}
}

// TestEnvelopeScannerSplits feeds envelopes to DownloadState's scanner
// cut at every byte: what it reports does not depend on how the body is
// split, and it reports nothing it is not sure of.
func TestEnvelopeScannerSplits(t *testing.T) {
	data := `{"genesis_time":"1","s":"a\"},{[\\","x":[{"y":"}"}]}`
	cases := []struct {
		in      string
		version string
		flags   *beacon.Flags
	}{
		{`{"version":"deneb","execution_optimistic":false,"finalized":true,"data":` + data + `}`, "deneb", &beacon.Flags{Finalized: true}},
		{`{"data":` + data + `,"version":"fulu","execution_optimistic":true,"finalized":false}`, "fulu", &beacon.Flags{ExecutionOptimistic: true}},
		{" \n{ \"data\" : " + data + " , \"finalized\" : \"true\" ,\"execution_optimistic\":\"false\", \"version\" : \"gl\\u006fas\" } ", "gloas", &beacon.Flags{Finalized: true}},
		{`{"data":` + data + `,"version":"fulu","version":"deneb","execution_optimistic":true,"finalized":false}`, "", &beacon.Flags{ExecutionOptimistic: true}},
		{`{"data":` + data + `,"version":"fulu","execution_optimistic":true,"finalized":false,"finalized":true}`, "fulu", nil},
		{`{"data":` + data + `,"version":"fulu","execution_optimistic":1,"finalized":false}`, "fulu", nil},
		{`{"data":` + data + `,"version":"fulu","execution_optimistic":"true","finalized":"false"}`, "fulu", &beacon.Flags{ExecutionOptimistic: true}},
		{`{"data":` + data + `,"version":"fulu","execution_optimistic":""true"","finalized":false}`, "fulu", nil},
		{`{"data":` + data + `,"version":7,"execution_optimistic":false}`, "", nil},
		{`{"data":` + data + `,"version":"` + strings.Repeat("x", 300) + `"}`, "", nil},
		{`{"data":` + data + `,"x":{"version":"fulu","execution_optimistic":true,"finalized":true}}`, "", nil},
		{`{"version":"fulu","data":` + data, "fulu", nil},
		{`[{"version":"fulu"}]`, "", nil},
	}
	for _, c := range cases {
		for cut := 0; cut <= len(c.in); cut++ {
			version, flags := beacon.ScanEnvelope([]byte(c.in[:cut]), []byte(c.in[cut:]))
			if version != c.version || (flags == nil) != (c.flags == nil) || flags != nil && *flags != *c.flags {
				t.Fatalf("%s cut at %d: got %q %+v, want %q %+v", c.in, cut, version, flags, c.version, c.flags)
			}
		}
	}
}

// BenchmarkEnvelopeScanner follows a 16384-validator state's JSON (~13
// MB) in DownloadState's 256 KiB writes: the cost the envelope scanner
// adds to a download.
func BenchmarkEnvelopeScanner(b *testing.B) {
	var body bytes.Buffer
	if err := beacon.WriteState(&body, beacontest.NewState(beacon.Fulu, beacon.MainnetPreset(), 16384, 1), beacon.EncodingJSON, &beacon.Flags{Finalized: true}); err != nil {
		b.Fatal(err)
	}
	js := body.Bytes()
	var pieces [][]byte
	for off := 0; off < len(js); off += 256 << 10 {
		pieces = append(pieces, js[off:min(off+256<<10, len(js))])
	}
	b.SetBytes(int64(len(js)))
	for b.Loop() {
		if v, f := beacon.ScanEnvelope(pieces...); v != "fulu" || f == nil {
			b.Fatal(v, f)
		}
	}
}
