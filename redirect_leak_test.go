package nodeaccess_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keyedCalls are the keyed operations of every chain, each making one call
// to a node at base with key and opts.
var keyedCalls = map[string]func(ctx context.Context, base, key string, opt nodeaccess.Option) error{
	"evm eth_call": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := evm.New(base, key, opt)
		if err != nil {
			return err
		}
		_, err = c.Call(ctx, evm.CallMsg{To: common.HexToAddress("0xaa")}, evm.Latest)
		return err
	},
	"evm eth_getCode": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := evm.New(base, key, opt)
		if err != nil {
			return err
		}
		_, err = c.Code(ctx, common.HexToAddress("0xaa"), evm.Latest)
		return err
	},
	"evm ots_getInternalOperations": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := evm.New(base, key, opt)
		if err != nil {
			return err
		}
		_, err = c.InternalOperations(ctx, common.HexToHash("0x01"))
		return err
	},
	"evm batch": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := evm.New(base, key, opt)
		if err != nil {
			return err
		}
		var b evm.Batch
		r := b.Call(evm.CallMsg{To: common.HexToAddress("0xaa")}, evm.Latest)
		b.Code(common.HexToAddress("0xaa"), evm.Latest)
		if err := c.SendBatch(ctx, &b); err != nil {
			return err
		}
		return r.Err()
	},
	"hyper userVaultEquities": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := hyper.New(base, key, opt)
		if err != nil {
			return err
		}
		_, err = c.UserVaultEquities(ctx, common.HexToAddress("0xaa"))
		return err
	},
	"hyper EVM eth_call": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := hyper.New(base, key, opt)
		if err != nil {
			return err
		}
		_, err = c.EVM().Call(ctx, evm.CallMsg{To: common.HexToAddress("0xaa")}, evm.Latest)
		return err
	},
	"ton v2 REST getBlockTransactionsExt": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := ton.New(base, key, opt)
		if err != nil {
			return err
		}
		_, err = c.BlockTransactionsExt(ctx, ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(1)})
		return err
	},
	"ton v2 JSON-RPC getBlockTransactionsExt": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := ton.New(base, key, opt, ton.WithJSONRPC())
		if err != nil {
			return err
		}
		_, err = c.BlockTransactionsExt(ctx, ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(1)})
		return err
	},
	"ton v3 accountStates": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := ton.New(base, key, opt)
		if err != nil {
			return err
		}
		_, err = c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{"EQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4deEw"}})
		return err
	},
	"ton v3 pendingTransactions": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := ton.New(base, key, opt)
		if err != nil {
			return err
		}
		_, err = c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{"EQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4deEw"}})
		return err
	},
	"beacon state": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := beacon.New(base, key, opt)
		if err != nil {
			return err
		}
		_, _, err = c.State(ctx, beacon.Head)
		return err
	},
	"beacon state download": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := beacon.New(base, key, opt)
		if err != nil {
			return err
		}
		_, err = c.DownloadState(ctx, beacon.Finalized, io.Discard)
		return err
	},
}

// TestNoChainFollowsARedirectToAnotherOrigin: for every keyed operation of
// every chain, whatever the user passes (nothing, a bare *http.Client, a
// RoundTripper), a 301, 302, 303, 307 or 308 to another port ends the call
// with the 3xx as an *HTTPError whose Location is masked; the other origin
// receives nothing, and no header of the request holds the key.
func TestNoChainFollowsARedirectToAnotherOrigin(t *testing.T) {
	t.Parallel()
	for _, key := range testkit.LeakKeys {
		var stolen atomic.Int32
		other, _ := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request, _ int) { stolen.Add(1) })
		for _, status := range []int{301, 302, 303, 307, 308} {
			var (
				mu      sync.Mutex
				headers []http.Header
			)
			node, _ := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
				mu.Lock()
				headers = append(headers, r.Header.Clone())
				mu.Unlock()
				w.Header().Set("Location", other.URL+r.URL.RequestURI())
				w.WriteHeader(status)
			})
			for name, call := range keyedCalls {
				for what, opts := range map[string][]nodeaccess.Option{
					"SDK's own client": nil,
					"*http.Client":     {nodeaccess.WithHTTPClient(&http.Client{})},
					"RoundTripper":     {nodeaccess.WithRoundTripper(http.DefaultTransport)},
				} {
					err := call(context.Background(), node.URL, key, nodeaccess.Options(opts...))
					var he *nodeaccess.HTTPError
					require.ErrorAs(t, err, &he, "%s, %s, %d", name, what, status)
					assert.Equal(t, status, he.StatusCode, "%s, %s", name, what)
					assert.True(t, strings.HasPrefix(he.Location, other.URL+"/"), "%s: Location %q", name, he.Location)
					assert.Contains(t, he.Location, "REDACTED", name)
					testkit.AssertErrNoKey(t, key, err)
				}
			}
			mu.Lock()
			for _, h := range headers {
				for k, vs := range h {
					testkit.AssertNoKey(t, key, "request header "+k, strings.Join(vs, " "))
				}
			}
			mu.Unlock()
		}
		assert.Zero(t, stolen.Load(), "the other origin received requests")
	}
}
