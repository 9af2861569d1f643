package wire

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// ParseHash reads a 32-byte hash as standard or URL-safe base64, padded or
// not, or as 64 hex digits. Its error is an *nodeaccess.InputError.
func ParseHash(s string) ([32]byte, error) {
	var h [32]byte
	var err error
	switch len(s) {
	case 64:
		_, err = hex.Decode(h[:], []byte(s))
	case 43, 44:
		var b []byte
		b, err = DecodeBase64(s)
		if err == nil && len(b) != 32 {
			err = fmt.Errorf("%d bytes", len(b))
		}
		copy(h[:], b)
	default:
		err = fmt.Errorf("length %d", len(s))
	}
	if err != nil {
		return [32]byte{}, &nodeaccess.InputError{Arg: "hash", Reason: transport.Quote(s) + " is not a 32-byte hash in base64 or hex"}
	}
	return h, nil
}

// DecodeBase64 reads standard or URL-safe base64, padded or not.
func DecodeBase64(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("not base64")
}

// Hash decodes an optional hash member (null and absence give the zero
// hash; "" too, which the indexer sends for some empty hashes).
type Hash struct {
	// H is the hash; zero when not sent.
	H [32]byte
	// Set is false when the member was null, "" or absent.
	Set bool
}

// UnmarshalJSON reads a hash in any form ParseHash reads, or null or "".
func (f *Hash) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("hash is not a string")
	}
	if s == "" {
		return nil
	}
	h, err := ParseHash(s)
	if err != nil {
		return fmt.Errorf("%s", err.(*nodeaccess.InputError).Reason)
	}
	f.H, f.Set = h, true
	return nil
}

// BOC decodes an optional bag of cells sent as base64 (null, absence and ""
// give nil).
type BOC []byte

// UnmarshalJSON reads base64 of either alphabet, or null or "".
func (f *BOC) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("bag of cells is not a string")
	}
	if s == "" {
		return nil
	}
	v, err := DecodeBase64(s)
	if err != nil {
		return fmt.Errorf("bag of cells is not base64")
	}
	*f = v
	return nil
}
