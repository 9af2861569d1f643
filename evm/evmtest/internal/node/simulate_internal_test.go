package node

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// FuzzSimBlockJSON: any input decodes to a block or an error, never a
// panic; a block's override keys each name one field of go-ethereum's
// override types, in any case, so that a decoded block re-encodes to keys
// the decoder takes again.
func FuzzSimBlockJSON(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"blockOverrides":{"number":"0x40","time":"0x410"}}`,
		`{"blockOverrides":{"gasLimit":"0x16e360"},"stateOverrides":{"0xc000000000000000000000000000000000000000":{"balance":"0x1e8480"}}}`,
		`{"stateOverrides":{"0xc100000000000000000000000000000000000000":{"stateDiff":{"0x0000000000000000000000000000000000000000000000000000000000000000":"0x1200000000000000000000000000000000000000000000000000000000000000"}}},"calls":[{"from":"0xc000000000000000000000000000000000000000","to":"0xc100000000000000000000000000000000000000","input":"0x0ff4c916"}]}`,
		`{"blockOverrides":{"coinbase":"0x0000000000000000000000000000000000000001"}}`,
		`{"blockOverrides":{"Number":"0x1","number":"0x2"}}`,
		`{"stateOverrides":{"0xc000000000000000000000000000000000000000":{"bogus":1}}}`,
		`{"calls":[{"from":"0xc0","unknown":true}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var b simBlock
		if err := json.Unmarshal(raw, &b); err != nil {
			return
		}
		if b.BlockOverrides != nil {
			out, err := json.Marshal(b.BlockOverrides)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkKeys(out, reflect.TypeFor[blockOverride](), "block override"); err != nil && !strings.Contains(err.Error(), "name the same field") {
				t.Fatalf("%s: %v", out, err)
			}
		}
	})
}

// TestSimBlockKeysRefused: go-ethereum's refusals of override keys
// (internal/ethapi simulate_test.go at v1.17.10): a key that names no
// field, and two keys that name one field in different cases; keys match
// case-insensitively; a call's unknown key is ignored.
func TestSimBlockKeysRefused(t *testing.T) {
	for in, want := range map[string]string{
		`{"blockOverrides":{"bogusField":"0x1"}}`:                                                       `unknown field "bogusField" in block override`,
		`{"blockOverrides":{"Number":"0x1","number":"0x2"}}`:                                            `keys "Number" and "number" in block override name the same field`,
		`{"stateOverrides":{"0xc000000000000000000000000000000000000000":{"movePrecompileTo":"0x01"}}}`: `unknown field "movePrecompileTo" in state override for 0xC000000000000000000000000000000000000000`,
	} {
		var b simBlock
		err := json.Unmarshal([]byte(in), &b)
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
	var b simBlock
	if err := json.Unmarshal([]byte(`{"blockOverrides":{"GASLIMIT":"0x10"},"calls":[{"from":"0xc000000000000000000000000000000000000000","whatever":1}]}`), &b); err != nil {
		t.Fatal(err)
	}
	if b.BlockOverrides.GasLimit == nil || uint64(*b.BlockOverrides.GasLimit) != 16 || len(b.Calls) != 1 {
		t.Fatalf("%+v", b)
	}
}
