package beacon

import (
	"fmt"
	"strconv"

	"github.com/holiman/uint256"
	"github.com/nodeaccess/nodeaccess/beacon/internal/swar"
)

// The JSON values of a state, as the beacon API writes them: integers as
// decimal strings (a bare JSON number is accepted too), bytes as 0x-hex.

// inField prefixes a *DecodeError's path with a field name.
func inField(err error, name string) error {
	if de, ok := err.(*DecodeError); ok {
		switch {
		case de.Path == "":
			de.Path = name
		case de.Path[0] == '[':
			de.Path = name + de.Path
		default:
			de.Path = name + "." + de.Path
		}
	}
	return err
}

// atIndex prefixes a *DecodeError's path with a list index.
func atIndex(err error, i int) error {
	if de, ok := err.(*DecodeError); ok {
		idx := "[" + strconv.Itoa(i) + "]"
		switch {
		case de.Path == "":
			de.Path = idx
		case de.Path[0] == '[':
			de.Path = idx + de.Path
		default:
			de.Path = idx + "." + de.Path
		}
	}
	return err
}

// hexInto decodes a "0x…" string of exactly len(dst) bytes into dst.
func (d *jsonDecoder) hexInto(dst []byte) error {
	c, err := d.peek()
	if err != nil {
		return err
	}
	if c != '"' {
		return d.unexpected("a 0x-hex string")
	}
	n := 2*len(dst) + 4
	if !d.fill(n) {
		return d.hexSlow(dst)
	}
	b := d.buf[d.pos : d.pos+n]
	if b[1] != '0' || b[2] != 'x' || b[n-1] != '"' {
		return d.hexSlow(dst)
	}
	if !swar.Hex(dst, b[3:n-1]) {
		return d.hexSlow(dst)
	}
	d.pos += n
	return nil
}

// hexSlow decodes a "0x…" string of len(dst) bytes that hexInto's fast
// path refused: one with escapes, or says what is wrong with it.
func (d *jsonDecoder) hexSlow(dst []byte) error {
	if d.escapedString(2*len(dst) + 2) {
		return d.unescaped(2*len(dst)+2, fmt.Sprintf("a 0x-prefixed hex string of %d bytes", len(dst)), func(s *jsonDecoder) error {
			return s.hexInto(dst)
		})
	}
	return d.hexError(len(dst))
}

// hexError consumes a string that hexInto refused and says what is wrong
// with it.
func (d *jsonDecoder) hexError(want int) error {
	start := d.offset()
	var (
		n      int    // raw bytes seen
		badAt  = -1   // first non-hex byte after the prefix
		badC   byte   // that byte
		prefix []byte // the first two bytes
	)
	_, err := d.scanString(func(b []byte) {
		for _, c := range b {
			switch {
			case n < 2:
				prefix = append(prefix, c)
			case badAt < 0 && swar.Unhex[c] > 15:
				badAt, badC = n, c
			}
			n++
		}
	})
	if err != nil {
		return err
	}
	switch {
	case string(prefix) != "0x":
		return d.errAt(start, "expected a 0x-prefixed hex string of %d bytes", want)
	case badAt >= 0:
		return d.errAt(start+1+int64(badAt), "invalid hex digit %s", describeByte(badC))
	default:
		return d.errAt(start, "expected %d bytes (%d hex digits), found %d hex digits", want, 2*want, n-2)
	}
}

// hexBytes decodes a "0x…" string of at most max bytes.
func (d *jsonDecoder) hexBytes(max int) ([]byte, error) {
	c, err := d.peek()
	if err != nil {
		return nil, err
	}
	if c != '"' {
		return nil, d.unexpected("a 0x-hex string")
	}
	if d.escapedString(2*max + 2) {
		var out []byte
		err := d.unescaped(2*max+2, fmt.Sprintf("a 0x-prefixed hex string of at most %d bytes", max), func(s *jsonDecoder) (err error) {
			out, err = s.hexBytes(max)
			return err
		})
		return out, err
	}
	start := d.offset()
	var raw []byte
	n := 0
	_, err = d.scanString(func(b []byte) {
		if n+len(b) <= 2*max+2 {
			raw = append(raw, b...)
		}
		n += len(b)
	})
	if err != nil {
		return nil, err
	}
	if n > 2*max+2 {
		return nil, d.errAt(start, "%d characters, over the limit of %d bytes", n, max)
	}
	if len(raw) < 2 || raw[0] != '0' || raw[1] != 'x' {
		return nil, d.errAt(start, "expected a 0x-prefixed hex string")
	}
	h := raw[2:]
	for i, c := range h {
		if swar.Unhex[c] > 15 {
			return nil, d.errAt(start+3+int64(i), "invalid hex digit %s", describeByte(c))
		}
	}
	if len(h)%2 != 0 {
		return nil, d.errAt(start, "odd number of hex digits (%d)", len(h))
	}
	out := make([]byte, len(h)/2)
	for i := range out {
		out[i] = swar.Unhex[h[2*i]]<<4 | swar.Unhex[h[2*i+1]]
	}
	return out, nil
}

// number finds a decimal integer at d.pos, quoted ("123", as the beacon API
// sends it) or bare (123), of at most maxDigits digits, makes sure it is
// in the buffer, and returns the index of its first digit and the digit
// count. The caller converts the digits and then calls numberEnd.
func (d *jsonDecoder) number(maxDigits int) (first, n int, quoted bool, err error) {
	c, err := d.peek()
	if err != nil {
		return 0, 0, false, err
	}
	quoted = c == '"'
	if !quoted && (c < '0' || c > '9') && c != '-' {
		return 0, 0, false, d.unexpected("a decimal integer")
	}
	d.fill(maxDigits + 4)
	first = d.pos
	if quoted {
		first++
	}
	i := first
	for i < d.end && i-first <= maxDigits && d.buf[i]-'0' <= 9 {
		i++
	}
	n = i - first
	if n > maxDigits {
		return 0, 0, false, d.errAt(d.base+int64(first), "integer too large")
	}
	if i >= d.end {
		if quoted || n == 0 || d.rerr != nil {
			return 0, 0, false, d.eofErr()
		}
		return first, n, quoted, nil
	}
	switch c := d.buf[i]; {
	case quoted && c == '\\':
		return 0, 0, false, errEscaped
	case n == 0 && c == '-':
		return 0, 0, false, d.errAt(d.base+int64(i), "negative integer")
	case n == 0 && c == '"':
		return 0, 0, false, d.errAt(d.base+int64(i), "empty string, expected a decimal integer")
	case n == 0:
		return 0, 0, false, d.errAt(d.base+int64(i), "expected a decimal integer, found %s", describeByte(c))
	case c == '.' || c == 'e' || c == 'E':
		return 0, 0, false, d.errAt(d.base+int64(i), "not an integer")
	case n > 1 && d.buf[first] == '0':
		return 0, 0, false, d.errAt(d.base+int64(first), "leading zero in an integer")
	case quoted && c != '"':
		return 0, 0, false, d.errAt(d.base+int64(i), "expected a decimal integer, found %s", describeByte(c))
	}
	return first, n, quoted, nil
}

// uint64v decodes a decimal uint64.
func (d *jsonDecoder) uint64v() (uint64, error) {
	if d.end-d.pos >= 32 && d.buf[d.pos] == '"' {
		if v, n, ok := swar.QuotedUint(d.buf[d.pos : d.pos+32]); ok {
			d.pos += n
			return v, nil
		}
	}
	return d.uint64Slow()
}

// uint64Slow decodes a decimal uint64 in any accepted form, or says what
// is wrong with it.
func (d *jsonDecoder) uint64Slow() (uint64, error) {
	first, n, quoted, err := d.number(20)
	if err == errEscaped {
		var v uint64
		err = d.unescaped(80, "a decimal integer", func(s *jsonDecoder) (err error) {
			v, err = s.uint64Slow()
			return err
		})
		return v, err
	}
	if err != nil {
		return 0, err
	}
	b := d.buf[first : first+n]
	var v uint64
	if n < 20 {
		for _, c := range b {
			v = v*10 + uint64(c-'0')
		}
	} else {
		for _, c := range b[:19] {
			v = v*10 + uint64(c-'0')
		}
		x := uint64(b[19] - '0')
		if v > (1<<64-1-x)/10 {
			return 0, d.errAt(d.base+int64(first), "integer overflows uint64")
		}
		v = v*10 + x
	}
	d.pos = first + n
	if quoted {
		d.pos++
	}
	return v, nil
}

// uint8v decodes a decimal integer of at most 255.
func (d *jsonDecoder) uint8v() (uint8, error) {
	off := d.offset()
	v, err := d.uint64v()
	if err != nil {
		return 0, err
	}
	if v > 255 {
		return 0, d.errAt(off, "%d does not fit in a byte", v)
	}
	return uint8(v), nil
}

// uint256v decodes a decimal uint256 (base_fee_per_gas).
func (d *jsonDecoder) uint256v(z *uint256.Int) error {
	first, n, quoted, err := d.number(78)
	if err == errEscaped {
		return d.unescaped(80, "a decimal integer", func(s *jsonDecoder) error { return s.uint256v(z) })
	}
	if err != nil {
		return err
	}
	ten := uint256.NewInt(10)
	var x uint256.Int
	z.Clear()
	for _, c := range d.buf[first : first+n] {
		x.SetUint64(uint64(c - '0'))
		_, o1 := z.MulOverflow(z, ten)
		_, o2 := z.AddOverflow(z, &x)
		if o1 || o2 {
			return d.errAt(d.base+int64(first), "integer overflows uint256")
		}
	}
	d.pos = first + n
	if quoted {
		d.pos++
	}
	return nil
}

// boolv decodes true or false; the strings "true" and "false" too.
func (d *jsonDecoder) boolv() (bool, error) {
	c, err := d.peek()
	if err != nil {
		return false, err
	}
	switch c {
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	case '"':
		d.fill(7)
		rest := string(d.buf[d.pos:min(d.end, d.pos+7)])
		switch {
		case len(rest) >= 6 && rest[:6] == `"true"`:
			d.pos += 6
			return true, nil
		case len(rest) >= 7 && rest[:7] == `"false"`:
			d.pos += 7
			return false, nil
		case d.escapedString(5):
			var b bool
			err := d.unescaped(5, "a boolean", func(s *jsonDecoder) (err error) {
				b, err = s.boolv()
				return err
			})
			return b, err
		}
	}
	return false, d.unexpected("a boolean")
}

// stringv decodes a string of at most max bytes (longer ones are an
// error), with its escapes.
func (d *jsonDecoder) stringv(max int) (string, error) {
	c, err := d.peek()
	if err != nil {
		return "", err
	}
	if c != '"' {
		return "", d.unexpected("a string")
	}
	start := d.offset()
	var raw []byte
	n, err := d.scanString(func(b []byte) {
		if len(raw)+len(b) <= 6*max {
			raw = append(raw, b...)
		}
	})
	if err != nil {
		return "", err
	}
	if n > 6*max {
		return "", d.errAt(start, "string longer than %d bytes", max)
	}
	s, uerr := strconv.Unquote(`"` + string(raw) + `"`)
	if uerr != nil || len(s) > max {
		return "", d.errAt(start, "malformed or overlong string")
	}
	return s, nil
}
