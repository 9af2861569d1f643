package beacon_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// escapeSome returns a string writer that spells each character of a
// string value as a \uXXXX escape with probability p (the escape's hex
// digits in either case), as a proxy that re-encodes JSON may.
func escapeSome(rng *rand.Rand, p float64) func(*bytes.Buffer, string) {
	return func(b *bytes.Buffer, s string) {
		b.WriteByte('"')
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case rng.Float64() >= p:
				b.WriteByte(c)
			case rng.IntN(2) == 0:
				fmt.Fprintf(b, `\u%04x`, c)
			default:
				fmt.Fprintf(b, `\u%04X`, c)
			}
		}
		b.WriteByte('"')
	}
}

// TestJSONEscapedValues spells the characters of every string value of
// every fork's state (decimal integers, hex roots, keys and bitfields, the
// version, the strings "true"/"false" where the flags are strings) as JSON
// escapes, all of them or a random third, and decodes: the same state as
// from the plain JSON.
func TestJSONEscapedValues(t *testing.T) {
	p := beacon.MinimalPreset()
	for _, v := range allForks() {
		t.Run(v.String(), func(t *testing.T) {
			want := beacontest.NewState(v, p, 6, 40+uint64(v))
			js := jsonEncodeResponse(t, want, beacon.Flags{Finalized: true})
			// The flags as strings, which DecodeJSON also accepts.
			js = bytes.Replace(js, []byte(`"finalized":true`), []byte(`"finalized":"true"`), 1)
			js = bytes.Replace(js, []byte(`"execution_optimistic":false`), []byte(`"execution_optimistic":"false"`), 1)
			tree := parseJSONTree(t, js)
			for _, share := range []float64{1, 0.33} {
				rng := rand.New(rand.NewPCG(uint64(v), uint64(share*100)))
				body := tree.bytes(jsonStyle{str: escapeSome(rng, share)})
				if share == 1 && (bytes.Contains(body, []byte(`"0x`)) || !bytes.Contains(body, []byte(`"\u0030\u0078`)) && !bytes.Contains(body, []byte(`"\u0030\u0058`))) {
					t.Fatalf("the values are not escaped: %.200s", body)
				}
				for name, r := range map[string]func() *beacon.State{
					"sized": func() *beacon.State {
						got, flags, err := decodeJSON(bytes.NewReader(body), p)
						if err != nil {
							t.Fatalf("share %v: %v", share, err)
						}
						if flags == nil || *flags != (beacon.Flags{Finalized: true}) {
							t.Fatalf("share %v: flags %+v", share, flags)
						}
						return got
					},
					"onebyte": func() *beacon.State {
						got, _, err := decodeJSON(&jsonSmallReader{r: bytes.NewReader(body)}, p)
						if err != nil {
							t.Fatalf("share %v: %v", share, err)
						}
						return got
					},
				} {
					if got := r(); !jsonSameState(got, beacontest.NewState(v, p, 6, 40+uint64(v))) {
						t.Fatalf("share %v %s: the decoded state differs", share, name)
					}
				}
			}
		})
	}
}

// TestJSONEscapedSepolia decodes the real Sepolia genesis state (SSZ from
// eth-clients/sepolia), written as JSON with a third of the characters of
// its string values escaped: its hash tree root is still the published
// Sepolia genesis state root.
func TestJSONEscapedSepolia(t *testing.T) {
	st, err := unmarshalSSZ(readSepolia(t), beacon.Phase0)
	if err != nil {
		t.Fatal(err)
	}
	tree := parseJSONTree(t, jsonEncodeResponse(t, st, beacon.Flags{}))
	body := tree.bytes(jsonStyle{str: escapeSome(rand.New(rand.NewPCG(1, 2)), 0.33)})
	got, _, err := decodeJSON(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	root, err := beacon.HashTreeRoot(got)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%x", root) != "fb9afe32150fa39f4b346be2519a67e2a4f5efcd50a1dc192c3f6b3d013d2798" {
		t.Fatalf("root %x, want Sepolia's genesis state root", root)
	}
}

// TestJSONEscapedInvalid gives values whose escapes decode to characters
// that the value cannot hold, for each kind of value: each is refused
// with an error naming the field and showing what the string decodes to.
func TestJSONEscapedInvalid(t *testing.T) {
	fulu := string(jsonEncodeResponse(t, jsonTestState(beacon.Fulu), beacon.Flags{}))
	gloas := string(jsonEncodeResponse(t, jsonTestState(beacon.Gloas), beacon.Flags{}))
	// Each case replaces the first match of re (a regular expression)
	// with repl, whose value starts at its first quote after a colon, in
	// the fulu state (or the gloas state: the cases of gloas's own types).
	type escCase struct {
		name, re, repl string
		path, reason   string // a path ending in ".slashed" matches any validator's
	}
	gloasCases := []escCase{
		{"gloas: bitvector with a bad digit", `"execution_payload_availability":"0x[0-9a-f]`, `"execution_payload_availability":"0x\u0067`, "execution_payload_availability", "invalid hex digit 'g'"},
		{"gloas: latest_block_hash without 0x", `"latest_block_hash":"0x`, `"latest_block_hash":"\u0030\u0030`, "latest_block_hash", "0x-prefixed"},
		{"gloas: builder version over 255, escaped", `"version":"\d+"`, `"version":"\u0032\u00356"`, "builders[0].version", "does not fit in a byte"},
		{"gloas: bid value with a letter", `"value":"`, `"value":"\u0041`, "latest_execution_payload_bid.value", `decode to "A`},
		{"gloas: ptc_window index overflow, escaped", `"ptc_window":\[\["\d+"`, `"ptc_window":[["\u0031844674407370955161\u0036"`, "ptc_window[0][0]", "overflows uint64"},
	}
	cases := []escCase{
		{"letter in an integer", `"slot":"`, `"slot":"\u0041`, "slot", `decode to "A`},
		{"space in an integer", `"slot":"`, `"slot":"\u0020`, "slot", `decode to " `},
		{"quote in an integer", `"slot":"`, `"slot":"\"`, "slot", `decode to "\"`},
		{"newline in an integer", `"slot":"`, `"slot":"\n`, "slot", `decode to "\n`},
		{"lone surrogate in an integer", `"slot":"`, `"slot":"\ud800`, "slot", "decode to"},
		{"leading zero, escaped", `"slot":"`, `"slot":"\u0030`, "slot", "leading zero"},
		{"overflow, escaped", `"eth1_deposit_index":"\d+"`, `"eth1_deposit_index":"\u0031844674407370955161\u0036"`, "eth1_deposit_index", "overflows uint64"},
		{"participation over 255, escaped", `"previous_epoch_participation":\["\d+"`, `"previous_epoch_participation":["\u0032\u00356"`, "previous_epoch_participation[0]", "does not fit in a byte"},
		{"base fee with a letter", `"base_fee_per_gas":"`, `"base_fee_per_gas":"\u0078`, "latest_execution_payload_header.base_fee_per_gas", `decode to "x`},
		{"hex root with a bad digit", `"genesis_validators_root":"0x[0-9a-f]{64}`, `"genesis_validators_root":"0x` + strings.Repeat("0", 63) + `\u0067`, "genesis_validators_root", "invalid hex digit 'g'"},
		{"hex root without 0x", `"genesis_validators_root":"0x`, `"genesis_validators_root":"\u0030\u0030`, "genesis_validators_root", "0x-prefixed"},
		{"hex root too long", `"genesis_validators_root":"0x`, `"genesis_validators_root":"0x\u0030\u0030`, "genesis_validators_root", "too long"},
		{"extra data with a slash", `"extra_data":"0x`, `"extra_data":"0x\/`, "latest_execution_payload_header.extra_data", "invalid hex digit '/'"},
		{"justification bits too high", `"justification_bits":"0x0`, `"justification_bits":"0x\u0066`, "justification_bits", "beyond the 4"},
		{"boolean misspelt", `"slashed":false`, `"slashed":"\u0066alsy"`, ".slashed", "expected a boolean"},
		{"boolean flag misspelt", `"finalized":false`, `"finalized":"\u0074ru"`, "finalized", "expected a boolean"},
	}
	for i, c := range append(cases, gloasCases...) {
		base := fulu
		if i >= len(cases) {
			base = gloas
		}
		t.Run(c.name, func(t *testing.T) {
			in := jsonReplaceOnce(t, base, c.re, strings.ReplaceAll(c.repl, "$", "$$"))
			_, _, err := decodeJSON(strings.NewReader(in), jsonMinimal)
			var de *beacon.DecodeError
			if !errors.As(err, &de) || !errors.Is(err, beacon.ErrInvalidState) {
				t.Fatalf("error %v, want a *DecodeError", err)
			}
			pathOK := de.Path == c.path || c.path[0] == '.' && strings.HasPrefix(de.Path, "validators[") && strings.HasSuffix(de.Path, c.path)
			if !pathOK || !strings.Contains(de.Reason, c.reason) {
				t.Fatalf("got %q: %q, want %q: …%s…", de.Path, de.Reason, c.path, c.reason)
			}
			i := strings.Index(in, c.repl)
			want := int64(i + strings.Index(c.repl, `:`) + 1)
			for j := strings.Index(c.repl, `:`) + 1; c.repl[j] == '['; j++ {
				want++
			}
			if de.Offset != want {
				t.Errorf("offset %d, want the value's quote at %d", de.Offset, want)
			}
		})
	}
}
