package ton_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/require"
)

func TestFollowCursorText(t *testing.T) {
	a, err := ton.ParseAddress("0:5b6a643cf4e32ff0391c476456fed5bdb17ef10a55cbb7c2980c76d4aad07875")
	require.NoError(t, err)
	for text, want := range map[string]ton.FollowCursor{
		"0":          {},
		"51148696":   {Seqno: 51148696},
		"51148696/3": {Seqno: 51148696, Block: 3},
		"7/0/0:5b6a643cf4e32ff0391c476456fed5bdb17ef10a55cbb7c2980c76d4aad07875/61234000003": {Seqno: 7, After: &ton.BlockCursor{Account: a, LT: 61234000003}},
	} {
		var c ton.FollowCursor
		require.NoError(t, c.UnmarshalText([]byte(text)), text)
		require.Equal(t, want, c)
		require.Equal(t, text, c.String())
	}
	for _, bad := range []string{"", "x", "-1", "+1", "4294967296", "1/", "1/-1", "1/+2", "1/2/3", "1/2/0:zz/3", "1/2/0:5b6a643cf4e32ff0391c476456fed5bdb17ef10a55cbb7c2980c76d4aad07875/x", "1/2/3/4/5", "0/3", "0/0", "0/0/0:5b6a643cf4e32ff0391c476456fed5bdb17ef10a55cbb7c2980c76d4aad07875/1"} {
		var c ton.FollowCursor
		err := c.UnmarshalText([]byte(bad))
		var ie *nodeaccess.InputError
		require.True(t, errors.As(err, &ie), "%q: %v", bad, err)
		require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		require.Equal(t, ton.FollowCursor{}, c)
		testkit.AssertErrNoKey(t, testKey, err)
	}
}

// FuzzFollowCursor: any text either fails or reads to a cursor whose text
// reads back to the same cursor.
func FuzzFollowCursor(f *testing.F) {
	for _, s := range []string{"0", "51148696/3", "7/0/0:5b6a643cf4e32ff0391c476456fed5bdb17ef10a55cbb7c2980c76d4aad07875/61234000003",
		"7/0/EQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4deEw/1", "1/2/3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var c ton.FollowCursor
		if c.UnmarshalText([]byte(s)) != nil {
			return
		}
		var back ton.FollowCursor
		if err := back.UnmarshalText([]byte(c.String())); err != nil {
			t.Fatalf("%q read, its text %q does not: %v", s, c.String(), err)
		}
		require.Equal(t, c, back)
	})
}

// TestFollowRefusesACursorOfNoTransaction: a cursor past its round's
// blocks, naming a transaction its block does not have, with a negative
// block index, or naming a place in the round of seqno 0 ("now"), is an *nodeaccess.InputError in an OpError, and the
// walk ends.
func TestFollowRefusesACursorOfNoTransaction(t *testing.T) {
	srv, _ := splitMergeChain(t)
	c, err := srv.Client()
	require.NoError(t, err)
	other, err := ton.ParseAddress("0:" + strings.Repeat("ab", 32))
	require.NoError(t, err)
	for _, from := range []ton.FollowCursor{{Seqno: 2, Block: 99}, {Seqno: 2, After: &ton.BlockCursor{Account: other, LT: 1}}, {Seqno: 2, Block: -1}, {Block: 3}, {After: &ton.BlockCursor{Account: other, LT: 1}}} {
		var errs []error
		for ft, err := range c.Follow(context.Background(), ton.FollowQuery{From: from, Poll: time.Millisecond}) {
			require.Zero(t, ft.LT, "%s", from)
			errs = append(errs, err)
		}
		require.Len(t, errs, 1, "%s", from)
		var ie *nodeaccess.InputError
		var oe *nodeaccess.OpError
		require.ErrorAs(t, errs[0], &ie)
		require.ErrorAs(t, errs[0], &oe)
		require.Equal(t, "cursor", ie.Arg)
		testkit.AssertErrNoKey(t, srv.Key(), errs[0])
	}
}
