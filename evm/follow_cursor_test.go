package evm_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
)

func TestFollowCursorText(t *testing.T) {
	t.Parallel()
	h := common.HexToHash("0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060")
	for text, want := range map[string]evm.FollowCursor{
		"0":        {},
		"21000000": {Number: 21000000},
		"21000000/0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060/17": {Number: 21000000, Hash: h, Index: 17},
		"1/0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060/0":         {Number: 1, Hash: h},
		"18446744073709551615": {Number: 1<<64 - 1},
	} {
		var c evm.FollowCursor
		require.NoError(t, c.UnmarshalText([]byte(text)), text)
		require.Equal(t, want, c)
		require.Equal(t, text, c.String())
		b, err := json.Marshal(c)
		require.NoError(t, err)
		require.Equal(t, `"`+text+`"`, string(b))
		var back evm.FollowCursor
		require.NoError(t, json.Unmarshal(b, &back))
		require.Equal(t, want, back)
	}
	for _, bad := range []string{"", "x", "-1", "+1", "01", "18446744073709551616", "1/", "1/2", "1/0x5c/3",
		"1/0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060/-1",
		"1/0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060/+1",
		"1/0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060/01",
		"1/0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060/4294967296",
		"1/0X5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060/1",
		"1/5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060ab/1",
		"1/0x0000000000000000000000000000000000000000000000000000000000000000/1",
		"0/0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060/1",
		"1/0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060/1/2"} {
		var c evm.FollowCursor
		err := c.UnmarshalText([]byte(bad))
		var ie *nodeaccess.InputError
		require.True(t, errors.As(err, &ie), "%q: %v", bad, err)
		require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		require.Equal(t, evm.FollowCursor{}, c)
	}
}

// FuzzFollowCursor: any text either fails or reads to a cursor whose text
// reads back to the same cursor.
func FuzzFollowCursor(f *testing.F) {
	for _, s := range []string{"0", "21000000", "21000000/0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060/17",
		"1/0x5C504ED432CB51138BCF09AA5E8A410DD4A1E204EF84BFED1BE16DFBA1B22060/0", "1/2/3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var c evm.FollowCursor
		if c.UnmarshalText([]byte(s)) != nil {
			return
		}
		var back evm.FollowCursor
		if err := back.UnmarshalText([]byte(c.String())); err != nil {
			t.Fatalf("%q read, its text %q does not: %v", s, c.String(), err)
		}
		require.Equal(t, c, back)
	})
}
