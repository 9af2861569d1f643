package transport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Mask is what stands in place of the access key wherever a URL or a server
// message is shown.
const Mask = "REDACTED"

// redactor removes the access key from text: the key itself, its path- and
// query-escaped forms, and the forms Go's %q and JSON quoting give it (a
// message that quotes a value holding the key would otherwise hide it from a
// plain match).
type redactor struct {
	needles []string
}

func newRedactor(key string) redactor {
	if key == "" {
		return redactor{}
	}
	r := redactor{needles: []string{key}}
	quoted := strconv.Quote(key)
	js, _ := json.Marshal(key)
	ascii := strconv.QuoteToASCII(key)
	forms := []string{url.PathEscape(key), url.QueryEscape(key), quoted[1 : len(quoted)-1], string(js[1 : len(js)-1]),
		ascii[1 : len(ascii)-1], jsonASCII(key, "%04x"), jsonASCII(key, "%04X")}
	for _, v := range forms {
		if !slices.Contains(r.needles, v) {
			r.needles = append(r.needles, v)
		}
	}
	return r
}

// jsonASCII returns key as an ASCII-only JSON string body, the way
// encoders that escape every non-ASCII character write it (Python's
// json.dumps: "\u00e9", a surrogate pair beyond the BMP); hexFmt picks lower-
// or upper-case hex digits.
func jsonASCII(key, hexFmt string) string {
	var b strings.Builder
	for _, r := range key {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < utf8.RuneSelf:
			// Raw, as such encoders write '<', '>' and '&' (unlike
			// encoding/json); a key holds no control characters.
			b.WriteRune(r)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, "\\u"+hexFmt+"\\u"+hexFmt, r1, r2)
		default:
			fmt.Fprintf(&b, "\\u"+hexFmt, r)
		}
	}
	return b.String()
}

// longest returns the length of the longest form of the key.
func (r redactor) longest() int {
	n := 0
	for _, nd := range r.needles {
		n = max(n, len(nd))
	}
	return n
}

// String returns s with every form of the key replaced by Mask.
func (r redactor) String(s string) string {
	for _, n := range r.needles {
		if strings.Contains(s, n) {
			s = strings.ReplaceAll(s, n, Mask)
		}
	}
	return s
}

// value returns v, a decoded JSON value, with the key masked in every string
// in it, map keys included.
func (r redactor) value(v any) any {
	if len(r.needles) == 0 {
		return v
	}
	switch x := v.(type) {
	case string:
		return r.String(x)
	case []any:
		for i := range x {
			x[i] = r.value(x[i])
		}
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[r.String(k)] = r.value(e)
		}
		return m
	}
	return v
}

// Bytes returns b with every form of the key replaced by Mask; b itself is
// not modified.
func (r redactor) Bytes(b []byte) []byte {
	for _, n := range r.needles {
		if bytes.Contains(b, []byte(n)) {
			b = bytes.ReplaceAll(b, []byte(n), []byte(Mask))
		}
	}
	return b
}

// Err returns an error safe to show: a *url.Error is rebuilt with its URL
// scrubbed, and an error whose message contains the key is replaced by one
// with the message scrubbed, whose causes are in turn made safe the same
// way. errors.Is still reaches the original causes (the sentinels, the net
// and syscall errors), but no error in the chain prints the key, so errors.As
// cannot hand the caller one that does. An error that prints no key is
// returned as it is, wrappers and all.
func (r redactor) Err(err error) error {
	if err == nil || len(r.needles) == 0 {
		return err
	}
	if ue, ok := err.(*url.Error); ok {
		return &url.Error{Op: ue.Op, URL: r.String(ue.URL), Err: r.Err(ue.Err)}
	}
	msg := err.Error()
	clean := r.String(msg)
	if clean == msg {
		return err
	}
	s := &scrubbed{msg: clean}
	switch x := err.(type) {
	case interface{ Unwrap() []error }:
		for _, e := range x.Unwrap() {
			if e = r.Err(e); e != nil {
				s.errs = append(s.errs, e)
			}
		}
	case interface{ Unwrap() error }:
		if e := r.Err(x.Unwrap()); e != nil {
			s.errs = []error{e}
		}
	}
	return s
}

// scrubbed is an error whose message had the key removed; its causes are
// scrubbed too.
type scrubbed struct {
	msg  string
	errs []error
}

func (e *scrubbed) Error() string   { return e.msg }
func (e *scrubbed) Unwrap() []error { return e.errs }

// Head returns at most the first n bytes of b with every form of the key
// masked, including a key that straddles byte n (which a plain cut would
// leave half visible).
func (r redactor) Head(b []byte, n int) []byte {
	if len(r.needles) == 0 || len(b) <= n {
		b = r.Bytes(b)
	} else {
		var out []byte
	scan:
		for i := 0; i < n; {
			for _, nd := range r.needles {
				if i+len(nd) <= len(b) && string(b[i:i+len(nd)]) == nd {
					out = append(out, Mask...)
					i += len(nd)
					continue scan
				}
			}
			out = append(out, b[i])
			i++
		}
		b = out
	}
	if len(b) > n {
		b = b[:n]
	}
	return b
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
func (c *Client) MaskCut(s string, n int) string { return Cut(c.red.String(s), n) }
