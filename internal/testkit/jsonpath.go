package testkit

import (
	"bytes"
	"encoding/json"
	"testing"
)

// SetJSON returns body with the member at path (object keys and array
// indexes into the decoded JSON) set to the raw JSON v, re-encoded as
// RoundTripJSON encodes it.
func SetJSON(t testing.TB, body []byte, v string, path ...any) []byte {
	t.Helper()
	root := decodeJSON(t, body)
	cur := root
	for i, p := range path {
		last := i == len(path)-1
		switch k := p.(type) {
		case string:
			m := cur.(map[string]any)
			if last {
				m[k] = json.RawMessage(v)
			} else {
				cur = m[k]
			}
		case int:
			a := cur.([]any)
			if last {
				a[k] = json.RawMessage(v)
			} else {
				cur = a[k]
			}
		}
	}
	out, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// RoundTripJSON re-encodes body as SetJSON does (object members sorted),
// so that a page and the same page with one member changed differ in that
// member alone.
func RoundTripJSON(t testing.TB, body []byte) []byte {
	t.Helper()
	out, err := json.Marshal(decodeJSON(t, body))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// HasJSON reports whether body holds a non-null member at path.
func HasJSON(t testing.TB, body []byte, path ...any) bool {
	t.Helper()
	cur := decodeJSON(t, body)
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return false
			}
			if cur, ok = m[k]; !ok {
				return false
			}
		case int:
			a, ok := cur.([]any)
			if !ok || k >= len(a) {
				return false
			}
			cur = a[k]
		}
	}
	return cur != nil
}

func decodeJSON(t testing.TB, body []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// OddJSONShapes are shapes a server may send where a decoder expects
// another: the decoding policy's table tests feed each to every secondary
// member.
var OddJSONShapes = []string{`1.5`, `{"x":1}`, `["x"]`, `true`, `"garbage"`, `0`, `""`, `null`,
	`{"239":{"amount":"1"}}`, `{"239":null}`, `123456789012345678901234567890123456789012345678901234567890`}
