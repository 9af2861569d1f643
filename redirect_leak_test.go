package nodeaccess_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
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
		evm.Add[hexutil.Bytes](&b, "eth_getCode", common.HexToAddress("0xaa"), evm.Latest)
		if err := c.SendBatch(ctx, &b); err != nil {
			return err
		}
		_, err = r.Result()
		return err
	},
	"evm CallContext": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := evm.New(base, key, opt)
		if err != nil {
			return err
		}
		var out hexutil.Big
		return c.CallContext(ctx, &out, "eth_getBalance", common.HexToAddress("0xaa"), "latest")
	},
	"evm eth_blockNumber": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := evm.New(base, key, opt)
		if err != nil {
			return err
		}
		_, err = c.BlockNumber(ctx)
		return err
	},
	"evm eth_chainId": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := evm.New(base, key, opt)
		if err != nil {
			return err
		}
		_, err = c.ChainID(ctx)
		return err
	},
	"evm eth_simulateV1": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := evm.New(base, key, opt)
		if err != nil {
			return err
		}
		blocks, err := c.SimulateV1(ctx, evm.Simulation{Blocks: []evm.SimBlock{{Calls: []evm.CallMsg{{To: common.HexToAddress("0xaa")}}}}}, evm.Latest)
		if err != nil || len(blocks) == 0 || len(blocks[0].Calls) == 0 {
			return err
		}
		return blocks[0].Calls[0].Err // a simulated call's error holds the node's text too
	},
	"hyper userVaultEquities": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := hyper.New(base, key, opt)
		if err != nil {
			return err
		}
		_, err = c.UserVaultEquities(ctx, common.HexToAddress("0xaa"))
		return err
	},
	"hyper Info": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := hyper.New(base, key, opt)
		if err != nil {
			return err
		}
		return c.Info(ctx, nil, map[string]string{"type": "clearinghouseState", "user": "0x00000000000000000000000000000000000000aa"})
	},
	"hypercore eth_call": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := hypercore.New(base, key, opt)
		if err != nil {
			return err
		}
		_, err = c.Call(ctx, evm.CallMsg{To: common.HexToAddress("0xaa")}, evm.Latest)
		return err
	},
	"hypercore read": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := hypercore.New(base, key, opt)
		if err != nil {
			return err
		}
		var b evm.Batch
		block := hypercore.Reads(&b).L1BlockNumber()
		if err := c.SendBatch(ctx, &b); err != nil {
			return err
		}
		_, err = block.Result()
		return err
	},
	"ton v2 REST getBlockTransactionsExt": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := ton.New(base, key, opt)
		if err != nil {
			return err
		}
		_, err = c.BlockTransactions(ctx, ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(1)})
		return err
	},
	"ton v2 JSON-RPC getBlockTransactionsExt": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := ton.New(base, key, opt, ton.WithJSONRPC())
		if err != nil {
			return err
		}
		_, err = c.BlockTransactions(ctx, ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(1)})
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
	"ton Call v2": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := ton.New(base, key, opt)
		if err != nil {
			return err
		}
		var out map[string]any
		return c.Call(ctx, &out, "v2/getMasterchainInfo", nil)
	},
	"ton Call v3": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := ton.New(base, key, opt)
		if err != nil {
			return err
		}
		var out map[string]any
		return c.Call(ctx, &out, "v3/masterchainInfo", nil)
	},
	"ton Follow": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := ton.New(base, key, opt)
		if err != nil {
			return err
		}
		// The follower retries what may pass later and yields it after
		// thirty tries; the first error it yields ends the call.
		for _, err := range c.Follow(ctx, ton.FollowQuery{From: ton.FollowCursor{Seqno: 2}, Poll: time.Millisecond}) {
			if err != nil {
				return err
			}
		}
		return nil
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
	"beacon Get": func(ctx context.Context, base, key string, opt nodeaccess.Option) error {
		c, err := beacon.New(base, key, opt)
		if err != nil {
			return err
		}
		var out struct{ Data json.RawMessage }
		return c.Get(ctx, &out, "/eth/v1/beacon/headers/head", nil)
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
					err := call(context.Background(), node.URL, key, testkit.Bundle(opts...))
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
