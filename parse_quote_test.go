package nodeaccess_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parsers are the package-level functions and UnmarshalText methods that
// read a user's text, by name.
var parsers = map[string]func(string) error{
	"evm.ParseBlock":            func(s string) error { _, err := evm.ParseBlock(s); return err },
	"ton.ParseAddress":          func(s string) error { _, err := ton.ParseAddress(s); return err },
	"ton.ParseFriendlyAddress":  func(s string) error { _, err := ton.ParseFriendlyAddress(s); return err },
	"ton.ParseShardID":          func(s string) error { _, err := ton.ParseShardID(s); return err },
	"ton.ParseBlockRef":         func(s string) error { _, err := ton.ParseBlockRef(s); return err },
	"ton.ParseHash":             func(s string) error { _, err := ton.ParseHash(s); return err },
	"beacon.ParseStateID":       func(s string) error { _, err := beacon.ParseStateID(s); return err },
	"beacon.ParseVersion":       func(s string) error { _, err := beacon.ParseVersion(s); return err },
	"ton.Address.UnmarshalText": func(s string) error { var a ton.Address; return a.UnmarshalText([]byte(s)) },
	"ton.FriendlyAddress.UnmarshalText": func(s string) error {
		var a ton.FriendlyAddress
		return a.UnmarshalText([]byte(s))
	},
	"ton.ShardID.UnmarshalText":      func(s string) error { var v ton.ShardID; return v.UnmarshalText([]byte(s)) },
	"ton.Hash.UnmarshalText":         func(s string) error { var v ton.Hash; return v.UnmarshalText([]byte(s)) },
	"ton.FollowCursor.UnmarshalText": func(s string) error { var v ton.FollowCursor; return v.UnmarshalText([]byte(s)) },
}

// TestParseErrorsQuoteOneWay: every parse function shows its bad input the
// same way (docs/options-and-errors.md): quoted in Go syntax when it has at
// most 100 bytes, as its length alone when it is longer, never cut.
func TestParseErrorsQuoteOneWay(t *testing.T) {
	t.Parallel()
	short := "a\"b\nc<é>"
	long := strings.Repeat("z", 101)
	for name, parse := range parsers {
		err := parse(short)
		if name == "beacon.ParseVersion" {
			// A fork name the package does not know, as a server would
			// send it: ErrUnsupportedVersion, which matches
			// ErrInvalidResponse.
			require.ErrorIs(t, err, beacon.ErrUnsupportedVersion, name)
		} else {
			require.ErrorIs(t, err, nodeaccess.ErrInvalidInput, name)
		}
		assert.Contains(t, err.Error(), strconv.Quote(short), name)
		err = parse(long)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "a 101-byte value", name)
		assert.NotContains(t, err.Error(), "zzzz", name)
	}
}
