package beacon

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Values spelt with JSON escapes: "\u0032\u0032" is the string "22", and a
// proxy that re-encodes JSON may send any character of a value that way.
// The value parsers read a value in place from the read buffer and take
// the fast path when it has no escape; a string value with an escape is
// unescaped (by encoding/json's rules: \" \\ \/ \b \f \n \r \t \uXXXX,
// surrogate pairs) and its plain form is parsed by the same code, through
// a decoder over that form alone. Nothing changes for values without
// escapes, and a value whose unescaped form is invalid is refused as the
// same characters unescaped would be, the error saying what it decoded to.

// errEscaped is number's signal that the quoted integer at d.pos has an
// escape: the caller decodes it through unescaped.
var errEscaped = errors.New("beacon: json: escaped value")

// escapedString reports whether the string at d.pos (d.buf[d.pos] is its
// quote) has an escape among its first maxLen bytes, looking no further
// than the read buffer can hold.
func (d *jsonDecoder) escapedString(maxLen int) bool {
	d.fill(min(maxLen+2, len(d.buf)))
	for i := d.pos + 1; i < d.end && i <= d.pos+1+maxLen; i++ {
		switch d.buf[i] {
		case '"':
			return false
		case '\\':
			return true
		}
	}
	return false
}

// unescaped consumes the string at d.pos, which has escapes, unescapes it
// and runs parse on a decoder over its plain form, quoted: "22" for
// "\u0032\u0032". maxLen bounds the plain form's length (longer strings are
// refused without being held); what names the value for errors. An error
// from parse points at the string's opening quote and shows the plain
// form.
func (d *jsonDecoder) unescaped(maxLen int, what string, parse func(*jsonDecoder) error) error {
	start := d.offset()
	raw := append(d.escBuf[:0], '"')
	// An escape takes at most 6 bytes (\uXXXX) per byte of plain
	// form, so a longer raw form is too long whatever it holds.
	limit := 6*maxLen + 1
	n, err := d.scanString(func(b []byte) {
		if len(raw)+len(b) <= limit {
			raw = append(raw, b...)
		}
	})
	if err != nil {
		return err
	}
	if n+1 > limit {
		return d.errAt(start, "a string of %d bytes with escapes, too long for %s", n, what)
	}
	raw = append(raw, '"')
	d.escBuf = raw
	var plain string
	if err := json.Unmarshal(raw, &plain); err != nil {
		// Unreachable: scanString checked the string's syntax.
		return d.errAt(start, "malformed string: %v", err)
	}
	if len(plain) > maxLen {
		return d.errAt(start, "the string's escapes decode to %d bytes, too long for %s", len(plain), what)
	}
	for i := 0; i < len(plain); i++ {
		if c := plain[i]; c == '"' || c == '\\' || c < 0x20 {
			return d.errAt(start, "expected %s, the string's escapes decode to %q", what, plain)
		}
	}
	sub := d.sub
	if sub == nil {
		sub = &jsonDecoder{hint: -1, size: -1}
		d.sub = sub
	}
	sub.buf = append(append(append(sub.buf[:0], '"'), plain...), '"')
	sub.pos, sub.end, sub.base, sub.eof, sub.rerr, sub.preset = 0, len(sub.buf), 0, true, nil, d.preset
	err = parse(sub)
	if err == nil && sub.pos != sub.end {
		err = sub.errorf("unexpected input after the value") // unreachable: the value is the whole string
	}
	if de, ok := err.(*DecodeError); ok {
		de.Offset = start
		de.Reason = fmt.Sprintf("%s (in a string whose escapes decode to %q)", de.Reason, plain)
	}
	return err
}
