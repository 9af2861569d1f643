package beacon

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/nodeaccess/nodeaccess/beacon/internal/swar"
)

// The JSON decoder is a hand-written scanner over one fixed read buffer.
// Tokens are parsed in place: a hex string is decoded straight from the
// buffer into the array it fills, a decimal string into its integer, a key
// is compared without being copied. Nothing is allocated per token, and the
// buffer never grows: the longest token that must be contiguous (a logs
// bloom, an aggregation bitlist, a long key) is far below its size, and
// anything longer (the value of an unknown field, whitespace) is skipped
// as it streams.

const (
	jsonBufSize = 256 << 10 // the read buffer
	// jsonMaxKey is the longest key compared with the known names; a longer
	// key is skipped as it streams and treated as unknown.
	jsonMaxKey = 256
	// jsonMaxDepth bounds the nesting of skipped values.
	jsonMaxDepth = 512
	// jsonMaxZeroReads is how many empty reads in a row count as a stalled
	// reader (io.ErrNoProgress).
	jsonMaxZeroReads = 100
)

// jsonDecoder is the scanner's state.
type jsonDecoder struct {
	r    io.Reader
	buf  []byte
	pos  int   // next unread byte in buf
	end  int   // end of the valid bytes in buf
	base int64 // input offset of buf[0]
	eof  bool  // r returned io.EOF
	// rerr is a sticky failure that ends reading: the reader's own error,
	// or a *DecodeError for an input longer than the size hint.
	rerr error
	// hint is the input's total size as SizeHint gave it, or -1: a longer
	// input is an error.
	hint int64
	// size is the input's size when the reader told it (a file, an
	// in-memory reader), or -1: it only sizes the validator list. A size
	// that is only claimed (Body.Bytes over a stream, a Content-Length)
	// sizes nothing.
	size int64
	// preset is the preset the state is decoded with.
	preset Preset
	// keyBuf holds a key that had escapes, once unescaped.
	keyBuf []byte
	// hdr, while a state object is decoded before its fork is known,
	// records the execution payload header's members (see settle).
	hdr *unsettledHeader
	// escBuf holds a value with escapes while it is unescaped, and sub
	// decodes its plain form (see unescaped).
	escBuf []byte
	sub    *jsonDecoder
}

func newJSONDecoder(r io.Reader, hint int64) *jsonDecoder {
	return &jsonDecoder{r: r, buf: make([]byte, jsonBufSize), hint: hint}
}

// offset is the input offset of the next unread byte.
func (d *jsonDecoder) offset() int64 { return d.base + int64(d.pos) }

// fill makes at least n bytes available from d.pos (n <= len(d.buf)) and
// reports whether it could: false means the input ended (or failed) first;
// the bytes it had are still there.
func (d *jsonDecoder) fill(n int) bool {
	if d.end-d.pos >= n {
		return true
	}
	if d.pos > 0 {
		d.end = copy(d.buf, d.buf[d.pos:d.end])
		d.base += int64(d.pos)
		d.pos = 0
	}
	zero := 0
	for d.end < n && !d.eof && d.rerr == nil {
		m, err := d.r.Read(d.buf[d.end:])
		if m < 0 || m > len(d.buf)-d.end {
			d.rerr = errors.New("reader returned an invalid count")
			break
		}
		d.end += m
		switch {
		case err == io.EOF:
			d.eof = true
		case err != nil:
			d.rerr = err
		case m == 0:
			if zero++; zero >= jsonMaxZeroReads {
				d.rerr = io.ErrNoProgress
			}
		default:
			zero = 0
		}
		if d.hint >= 0 && d.base+int64(d.end) > d.hint && d.rerr == nil {
			d.rerr = &DecodeError{Format: "json", Offset: d.hint, Reason: fmt.Sprintf("the input is longer than its size hint of %d bytes", d.hint)}
		}
	}
	return d.end-d.pos >= n
}

// eofErr is the error for an input that ended (or failed) where more was
// needed.
func (d *jsonDecoder) eofErr() error {
	if d.rerr != nil {
		var de *DecodeError
		if errors.As(d.rerr, &de) {
			c := *de
			return &c
		}
		return fmt.Errorf("beacon: json: reading the input at byte %d: %w", d.base+int64(d.end), d.rerr)
	}
	return &DecodeError{Format: "json", Offset: d.base + int64(d.end), Reason: "unexpected end of input", Err: io.ErrUnexpectedEOF}
}

// errAt returns a *DecodeError at input offset off.
func (d *jsonDecoder) errAt(off int64, format string, args ...any) error {
	return &DecodeError{Format: "json", Offset: off, Reason: fmt.Sprintf(format, args...)}
}

// errorf returns a *DecodeError at the current position.
func (d *jsonDecoder) errorf(format string, args ...any) error {
	return d.errAt(d.offset(), format, args...)
}

// unexpected describes the byte at d.pos (which must exist) for an error.
func (d *jsonDecoder) unexpected(want string) error {
	return d.errorf("expected %s, found %s", want, describeByte(d.buf[d.pos]))
}

func describeByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// skipWS skips whitespace; false at the end of the input.
func (d *jsonDecoder) skipWS() bool {
	for {
		for d.pos < d.end {
			switch d.buf[d.pos] {
			case ' ', '\t', '\n', '\r':
				d.pos++
			default:
				return true
			}
		}
		if !d.fill(1) {
			return false
		}
	}
}

// peek skips whitespace and returns the next byte without consuming it.
func (d *jsonDecoder) peek() (byte, error) {
	if d.pos < d.end {
		if c := d.buf[d.pos]; c > ' ' {
			return c, nil
		}
	}
	if !d.skipWS() {
		return 0, d.eofErr()
	}
	return d.buf[d.pos], nil
}

// expect consumes the byte c after optional whitespace.
func (d *jsonDecoder) expect(c byte, want string) error {
	got, err := d.peek()
	if err != nil {
		return err
	}
	if got != c {
		return d.unexpected(want)
	}
	d.pos++
	return nil
}

// more steps through an object or array whose opening byte is consumed:
// it consumes the closing byte and returns false, or consumes the comma
// between elements (none before the first) and returns true.
func (d *jsonDecoder) more(first bool, closing byte) (bool, error) {
	c, err := d.peek()
	if err != nil {
		return false, err
	}
	if c == closing {
		d.pos++
		return false, nil
	}
	if !first {
		if c != ',' {
			return false, d.unexpected("',' or '" + string(closing) + "'")
		}
		d.pos++
	}
	return true, nil
}

// key reads an object key and the colon after it. The returned bytes are
// valid until the next read. A key longer than jsonMaxKey bytes is
// returned as the empty key, which names nothing.
func (d *jsonDecoder) key() ([]byte, error) {
	c, err := d.peek()
	if err != nil {
		return nil, err
	}
	if c != '"' {
		return nil, d.unexpected("a key (a string)")
	}
	d.fill(jsonMaxKey + 2)
	i := d.pos + 1
	for i < d.end && d.buf[i] != '"' && d.buf[i] != '\\' && d.buf[i] >= 0x20 {
		i++
	}
	var k []byte
	if i < d.end && d.buf[i] == '"' {
		k = d.buf[d.pos+1 : i]
		d.pos = i + 1
	} else {
		// Escapes, a control byte, an early end or a long key: the
		// careful path.
		d.keyBuf = d.keyBuf[:0]
		n, err := d.scanString(func(b []byte) {
			if len(d.keyBuf)+len(b) <= jsonMaxKey*6 {
				d.keyBuf = append(d.keyBuf, b...)
			}
		})
		if err != nil {
			return nil, err
		}
		// The escapes are valid JSON (scanString checked them); a key
		// that strconv cannot unquote (a surrogate pair) or that is too
		// long is no name this package knows: it stays nil, unknown.
		k = nil
		if n <= jsonMaxKey*6 {
			if s, err := strconv.Unquote(`"` + string(d.keyBuf) + `"`); err == nil && len(s) <= jsonMaxKey {
				d.keyBuf = append(d.keyBuf[:0], s...)
				k = d.keyBuf
			}
		}
	}
	if err := d.expect(':', "':' after a key"); err != nil {
		return nil, err
	}
	return k, nil
}

// scanString consumes a JSON string (d.buf[d.pos] is its opening quote)
// as it streams, checking its escapes and bytes, and hands its raw
// contents (without the quotes, escapes not yet decoded) to emit in
// pieces, if emit is not nil. It returns the raw length.
func (d *jsonDecoder) scanString(emit func([]byte)) (int, error) {
	d.pos++ // the opening quote
	n := 0
	for {
		if d.pos >= d.end && !d.fill(1) {
			return n, d.eofErr()
		}
		start := d.pos
		for d.pos < d.end {
			c := d.buf[d.pos]
			if c == '"' {
				if emit != nil {
					emit(d.buf[start:d.pos])
				}
				n += d.pos - start
				d.pos++
				return n, nil
			}
			if c < 0x20 {
				return n, d.errorf("control byte 0x%02x in a string", c)
			}
			if c == '\\' {
				if emit != nil {
					emit(d.buf[start:d.pos])
				}
				n += d.pos - start
				if !d.fill(6) && d.end-d.pos < 2 {
					return n, d.eofErr()
				}
				esc := 2
				switch d.buf[d.pos+1] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				case 'u':
					if d.end-d.pos < 6 {
						return n, d.eofErr()
					}
					for _, h := range d.buf[d.pos+2 : d.pos+6] {
						if swar.Unhex[h] > 15 {
							return n, d.errorf("malformed \\u escape in a string")
						}
					}
					esc = 6
				default:
					return n, d.errorf("malformed escape in a string")
				}
				if emit != nil {
					emit(d.buf[d.pos : d.pos+esc])
				}
				n += esc
				d.pos += esc
				start = d.pos
				continue
			}
			d.pos++
		}
		if emit != nil {
			emit(d.buf[start:d.pos])
		}
		n += d.pos - start
	}
}

// skipValue consumes one JSON value of any kind, checking its syntax.
func (d *jsonDecoder) skipValue(depth int) error {
	if depth > jsonMaxDepth {
		return d.errorf("values nested more than %d deep", jsonMaxDepth)
	}
	c, err := d.peek()
	if err != nil {
		return err
	}
	switch c {
	case '{':
		d.pos++
		for first := true; ; first = false {
			more, err := d.more(first, '}')
			if err != nil || !more {
				return err
			}
			if c, err := d.peek(); err != nil {
				return err
			} else if c != '"' {
				return d.unexpected("a key (a string)")
			}
			if _, err := d.scanString(nil); err != nil {
				return err
			}
			if err := d.expect(':', "':' after a key"); err != nil {
				return err
			}
			if err := d.skipValue(depth + 1); err != nil {
				return err
			}
		}
	case '[':
		d.pos++
		for first := true; ; first = false {
			more, err := d.more(first, ']')
			if err != nil || !more {
				return err
			}
			if err := d.skipValue(depth + 1); err != nil {
				return err
			}
		}
	case '"':
		_, err := d.scanString(nil)
		return err
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return d.skipNumber()
	}
	return d.unexpected("a value")
}

// literal consumes the literal s (true, false, null).
func (d *jsonDecoder) literal(s string) error {
	if !d.fill(len(s)) {
		if string(d.buf[d.pos:d.end]) == s[:d.end-d.pos] {
			return d.eofErr()
		}
		return d.errorf("malformed literal, expected %s", s)
	}
	if string(d.buf[d.pos:d.pos+len(s)]) != s {
		return d.errorf("malformed literal, expected %s", s)
	}
	d.pos += len(s)
	return d.delimited()
}

// delimited checks that a number or literal ends where it should: at
// whitespace, a comma, a closing bracket or the end of the input.
func (d *jsonDecoder) delimited() error {
	if d.pos >= d.end && !d.fill(1) {
		if d.rerr != nil {
			return d.eofErr()
		}
		return nil
	}
	switch d.buf[d.pos] {
	case ' ', '\t', '\n', '\r', ',', ']', '}':
		return nil
	}
	return d.unexpected("',', ']' or '}' after a value")
}

// skipNumber consumes a JSON number of any form (the value of an unknown
// field), checking its grammar as it streams.
func (d *jsonDecoder) skipNumber() error {
	next := func() byte { // 0 at the end of the input
		if d.pos >= d.end && !d.fill(1) {
			return 0
		}
		return d.buf[d.pos]
	}
	digits := func() int {
		n := 0
		for c := next(); c >= '0' && c <= '9'; c = next() {
			d.pos++
			n++
		}
		return n
	}
	if next() == '-' {
		d.pos++
	}
	switch c := next(); {
	case c == '0':
		d.pos++
	case c >= '1' && c <= '9':
		digits()
	case c == 0 && d.rerr == nil:
		return d.eofErr()
	default:
		return d.errorf("malformed number")
	}
	if next() == '.' {
		d.pos++
		if digits() == 0 {
			return d.errorf("malformed number")
		}
	}
	if c := next(); c == 'e' || c == 'E' {
		d.pos++
		if c := next(); c == '+' || c == '-' {
			d.pos++
		}
		if digits() == 0 {
			return d.errorf("malformed number")
		}
	}
	return d.delimited()
}

// trailing checks that only whitespace follows the top-level value.
func (d *jsonDecoder) trailing() error {
	if d.skipWS() {
		return d.errorf("unexpected %s after the top-level object", describeByte(d.buf[d.pos]))
	}
	if d.rerr != nil {
		return d.eofErr()
	}
	return nil
}
