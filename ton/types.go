package ton

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/nodeaccess/nodeaccess"
)

// Hash is a 32-byte hash (of a transaction, a block, a cell). TON APIs send
// hashes as standard base64 ("RzoRGcEy…Nsk="); String writes that form.
type Hash [32]byte

// ParseHash reads a 32-byte hash as standard or URL-safe base64, padded or
// not, or as 64 hex digits. Errors are *nodeaccess.InputError values.
func ParseHash(s string) (Hash, error) {
	var h Hash
	var err error
	switch len(s) {
	case 64:
		_, err = hex.Decode(h[:], []byte(s))
	case 43, 44:
		var b []byte
		b, err = decodeBase64(s)
		if err == nil && len(b) != 32 {
			err = fmt.Errorf("%d bytes", len(b))
		}
		copy(h[:], b)
	default:
		err = fmt.Errorf("length %d", len(s))
	}
	if err != nil {
		return Hash{}, &nodeaccess.InputError{Arg: "hash", Reason: quoteValue(s, 80) + " is not a 32-byte hash in base64 or hex"}
	}
	return h, nil
}

// String returns the standard base64 form, padded, as servers send it.
func (h Hash) String() string { return base64.StdEncoding.EncodeToString(h[:]) }

// Hex returns the 64 lower-case hex digits.
func (h Hash) Hex() string { return hex.EncodeToString(h[:]) }

// IsZero reports whether h is all zeros (the SDK's value for a hash the
// server sent as null or left out).
func (h Hash) IsZero() bool { return h == Hash{} }

// MarshalText returns the standard base64 form.
func (h Hash) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText reads any form ParseHash reads.
func (h *Hash) UnmarshalText(b []byte) error {
	v, err := ParseHash(string(b))
	if err != nil {
		return err
	}
	*h = v
	return nil
}

// decodeBase64 reads standard or URL-safe base64, padded or not.
func decodeBase64(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("not base64")
}

// AccountStatus is the state of an account. Servers send the four constants
// below (the v3 indexer adds nonexist to the interface's three); a value the
// SDK does not know decodes without error and is kept as sent.
type AccountStatus string

// The account statuses servers send.
const (
	// StatusActive: the account has code and data.
	StatusActive AccountStatus = "active"
	// StatusUninit: the account holds a balance but has no code yet.
	StatusUninit AccountStatus = "uninit"
	// StatusFrozen: the account was frozen for unpaid storage; FrozenHash
	// names its last state.
	StatusFrozen AccountStatus = "frozen"
	// StatusNonexist: the account does not exist (never received anything,
	// or was deleted).
	StatusNonexist AccountStatus = "nonexist"
)

// String returns the status as servers write it, "" when none was sent.
func (s AccountStatus) String() string { return string(s) }

// IsKnown reports whether s is one of the four constants.
func (s AccountStatus) IsKnown() bool {
	switch s {
	case StatusActive, StatusUninit, StatusFrozen, StatusNonexist:
		return true
	}
	return false
}

// maxQuoted is the longest number-like value an error message quotes.
const maxQuoted = 48

// quoteValue returns s quoted (%q) for an error message when it has at most
// n bytes, and only its length when it is longer. A value taken from a
// server or a caller is never quoted cut short: a cut could end inside the
// access key, which the client's masking recognises only whole (a whole key
// in a quoted value is masked when the error is wrapped).
func quoteValue(s string, n int) string {
	if len(s) <= n {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("a %d-byte value", len(s))
}

// num is an integer a server sent either as a JSON number or as a string of
// decimal digits (logical times, balances, seqnos). It keeps the digits;
// null and absence leave it unset.
type num struct {
	text string
	set  bool
}

// UnmarshalJSON accepts 123, "123", -1, "-1" and null; it rejects fractions,
// exponents, empty strings and anything else.
func (n *num) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		*n = num{}
		return nil
	}
	if len(s) > 0 && s[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	if !isInteger(s) {
		return fmt.Errorf("%s is not an integer", quoteValue(s, maxQuoted))
	}
	*n = num{text: s, set: true}
	return nil
}

func isInteger(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (n num) uint64(field string) (uint64, error) {
	v, err := strconv.ParseUint(n.text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s %s is not an unsigned 64-bit integer", field, quoteValue(n.text, maxQuoted))
	}
	return v, nil
}

func (n num) int64(field string) (int64, error) {
	v, err := strconv.ParseInt(n.text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s %s is not a signed 64-bit integer", field, quoteValue(n.text, maxQuoted))
	}
	return v, nil
}

func (n num) uint32(field string) (uint32, error) {
	v, err := strconv.ParseUint(n.text, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%s %s is not an unsigned 32-bit integer", field, quoteValue(n.text, maxQuoted))
	}
	return uint32(v), nil
}

func (n num) int32(field string) (int32, error) {
	v, err := strconv.ParseInt(n.text, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%s %s is not a 32-bit integer", field, quoteValue(n.text, maxQuoted))
	}
	return int32(v), nil
}

// unixTime returns the time of a Unix-seconds member, UTC. Unset (null or
// absent) and 0 give the zero time.Time: servers send 0 for "no time", and
// 1970-01-01 would read as a real date.
func unixTime(n num, field string) (time.Time, error) {
	if !n.set {
		return time.Time{}, nil
	}
	u, err := n.int64(field)
	if err != nil || u == 0 {
		return time.Time{}, err
	}
	return time.Unix(u, 0).UTC(), nil
}

// maxAmountDigits bounds the decimal digits of an amount: nanoton amounts
// are VarUInteger 16 (at most 2^120-1, 37 digits).
const maxAmountDigits = 40

// amount returns a non-negative amount (nanotons) exactly.
func (n num) amount(field string) (*big.Int, error) {
	if len(n.text) > maxAmountDigits || n.text[0] == '-' {
		return nil, fmt.Errorf("%s %s is not a non-negative amount", field, quoteValue(n.text, maxQuoted))
	}
	v, _ := new(big.Int).SetString(n.text, 10)
	return v, nil
}

// optAmount is amount for an optional member: nil when unset.
func (n num) optAmount(field string) (*big.Int, error) {
	if !n.set {
		return nil, nil
	}
	return n.amount(field)
}

// hashField decodes an optional hash member (null and absence give the zero
// hash; "" too, which the indexer sends for some empty hashes).
type hashField struct {
	h   Hash
	set bool
}

func (f *hashField) UnmarshalJSON(b []byte) error {
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
	f.h, f.set = h, true
	return nil
}

// bocField decodes an optional bag of cells sent as base64 (null, absence
// and "" give nil).
type bocField []byte

func (f *bocField) UnmarshalJSON(b []byte) error {
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
	v, err := decodeBase64(s)
	if err != nil {
		return fmt.Errorf("bag of cells is not base64")
	}
	*f = v
	return nil
}

// addrField decodes an address member in any form ParseAddress reads.
type addrField struct {
	a   Address
	set bool
}

func (f *addrField) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("address is not a string")
	}
	if s == "" {
		return nil
	}
	a, err := ParseAddress(s)
	if err != nil {
		return fmt.Errorf("%s", err.(*nodeaccess.InputError).Reason)
	}
	f.a, f.set = a, true
	return nil
}
