package testkit

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEscapeStrings(t *testing.T) {
	t.Parallel()
	body := []byte(`{"a\"b":["0x1f", "é😀", 12, null, "\u0041\n"], "c": {"d": true}}`)
	for _, upper := range []bool{false, true} {
		esc := EscapeStrings(body, upper)
		var want, got any
		require.NoError(t, json.Unmarshal(body, &want))
		require.NoError(t, json.Unmarshal(esc, &got), string(esc))
		assert.Equal(t, want, got)
		assert.NotContains(t, string(esc), "0x1f")
		assert.Contains(t, string(esc), `12, null`)
	}
	assert.Equal(t, `"\u0030\u0078"`, string(EscapeStrings([]byte(`"0x"`), false)))
	assert.Equal(t, `"\uD83D\uDE00"`, string(EscapeStrings([]byte(`"😀"`), true)))
}
