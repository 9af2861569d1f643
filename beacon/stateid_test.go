package beacon_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseStateID(t *testing.T) {
	good := []struct {
		in   string
		want beacon.StateID
		wire string
	}{
		{"head", beacon.Head, "head"},
		{"genesis", beacon.Genesis, "genesis"},
		{"finalized", beacon.Finalized, "finalized"},
		{"justified", beacon.Justified, "justified"},
		{"0", beacon.SlotID(0), "0"},
		{"7340032", beacon.SlotID(7340032), "7340032"},
		{"000123", beacon.SlotID(123), "123"},
		{"18446744073709551615", beacon.SlotID(1<<64 - 1), "18446744073709551615"},
		{testRootHex, beacon.RootID(testRoot), testRootHex},
		{"0X" + strings.ToUpper(testRootHex[2:]), beacon.RootID(testRoot), testRootHex},
		{"0x" + strings.Repeat("0", 64), beacon.RootID(beacon.Root{}), "0x" + strings.Repeat("0", 64)},
	}
	for _, tc := range good {
		id, err := beacon.ParseStateID(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, id, tc.in)
		assert.Equal(t, tc.wire, string(id), tc.in)
		// The wire form parses back to the same id.
		back, err := beacon.ParseStateID(string(id))
		require.NoError(t, err)
		assert.Equal(t, id, back)
	}

	bad := map[string]string{
		"":                       `invalid input: stateID: empty state id (want head, genesis, finalized, justified, a decimal slot or a 0x state root)`,
		"Head":                   `invalid input: stateID: "Head" is not head, genesis, finalized, justified, a decimal slot or a 0x state root`,
		" head":                  `invalid input: stateID: " head" is not head, genesis, finalized, justified, a decimal slot or a 0x state root`,
		"latest":                 `invalid input: stateID: "latest" is not head, genesis, finalized, justified, a decimal slot or a 0x state root`,
		"-1":                     `invalid input: stateID: "-1" is not head, genesis, finalized, justified, a decimal slot or a 0x state root`,
		"+1":                     `invalid input: stateID: "+1" is not head, genesis, finalized, justified, a decimal slot or a 0x state root`,
		"1.5":                    `invalid input: stateID: "1.5" is not head, genesis, finalized, justified, a decimal slot or a 0x state root`,
		"18446744073709551616":   `invalid input: stateID: "18446744073709551616" is not a slot: it does not fit in 64 bits`,
		"0x":                     `invalid input: stateID: "0x" is not a state root: want 0x and 64 hex digits, got 0 digits`,
		"0x1234":                 `invalid input: stateID: "0x1234" is not a state root: want 0x and 64 hex digits, got 4 digits`,
		testRootHex + "00":       `invalid input: stateID: "` + testRootHex + `00" is not a state root: want 0x and 64 hex digits, got 66 digits`,
		testRootHex[:65] + "g":   `invalid input: stateID: "` + testRootHex[:65] + `g" is not a state root: it has a character that is not a hex digit`,
		"head/../x":              `invalid input: stateID: "head/../x" is not head, genesis, finalized, justified, a decimal slot or a 0x state root`,
		strings.Repeat("a", 200): `invalid input: stateID: a 200-byte value is not head, genesis, finalized, justified, a decimal slot or a 0x state root`,
	}
	for in, want := range bad {
		_, err := beacon.ParseStateID(in)
		require.Error(t, err, in)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, in)
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie, in)
		assert.Equal(t, "stateID", ie.Arg)
		assert.Equal(t, want, err.Error(), in)
	}
}

// SlotID and RootID give the API's text, which ParseStateID reads back;
// neither is the zero StateID, which names no state.
func TestStateIDConstructors(t *testing.T) {
	assert.Equal(t, beacon.StateID("9"), beacon.SlotID(9))
	assert.Equal(t, beacon.StateID(testRootHex), beacon.RootID(testRoot))
	for _, id := range []beacon.StateID{beacon.SlotID(0), beacon.RootID(beacon.Root{})} {
		back, err := beacon.ParseStateID(string(id))
		require.NoError(t, err)
		assert.Equal(t, id, back)
		assert.NotEqual(t, beacon.StateID(""), id)
	}
}

// A StateID is a string to encoding/json: it marshals as its text.
func TestStateIDText(t *testing.T) {
	var v struct {
		ID beacon.StateID `json:"id"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"id":"finalized"}`), &v))
	assert.Equal(t, beacon.Finalized, v.ID)
	v.ID = beacon.SlotID(12)
	out, err := json.Marshal(v)
	require.NoError(t, err)
	assert.Equal(t, `{"id":"12"}`, string(out))
}

// FuzzParseStateID: ParseStateID never panics; what it accepts prints a
// wire form that parses back to the same id, is a path segment that needs
// no escaping, and what it refuses is an InputError that quotes at most a
// bounded part of the input.
func FuzzParseStateID(f *testing.F) {
	for _, s := range []string{"head", "genesis", "finalized", "justified", "0", "7340032", "18446744073709551615",
		"18446744073709551616", testRootHex, "0X" + strings.ToUpper(testRootHex[2:]), "0x", "0x12", "-1", "", "Head", "héad", "0x" + strings.Repeat("g", 64)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := beacon.ParseStateID(s)
		if err != nil {
			var ie *nodeaccess.InputError
			if !assert.ErrorAs(t, err, &ie) {
				return
			}
			// At most 80 input bytes are quoted, 4 bytes each at worst
			// ("\xed"), beside a reason of under 200 bytes.
			if len(err.Error()) > 80*4+200 {
				t.Fatalf("error of %d bytes for a %d-byte input", len(err.Error()), len(s))
			}
			return
		}
		w := string(id)
		if w == "" {
			t.Fatalf("%q parsed to the zero id", s)
		}
		for _, ch := range []byte(w) {
			if !(ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'z' || ch == 'x') {
				t.Fatalf("%q: wire form %q has %q", s, w, ch)
			}
		}
		back, err := beacon.ParseStateID(w)
		if err != nil || back != id {
			t.Fatalf("%q: wire form %q parses to %v, %v", s, w, back, err)
		}
	})
}

// A long rejected state id is not quoted (nor cut, which could end inside
// an access key passed by mistake): its length is given.
func TestStateIDLongNotQuoted(t *testing.T) {
	_, err := beacon.ParseStateID("a" + strings.Repeat("é", 100))
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if !utf8.ValidString(msg) || strings.Contains(msg, "é") || !strings.Contains(msg, "a 201-byte value") {
		t.Fatalf("err = %q", msg)
	}
}
