package evm

import (
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// ParseAddress reads an address as users and the API write it: "0x" and 40
// hex digits, 42 characters in all. All lower case and all upper case are
// accepted as they are; mixed case must be a valid EIP-55 checksum, so that
// a mistyped character is caught instead of querying another account. Any
// other string is a *nodeaccess.InputError (matching
// nodeaccess.ErrInvalidInput) that says what is wrong without repeating the
// text: ParseAddress cannot tell a mistyped address from a secret passed by
// mistake, such as an access key, so it never quotes its input.
func ParseAddress(s string) (common.Address, error) {
	bad := func(why string) (common.Address, error) {
		return common.Address{}, &nodeaccess.InputError{Arg: "address", Reason: transport.Quote(s) + ": " + why}
	}
	if len(s) != 42 {
		return bad("want 0x and 40 hex digits (42 characters), got " + strconv.Itoa(len(s)) + " characters")
	}
	if s[0] != '0' || s[1] != 'x' && s[1] != 'X' {
		return bad("want 0x and 40 hex digits: the 42 characters do not start with 0x")
	}
	var a common.Address
	if _, err := hex.Decode(a[:], []byte(s[2:])); err != nil {
		i := 2
		for i < len(s) && isHex(s[i]) {
			i++
		}
		return bad("want 0x and 40 hex digits: character " + strconv.Itoa(i+1) + " is not a hex digit")
	}
	digits := s[2:]
	if digits != strings.ToLower(digits) && digits != strings.ToUpper(digits) && a.Hex()[2:] != digits {
		return bad("the mixed case does not match the address's EIP-55 checksum: check it for a typo")
	}
	return a, nil
}

// isHex reports whether c is an ASCII hex digit.
func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
