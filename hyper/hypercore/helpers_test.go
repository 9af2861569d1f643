package hypercore

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// readFixture returns testdata/name.
func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	return b
}
