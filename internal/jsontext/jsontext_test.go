package jsontext

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// escapeAll spells every character of s as a \uXXXX escape, as some
// encoders (Python's ensure_ascii for non-ASCII, .NET for '+', '&', a
// re-encoding proxy for anything) write them.
func escapeAll(s string, upper bool) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		if upper {
			fmt.Fprintf(&b, `\u%04X`, r)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func TestUnescaped(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"0x", "0x1f", "0xdAC17F958D2ee523a2206206994597C13D831ec7", "688536.0314879999"} {
		for _, upper := range []bool{false, true} {
			raw := escapeAll(s, upper)
			assert.Equal(t, `"`+s+`"`, string(Unescaped([]byte(raw))), raw)
		}
		// Mixed: escapes for every other character, JSON's short forms too.
		var b strings.Builder
		b.WriteByte('"')
		for i, r := range s {
			if i%2 == 0 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
		b.WriteByte('"')
		assert.Equal(t, `"`+s+`"`, string(Unescaped([]byte(b.String()))), b.String())
	}
	// What decodes to a character that needs an escape keeps it, so the
	// caller's parser refuses it instead of reading it as something else.
	for _, raw := range []string{`"0x\"1f"`, `"0x\\1f"`, `"0x\u0022"`, `"\n"`} {
		got := Unescaped([]byte(raw))
		var want, back string
		assert.NoError(t, json.Unmarshal([]byte(raw), &want))
		assert.NoError(t, json.Unmarshal(got, &back), raw)
		assert.Equal(t, want, back, raw)
	}
	// Returned as they are: no backslash, not a string, invalid escapes.
	for _, raw := range []string{`"0x1f"`, `12`, `null`, `{"a":"\u0030"}`, `"\x30"`, `"\u00"`, `"`, ``} {
		assert.Equal(t, raw, string(Unescaped([]byte(raw))), raw)
	}
}

func TestUnescapedPlainCostsNothing(t *testing.T) {
	raw := []byte(`"0x0000000000000000000000000000000000000000000000000000000000000001"`)
	if n := testing.AllocsPerRun(100, func() { _ = Unescaped(raw) }); n != 0 {
		t.Errorf("a string without escapes costs %v allocations", n)
	}
}
