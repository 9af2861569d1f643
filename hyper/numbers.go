package hyper

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/nodeaccess/nodeaccess/internal/jsontext"

	"github.com/shopspring/decimal"
)

// maxExponent bounds the decimal exponent of a number the decoders accept.
// Hyperliquid sends at most 10 decimals; the bound keeps a hostile "1e999999"
// from becoming a million-digit string when printed.
const maxExponent = 100

// parseDecimal reads a JSON value that holds a decimal number, as a string
// ("688536.0314879999") or as a number (688536.0314879999), exactly: the
// digits are kept as they came, never through a float. The text must be a
// JSON number (an optional '-', digits, an optional fraction and exponent).
func parseDecimal(raw []byte) (decimal.Decimal, error) {
	s, quoted, err := scalarText(raw)
	if err != nil {
		return decimal.Decimal{}, err
	}
	if !isNumberText(s) {
		if quoted {
			return decimal.Decimal{}, fmt.Errorf("%s is not a decimal number", short(raw))
		}
		return decimal.Decimal{}, fmt.Errorf("want a decimal number, got %s", jsonKind(raw))
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		// The grammar is checked: only an exponent beyond int32 or beyond
		// the library's own bound fails here.
		return decimal.Decimal{}, fmt.Errorf("%s is out of range", short(raw))
	}
	if e := d.Exponent(); e > maxExponent || e < -maxExponent {
		return decimal.Decimal{}, fmt.Errorf("%s is out of range (exponent %d)", short(raw), e)
	}
	return d, nil
}

// parseUnixMilli reads a JSON integer of Unix milliseconds, as a number or
// a string. null, absent and 0 are the zero time; other times are in UTC.
func parseUnixMilli(raw []byte) (time.Time, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}, nil
	}
	s, _, err := scalarText(raw)
	if err != nil {
		return time.Time{}, err
	}
	ms, err := strconv.ParseInt(s, 10, 64)
	if err != nil || ms < 0 || s[0] == '+' {
		return time.Time{}, fmt.Errorf("%s is not a Unix time in milliseconds", short(raw))
	}
	if ms == 0 {
		return time.Time{}, nil
	}
	return time.UnixMilli(ms).UTC(), nil
}

// scalarText returns the text of a JSON string (unquoted) or of a bare
// scalar (a number), and whether it was quoted.
func scalarText(raw []byte) (s string, quoted bool, err error) {
	if len(raw) == 0 {
		return "", false, fmt.Errorf("missing value")
	}
	if raw[0] != '"' {
		return string(raw), false, nil
	}
	if len(raw) < 2 || raw[len(raw)-1] != '"' {
		return "", true, fmt.Errorf("malformed string")
	}
	for _, ch := range raw[1 : len(raw)-1] {
		if ch == '\\' {
			// Escapes are rare: let encoding/json undo them.
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", true, fmt.Errorf("malformed string")
			}
			return s, true, nil
		}
	}
	return string(raw[1 : len(raw)-1]), true, nil
}

// isNumberText reports whether s is a number in JSON's grammar, leading
// zeros allowed: -?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?
func isNumberText(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	i, ok := digits(s, i)
	if !ok {
		return false
	}
	if i < len(s) && s[i] == '.' {
		if i, ok = digits(s, i+1); !ok {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i, ok = digits(s, i); !ok {
			return false
		}
	}
	return i == len(s)
}

// digits skips one or more ASCII digits from s[i].
func digits(s string, i int) (int, bool) {
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i, i > start
}

// short returns raw for a message when it is short, and its length
// otherwise. It never cuts a value: a cut could leave part of an echoed
// access key where the redaction of whole keys cannot see it.
func short(raw []byte) string {
	if len(raw) > 48 {
		return fmt.Sprintf("a %d-byte value", len(raw))
	}
	return string(raw)
}

// jsonKind names the kind of a JSON value (jsontext.Kind).
func jsonKind(raw []byte) string { return jsontext.Kind(raw) }
