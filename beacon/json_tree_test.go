package beacon_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"testing"
)

// jsonTree is a JSON document parsed with its members in order, so that a
// test can write it back with the members reordered or the strings spelt
// with escapes: the same value, in another of the forms JSON allows.
type jsonTree struct {
	kind  byte        // '{', '[', '"' or 0 (a number or a literal)
	keys  []string    // an object's keys, in order
	kids  []*jsonTree // an object's values or an array's elements
	str   string      // a string's value
	plain string      // a number or literal as written
}

// parseJSONTree parses b with encoding/json's tokenizer.
func parseJSONTree(t testing.TB, b []byte) *jsonTree {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	n, err := parseJSONValue(dec)
	if err != nil {
		t.Fatalf("parsing the JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("input after the JSON value: %v", err)
	}
	return n
}

func parseJSONValue(dec *json.Decoder) (*jsonTree, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		n := &jsonTree{kind: byte(v)}
		for dec.More() {
			if v == '{' {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
			}
			kid, err := parseJSONValue(dec)
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, kid)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	case string:
		return &jsonTree{kind: '"', str: v}, nil
	case json.Number:
		return &jsonTree{plain: v.String()}, nil
	case bool:
		return &jsonTree{plain: strconv.FormatBool(v)}, nil
	case nil:
		return &jsonTree{plain: "null"}, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// jsonStyle says how to write a jsonTree: order returns the order in which
// to write an object's members (indices into its keys) given the path of
// the object ("" for the top level, "data", "data.fork", …; array elements
// add no component); str writes a string value (keys are written plain).
type jsonStyle struct {
	order func(path string, keys []string) []int
	str   func(b *bytes.Buffer, s string)
}

func (n *jsonTree) write(b *bytes.Buffer, path string, st jsonStyle) {
	switch n.kind {
	case '{':
		b.WriteByte('{')
		idx := make([]int, len(n.keys))
		for i := range idx {
			idx[i] = i
		}
		if st.order != nil {
			idx = st.order(path, n.keys)
		}
		for j, i := range idx {
			if j > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(n.keys[i])
			b.Write(k)
			b.WriteByte(':')
			sub := n.keys[i]
			if path != "" {
				sub = path + "." + sub
			}
			n.kids[i].write(b, sub, st)
		}
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		for i, k := range n.kids {
			if i > 0 {
				b.WriteByte(',')
			}
			k.write(b, path, st)
		}
		b.WriteByte(']')
	case '"':
		if st.str != nil {
			st.str(b, n.str)
			return
		}
		s, _ := json.Marshal(n.str)
		b.Write(s)
	default:
		b.WriteString(n.plain)
	}
}

// bytes writes the tree in style st.
func (n *jsonTree) bytes(st jsonStyle) []byte {
	var b bytes.Buffer
	n.write(&b, "", st)
	return b.Bytes()
}

// permutations returns every order of 0..n-1.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int(nil), p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

func TestPermutations(t *testing.T) {
	ps := permutations(4)
	if len(ps) != 24 {
		t.Fatalf("%d permutations of 4", len(ps))
	}
	seen := map[string]bool{}
	for _, p := range ps {
		seen[fmt.Sprint(p)] = true
	}
	if len(seen) != 24 {
		t.Fatalf("%d distinct permutations of 4", len(seen))
	}
}
