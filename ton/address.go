package ton

import (
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess/ton/internal/wire"
)

// Address is a TON account: its workchain and its 32-byte account id. It is
// a comparable value: == and map keys compare the account, whatever form the
// address was read from (raw "0:5b6a…", "0:5B6A…", or any user-friendly
// form), because the user-friendly flags say how to send to the account, not
// which account it is. The flags live in FriendlyAddress.
//
// The zero Address is the account 0:000…000 (a valid address). Text and JSON
// use the raw form in lower case; UnmarshalText and UnmarshalJSON accept
// every form ParseAddress reads.
type Address struct {
	// Workchain is the workchain id: 0 for the basechain, -1 for the
	// masterchain. Standard addresses carry it as a signed byte.
	Workchain int8
	// ID is the account id (the hash part of the address).
	ID [32]byte
}

// FriendlyAddress is an address in the user-friendly form: the account and
// the two flags that form carries. Its String is the base64url form wallets
// show, and the standard-base64 spelling of the same bytes has + and / for
// its - and _ (see String).
type FriendlyAddress struct {
	// Address is the account.
	Address Address
	// Bounceable is set for the tag 0x11 ("EQ…", "kQ…"), clear for 0x51
	// ("UQ…", "0Q…"): whether a message to an uninitialised account bounces.
	Bounceable bool
	// Testnet is set when the tag has the 0x80 bit (testnet-only address).
	Testnet bool
}

// ParseAddress reads an address in any of the forms servers and wallets use:
// raw "workchain:64 hex digits" (either case; the workchain a decimal in
// -128..127 written canonically: "0", "-1", "123", never "00", "+1" or "-0") or
// the 48-character user-friendly form in base64url or standard base64, whose
// CRC16-XMODEM checksum and tag are verified. The flags of a user-friendly
// form are checked and dropped; ParseFriendlyAddress keeps them. Errors are
// *nodeaccess.InputError values naming what is wrong.
func ParseAddress(s string) (Address, error) {
	a, err := wire.ParseAddress(s)
	return Address(a), err
}

// ParseFriendlyAddress reads the 48-character user-friendly form (base64url,
// or standard base64 with '+' and '/'), verifies its CRC16-XMODEM checksum
// and tag, and keeps its flags. It does not read the raw form, which has no
// flags.
func ParseFriendlyAddress(s string) (FriendlyAddress, error) {
	f, err := wire.ParseFriendly(s)
	return FriendlyAddress{Address: Address(f.Address), Bounceable: f.Bounceable, Testnet: f.Testnet}, err
}

// rawUpper returns the raw form with the account id in upper-case hex, as
// the v3 indexer writes it: "0:5B6A…75".
func (a Address) rawUpper() string {
	return a.raw(func(b []byte) string { return strings.ToUpper(hex.EncodeToString(b)) })
}

func (a Address) raw(enc func([]byte) string) string {
	return strconv.Itoa(int(a.Workchain)) + ":" + enc(a.ID[:])
}

// String returns the raw form with the account id in lower-case hex:
// "0:5b6a…75", "-1:3333…33". (The v3 indexer writes the id in upper case:
// strings.ToUpper(a.String()) gives that spelling; Friendly gives the
// user-friendly form.)
func (a Address) String() string { return a.raw(hex.EncodeToString) }

// Friendly returns the address with the given flags, for formatting in the
// user-friendly form.
func (a Address) Friendly(bounceable, testnet bool) FriendlyAddress {
	return FriendlyAddress{Address: a, Bounceable: bounceable, Testnet: testnet}
}

// MarshalText returns the raw form in lower case.
func (a Address) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads any form ParseAddress accepts.
func (a *Address) UnmarshalText(text []byte) error {
	v, err := ParseAddress(string(text))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

func (f FriendlyAddress) bytes() []byte {
	b := wire.Friendly{Address: wire.Address(f.Address), Bounceable: f.Bounceable, Testnet: f.Testnet}.Bytes()
	return b[:]
}

// String returns the user-friendly form in base64url ("EQBb…", "UQBb…"),
// 48 characters without padding. The standard-base64 form some servers and
// wallets write has '+' and '/' for '-' and '_':
// strings.NewReplacer("-", "+", "_", "/").Replace(f.String()).
func (f FriendlyAddress) String() string {
	b := f.bytes()
	return base64.URLEncoding.EncodeToString(b)
}

// MarshalText returns the base64url user-friendly form.
func (f FriendlyAddress) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads the user-friendly form (ParseFriendlyAddress).
func (f *FriendlyAddress) UnmarshalText(text []byte) error {
	v, err := ParseFriendlyAddress(string(text))
	if err != nil {
		return err
	}
	*f = v
	return nil
}
