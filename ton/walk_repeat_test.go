package ton_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 21: a server that does not page (ignores offset) repeats its page.
// When that page held fewer items than the limit asked for, or more (the
// server ignores limit too), it was the whole answer: the walk ends without
// an error, after every item once, in two requests. Only a repeated page
// that held exactly the limit, behind which more items may hide, ends it
// with ErrRepeatedPage.
func TestWalkRepeatedPageEndsCleanlyUnlessFull(t *testing.T) {
	for _, tc := range []struct {
		n, limit    int
		ignoreLimit bool
		items       int
		err         string // "" for a clean end
	}{
		{n: 4, limit: 10, items: 4},
		{n: 1, limit: 10, items: 1},
		{n: 9, limit: 10, items: 9},
		{n: 30, limit: 10, ignoreLimit: true, items: 30},
		{n: 10, limit: 10, items: 10, err: "item 0 of the page at offset 10 was already yielded from the page at offset 0"},
		{n: 50, limit: 10, items: 10, err: "item 0 of the page at offset 10 was already yielded from the page at offset 0"},
	} {
		for _, op := range []string{"accountStates", "pendingTransactions"} {
			name := fmt.Sprintf("%s n=%d limit=%d ignoreLimit=%v", op, tc.n, tc.limit, tc.ignoreLimit)
			p := &pagedServer{n: tc.n, ignoreOffset: true, ignoreLimit: tc.ignoreLimit}
			c := newPaged(t, p)
			var got []uint64
			var errs []error
			if op == "accountStates" {
				for s, err := range c.AllAccountStates(context.Background(), ton.AccountStatesQuery{Limit: tc.limit}) {
					if err != nil {
						errs = append(errs, err)
						continue
					}
					got = append(got, uint64(s.Balance.Int64()))
				}
			} else {
				for tx, err := range c.AllPendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{acctLower}, Limit: tc.limit}) {
					if err != nil {
						errs = append(errs, err)
						continue
					}
					got = append(got, tx.LT)
				}
			}
			want := make([]uint64, tc.items)
			for i := range want {
				want[i] = uint64(i)
			}
			assert.Equal(t, want, got, name)
			assert.Len(t, p.queries, 2, name)
			if tc.err == "" {
				assert.Empty(t, errs, name)
				continue
			}
			require.Len(t, errs, 1, name)
			assert.ErrorIs(t, errs[0], ton.ErrRepeatedPage, name)
			assert.Equal(t, "ton: "+op+": invalid response: server repeated an item of an earlier page: "+tc.err+" (the server ignores offset, or the list changed between pages)", errs[0].Error(), name)
		}
	}
}
