package hypertest_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The default metadata is consistent with the default mids: every perp,
// the named spot pair, the builder dex's and the outcome sides' keys are
// named; of the 258 "@N" keys, the 60 whose pairs the spot metadata
// (recorded four months before the mids) does not list stay unresolved.
func TestDefaultMetadataNamesTheDefaultMids(t *testing.T) {
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

	resolved, unresolved := map[hyper.KeyKind]int{}, 0
	for _, dex := range []string{"", hypertest.BuilderDex} {
		mids, err := c.AllMids(ctx, dex)
		require.NoError(t, err)
		for key, mid := range mids.All() {
			m, ok := markets.Market(key)
			if !ok {
				assert.Equal(t, hyper.KeySpotIndex, mid.Kind, key)
				unresolved++
				continue
			}
			resolved[m.Kind]++
			assert.Equal(t, key, m.Key)
			assert.Equal(t, mid.Kind, m.Kind)
		}
	}
	assert.Equal(t, map[hyper.KeyKind]int{hyper.KeyPerp: 223, hyper.KeySpotPair: 1, hyper.KeySpotIndex: 198, hyper.KeyOutcome: 4, hyper.KeyBuilderDex: 2}, resolved)
	assert.Equal(t, 60, unresolved)

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
