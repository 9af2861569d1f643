package nodeaccess_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBudgetAbsurdRetryAfterSharedByChains: an EVM node answers 429 with a
// Retry-After of decades (in seconds, in a number too large for int64, as
// a date in the year 9999). The EVM call ends at once, and the budget the
// EVM client shares with a TON client and a Hyperliquid client is not held
// for decades: the TON client (default cap) goes once the EVM client's own
// cap (WithMaxRetryAfter) has passed, and the Hyperliquid client, whose cap
// is shorter than that, is refused at once with ErrRateLimited meanwhile
// (nothing sent) instead of waiting longer than it would for a Retry-After
// of its own.
func TestBudgetAbsurdRetryAfterSharedByChains(t *testing.T) {
	// A cap of a second: "at once" (under half a second, however slow a
	// loaded machine is to answer a 429 over loopback) and "after the
	// cap" are far apart, and the Hyperliquid call comes while more of
	// the pause than its cap is left.
	const evmCap, hyperCap = time.Second, 50 * time.Millisecond
	for _, ra := range []string{"99999999999", "12345678901234567890123456", "Fri, 31 Dec 9999 23:59:59 GMT"} {
		t.Run(ra, func(t *testing.T) {
			t.Parallel() // each on a budget and servers of its own
			plan := newBudget(t, 100, 10)
			node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Retry-After", ra)
				w.WriteHeader(http.StatusTooManyRequests)
			}))
			t.Cleanup(node.Close)
			ec, err := evm.New(node.URL, "evm-key", nodeaccess.WithBudget(plan), nodeaccess.WithMaxRetryAfter(evmCap))
			require.NoError(t, err)
			tonSrv := tontest.NewT(t)
			tc, err := tonSrv.Client(nodeaccess.WithBudget(plan))
			require.NoError(t, err)
			hyperSrv := hypertest.NewT(t)
			hc, err := hyperSrv.Client(nodeaccess.WithBudget(plan), nodeaccess.WithMaxRetryAfter(hyperCap))
			require.NoError(t, err)

			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			start := time.Now() // before the 429: the pause ends evmCap after this at the earliest
			_, err = ec.Call(ctx, evm.CallMsg{To: common.Address{1}}, evm.Latest)
			require.ErrorIs(t, err, nodeaccess.ErrRateLimited)
			var he *nodeaccess.HTTPError
			require.ErrorAs(t, err, &he)
			assert.Greater(t, he.RetryAfter, 60*365*24*time.Hour, "the error keeps what the server asked for")
			assert.Less(t, time.Since(start), evmCap/2, "the EVM call waited for its cap")

			sentBefore := hyperSrv.RequestCount()
			_, err = hc.UserVaultEquities(ctx, hypertest.DefaultUser())
			require.ErrorIs(t, err, nodeaccess.ErrRateLimited)
			var oe *nodeaccess.OpError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, "hyper", oe.Chain)
			assert.False(t, errors.As(err, &he), "hyper got no response")
			assert.Equal(t, sentBefore, hyperSrv.RequestCount(), "hyper sent while the pause held it")
			testkit.AssertErrNoKey(t, hyperSrv.Key(), err)

			// The TON call goes at or after the pause's end, and no later
			// than its own round trip after it (timed from the call, after
			// the 429: what is left of the pause then is evmCap at most).
			called := time.Now()
			_, err = tc.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount().String()}})
			require.NoError(t, err, "the TON call after the EVM client's 429")
			assert.GreaterOrEqual(t, time.Since(start), evmCap, "the pause did not hold")
			assert.Less(t, time.Since(called), evmCap+500*time.Millisecond, "the pause outlasted the EVM client's cap")
			assert.Equal(t, int64(1), plan.Stats().Throttled)
		})
	}
}
