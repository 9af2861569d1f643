package beacontest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// WithoutDefaults starts empty: every id is not found until a state is
// added.
func TestWithoutDefaults(t *testing.T) {
	srv := beacontest.NewT(t, beacontest.WithStates())
	assert.Empty(t, srv.States())
	c, err := srv.Client()
	require.NoError(t, err)
	ctx := context.Background()
	for _, id := range []beacon.StateID{beacon.Head, beacon.Genesis, beacon.Finalized, beacon.Justified, beacon.SlotID(1)} {
		_, _, err := c.State(ctx, id, beacon.StateOptions{})
		require.Error(t, err, id)
		assert.True(t, errors.Is(err, nodeaccess.ErrNotFound), "%s: %v", id, err)
	}

	st := beacontest.NewState(beacon.Deneb, beacon.MinimalPreset(), 8, 7)
	root, err := srv.AddState(st)
	require.NoError(t, err)
	c, err = srv.Client() // the head's preset now
	require.NoError(t, err)
	res, _, err := c.State(ctx, beacon.Head, beacon.StateOptions{})
	require.NoError(t, err)
	got, err := beacon.HashTreeRoot(res)
	require.NoError(t, err)
	assert.Equal(t, root, got)
	assert.Equal(t, beacon.Deneb, res.Version)
}
