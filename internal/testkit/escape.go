package testkit

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// EscapeStrings returns body, a JSON text, with every character inside its
// strings (member names and values) spelt as a \uXXXX escape, upper-case
// hex digits when upper is set: the same JSON, as an encoder that escapes
// everything (or a proxy that re-encodes bodies) may send it. Escapes
// already in body are kept as they are.
func EscapeStrings(body []byte, upper bool) []byte {
	format := `\u%04x`
	if upper {
		format = `\u%04X`
	}
	out := make([]byte, 0, len(body)*6)
	in := false
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case !in:
			out = append(out, c)
			in = c == '"'
			i++
		case c == '"':
			out = append(out, c)
			in = false
			i++
		case c == '\\':
			n := 2
			if i+1 < len(body) && body[i+1] == 'u' {
				n = 6
			}
			out = append(out, body[i:min(i+n, len(body))]...)
			i += n
		default:
			r, size := utf8.DecodeRune(body[i:])
			if r > 0xFFFF {
				r1, r2 := utf16.EncodeRune(r)
				out = fmt.Appendf(out, format+format, r1, r2)
			} else {
				out = fmt.Appendf(out, format, r)
			}
			i += size
		}
	}
	return out
}
