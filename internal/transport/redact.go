package transport

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mask is what stands in place of the access key wherever a URL or a server
// message is shown.
const Mask = "REDACTED"

// redactor holds the access key and removes it from text. It finds the key
// in every spelling the matcher (match.go) accepts: each character of the
// key written as itself or escaped, independently of the others.
//
// A redactor is only ever held through a pointer, and formats itself as
// Mask under every verb: fmt, which reaches unexported fields by
// reflection, prints a pointer below the top level as an address, so no
// formatting of a value that holds a client reaches the key (see
// TestNoKeyReachableByFmt). A nil *redactor has no key and masks nothing.
type redactor struct {
	key   string
	runes []keyRune
	// first marks the bytes a spelling of the key can start with.
	first [256]bool
	// longest is the length of the longest spelling of the key.
	longest int
	// second is the key's second character when it and the first are
	// ASCII, 0 otherwise: find's quick test of a candidate.
	second byte
}

func newRedactor(key string) *redactor {
	if key == "" {
		return nil
	}
	r := &redactor{key: key}
	for _, c := range key {
		kr := keyRune{r: c}
		kr.n = utf8.EncodeRune(kr.utf[:], c)
		r.runes = append(r.runes, kr)
		r.longest += max(5*kr.n, maxRuneSpelling)
	}
	if len(r.runes) > 1 && r.runes[0].r < utf8.RuneSelf && r.runes[1].r < utf8.RuneSelf {
		r.second = byte(r.runes[1].r)
	}
	for _, b := range []byte{'%', '\\', '&', r.runes[0].utf[0]} {
		r.first[b] = true
		if isLetter(b) {
			r.first[b^0x20] = true
		}
	}
	if c := r.runes[0].r; c >= utf8.RuneSelf {
		// The first character in another case ("É" for "é").
		for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
			var buf [utf8.UTFMax]byte
			utf8.EncodeRune(buf[:], f)
			r.first[buf[0]] = true
		}
	}
	return r
}

// String returns Mask: a redactor never prints its key.
func (r *redactor) String() string { return Mask }

// GoString returns Mask, for %#v.
func (r *redactor) GoString() string { return Mask }

// Format prints Mask under every verb.
func (r *redactor) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(Mask)) }

// Text returns s with every spelling of the key replaced by Mask; s itself
// when it holds none (without allocating).
func (r *redactor) Text(s string) string {
	i, end := find(r, s, 0)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		b.WriteString(s[:i])
		b.WriteString(Mask)
		s = s[end:]
		i, end = find(r, s, 0)
	}
	b.WriteString(s)
	return b.String()
}

// Bytes returns b with every spelling of the key replaced by Mask; b itself
// when it holds none. b is never modified.
func (r *redactor) Bytes(b []byte) []byte {
	i, end := find(r, b, 0)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for i >= 0 {
		out = append(out, b[:i]...)
		out = append(out, Mask...)
		b = b[end:]
		i, end = find(r, b, 0)
	}
	return append(out, b...)
}

// Head returns at most the first n bytes of b with every spelling of the key
// masked, including one that starts before byte n and straddles it (which
// a plain cut would leave partly visible). b is never modified.
func (r *redactor) Head(b []byte, n int) []byte {
	if lim := n + r.Longest(); len(b) > lim {
		// A spelling of the key that starts before n ends before lim: what
		// lies beyond is never read, so the work does not grow with b.
		b = b[:lim]
	}
	if len(b) <= n {
		// Masking can lengthen it (a one-character key becomes Mask).
		m := r.Bytes(b)
		return m[:min(len(m), n)]
	}
	var out []byte
	from := 0
	for from < n {
		i, end := find(r, b, from)
		if i < 0 || i >= n {
			break
		}
		if out == nil {
			out = make([]byte, 0, n+len(Mask))
		}
		out = append(out, b[from:i]...)
		out = append(out, Mask...)
		from = end
	}
	if out == nil {
		return b[:n]
	}
	if from < n {
		out = append(out, b[from:n]...)
	}
	return out[:min(len(out), n)]
}

// Longest returns the length of the longest spelling of the key that Text
// recognises, 0 for no key: how far past a cut to read so that a key the cut
// goes through is still recognised.
func (r *redactor) Longest() int {
	if r == nil {
		return 0
	}
	return r.longest
}

// value returns v, a decoded JSON value, with the key masked in every string
// in it, map keys included (MaskValue with Text).
func (r *redactor) value(v any) any {
	if r == nil {
		return v
	}
	return MaskValue(v, r.Text)
}

// MaskValue returns v, a value encoding/json decoded into an any, with mask
// applied to every string in it, object members' names included. v itself
// is not modified: slices and maps are copies.
func MaskValue(v any, mask func(string) string) any {
	switch x := v.(type) {
	case string:
		return mask(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = MaskValue(e, mask)
		}
		return out
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[mask(k)] = MaskValue(e, mask)
		}
		return m
	}
	return v
}

// Cut returns s cut to at most n bytes, at a character boundary, with "…"
// added when it was longer.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// MaskCut masks every form of the access key in s and then cuts it to n
// bytes (Cut): in that order, so that a cut through the key cannot leave a
// piece of it that masking no longer recognises. Chain packages use it for
// text they take from a response (a server's message after JSON
// unescaping) and show in errors of their own.
func (c *Client) MaskCut(s string, n int) string { return Cut(c.red.Text(s), n) }

// MaxQuoted is the longest bad input an error quotes.
const MaxQuoted = 100

// Quote is how every error of the SDK shows a bad input it was given (the
// argument of a Parse function, an UnmarshalText, a query's field): in Go's
// quoted syntax (%q) when it has at most MaxQuoted bytes, and as its length
// alone ("a 200-byte value") when it is longer. A long input is never cut
// short and quoted: a cut could end inside the access key, which a client's
// masking recognises only whole.
func Quote(s string) string {
	if len(s) <= MaxQuoted {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("a %d-byte value", len(s))
}
