package transport

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// MaskValue masks every string of a decoded JSON value, object members'
// names included, at any depth, in any spelling of the key the redactor
// knows, and leaves the value it was given as it was.
func TestMaskValue(t *testing.T) {
	r := newRedactor("k3y-42")
	in := map[string]any{
		"url":      "https://node.example/k3y-42/evm",
		"k3y%2D42": 1.0,
		"nested":   []any{"a", []any{"/k\\u0033y-42"}, map[string]any{"x": true, "y": nil}},
		"n":        7.0,
	}
	got := MaskValue(in, r.Text)
	assert.Equal(t, map[string]any{
		"url":    "https://node.example/" + Mask + "/evm",
		Mask:     1.0,
		"nested": []any{"a", []any{"/" + Mask}, map[string]any{"x": true, "y": nil}},
		"n":      7.0,
	}, got)
	assert.Equal(t, "https://node.example/k3y-42/evm", in["url"], "the value given is not changed")
	assert.Equal(t, "/k\\u0033y-42", in["nested"].([]any)[1].([]any)[0])
	for _, v := range []any{nil, 1.0, true, "plain"} {
		assert.Equal(t, v, MaskValue(v, r.Text))
	}
}
