package beacon_test

import (
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/stretchr/testify/assert"
)

// NewestFork is the last fork Versions lists, the newest one IsKnown, and
// its name round-trips through ParseVersion.
func TestNewestFork(t *testing.T) {
	vs := beacon.Versions()
	assert.Equal(t, vs[len(vs)-1], beacon.NewestFork)
	assert.True(t, beacon.NewestFork.IsKnown())
	assert.False(t, (beacon.NewestFork + 1).IsKnown())
	v, err := beacon.ParseVersion(beacon.NewestFork.String())
	assert.NoError(t, err)
	assert.Equal(t, beacon.NewestFork, v)
}
