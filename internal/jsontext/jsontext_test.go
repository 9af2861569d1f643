package jsontext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// enumSlow is Enum's reading without its fast path: what a string decodes
// to, or the value kept as text.
func enumSlow(b []byte) Enum {
	var s *string
	if json.Unmarshal(b, &s) == nil {
		if s == nil {
			return ""
		}
		return Enum(*s)
	}
	var c bytes.Buffer
	if json.Compact(&c, b) != nil {
		c.Reset()
		c.Write(bytes.TrimSpace(b))
	}
	return Enum(c.String())
}

// Enum reads a plain string in one allocation, and every input exactly as
// decoding it in full does: strings with escapes, non-ASCII and invalid
// bytes, raw control characters, other JSON values.
func TestEnumPlainStringFastPath(t *testing.T) {
	for _, in := range []string{`"active"`, `""`, `"finalized"`, `"a b~"`, `"a\"b"`, `"\u0041ctive"`, `"\\"`,
		`"é"`, "\"\xff\"", "\"a\tb\"", `null`, `1.5`, ` {"mc": 1} `, `["x"]`, `true`, `"`, `"abc`, `abc"`, `x`} {
		var e Enum
		if err := e.UnmarshalJSON([]byte(in)); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if want := enumSlow([]byte(in)); e != want {
			t.Errorf("%q decodes to %q, in full to %q", in, e, want)
		}
	}
	b := []byte(`"confirmed"`)
	var e Enum
	if n := testing.AllocsPerRun(100, func() { _ = e.UnmarshalJSON(b) }); n != 1 {
		t.Errorf("a plain string costs %v allocations, want 1", n)
	}
}

// seen is a value that reads itself and remembers what it was given.
type seen struct{ got string }

func (s *seen) UnmarshalJSON(b []byte) error {
	s.got = string(b)
	if string(b) == `"bad"` {
		return fmt.Errorf("bad value")
	}
	return nil
}

// Soft gives a T that reads itself the member's bytes as json.Unmarshal
// does, null included, keeps its error, and costs no decoder of its own.
func TestSoftUnmarshaler(t *testing.T) {
	for _, in := range []string{`"x"`, `null`, `{"a":[1,2]}`, `12.5`} {
		var doc struct {
			M Soft[seen] `json:"m"`
		}
		require.NoError(t, json.Unmarshal([]byte(`{"m":`+in+`}`), &doc))
		s := doc.M
		var want seen
		require.NoError(t, json.Unmarshal([]byte(in), &want))
		assert.Equal(t, want.got, s.V.got, in)
		assert.NoError(t, s.Err, in)
	}
	var s Soft[seen]
	require.NoError(t, s.UnmarshalJSON([]byte(`"bad"`)))
	assert.EqualError(t, s.Err, "bad value")
	assert.Equal(t, seen{}, s.V, "a value that failed is the zero value")
	b := []byte(`"y"`)
	if n := testing.AllocsPerRun(100, func() { _ = s.UnmarshalJSON(b) }); n != 1 {
		t.Errorf("Soft of a self-reading value costs %v allocations, want 1 (the value's own)", n)
	}
}

// Soft's scalars read their common shapes without a decoder, and every
// shape exactly as json.Unmarshal reads it (or refuses it).
func TestSoftScalarsAsJSON(t *testing.T) {
	inputs := []string{`"x"`, `""`, `"a\"b"`, `"\u00e9"`, "\"\xff\"", `null`, `true`, `false`, `1`, `{}`, `[]`, `"true"`}
	check := func(t *testing.T, in string, got, gotErr, want any, wantErr error) {
		t.Helper()
		assert.Equal(t, want, got, in)
		assert.Equal(t, wantErr != nil, gotErr != nil, "%s: %v, json: %v", in, gotErr, wantErr)
	}
	for _, in := range inputs {
		var a Soft[string]
		var b Soft[*string]
		var c Soft[bool]
		var d Soft[*bool]
		for _, s := range []json.Unmarshaler{&a, &b, &c, &d} {
			require.NoError(t, s.UnmarshalJSON([]byte(in)))
		}
		var wa string
		ea := json.Unmarshal([]byte(in), &wa)
		if ea != nil {
			wa = ""
		}
		check(t, in, a.V, a.Err, wa, ea)
		var wb *string
		eb := json.Unmarshal([]byte(in), &wb)
		if eb != nil {
			wb = nil
		}
		check(t, in, b.V, b.Err, wb, eb)
		var wc bool
		ec := json.Unmarshal([]byte(in), &wc)
		if ec != nil {
			wc = false
		}
		check(t, in, c.V, c.Err, wc, ec)
		var wd *bool
		ed := json.Unmarshal([]byte(in), &wd)
		if ed != nil {
			wd = nil
		}
		check(t, in, d.V, d.Err, wd, ed)
	}
	var b Soft[*string]
	in := []byte(`"pending"`)
	if n := testing.AllocsPerRun(100, func() { _ = b.UnmarshalJSON(in) }); n > 2 {
		t.Errorf("Soft[*string] of a plain string costs %v allocations, want at most 2 (the string and its pointer)", n)
	}
}
