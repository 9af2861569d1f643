package beacon_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
)

const cursorRoot = "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060"

func TestFollowCursorText(t *testing.T) {
	t.Parallel()
	r := common.HexToHash(cursorRoot)
	for text, want := range map[string]beacon.FollowCursor{
		"0":                      {},
		"10541184":               {Slot: 10541184},
		"10541184/" + cursorRoot: {Slot: 10541184, Root: r},
		"0/" + cursorRoot:        {Root: r}, // after the genesis block
		"18446744073709551615":   {Slot: 1<<64 - 1},
	} {
		var c beacon.FollowCursor
		require.NoError(t, c.UnmarshalText([]byte(text)), text)
		require.Equal(t, want, c)
		require.Equal(t, text, c.String())
		b, err := json.Marshal(c)
		require.NoError(t, err)
		require.Equal(t, `"`+text+`"`, string(b))
		var back beacon.FollowCursor
		require.NoError(t, json.Unmarshal(b, &back))
		require.Equal(t, want, back)
	}
	// Upper-case hex digits read; the text is written in lower case.
	var c beacon.FollowCursor
	require.NoError(t, c.UnmarshalText([]byte("7/0x5C504ED432CB51138BCF09AA5E8A410DD4A1E204EF84BFED1BE16DFBA1B22060")))
	require.Equal(t, beacon.FollowCursor{Slot: 7, Root: r}, c)

	for _, bad := range []string{"", "x", "-1", "+1", "01", " 1", "1 ", "18446744073709551616", "1/", "/" + cursorRoot,
		"1/0x5c", "1/0X5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
		"1/5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060ab",
		"1/0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b2206g",
		"1/0x0000000000000000000000000000000000000000000000000000000000000000",
		"1/" + cursorRoot + "/2", "1/" + cursorRoot + "00"} {
		c := beacon.FollowCursor{Slot: 3}
		err := c.UnmarshalText([]byte(bad))
		var ie *nodeaccess.InputError
		require.True(t, errors.As(err, &ie), "%q: %v", bad, err)
		require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		require.Equal(t, beacon.FollowCursor{Slot: 3}, c, "%q: the cursor changed", bad)
		var fromJSON beacon.FollowCursor
		require.Error(t, json.Unmarshal([]byte(`"`+bad+`"`), &fromJSON), "%q", bad)
	}
	var ie *nodeaccess.InputError
	require.ErrorAs(t, c.UnmarshalText([]byte("1/xyz")), &ie)
	require.Contains(t, ie.Error(), `"1/xyz"`)
}

// FuzzFollowCursor: any text either fails with an input error or reads to
// a cursor whose text reads back to the same cursor.
func FuzzFollowCursor(f *testing.F) {
	for _, s := range []string{"0", "10541184", "10541184/" + cursorRoot, "0/" + cursorRoot,
		"1/0x5C504ED432CB51138BCF09AA5E8A410DD4A1E204EF84BFED1BE16DFBA1B22060", "1/2", "01", "18446744073709551616", "1/0x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var c beacon.FollowCursor
		if err := c.UnmarshalText([]byte(s)); err != nil {
			require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
			return
		}
		var back beacon.FollowCursor
		if err := back.UnmarshalText([]byte(c.String())); err != nil {
			t.Fatalf("%q read, its text %q does not: %v", s, c.String(), err)
		}
		require.Equal(t, c, back)
	})
}
