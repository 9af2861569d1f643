package hyper

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// The recorded bodies, with every character of every string spelt as a
// JSON escape (as a proxy that re-encodes JSON, or an encoder that escapes
// everything, may send them), decode to exactly what the plain bodies
// decode to: vault addresses, equities and mids alike.
func TestRecordedBodiesWithEscapes(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile("testdata/userVaultEquities_2025-08.json")
	require.NoError(t, err)
	want, err := decodeVaultEquities(body)
	require.NoError(t, err)
	require.NotEmpty(t, want)
	for _, upper := range []bool{false, true} {
		got, err := decodeVaultEquities(testkit.EscapeStrings(body, upper))
		require.NoError(t, err)
		require.Len(t, got, len(want))
		for i := range want {
			assert.Equal(t, want[i].VaultAddress, got[i].VaultAddress)
			assert.True(t, want[i].Equity.Equal(got[i].Equity), "%s != %s", want[i].Equity, got[i].Equity)
			assert.Equal(t, want[i].LockedUntil, got[i].LockedUntil)
		}
	}
	_, err = decodeVaultEquities([]byte(`[{"vaultAddress":"0x\u0067fcdf80cab9b1ef5e1b2d7da0d9e78a37dbcd73","equity":"1.5"}]`))
	assert.Error(t, err)
}
