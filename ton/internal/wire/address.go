package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Address is a standard TON address: the same fields as ton.Address, which
// converts from it.
type Address struct {
	Workchain int8
	ID        [32]byte
}

// Friendly is a user-friendly address: the same fields as
// ton.FriendlyAddress, which converts from it.
type Friendly struct {
	Address    Address
	Bounceable bool
	Testnet    bool
}

// The tag byte and the lengths of a user-friendly address.
const (
	tagBounceable    = 0x11
	tagNonBounceable = 0x51
	tagTestnet       = 0x80
	// FriendlyLen is the length of the user-friendly form in characters.
	FriendlyLen   = 48
	friendlyBytes = 36 // tag, workchain, 32-byte id, CRC16
)

// ParseAddress reads the raw form (workchain:64 hex digits, the workchain
// canonical) or the user-friendly form (see ParseFriendly, whose flags it
// drops). Its error is an *nodeaccess.InputError naming what is wrong.
func ParseAddress(s string) (Address, error) {
	if strings.IndexByte(s, ':') >= 0 {
		return parseRaw(s)
	}
	f, err := ParseFriendly(s)
	return f.Address, err
}

func addrErr(s, why string) error {
	return &nodeaccess.InputError{Arg: "address", Reason: transport.Quote(s) + ": " + why}
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

// ParseFriendly reads the 48-character user-friendly form (base64url, or
// standard base64 with '+' and '/'), verifies its CRC16-XMODEM checksum and
// tag, and keeps its flags. Its error is an *nodeaccess.InputError.
func ParseFriendly(s string) (Friendly, error) {
	if len(s) != FriendlyLen {
		return Friendly{}, addrErr(s, fmt.Sprintf("user-friendly form has %d characters, want 48 (or use the raw form workchain:hex)", len(s)))
	}
	enc := base64.URLEncoding
	if strings.ContainsAny(s, "+/") {
		if strings.ContainsAny(s, "-_") {
			return Friendly{}, addrErr(s, "mixes the base64url and standard base64 alphabets")
		}
		enc = base64.StdEncoding
	}
	var b [friendlyBytes]byte
	n, err := enc.Strict().Decode(b[:], []byte(s))
	if err != nil || n != friendlyBytes {
		return Friendly{}, addrErr(s, "not base64")
	}
	if got, want := binary.BigEndian.Uint16(b[34:]), CRC16(b[:34]); got != want {
		return Friendly{}, addrErr(s, fmt.Sprintf("checksum mismatch (address says %04x, content gives %04x)", got, want))
	}
	var f Friendly
	switch b[0] &^ tagTestnet {
	case tagBounceable:
		f.Bounceable = true
	case tagNonBounceable:
	default:
		return Friendly{}, addrErr(s, fmt.Sprintf("unknown tag byte 0x%02x", b[0]))
	}
	f.Testnet = b[0]&tagTestnet != 0
	f.Address.Workchain = int8(b[1])
	copy(f.Address.ID[:], b[2:34])
	return f, nil
}

// Bytes returns the 36 bytes of the user-friendly form: tag, workchain,
// account id, CRC16-XMODEM.
func (f Friendly) Bytes() [friendlyBytes]byte {
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
	binary.BigEndian.PutUint16(b[34:], CRC16(b[:34]))
	return b
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

// CRC16 is CRC16-XMODEM, the checksum of user-friendly addresses.
func CRC16(b []byte) uint16 {
	var c uint16
	for _, x := range b {
		c = c<<8 ^ crcTable[byte(c>>8)^x]
	}
	return c
}

// Addr decodes an address member in any form ParseAddress reads (null and
// "" leave it unset).
type Addr struct {
	// A is the address; zero when not sent.
	A Address
	// Set is false when the member was null, "" or absent.
	Set bool
}

// UnmarshalJSON reads an address string, null or "".
func (f *Addr) UnmarshalJSON(b []byte) error {
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
	f.A, f.Set = a, true
	return nil
}

// MsgAddr decodes a message's address member sent as a string (any form
// ParseAddress reads), as a tonlib accountAddress object
// {"account_address":"…"}, as null or as "" (both: no address), or as one
// of the v3 indexer's literals for an address that is not a standard one
// (left unset: the literal stays in the message's raw JSON).
type MsgAddr struct{ Addr }

// UnmarshalJSON reads any of the forms MsgAddr lists.
func (f *MsgAddr) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		var o struct {
			AccountAddress json.RawMessage `json:"account_address"`
		}
		if err := json.Unmarshal(t, &o); err != nil {
			return err
		}
		if o.AccountAddress == nil {
			// Not tonlib's accountAddress: an address is never guessed
			// to be none.
			return fmt.Errorf("address object has no account_address")
		}
		return f.Addr.UnmarshalJSON(o.AccountAddress)
	}
	var lit string
	if json.Unmarshal(b, &lit) == nil && nonStdAddr(lit) {
		return nil // no standard address: unset, the literal stays in Raw
	}
	return f.Addr.UnmarshalJSON(b)
}

// nonStdAddr reports whether s is how the v3 indexer writes a message
// address that is not a standard one: the literals "addr_none",
// "addr_extern" and "addr_var" (toncenter/ton-index-worker
// tondb-scanner/src/convert-utils.cpp), and the "ext$…" and "var$…" forms
// of newer indexer builds.
func nonStdAddr(s string) bool {
	switch s {
	case "addr_none", "addr_extern", "addr_var":
		return true
	}
	return strings.HasPrefix(s, "ext$") || strings.HasPrefix(s, "var$")
}
