package jsontext

import (
	"bytes"
	"encoding/json"
)

// Unescaped returns raw, a JSON value, with the escapes inside a string
// value resolved: a server or a proxy that re-encodes JSON may spell "0x1f"
// as "\u0030x1f", which is the same string. raw is returned as it is when it
// holds no backslash (the common case, at no cost) or is not a string; an
// escaped string comes back quoted again with every character that needs no
// escape written plainly, so that a parser of plain text (hex, an address)
// reads what the JSON means. A string with an invalid escape is returned as
// it is, for the caller's parser to refuse.
func Unescaped(raw []byte) []byte {
	if len(raw) < 2 || raw[0] != '"' || bytes.IndexByte(raw, '\\') < 0 {
		return raw
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return raw
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return raw
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Kind names the kind of a JSON value from its first byte, for messages:
// "a string", "an object", "an array", "null", "a boolean", "a number", or
// "nothing" for no value.
func Kind(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}
