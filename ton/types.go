package ton

import (
	"encoding/base64"
	"encoding/hex"

	"github.com/nodeaccess/nodeaccess/ton/internal/wire"
)

// Hash is a 32-byte hash (of a transaction, a block, a cell). TON APIs send
// hashes as standard base64 ("RzoRGcEy…Nsk="); String writes that form.
// The zero Hash is the SDK's value for a hash the server sent as null or
// left out: test it with h == (ton.Hash{}).
type Hash [32]byte

// ParseHash reads a 32-byte hash as standard or URL-safe base64, padded or
// not, or as 64 hex digits. Errors are *nodeaccess.InputError values.
func ParseHash(s string) (Hash, error) {
	h, err := wire.ParseHash(s)
	return Hash(h), err
}

// String returns the standard base64 form, padded, as servers send it.
func (h Hash) String() string { return base64.StdEncoding.EncodeToString(h[:]) }

// Hex returns the 64 lower-case hex digits.
func (h Hash) Hex() string { return hex.EncodeToString(h[:]) }

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

// AccountStatus is the state of an account. Servers send the four constants
// below (nonexist from the v3 indexer); a value the SDK does not know
// decodes without error and is kept as sent.
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
