package evm

import (
	"fmt"
	"testing"

	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A result spelt with JSON escapes is the same JSON: a proxy that
// re-encodes bodies, or an encoder that escapes every character, may send
// "\u0030\u0078…" for "0x…". Every value evm reads itself (hex bytes,
// addresses, quantities) reads the same from either spelling, and one whose
// escapes decode to something invalid is still refused.
func TestResultsWithEscapes(t *testing.T) {
	t.Parallel()
	results := []string{`"0x"`, `"0x00000000000000000000000000000000000000000000000000000000000f4240"`, `"0xDEADbeef"`}
	ops := `[{"type":0,"from":"0x00000000219ab540356cbb839cbe05303d7705fa","to":"0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48","value":"0xde0b6b3a7640000"},` +
		`{"type":2,"from":"0x00000000219ab540356cbb839cbe05303d7705fa","to":"0x1111111111111111111111111111111111111111","value":"0x0"}]`
	for _, upper := range []bool{false, true} {
		for _, raw := range results {
			want, err := decodeHexBytes([]byte(raw))
			require.NoError(t, err)
			esc := testkit.EscapeStrings([]byte(raw), upper)
			got, err := decodeHexBytes(esc)
			require.NoError(t, err, string(esc))
			assert.Equal(t, want, got, string(esc))
		}
		want, err := decodeInternalOperations([]byte(ops))
		require.NoError(t, err)
		esc := testkit.EscapeStrings([]byte(ops), upper)
		got, err := decodeInternalOperations(esc)
		require.NoError(t, err, string(esc))
		assert.Equal(t, fmt.Sprint(want), fmt.Sprint(got))
	}
	// Escapes that decode to what is not hex, or not an address.
	for _, raw := range []string{`"0x\u0067\u0067"`, `"\u0030\u0079ab"`, `"0x\u0022ab"`, `"0x\u00e9"`} {
		_, err := decodeHexBytes([]byte(raw))
		assert.Error(t, err, raw)
	}
	for _, addr := range []string{`"0x\u0067000000219ab540356cbb839cbe05303d7705fa"`, `"\u0030x00000000219ab540356cbb839cbe05303d7705"`} {
		_, err := decodeInternalOperations([]byte(`[{"type":0,"from":` + addr + `,"to":"0x1111111111111111111111111111111111111111","value":"0x0"}]`))
		assert.Error(t, err, addr)
	}
}
