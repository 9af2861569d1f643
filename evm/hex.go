package evm

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"strconv"

	"github.com/nodeaccess/nodeaccess/internal/jsontext"
)

// decodeHexBytes decodes a JSON string holding 0x-prefixed hex bytes, JSON
// escapes in it read as the characters they stand for. "0x" (and "") give
// an empty, non-nil slice. Its errors describe the value without quoting it:
// the caller shows the (masked) body beside them.
func decodeHexBytes(raw []byte) ([]byte, error) {
	raw = jsontext.Unescaped(raw)
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, fmt.Errorf("want a hex string, got %s", jsonKind(raw))
	}
	return decodeHex(raw[1 : len(raw)-1])
}

// decodeHex decodes 0x-prefixed hex bytes (the text inside a JSON string).
func decodeHex[T string | []byte](s T) ([]byte, error) {
	if len(s) == 0 {
		return []byte{}, nil // "" is empty, as go-ethereum's hexutil reads it
	}
	if len(s) < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return nil, fmt.Errorf("hex string lacks the 0x prefix")
	}
	s = s[2:]
	if len(s)%2 != 0 {
		return nil, fmt.Errorf("hex string has an odd number of digits (%d)", len(s))
	}
	out := make([]byte, len(s)/2)
	if _, err := hex.Decode(out, []byte(s)); err != nil {
		return nil, fmt.Errorf("hex string: %v", err)
	}
	return out, nil
}

// jsonKind names the kind of a JSON value where hex was wanted: a string
// that is there is a malformed one.
func jsonKind(raw []byte) string {
	if len(raw) > 0 && raw[0] == '"' {
		return "a malformed string"
	}
	return jsontext.Kind(raw)
}

// parseQuantity reads a hex quantity ("0x0", "0x1b4"); leading zeros are
// tolerated because servers differ.
func parseQuantity(s string) (*big.Int, error) {
	if len(s) < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return nil, fmt.Errorf("%q is not a hex quantity", s)
	}
	v, ok := new(big.Int).SetString(s[2:], 16)
	if !ok || v.Sign() < 0 || s[2] == '-' || s[2] == '+' {
		return nil, fmt.Errorf("%q is not a hex quantity", s)
	}
	return v, nil
}

func appendHexUint(dst []byte, v uint64) []byte { return strconv.AppendUint(dst, v, 16) }
