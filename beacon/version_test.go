package beacon_test

import (
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/stretchr/testify/assert"
)

// Gloas is the newest fork: its name round-trips through ParseVersion,
// and the next Version is refused as unsupported.
func TestNewestFork(t *testing.T) {
	vs := allForks()
	assert.Equal(t, beacon.Gloas, vs[len(vs)-1])
	v, err := beacon.ParseVersion(beacon.Gloas.String())
	assert.NoError(t, err)
	assert.Equal(t, beacon.Gloas, v)
	_, err = beacon.ParseVersion((beacon.Gloas + 1).String())
	assert.ErrorIs(t, err, beacon.ErrUnsupportedVersion)
}
