package beacon_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each read's options: a Preset given to one State call decodes that call
// with it, and the client's preset stays for the others; the zero Preset
// is the client's; the decoders' Progress reports the bytes they read as a
// download's does, and their zero Preset is the mainnet one.
func TestReadOptions(t *testing.T) {
	f := minimalFixture(t, beacon.Bellatrix)
	srv, _ := serve(t, stateHandler(f.ssz, "application/octet-stream", "bellatrix"))
	c := newClient(t, srv.URL) // the mainnet preset
	_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, "a minimal state read with the mainnet preset")
	res, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{Preset: beacon.MinimalPreset()})
	require.NoError(t, err)
	sameState(t, f.ssz, res)
	assert.Equal(t, beacon.MinimalPreset(), res.Preset)
	_, _, err = c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, "the client's preset, again")

	// The zero Preset of a call is the client's (WithPreset), not mainnet.
	cm := newClient(t, srv.URL, beacon.WithPreset(beacon.MinimalPreset()))
	res, _, err = cm.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.NoError(t, err)
	assert.Equal(t, beacon.MinimalPreset(), res.Preset)
	_, _, err = cm.State(context.Background(), beacon.Head, beacon.StateOptions{Preset: beacon.MainnetPreset()})
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, "a call's preset over the client's")

	var seen [][2]int64
	progress := func(read, total int64) { seen = append(seen, [2]int64{read, total}) }
	n := int64(len(f.ssz))
	st, err := decodeSSZ(bytes.NewReader(f.ssz), beacon.Bellatrix, beacon.MinimalPreset(), progress)
	require.NoError(t, err)
	sameState(t, f.ssz, st)
	assert.Equal(t, [][2]int64{{n, n}}, seen, "DecodeSSZ: the size comes from the reader")

	seen = nil
	_, _, err = decodeJSON(bytes.NewReader(f.json), beacon.MinimalPreset(), sizeHint(int64(len(f.json))), progress)
	require.NoError(t, err)
	require.NotEmpty(t, seen)
	assert.Equal(t, [2]int64{int64(len(f.json)), int64(len(f.json))}, seen[len(seen)-1], "DecodeJSON: the last report is the whole input")

	// The zero Preset of ReadState is the mainnet one, as in State.Preset.
	_, err = decodeSSZ(bytes.NewReader(f.ssz), beacon.Bellatrix, beacon.Preset{})
	assert.ErrorIs(t, err, beacon.ErrInvalidState)
}

// A custom Preset given to one client call is checked before anything is
// sent, as WithPreset and ReadState check theirs.
func TestCallPresetCheckedBeforeSending(t *testing.T) {
	srv, cnt := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { w.WriteHeader(http.StatusInternalServerError) })
	c := newClient(t, srv.URL)
	bad := beacon.MinimalPreset()
	bad.Name, bad.SlotsPerEpoch = "custom", 0
	_, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{Preset: bad})
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.ErrorContains(t, err, `preset "custom": SlotsPerEpoch = 0 is out of range`)

	f, err := os.Create(filepath.Join(t.TempDir(), "state.ssz"))
	require.NoError(t, err)
	defer f.Close()
	var p beacon.Prover
	_, err = c.DownloadState(context.Background(), beacon.Head, f, beacon.DownloadOptions{Prover: &p, Preset: bad})
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.ErrorContains(t, err, `preset "custom": SlotsPerEpoch = 0 is out of range`)
	assert.Zero(t, cnt.Get(), "nothing sent")
}

// Only the Prover reads the state a download saves: a Preset without one
// would be read by nothing, and is refused before anything is sent.
func TestDownloadPresetWithoutProver(t *testing.T) {
	srv, cnt := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { w.WriteHeader(http.StatusInternalServerError) })
	c := newClient(t, srv.URL)
	var buf bytes.Buffer
	_, err := c.DownloadState(context.Background(), beacon.Head, &buf, beacon.DownloadOptions{Preset: beacon.MinimalPreset()})
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	var ie *nodeaccess.InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "DownloadOptions.Preset", ie.Arg)
	assert.Equal(t, `beacon: getStateV2: invalid input: DownloadOptions.Preset: preset "minimal" given without DownloadOptions.Prover, the only part of a download that reads the state`, err.Error())
	assert.Zero(t, cnt.Get(), "nothing sent")
	assert.Zero(t, buf.Len())
}
