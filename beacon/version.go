package beacon

import (
	"errors"
	"fmt"

	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Version is a consensus fork of the beacon chain. Versions are ordered:
// Phase0 < Altair < … < Fulu < Gloas, so v >= Capella reads "capella or
// later".
//
// The zero value is Phase0. A fork name this package does not know (heze
// and later) does not parse into a Version: ParseVersion returns an error
// matching ErrUnsupportedVersion that names it, and the raw-bytes calls
// (Client.DownloadState) still work for such states.
type Version uint8

// The consensus forks this package decodes, in order.
const (
	Phase0 Version = iota
	Altair
	Bellatrix
	Capella
	Deneb
	Electra
	Fulu
	// Gloas is the fork of enshrined proposer-builder separation
	// (EIP-7732), whose state is a progressive container (see the
	// package documentation for the layout it follows).
	Gloas
)

// newestFork is the newest fork this package decodes. (Named so that it is
// not read as a block or state selector such as evm.Latest.)
const newestFork = Gloas

var versionNames = [...]string{"phase0", "altair", "bellatrix", "capella", "deneb", "electra", "fulu", "gloas"}

// Versions returns every fork this package decodes, oldest first.
func versions() []Version {
	out := make([]Version, 0, len(versionNames))
	for v := Phase0; v <= newestFork; v++ {
		out = append(out, v)
	}
	return out
}

// String returns the fork's name as the beacon API spells it ("deneb").
func (v Version) String() string {
	if v.isKnown() {
		return versionNames[v]
	}
	return fmt.Sprintf("Version(%d)", uint8(v))
}

// IsKnown reports whether v is one of the forks this package decodes.
func (v Version) isKnown() bool { return v <= newestFork }

// ErrUnsupportedVersion is matched (errors.Is) by the error of a consensus
// version this package cannot decode, such as a fork newer than Gloas; the
// error quotes the name it was given.
var ErrUnsupportedVersion = errors.New("unsupported version")

// unsupportedVersion is the error for the version name (a fork name from
// the server or the caller, or the String of a Version this package does
// not know).
func unsupportedVersion(name string) error {
	return fmt.Errorf("beacon: %w %s (this package decodes phase0 to %s)", ErrUnsupportedVersion, transport.Quote(name), newestFork)
}

// ParseVersion parses a fork name as the beacon API sends it in the
// Eth-Consensus-Version header and the JSON "version" field. Matching is
// case-insensitive; surrounding spaces are ignored. An unknown name returns
// an error matching ErrUnsupportedVersion that quotes it.
func ParseVersion(s string) (Version, error) {
	name := trimSpaceASCII(s)
	for i, n := range versionNames {
		if equalFoldASCII(name, n) {
			return Version(i), nil
		}
	}
	return 0, unsupportedVersion(s)
}

func trimSpaceASCII(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
