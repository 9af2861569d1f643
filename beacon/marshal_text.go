package beacon

import (
	"encoding"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// The fixed-size byte types print, marshal and parse as the beacon API
// writes them: "0x" and lower-case hex digits, exactly two per byte.
// Parsing is strict: the 0x prefix is required, the length must be exact,
// and a bad value is refused with a *nodeaccess.InputError that quotes it
// (cut to 80 bytes) and says what is wrong.

var (
	_ encoding.TextMarshaler   = Root{}
	_ encoding.TextUnmarshaler = (*Root)(nil)
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

// formatHex prints b for Format: s (its 0x form) for %s, %v and (quoted)
// %q; the bytes as a byte array would print for %x, %X, %#x and %#X.
func formatHex(f fmt.State, verb rune, b []byte, s string) {
	switch verb {
	case 'x', 'X':
		if f.Flag('#') {
			fmt.Fprintf(f, "%#"+string(verb), b)
			return
		}
		fmt.Fprintf(f, "%"+string(verb), b)
	case 'q':
		fmt.Fprintf(f, "%q", s)
	default:
		_, _ = io.WriteString(f, s)
	}
}

// MarshalText returns r as "0x" and 64 lower-case hex digits, so that
// encoding/json writes a Root as the beacon API does.
func (r Root) MarshalText() ([]byte, error) { return appendHex(make([]byte, 0, 66), r[:]), nil }

// UnmarshalText parses "0x" and exactly 64 hex digits (either case); see
// ParseRoot.
func (r *Root) UnmarshalText(b []byte) error { return parseHexInto("root", b, r[:]) }

// ParseRoot parses a root as the beacon API writes it: "0x" and exactly
// 64 hex digits (either case). Anything else returns a
// *nodeaccess.InputError (errors.Is nodeaccess.ErrInvalidInput) that
// quotes the value.
func ParseRoot(s string) (Root, error) {
	var r Root
	err := r.UnmarshalText([]byte(s))
	return r, err
}

// String returns k as "0x" and 96 lower-case hex digits.
func (k BLSPubKey) String() string { return string(appendHex(nil, k[:])) }

// Format makes %s, %v and %q print String, and %x, %X, %#x and %#X print
// the 48 bytes as they would for a [48]byte (like Root's Format).
func (k BLSPubKey) Format(f fmt.State, verb rune) { formatHex(f, verb, k[:], k.String()) }

// MarshalText returns k as "0x" and 96 lower-case hex digits.
func (k BLSPubKey) MarshalText() ([]byte, error) { return appendHex(make([]byte, 0, 98), k[:]), nil }

// UnmarshalText parses "0x" and exactly 96 hex digits; see ParseBLSPubKey.
func (k *BLSPubKey) UnmarshalText(b []byte) error { return parseHexInto("BLS public key", b, k[:]) }

// ParseBLSPubKey parses a public key as "0x" and exactly 96 hex digits
// (either case). It checks the form only, not that the bytes are a point
// of the curve. A bad value returns a *nodeaccess.InputError that quotes
// it.
func ParseBLSPubKey(s string) (BLSPubKey, error) {
	var k BLSPubKey
	err := k.UnmarshalText([]byte(s))
	return k, err
}

// String returns sig as "0x" and 192 lower-case hex digits.
func (sig BLSSignature) String() string { return string(appendHex(nil, sig[:])) }

// Format makes %s, %v and %q print String, and %x, %X, %#x and %#X print
// the 96 bytes as they would for a [96]byte (like Root's Format).
func (sig BLSSignature) Format(f fmt.State, verb rune) {
	formatHex(f, verb, sig[:], sig.String())
}

// MarshalText returns sig as "0x" and 192 lower-case hex digits.
func (sig BLSSignature) MarshalText() ([]byte, error) {
	return appendHex(make([]byte, 0, 194), sig[:]), nil
}

// UnmarshalText parses "0x" and exactly 192 hex digits; see
// ParseBLSSignature.
func (sig *BLSSignature) UnmarshalText(b []byte) error {
	return parseHexInto("BLS signature", b, sig[:])
}

// ParseBLSSignature parses a signature as "0x" and exactly 192 hex digits
// (either case). A bad value returns a *nodeaccess.InputError that quotes
// it.
func ParseBLSSignature(s string) (BLSSignature, error) {
	var sig BLSSignature
	err := sig.UnmarshalText([]byte(s))
	return sig, err
}

// String returns v as "0x" and 8 lower-case hex digits ("0x05000000").
func (v ForkVersion) String() string { return string(appendHex(nil, v[:])) }

// Format makes %s, %v and %q print String, and %x, %X, %#x and %#X print
// the 4 bytes as they would for a [4]byte (like Root's Format).
func (v ForkVersion) Format(f fmt.State, verb rune) { formatHex(f, verb, v[:], v.String()) }

// MarshalText returns v as "0x" and 8 lower-case hex digits.
func (v ForkVersion) MarshalText() ([]byte, error) { return appendHex(make([]byte, 0, 10), v[:]), nil }

// UnmarshalText parses "0x" and exactly 8 hex digits; see ParseForkVersion.
func (v *ForkVersion) UnmarshalText(b []byte) error { return parseHexInto("fork version", b, v[:]) }

// ParseForkVersion parses a fork version as "0x" and exactly 8 hex digits
// (either case), such as "0x05000000". A bad value returns a
// *nodeaccess.InputError that quotes it.
func ParseForkVersion(s string) (ForkVersion, error) {
	var v ForkVersion
	err := v.UnmarshalText([]byte(s))
	return v, err
}

// String returns b's serialized bytes as "0x" and lower-case hex digits,
// as the beacon API writes a bitlist.
func (b Bitlist) String() string { return string(appendHex(nil, b)) }

// Format makes %s, %v and %q print String, and %x, %X, %#x and %#X print
// the bytes as they would for a []byte.
func (b Bitlist) Format(f fmt.State, verb rune) { formatHex(f, verb, b, b.String()) }

// MarshalText returns b as String does.
func (b Bitlist) MarshalText() ([]byte, error) { return appendHex(nil, b), nil }

// UnmarshalText parses "0x" and an even number of hex digits into a
// serialized bitlist. The last byte must hold the length bit (be nonzero);
// the bitlist's limit is the container's to check (Validate does).
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
