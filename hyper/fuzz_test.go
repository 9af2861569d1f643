package hyper

import (
	"encoding/json"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// Seeds: the recorded bodies, and hand-written ones in the shapes servers
// send (numbers as strings and as numbers, missing and null members).
var vaultSeeds = []string{
	`[]`,
	`null`,
	`[{"vaultAddress":"0x07fd993f0fa3a185f7207adccd29f7a87404689d","equity":688536.0314879999,"lockedUntilTimestamp":"1737697731869"}]`,
	`[{"vaultAddress":"0x07FD993F0FA3A185F7207ADCCD29F7A87404689D","equity":"1e-7","lockedUntilTimestamp":null,"x":[{}]}]`,
	`[{"vaultAddress":"0x07fd993f0fa3a185f7207adccd29f7a87404689d","equity":"-0.5"},{"vaultAddress":"0x7f6ce756bdee0db22a8fbda15aa48023aae5a8be","equity":"0"}]`,
}

func FuzzDecodeVaultEquities(f *testing.F) {
	f.Add(readFixture(f, "userVaultEquities_2025-08.json"))
	for _, s := range vaultSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got, err := decodeVaultEquities(body)
		if err != nil {
			return
		}
		if got == nil {
			t.Fatal("nil slice without error")
		}
		// What decodes is a JSON array with one entry per element.
		var arr []json.RawMessage
		if err := json.Unmarshal(body, &arr); err != nil || len(arr) != len(got) {
			t.Fatalf("decoded %d entries from a body encoding/json reads as %d (%v)", len(got), len(arr), err)
		}
		for i, v := range got {
			checkDecimal(t, v.Equity)
			if !v.LockedUntil.IsZero() && (v.LockedUntil.Location().String() != "UTC" || v.LockedUntil.UnixMilli() <= 0) {
				t.Fatalf("entry %d: lock-up end %v", i, v.LockedUntil)
			}
		}
	})
}

func FuzzDecodeMids(f *testing.F) {
	f.Add(readFixture(f, "allMids_2023-07.json"))
	f.Add(readFixture(f, "allMids_2025-12.json"))
	f.Add(readFixture(f, "allMids_hip4_handwritten.json"))
	for _, s := range []string{
		`{}`, `null`, `{"BTC":30135.5,"@0":"0.1","xyz:CL":"60","PURR/USDC":"0.0664375"}`,
		`{"@01":"1","a:b:c":"2","":"3","\u0042TC":"4"}`, `{"BTC":"1","BTC":"2"}`, `{"x":"1e5"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		mids, err := decodeMids("", body)
		if err != nil {
			return
		}
		// encoding/json reads the same keys (it keeps one of duplicates,
		// which decodeMids refuses).
		var plain map[string]json.RawMessage
		if err := json.Unmarshal(body, &plain); err != nil || len(plain) != mids.Len() {
			t.Fatalf("%d mids from a body encoding/json reads as %d keys (%v)", mids.Len(), len(plain), err)
		}
		total, prev := 0, ""
		i := 0
		for key, e := range mids.All() {
			if key != e.Key {
				t.Fatalf("All yields %q with the entry of %q", key, e.Key)
			}
			if i++; i > 1 && e.Key <= prev {
				t.Fatalf("keys out of order: %q after %q", e.Key, prev)
			}
			prev = e.Key
			if g, ok := mids.Get(e.Key); !ok || g != e {
				t.Fatalf("Get(%q) = %v, %v", e.Key, g, ok)
			}
			if e.Price.IsNegative() {
				t.Fatalf("negative price for %q", e.Key)
			}
			checkDecimal(t, e.Price)
			checkClassified(t, e)
		}
		for _, k := range []KeyKind{KeyUnknown, KeyPerp, KeySpotPair, KeySpotIndex, KeyBuilderDex, KeyOutcome} {
			total += countKind(mids, k)
		}
		if total != mids.Len() {
			t.Fatalf("counts add up to %d of %d", total, mids.Len())
		}
	})
}

// checkClassified checks that a key's parts put together give the key.
func checkClassified(t *testing.T, m Mid) {
	t.Helper()
	var rebuilt string
	switch m.Kind {
	case KeyPerp, KeySpotPair:
		rebuilt = m.Coin
	case KeySpotIndex:
		rebuilt = "@" + strconv.Itoa(m.Index)
	case KeyBuilderDex:
		rebuilt = m.Dex + ":" + m.Coin
	case KeyOutcome:
		rebuilt = "#" + strconv.Itoa(m.Index)
	case KeyUnknown:
		return
	default:
		t.Fatalf("kind %d", m.Kind)
	}
	if rebuilt != m.Key {
		t.Fatalf("%s key %q rebuilds as %q", m.Kind, m.Key, rebuilt)
	}
}

// checkDecimal checks that d prints and reads back as itself, within the
// exponent bound.
func checkDecimal(t *testing.T, d decimal.Decimal) {
	t.Helper()
	if e := d.Exponent(); e > maxExponent || e < -maxExponent {
		t.Fatalf("exponent %d out of bounds", e)
	}
	back, err := decimal.NewFromString(d.String())
	if err != nil || !back.Equal(d) {
		t.Fatalf("%s does not read back: %v", d, err)
	}
}

// numberGrammar is JSON's number grammar, leading zeros allowed.
var numberGrammar = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{`"688536.0314879999"`, `688536.0314879999`, `"1e-7"`, `"-0"`, `"00012.50"`, `"1."`, `".5"`, `"1e999999"`, `"\u0031"`, `null`, `"+1"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		d, err := parseDecimal(raw)
		if err != nil {
			return
		}
		checkDecimal(t, d)
		// The same number as math/big reads the text.
		var s string
		if json.Unmarshal(raw, &s) != nil {
			s = string(raw)
		}
		r, ok := new(big.Rat).SetString(s)
		if !ok || r.Cmp(d.Rat()) != 0 {
			t.Fatalf("%s decoded as %s, math/big reads %v", raw, d, r)
		}
		if !numberGrammar.MatchString(s) {
			t.Fatalf("%s accepted outside the grammar", raw)
		}
	})
}

// Seeds of FuzzErrorMessage: Hyperliquid's error bodies (the 422 text and
// the 500 null, testdata/SOURCES.md) and the shapes of gateways' bodies.
var errorBodySeeds = []string{
	"Failed to deserialize the JSON body into the target type",
	"Failed to deserialize the JSON body into the target type: missing field `user` at line 1 column 18\n",
	"null", " null\n", `"user not found"`, `{"error":"unauthorized"}`, `{"message":"no such path","code":404}`,
	`{"error":{"code":1},"message":"x"}`, `{"error":"a\u0000b"}`, "<html><body>502</body></html>", "", "  ", "42", `[1]`,
	`{"error":"`, `"unterminated`,
}

func FuzzErrorMessage(f *testing.F) {
	for _, s := range errorBodySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		msg := errorMessage(body)
		if msg != strings.TrimSpace(msg) {
			t.Fatalf("message %q of %q is not trimmed", msg, body)
		}
		trimmed := strings.TrimSpace(string(body))
		switch {
		case trimmed == "" || trimmed[0] == '<':
			if msg != "" {
				t.Fatalf("message %q from an empty or HTML body %q", msg, body)
			}
		case !json.Valid([]byte(trimmed)):
			if trimmed[0] != '"' && trimmed[0] != '{' && msg != trimmed {
				t.Fatalf("plain text %q gave %q", body, msg)
			}
		default:
			// JSON: the message is a string the body holds, or nothing.
			var v any
			if err := json.Unmarshal([]byte(trimmed), &v); err != nil {
				t.Fatal(err)
			}
			switch x := v.(type) {
			case string:
				if msg != strings.TrimSpace(x) {
					t.Fatalf("JSON string %q gave %q", body, msg)
				}
			case map[string]any:
				if msg != "" && msg != strings.TrimSpace(stringOf(x["error"])) && msg != strings.TrimSpace(stringOf(x["message"])) {
					t.Fatalf("JSON object %q gave %q", body, msg)
				}
			default:
				if msg != "" {
					t.Fatalf("JSON %q gave %q", body, msg)
				}
			}
		}
	})
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}
