package transport

import (
	"unicode"
	"unicode/utf8"
)

// The matcher behind redactor: it finds the access key in text whatever
// spelling a server gave it. For every character of the key it accepts,
// independently of the other characters, any of these spellings (hex digits
// in either case, ASCII letters of the key in either case):
//
//   - the character itself;
//   - each byte of its UTF-8 encoding as itself, as a percent-escape "%c3",
//     as a double percent-escape "%25c3" (a URL escaped again to sit in a
//     query), or as a "\xc3" escape;
//   - a JSON or JavaScript "\u00e9" escape (a surrogate pair
//     "\ud83d\ude00" beyond the BMP), Go's "\U0001f600", the "\u{e9}" of
//     JavaScript and Rust, and "\xe9" for a character below U+0100;
//   - a backslash before an ASCII punctuation character ("\/", "\"",
//     "\\", "\+");
//   - an HTML numeric character reference, decimal or hex, with or without
//     its ";" ("&#43;", "&#x2B;"), and the named references &amp; &lt;
//     &gt; &quot; &apos;.
//
// A match is as long as possible, so that no tail of an escape is left
// behind. Spellings that nest one escape inside another beyond the double
// percent-escape (a JSON escape of a percent sign, say) are not recognised.

// maxRuneSpelling is the longest spelling of one character other than its
// per-byte percent-escapes: a surrogate pair "\ud83d\ude00", or an HTML
// reference "&#x0001F600;" with its 8 digits.
const maxRuneSpelling = 12

// maxEntityDigits bounds the digits of a numeric reference or "\u{…}".
const maxEntityDigits = 8

// keyRune is one character of the key.
type keyRune struct {
	r   rune
	utf [utf8Max]byte
	n   int // len of utf used
}

const utf8Max = 4

// text is what the matcher reads.
type text interface{ ~string | ~[]byte }

// find returns the start and end of the first spelling of r's key in s at
// or after from, or -1, -1.
func find[T text](r *redactor, s T, from int) (int, int) {
	if r == nil {
		return -1, -1
	}
	for i := from; i < len(s); i++ {
		if !r.first[s[i]] {
			continue
		}
		if r.second != 0 && !escapeIntro(s[i]) && (i+1 >= len(s) ||
			!sameByte(s[i+1], r.second) && !escapeIntro(s[i+1])) {
			// The key's first character as itself, not followed by its
			// second as itself or by an escape: the common miss, decided
			// without the matcher.
			continue
		}
		if end := matchAt(r, s, i); end > i {
			return i, end
		}
	}
	return -1, -1
}

// escapeIntro reports the bytes that start an escape.
func escapeIntro(c byte) bool { return c == '%' || c == '\\' || c == '&' }

// add adds p to the set of positions f.
func add(f []int, p int) []int {
	for _, q := range f {
		if q == p {
			return f
		}
	}
	return append(f, p)
}

// matchAt returns the end of the longest spelling of the key that starts at
// start, or -1. It follows every way of reading the text at once: the set of
// positions each prefix of the key can end at.
func matchAt[T text](r *redactor, s T, start int) int {
	var abuf, bbuf [8]int
	cur, next := append(abuf[:0], start), bbuf[:0]
	for k := range r.runes {
		next = next[:0]
		for _, p := range cur {
			next = runeEnds(s, p, &r.runes[k], next)
		}
		if len(next) == 0 {
			return -1
		}
		cur, next = next, cur
	}
	end := -1
	for _, p := range cur {
		end = max(end, p)
	}
	return end
}

// runeEnds adds to out the end of every spelling of kr that starts at p.
func runeEnds[T text](s T, p int, kr *keyRune, out []int) []int {
	if p >= len(s) {
		return out
	}
	// Byte by byte: each byte as itself or escaped.
	if kr.n == 1 {
		out = byteEnds(s, p, kr.utf[0], out)
	} else {
		var abuf, bbuf [4]int
		cur, next := append(abuf[:0], p), bbuf[:0]
		for i := 0; i < kr.n && len(cur) > 0; i++ {
			next = next[:0]
			for _, q := range cur {
				next = byteEnds(s, q, kr.utf[i], next)
			}
			cur, next = next, cur
		}
		for _, q := range cur {
			out = add(out, q)
		}
	}
	if kr.r >= utf8RuneSelf {
		if end := otherCaseEnd(s, p, kr.r); end > 0 {
			out = add(out, end)
		}
	}
	switch s[p] {
	case '\\':
		out = backslashEnds(s, p, kr.r, out)
	case '&':
		out = entityEnds(s, p, kr.r, out)
	}
	return out
}

// byteEnds adds the ends of the spellings of byte c at p: c itself, "%hh",
// "%25hh" and "\xhh".
func byteEnds[T text](s T, p int, c byte, out []int) []int {
	if p >= len(s) {
		return out
	}
	if sameByte(s[p], c) {
		out = add(out, p+1)
	}
	switch s[p] {
	case '%':
		if v, ok := hexAt(s, p+1, 2); ok && sameByte(byte(v), c) {
			out = add(out, p+3)
		}
		if p+2 < len(s) && s[p+1] == '2' && s[p+2] == '5' {
			if v, ok := hexAt(s, p+3, 2); ok && sameByte(byte(v), c) {
				out = add(out, p+5)
			}
		}
	case '\\':
		if p+1 < len(s) && s[p+1] == 'x' {
			if v, ok := hexAt(s, p+2, 2); ok && sameByte(byte(v), c) {
				out = add(out, p+4)
			}
		}
	}
	return out
}

// backslashEnds adds the ends of the backslash escapes of r at p (s[p] is
// a backslash).
func backslashEnds[T text](s T, p int, r rune, out []int) []int {
	if p+1 >= len(s) {
		return out
	}
	switch c := s[p+1]; {
	case c == 'u':
		if v, ok := hexAt(s, p+2, 4); ok {
			switch {
			case sameRune(rune(v), r):
				out = add(out, p+6)
			case v >= 0xd800 && v < 0xdc00 && r > 0xffff && p+7 < len(s) && s[p+6] == '\\' && s[p+7] == 'u':
				if lo, ok := hexAt(s, p+8, 4); ok && lo >= 0xdc00 && lo < 0xe000 &&
					rune((v-0xd800)<<10|(lo-0xdc00))+0x10000 == r {
					out = add(out, p+12)
				}
			}
		}
		if p+2 < len(s) && s[p+2] == '{' {
			if v, n := hexRun(s, p+3); n > 0 && p+3+n < len(s) && s[p+3+n] == '}' && sameRune(rune(v), r) {
				out = add(out, p+4+n)
			}
		}
	case c == 'U':
		if v, ok := hexAt(s, p+2, 8); ok && sameRune(rune(v), r) {
			out = add(out, p+10)
		}
	case c == 'x':
		// A code point below U+0100 (JavaScript, Python); the byte form
		// is byteEnds'.
		if v, ok := hexAt(s, p+2, 2); ok && r >= 0x80 && rune(v) == r {
			out = add(out, p+4)
		}
	case c < utf8RuneSelf && rune(c) == r && isPunct(c):
		out = add(out, p+2)
	}
	return out
}

const utf8RuneSelf = 0x80

// namedEntities are the HTML named references for the characters HTML
// escaping touches.
var namedEntities = [...]struct {
	name string
	r    rune
}{{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}}

// entityEnds adds the ends of the HTML character references of r at p
// (s[p] is '&').
func entityEnds[T text](s T, p int, r rune, out []int) []int {
	if p+2 < len(s) && s[p+1] == '#' {
		var v uint32
		var n, at int
		if s[p+2] == 'x' || s[p+2] == 'X' {
			at = p + 3
			v, n = hexRun(s, at)
		} else {
			at = p + 2
			v, n = decRun(s, at)
		}
		if n > 0 && sameRune(rune(v), r) {
			end := at + n
			out = add(out, end)
			if end < len(s) && s[end] == ';' {
				out = add(out, end+1)
			}
		}
		return out
	}
	for _, e := range namedEntities {
		if e.r == r && p+len(e.name) <= len(s) && string(s[p:p+len(e.name)]) == e.name {
			out = add(out, p+len(e.name))
		}
	}
	return out
}

// hexAt reads exactly n hex digits at p.
func hexAt[T text](s T, p, n int) (uint32, bool) {
	if p+n > len(s) {
		return 0, false
	}
	var v uint32
	for i := p; i < p+n; i++ {
		d, ok := hexDigit(s[i])
		if !ok {
			return 0, false
		}
		v = v<<4 | d
	}
	return v, true
}

// hexRun reads 1 to maxEntityDigits hex digits at p; n is 0 when there are
// none or too many.
func hexRun[T text](s T, p int) (v uint32, n int) {
	for p+n < len(s) {
		d, ok := hexDigit(s[p+n])
		if !ok {
			break
		}
		if n == maxEntityDigits {
			return 0, 0
		}
		v = v<<4 | d
		n++
	}
	return v, n
}

// decRun reads 1 to maxEntityDigits decimal digits at p.
func decRun[T text](s T, p int) (v uint32, n int) {
	for p+n < len(s) && '0' <= s[p+n] && s[p+n] <= '9' {
		if n == maxEntityDigits {
			return 0, 0
		}
		v = v*10 + uint32(s[p+n]-'0')
		n++
	}
	return v, n
}

func hexDigit(c byte) (uint32, bool) {
	switch {
	case '0' <= c && c <= '9':
		return uint32(c - '0'), true
	case 'a' <= c && c <= 'f':
		return uint32(c-'a') + 10, true
	case 'A' <= c && c <= 'F':
		return uint32(c-'A') + 10, true
	}
	return 0, false
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// isPunct reports ASCII punctuation, the characters a backslash may escape.
func isPunct(c byte) bool {
	return '!' <= c && c <= '~' && !isLetter(c) && !('0' <= c && c <= '9')
}

// sameByte compares bytes, ASCII letters without regard to case (a server
// that lower-cases the key still shows most of it).
func sameByte(a, b byte) bool {
	return a == b || isLetter(a) && a^0x20 == b
}

// sameRune is sameByte for characters: equal under Unicode simple case
// folding ("É" for "é").
func sameRune(a, b rune) bool {
	if a == b {
		return true
	}
	if a < utf8RuneSelf && b < utf8RuneSelf {
		return sameByte(byte(a), byte(b))
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// otherCaseEnd returns the end of a character at p that is r in another
// case ("É" for "é"), or -1; ASCII is byteEnds' part.
func otherCaseEnd[T text](s T, p int, r rune) int {
	if s[p] < utf8RuneSelf || unicode.SimpleFold(r) == r {
		return -1
	}
	var buf [utf8Max]byte
	n := copy(buf[:], s[p:min(len(s), p+utf8Max)])
	c, size := utf8.DecodeRune(buf[:n])
	if c != r && sameRune(c, r) {
		return p + size
	}
	return -1
}
