package ton

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess"
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
// show; StdBase64 gives the standard-base64 spelling of the same bytes.
type FriendlyAddress struct {
	// Address is the account.
	Address Address
	// Bounceable is set for the tag 0x11 ("EQ…", "kQ…"), clear for 0x51
	// ("UQ…", "0Q…"): whether a message to an uninitialised account bounces.
	Bounceable bool
	// Testnet is set when the tag has the 0x80 bit (testnet-only address).
	Testnet bool
}

// The tag byte of a user-friendly address.
const (
	tagBounceable    = 0x11
	tagNonBounceable = 0x51
	tagTestnet       = 0x80
	friendlyLen      = 48 // characters
	friendlyBytes    = 36 // tag, workchain, 32-byte id, CRC16
)

// ParseAddress reads an address in any of the forms servers and wallets use:
// raw "workchain:64 hex digits" (either case; the workchain a decimal in
// -128..127 written canonically: "0", "-1", "123", never "00", "+1" or "-0") or
// the 48-character user-friendly form in base64url or standard base64, whose
// CRC16-XMODEM checksum and tag are verified. The flags of a user-friendly
// form are checked and dropped; ParseFriendlyAddress keeps them. Errors are
// *nodeaccess.InputError values naming what is wrong.
func ParseAddress(s string) (Address, error) {
	if strings.IndexByte(s, ':') >= 0 {
		return parseRaw(s)
	}
	f, err := ParseFriendlyAddress(s)
	if err != nil {
		return Address{}, err
	}
	return f.Address, nil
}

func addrErr(s, why string) error {
	return &nodeaccess.InputError{Arg: "address", Reason: quoteValue(s, 100) + ": " + why}
}

// canonicalInt reports whether s is an integer as strconv.Itoa writes it:
// "0", or digits without leading zeros after an optional '-' ("-0" is not).
func canonicalInt(s string) bool {
	d := strings.TrimPrefix(s, "-")
	if d == "" || d[0] == '0' && (len(d) > 1 || len(s) > 1) {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

func parseRaw(s string) (Address, error) {
	wc, id, _ := strings.Cut(s, ":")
	if wc == "" {
		return Address{}, addrErr(s, "raw form needs a workchain number before ':'")
	}
	w, err := strconv.ParseInt(wc, 10, 32)
	if err != nil || !canonicalInt(wc) {
		return Address{}, addrErr(s, "workchain is not a number in canonical decimal form (like 0 or -1: no '+', no leading zeros, no -0)")
	}
	if w < -128 || w > 127 {
		return Address{}, addrErr(s, fmt.Sprintf("workchain %d is outside -128..127", w))
	}
	if len(id) != 64 {
		return Address{}, addrErr(s, fmt.Sprintf("account id has %d hex digits, want 64", len(id)))
	}
	var a Address
	if _, err := hex.Decode(a.ID[:], []byte(id)); err != nil {
		return Address{}, addrErr(s, "account id is not hex")
	}
	a.Workchain = int8(w)
	return a, nil
}

// ParseFriendlyAddress reads the 48-character user-friendly form (base64url,
// or standard base64 with '+' and '/'), verifies its CRC16-XMODEM checksum
// and tag, and keeps its flags. It does not read the raw form, which has no
// flags.
func ParseFriendlyAddress(s string) (FriendlyAddress, error) {
	if len(s) != friendlyLen {
		return FriendlyAddress{}, addrErr(s, fmt.Sprintf("user-friendly form has %d characters, want 48 (or use the raw form workchain:hex)", len(s)))
	}
	enc := base64.URLEncoding
	if strings.ContainsAny(s, "+/") {
		if strings.ContainsAny(s, "-_") {
			return FriendlyAddress{}, addrErr(s, "mixes the base64url and standard base64 alphabets")
		}
		enc = base64.StdEncoding
	}
	var b [friendlyBytes]byte
	n, err := enc.Strict().Decode(b[:], []byte(s))
	if err != nil || n != friendlyBytes {
		return FriendlyAddress{}, addrErr(s, "not base64")
	}
	if got, want := binary.BigEndian.Uint16(b[34:]), crc16(b[:34]); got != want {
		return FriendlyAddress{}, addrErr(s, fmt.Sprintf("checksum mismatch (address says %04x, content gives %04x)", got, want))
	}
	var f FriendlyAddress
	switch b[0] &^ tagTestnet {
	case tagBounceable:
		f.Bounceable = true
	case tagNonBounceable:
	default:
		return FriendlyAddress{}, addrErr(s, fmt.Sprintf("unknown tag byte 0x%02x", b[0]))
	}
	f.Testnet = b[0]&tagTestnet != 0
	f.Address.Workchain = int8(b[1])
	copy(f.Address.ID[:], b[2:34])
	return f, nil
}

// Raw returns the raw form with the account id in lower-case hex:
// "0:5b6a…75", "-1:3333…33". (The v3 indexer writes the id in upper case:
// strings.ToUpper(a.Raw()) gives that spelling.)
func (a Address) Raw() string { return a.raw(hex.EncodeToString) }

// rawUpper returns the raw form with the account id in upper-case hex, as
// the v3 indexer writes it: "0:5B6A…75".
func (a Address) rawUpper() string {
	return a.raw(func(b []byte) string { return strings.ToUpper(hex.EncodeToString(b)) })
}

func (a Address) raw(enc func([]byte) string) string {
	return strconv.Itoa(int(a.Workchain)) + ":" + enc(a.ID[:])
}

// String returns the raw form in lower case (Raw).
func (a Address) String() string { return a.Raw() }

// Friendly returns the address with the given flags, for formatting in the
// user-friendly form.
func (a Address) Friendly(bounceable, testnet bool) FriendlyAddress {
	return FriendlyAddress{Address: a, Bounceable: bounceable, Testnet: testnet}
}

// MarshalText returns the raw form in lower case.
func (a Address) MarshalText() ([]byte, error) { return []byte(a.Raw()), nil }

// UnmarshalText reads any form ParseAddress accepts.
func (a *Address) UnmarshalText(text []byte) error {
	v, err := ParseAddress(string(text))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

func (f FriendlyAddress) bytes() [friendlyBytes]byte {
	var b [friendlyBytes]byte
	b[0] = tagNonBounceable
	if f.Bounceable {
		b[0] = tagBounceable
	}
	if f.Testnet {
		b[0] |= tagTestnet
	}
	b[1] = byte(f.Address.Workchain)
	copy(b[2:34], f.Address.ID[:])
	binary.BigEndian.PutUint16(b[34:], crc16(b[:34]))
	return b
}

// String returns the user-friendly form in base64url ("EQBb…", "UQBb…").
func (f FriendlyAddress) String() string {
	b := f.bytes()
	return base64.URLEncoding.EncodeToString(b[:])
}

// StdBase64 returns the user-friendly form in standard base64 (with '+' and
// '/' where base64url has '-' and '_'), as some servers and wallets write it.
func (f FriendlyAddress) StdBase64() string {
	b := f.bytes()
	return base64.StdEncoding.EncodeToString(b[:])
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

// crcTable is the CRC16-XMODEM table (polynomial 0x1021, initial value 0,
// no reflection), the checksum of user-friendly addresses.
var crcTable = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

func crc16(b []byte) uint16 {
	var c uint16
	for _, x := range b {
		c = c<<8 ^ crcTable[byte(c>>8)^x]
	}
	return c
}
