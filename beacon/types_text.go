package beacon

import (
	"encoding"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// The byte types print and marshal as the beacon API writes them: "0x" and
// lower-case hex digits, exactly two per byte (Root is go-ethereum's
// common.Hash, which does the same). Parsing (UnmarshalText) is strict: the
// 0x prefix is required, the length must be exact, and a bad value is
// refused with a *nodeaccess.InputError that quotes it (cut to 80 bytes)
// and says what is wrong.

var (
	_ encoding.TextMarshaler   = BLSPubKey{}
	_ encoding.TextUnmarshaler = (*BLSPubKey)(nil)
	_ encoding.TextMarshaler   = BLSSignature{}
	_ encoding.TextUnmarshaler = (*BLSSignature)(nil)
	_ encoding.TextMarshaler   = ForkVersion{}
	_ encoding.TextUnmarshaler = (*ForkVersion)(nil)
	_ encoding.TextMarshaler   = Bitlist{}
	_ encoding.TextUnmarshaler = (*Bitlist)(nil)
)

// appendHex appends "0x" and the lower-case hex digits of b.
func appendHex(dst, b []byte) []byte {
	dst = append(dst, '0', 'x')
	n := len(dst)
	dst = append(dst, make([]byte, 2*len(b))...)
	hex.Encode(dst[n:], b)
	return dst
}

// parseHexInto decodes s, "0x" (or "0X") and exactly 2*len(dst) hex digits
// of either case, into dst (at most 96 bytes), which is left as it was on
// an error. what names the type in the error ("root").
func parseHexInto(what string, s []byte, dst []byte) error {
	if len(s) < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return badHex(what, s, "does not start with 0x")
	}
	if len(s)-2 != 2*len(dst) {
		return badHex(what, s, fmt.Sprintf("has %d hex digits, want %d (%d bytes)", len(s)-2, 2*len(dst), len(dst)))
	}
	var buf [96]byte // the largest type, a signature; dst is left alone on error
	tmp := buf[:len(dst)]
	if _, err := hex.Decode(tmp, s[2:]); err != nil {
		return badHex(what, s, "has a character that is not a hex digit")
	}
	copy(dst, tmp)
	return nil
}

func badHex(what string, s []byte, why string) error {
	return &nodeaccess.InputError{Arg: what, Reason: strconv.Quote(transport.Cut(string(s), maxQuoted)) + " " + why}
}

// formatHex prints b for Format: "0x" and its hex digits for %s, %v and
// (quoted) %q; the bytes as a byte array would print for %x, %X, %#x and
// %#X.
func formatHex(f fmt.State, verb rune, b []byte) {
	switch verb {
	case 'x', 'X':
		if f.Flag('#') {
			fmt.Fprintf(f, "%#"+string(verb), b)
			return
		}
		fmt.Fprintf(f, "%"+string(verb), b)
	case 'q':
		fmt.Fprintf(f, "%q", appendHex(nil, b))
	default:
		_, _ = f.Write(appendHex(nil, b))
	}
}

// Format prints k as the beacon API writes it, "0x" and 96 lower-case hex
// digits, for %s and %v (quoted for %q), and the 48 bytes as a [48]byte
// prints for %x, %X, %#x and %#X, so that a key prints the same whichever
// verb a caller picks.
func (k BLSPubKey) Format(f fmt.State, verb rune) { formatHex(f, verb, k[:]) }

// MarshalText returns k as "0x" and 96 lower-case hex digits.
func (k BLSPubKey) MarshalText() ([]byte, error) { return appendHex(make([]byte, 0, 98), k[:]), nil }

// UnmarshalText parses "0x" and exactly 96 hex digits (either case). It
// checks the form only, not that the bytes are a point of the curve.
func (k *BLSPubKey) UnmarshalText(b []byte) error { return parseHexInto("BLS public key", b, k[:]) }

// Format prints sig as BLSPubKey's Format prints a key: "0x" and 192 hex
// digits for %s and %v, the 96 bytes for %x.
func (sig BLSSignature) Format(f fmt.State, verb rune) { formatHex(f, verb, sig[:]) }

// MarshalText returns sig as "0x" and 192 lower-case hex digits.
func (sig BLSSignature) MarshalText() ([]byte, error) {
	return appendHex(make([]byte, 0, 194), sig[:]), nil
}

// UnmarshalText parses "0x" and exactly 192 hex digits (either case).
func (sig *BLSSignature) UnmarshalText(b []byte) error {
	return parseHexInto("BLS signature", b, sig[:])
}

// Format prints v as BLSPubKey's Format prints a key: "0x" and 8 hex
// digits ("0x05000000") for %s and %v, the 4 bytes for %x.
func (v ForkVersion) Format(f fmt.State, verb rune) { formatHex(f, verb, v[:]) }

// MarshalText returns v as "0x" and 8 lower-case hex digits.
func (v ForkVersion) MarshalText() ([]byte, error) { return appendHex(make([]byte, 0, 10), v[:]), nil }

// UnmarshalText parses "0x" and exactly 8 hex digits (either case).
func (v *ForkVersion) UnmarshalText(b []byte) error { return parseHexInto("fork version", b, v[:]) }

// MarshalText returns b's serialized bytes as "0x" and lower-case hex
// digits, as the beacon API writes a bitlist. A bitlist without its length
// bit (empty, or its last byte zero) is an error: its text would not read
// back.
func (b Bitlist) MarshalText() ([]byte, error) {
	if len(b) == 0 || b[len(b)-1] == 0 {
		return nil, &nodeaccess.InputError{Arg: "bitlist", Reason: "has no length bit (empty, or its last byte zero)"}
	}
	return appendHex(nil, b), nil
}

// UnmarshalText parses "0x" and an even number of hex digits into a
// serialized bitlist. The last byte must hold the length bit (be nonzero);
// the bitlist's limit is the container's to check (WriteState and
// HashTreeRoot do).
func (b *Bitlist) UnmarshalText(s []byte) error {
	if len(s) < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return badHex("bitlist", s, "does not start with 0x")
	}
	if len(s)%2 != 0 {
		return badHex("bitlist", s, "has an odd number of hex digits")
	}
	out := make([]byte, (len(s)-2)/2)
	if _, err := hex.Decode(out, s[2:]); err != nil {
		return badHex("bitlist", s, "has a character that is not a hex digit")
	}
	if len(out) == 0 || out[len(out)-1] == 0 {
		return badHex("bitlist", s, "has no length bit (its last byte must not be zero)")
	}
	*b = out
	return nil
}
