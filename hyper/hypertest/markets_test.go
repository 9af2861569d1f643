package hypertest_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
)

// Every key the server serves by default resolves with its own metadata:
// every allMids key of every dex perpDexs lists (each dex with its meta and
// its mids) names a market of Markets (every perp, builder-dex perp, spot
// pair with both its tokens, and outcome side), and the node's HyperEVM
// prices each perp and spot market from the same data. No key is left
// unresolved: the recorded mids are cut to the recorded spot metadata
// (data/SOURCES.md).
func TestEveryServedKeyResolves(t *testing.T) {
	srv := start(t)
	var (
		mu      sync.Mutex
		weights []int
	)
	c := client(t, srv, hyper.WithPublicBudget(nil), nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
		mu.Lock()
		defer mu.Unlock()
		weights = append(weights, a.Units)
	}))
	ctx := context.Background()
	markets, err := c.Markets(ctx)
	require.NoError(t, err)
	assert.Equal(t, []int{20, 20, 20, 20, 20}, weights, "spotMeta, perpDexs, outcomeMeta, meta and meta of xyz weigh 20 each")
	assert.Equal(t, 5, srv.Public.Requests())
	assert.Zero(t, srv.Requests(), "the node serves no metadata")

	resolved := map[hyper.KeyKind]int{}
	var unresolved, priced []string
	var b evm.Batch
	var prices []*hypercore.Read[decimal.Decimal]
	require.Len(t, markets.Dexes, 2, "the first perp dex and xyz")
	for _, dex := range markets.Dexes {
		assert.NotEmpty(t, dex.Perps, "dex %q has its meta", dex.Name)
		mids, err := c.AllMids(ctx, dex.Name)
		require.NoError(t, err, "dex %q has its mids", dex.Name)
		require.NotZero(t, mids.Len(), dex.Name)
		for key, mid := range mids.All() {
			m, ok := markets.Market(key)
			if !ok {
				unresolved = append(unresolved, key)
				continue
			}
			resolved[m.Kind]++
			assert.Equal(t, key, m.Key)
			assert.Equal(t, mid.Kind, m.Kind)
			switch m.Kind {
			case hyper.KeySpotIndex, hyper.KeySpotPair:
				assert.NotEmpty(t, m.Base.Name, key)
				assert.NotEmpty(t, m.Quote.Name, key)
			case hyper.KeyPerp, hyper.KeyBuilderDex:
				assert.Equal(t, dex.Name, m.Dex, key)
			}
			if m.Kind != hyper.KeyOutcome {
				priced = append(priced, key)
				prices = append(prices, hypercore.Reads(&b).Price(m))
			}
		}
	}
	slices.Sort(unresolved)
	assert.Empty(t, unresolved, "keys served that the served metadata does not name")
	assert.Equal(t, map[hyper.KeyKind]int{hyper.KeyPerp: 223, hyper.KeySpotPair: 1, hyper.KeySpotIndex: 198, hyper.KeyOutcome: 4, hyper.KeyBuilderDex: 2}, resolved)

	hev, err := hypercore.New(srv.URL, srv.Key())
	require.NoError(t, err)
	require.NoError(t, hev.SendBatch(ctx, &b))
	for i, r := range prices {
		p, err := r.Result()
		if assert.NoError(t, err, priced[i]) {
			assert.True(t, p.IsPositive(), "%s: price %s", priced[i], p)
		}
	}

	for key, want := range map[string][4]string{
		"@107":      {"HYPE/USDC", "HYPE", "USDC", ""},
		"PURR/USDC": {"PURR/USDC", "PURR", "USDC", ""},
		"#10":       {"Recurring", "", "", "Yes"},
		"#11":       {"Recurring", "", "", "No"},
		"#20":       {"Who will win the HL 100 meter dash?", "", "", "Hypurr"},
		"#21":       {"Who will win the HL 100 meter dash?", "", "", "Usain Bolt"},
		"xyz:GOLD":  {"xyz:GOLD", "", "", ""},
	} {
		m, ok := markets.Market(key)
		require.True(t, ok, key)
		assert.Equal(t, want, [4]string{m.Name, m.Base.Name, m.Quote.Name, m.SideName}, key)
	}
	btc, _ := markets.Market("BTC")
	gold, _ := markets.Market("xyz:GOLD")
	assert.Equal(t, []int{5, 0, 4, 110003, 1}, []int{btc.SzDecimals, btc.Asset, gold.SzDecimals, gold.Asset, gold.DexIndex})
	assert.Equal(t, []string{"", "xyz"}, []string{markets.Dexes[0].Name, markets.Dexes[1].Name})
}

// Without defaults the metadata is that of an exchange without markets:
// Markets works, and every key the test sets stays unresolved until the
// test sets metadata for it.
func TestMarketsWithoutDefaults(t *testing.T) {
	srv := start(t, hypertest.WithoutDefaults())
	c := client(t, srv, hyper.WithPublicBudget(nil))
	ctx := context.Background()
	markets, err := c.Markets(ctx)
	require.NoError(t, err)
	assert.Empty(t, markets.Tokens)
	assert.Empty(t, markets.Spots)
	assert.Empty(t, markets.Outcomes)
	require.Len(t, markets.Dexes, 1)
	assert.Empty(t, markets.Dexes[0].Perps)
	_, ok := markets.Market("BTC")
	assert.False(t, ok)

	// A test's own metadata, through SetInfo: a new client fetches it.
	require.NoError(t, srv.SetInfo(map[string]string{"type": "meta"}, []byte(`{"universe":[{"name":"ETH","szDecimals":4,"maxLeverage":25}]}`)))
	require.NoError(t, srv.SetInfo(map[string]string{"type": "perpDexs"}, []byte(`[null,{"name":"km","fullName":"KM"}]`)))
	require.NoError(t, srv.SetInfo(map[string]string{"type": "meta", "dex": "km"}, []byte(`{"universe":[{"name":"km:US500","szDecimals":2}]}`)))
	c2 := client(t, srv, hyper.WithPublicBudget(nil))
	markets, err = c2.Markets(ctx)
	require.NoError(t, err)
	eth, ok := markets.Market("ETH")
	require.True(t, ok)
	assert.Equal(t, 4, eth.SzDecimals)
	us, ok := markets.Market("km:US500")
	require.True(t, ok)
	assert.Equal(t, []int{1, 0, 110000}, []int{us.DexIndex, us.Index, us.Asset})
	names := []string{}
	for _, d := range markets.Dexes {
		names = append(names, d.Name)
	}
	assert.True(t, slices.Equal([]string{"", "km"}, names), "%v", names)
}
