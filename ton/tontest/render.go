package tontest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess/ton"
)

// member is one member of a JSON object the server writes: its name and
// its value as JSON. A nil value means "take it from the entry's raw JSON,
// if it has it".
type member struct {
	name  string
	value []byte
}

// renderObject writes a JSON object: the members in order, each with its
// value, or, for a nil value, the raw object's member of that name when it
// has one (compacted); then the raw object's other members, sorted by
// name, except those named in skip (members whose meaning the typed
// values own, under any of their spellings).
func renderObject(members []member, raw map[string]json.RawMessage, skip ...string) []byte {
	b := []byte{'{'}
	used := make(map[string]bool, len(members))
	add := func(name string, v []byte) {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = appendString(b, name)
		b = append(b, ':')
		b = append(b, v...)
	}
	for _, m := range members {
		used[m.name] = true
		switch {
		case m.value != nil:
			add(m.name, m.value)
		case raw[m.name] != nil:
			add(m.name, compact(raw[m.name]))
		}
	}
	names := make([]string, 0, len(raw))
	for k := range raw {
		if !used[k] && !slices.Contains(skip, k) {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		add(k, compact(raw[k]))
	}
	return append(b, '}')
}

// rawObject reads an entry's raw JSON: empty and null give no members; any
// other value must be a JSON object.
func rawObject(raw json.RawMessage) (map[string]json.RawMessage, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return nil, nil
	}
	if t[0] != '{' {
		return nil, fmt.Errorf("the raw JSON is not an object")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(t, &m); err != nil {
		return nil, fmt.Errorf("the raw JSON is not an object: %v", err)
	}
	return m, nil
}

func compact(v json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return v // unreachable: v came out of json.Unmarshal
	}
	return b.Bytes()
}

// appendString appends s as a JSON string, with encoding/json's escaping
// except for HTML characters (<, >, &), which the servers write as they are.
func appendString(b []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// rawUpper writes an address as the indexer writes it: the raw form with
// the account id in upper-case hex.
func rawUpper(a ton.Address) string { return strings.ToUpper(a.String()) }

func appendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }

func jsonString(s string) []byte { return appendString(nil, s) }

func jsonUint(n uint64) []byte { return strconv.AppendUint(nil, n, 10) }

// jsonUintString writes n as a JSON string of decimal digits ("123"), as
// servers write logical times.
func jsonUintString(n uint64) []byte {
	b := append([]byte{'"'}, strconv.FormatUint(n, 10)...)
	return append(b, '"')
}

// jsonAmount writes a nanoton amount as a decimal string, null when nil.
func jsonAmount(v *big.Int) []byte {
	if v == nil {
		return []byte("null")
	}
	return jsonString(v.String())
}

// jsonHash writes a hash in standard base64, null for the zero hash
// (the SDK's value for a hash the server sent as null).
func jsonHash(h ton.Hash) []byte {
	if h == (ton.Hash{}) {
		return []byte("null")
	}
	return jsonString(h.String())
}

// jsonBOC writes a bag of cells in standard base64, null when nil.
func jsonBOC(b []byte) []byte {
	if b == nil {
		return []byte("null")
	}
	return jsonString(base64.StdEncoding.EncodeToString(b))
}

func checkAmount(what string, v *big.Int) error {
	if v != nil && v.Sign() < 0 {
		return fmt.Errorf("%s %s is negative", what, v)
	}
	return nil
}
