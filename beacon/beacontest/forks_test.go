package beacontest_test

import (
	"context"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every fork the beacon package knows is served, as SSZ and as JSON, with
// its version named and the state intact (its hash tree root).
func TestEveryForkServed(t *testing.T) {
	ctx := context.Background()
	for _, v := range allForks() {
		t.Run(v.String(), func(t *testing.T) {
			st := beacontest.NewState(v, beacon.MinimalPreset(), 8, uint64(v)+1)
			srv := beacontest.NewT(t, beacontest.WithStates(st))
			want, err := beacon.HashTreeRoot(st)
			require.NoError(t, err)
			for _, enc := range []beacon.Encoding{beacon.EncodingSSZ, beacon.EncodingJSON} {
				c, err := srv.Client(beacon.WithEncoding(enc))
				require.NoError(t, err)
				res, body, err := c.State(ctx, beacon.RootID(want), beacon.StateOptions{})
				require.NoError(t, err, enc)
				assert.Equal(t, v, res.Version, enc)
				assert.Equal(t, enc, body.Encoding)
				got, err := beacon.HashTreeRoot(res)
				require.NoError(t, err)
				assert.Equal(t, want, got, enc)
			}
		})
	}
}
