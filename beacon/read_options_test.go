package beacon_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// One kind of option serves every read, a client's and a decoder's: a
// Preset given to one State call decodes that call with it (the client's
// preset stays for the others), and WithProgress reports the bytes a
// decoder reads as it reports a download's.
func TestReadOptionsServeCallsAndDecoders(t *testing.T) {
	f := minimalFixture(t, beacon.Bellatrix)
	srv, _ := serve(t, stateHandler(f.ssz, "application/octet-stream", "bellatrix"))
	c := newClient(t, srv.URL) // the mainnet preset
	_, _, err := c.State(context.Background(), beacon.Head)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, "a minimal state read with the mainnet preset")
	res, _, err := c.State(context.Background(), beacon.Head, beacon.MinimalPreset())
	require.NoError(t, err)
	sameState(t, f.ssz, res)
	assert.Equal(t, beacon.MinimalPreset(), res.Preset)

	var seen [][2]int64
	progress := beacon.WithProgress(func(read, total int64) { seen = append(seen, [2]int64{read, total}) })
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

	// The zero Preset is the mainnet one, as in State.Preset.
	_, err = decodeSSZ(bytes.NewReader(f.ssz), beacon.Bellatrix, beacon.Preset{})
	assert.ErrorIs(t, err, beacon.ErrInvalidState)
}
