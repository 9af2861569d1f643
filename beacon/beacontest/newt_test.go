package beacontest_test

import (
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

func TestNewT(t *testing.T) {
	testkit.CheckNewT(t, func(tb testing.TB, key string) string {
		return beacontest.NewT(tb, beacontest.WithKey(key)).URL
	})
}
