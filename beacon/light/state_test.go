package light_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/light"
)

// A state, a Prover made from it, or one read from its saved SSZ is taken
// only when it hashes to the verified header's state root; another state
// is refused naming both roots, and a header the client did not verify
// is refused before anything is hashed.
func TestCheckState(t *testing.T) {
	ctx := context.Background()
	srv := minimalServer(t, 1)
	bc, err := srv.Client()
	require.NoError(t, err)
	lc, err := light.New(bc, srv.LightConfig(), blockRoot(t, bc, "genesis"))
	require.NoError(t, err)
	require.NoError(t, lc.Sync(ctx))
	h, ok := lc.Finalized()
	require.True(t, ok)
	st, _, err := bc.State(ctx, beacon.RootID(h.Beacon.StateRoot), beacon.StateOptions{})
	require.NoError(t, err)

	require.NoError(t, light.CheckState(st, h))
	p, err := beacon.NewProver(st)
	require.NoError(t, err)
	require.NoError(t, light.CheckState(p, h))
	var buf bytes.Buffer
	require.NoError(t, beacon.WriteState(&buf, st, beacon.EncodingSSZ, nil))
	saved := buf.Bytes()
	rp, err := beacon.ReadProver(bytes.NewReader(saved), beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "electra"}, bytes.NewReader(saved), beacon.ReadOptions{Preset: beacon.MinimalPreset()})
	require.NoError(t, err)
	require.NoError(t, light.CheckState(rp, h))

	other := *st
	other.Slot++
	otherRoot, err := beacon.HashTreeRoot(&other)
	require.NoError(t, err)
	op, err := beacon.NewProver(&other)
	require.NoError(t, err)
	for _, err := range []error{light.CheckState(&other, h), light.CheckState(op, h)} {
		require.ErrorIs(t, err, nodeaccess.ErrUnverified)
		var ve *light.VerifyError
		require.True(t, errors.As(err, &ve))
		assert.Equal(t, "state root", ve.Check)
		assert.Equal(t, h.Beacon.StateRoot, ve.Want)
		assert.Equal(t, otherRoot, ve.Got)
		assert.Contains(t, err.Error(), h.Beacon.StateRoot.Hex())
		assert.Contains(t, err.Error(), otherRoot.Hex())
	}

	handMade := light.Header{Beacon: h.Beacon, Execution: h.Execution, ExecutionBlockHash: h.ExecutionBlockHash}
	err = light.CheckState(st, handMade)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.NotErrorIs(t, err, nodeaccess.ErrUnverified)
	assert.ErrorIs(t, light.CheckState((*beacon.State)(nil), h), nodeaccess.ErrInvalidInput)
	assert.ErrorIs(t, light.CheckState((*beacon.Prover)(nil), h), nodeaccess.ErrInvalidInput)
}
