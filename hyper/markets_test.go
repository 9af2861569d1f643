package hyper

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordedMarkets builds a snapshot from the recorded bodies: spotMeta of
// 2025-08, meta of 2025-12, perpDexs of 2025-12 with the xyz meta of
// 2026-02, and the hand-built outcomeMeta.
func recordedMarkets(t testing.TB) *Markets {
	t.Helper()
	pairs, tokens, err := decodeSpotMeta(readFixture(t, "spotMeta_2025-08.json"))
	require.NoError(t, err)
	dexes, err := decodePerpDexs(readFixture(t, "perpDexs_2025-12.json"))
	require.NoError(t, err)
	dexes[0].Perps, dexes[0].CollateralToken, err = decodePerpMeta(readFixture(t, "meta_2025-12.json"))
	require.NoError(t, err)
	dexes[1].Perps, dexes[1].CollateralToken, err = decodePerpMeta(elementZero(t, readFixture(t, "metaAndAssetCtxs_xyz_2026-02.json")))
	require.NoError(t, err)
	outcomes, err := decodeOutcomeMeta(readFixture(t, "outcomeMeta_handbuilt.json"))
	require.NoError(t, err)
	return newMarkets(time.Unix(1765661000, 0), tokens, pairs, dexes, outcomes)
}

func TestMarketNamesEachKeyForm(t *testing.T) {
	m := recordedMarkets(t)
	tok := func(i int) Token { return m.Tokens[m.tokens[i]] }
	pair := func(i int) SpotPair { return m.Spots[m.spots[i]] }
	for key, want := range map[string]Market{
		"BTC":  {Key: "BTC", Kind: KeyPerp, Name: "BTC", Index: 0, Asset: 0, SzDecimals: 5, Perp: m.Dexes[0].Perps[0]},
		"HYPE": {Key: "HYPE", Kind: KeyPerp, Name: "HYPE", Index: 159, Asset: 159, SzDecimals: m.Dexes[0].Perps[159].SzDecimals, Perp: m.Dexes[0].Perps[159]},
		"@107": {Key: "@107", Kind: KeySpotIndex, Name: "HYPE/USDC", Index: 107, Asset: 10107, SzDecimals: 2, Spot: pair(107), Base: tok(150), Quote: tok(0)},
		// By the tokens' names: the pair's key, "@107".
		"HYPE/USDC":  {Key: "@107", Kind: KeySpotIndex, Name: "HYPE/USDC", Index: 107, Asset: 10107, SzDecimals: 2, Spot: pair(107), Base: tok(150), Quote: tok(0)},
		"HYPE/USDT0": {Key: "@207", Kind: KeySpotIndex, Name: "HYPE/USDT0", Index: 207, Asset: 10207, SzDecimals: 2, Spot: pair(207), Base: tok(150), Quote: m.Tokens[m.tokens[pair(207).Quote]]},
		"PURR/USDC":  {Key: "PURR/USDC", Kind: KeySpotPair, Name: "PURR/USDC", Index: 0, Asset: 10000, SzDecimals: 0, Spot: pair(0), Base: tok(1), Quote: tok(0)},
		"xyz:GOLD": {Key: "xyz:GOLD", Kind: KeyBuilderDex, Name: "xyz:GOLD", Index: 3, Asset: 110003, Dex: "xyz", DexIndex: 1, SzDecimals: 4,
			Perp: m.Dexes[1].Perps[3]},
		"xyz:CL": {Key: "xyz:CL", Kind: KeyBuilderDex, Name: "xyz:CL", Index: 29, Asset: 110029, Dex: "xyz", DexIndex: 1, SzDecimals: 3,
			Perp: m.Dexes[1].Perps[29]},
		// Side names as the metadata gives them: "Yes"/"No" for outcome 1,
		// "Hypurr"/"Usain Bolt" for outcome 2.
		"#10": {Key: "#10", Kind: KeyOutcome, Name: "Recurring", Index: 10, Asset: 100000010, SzDecimals: -1, Outcome: m.Outcomes[0], Side: 0, SideName: "Yes"},
		"#11": {Key: "#11", Kind: KeyOutcome, Name: "Recurring", Index: 11, Asset: 100000011, SzDecimals: -1, Outcome: m.Outcomes[0], Side: 1, SideName: "No"},
		"#20": {Key: "#20", Kind: KeyOutcome, Name: "Who will win the HL 100 meter dash?", Index: 20, Asset: 100000020, SzDecimals: -1, Outcome: m.Outcomes[1], Side: 0, SideName: "Hypurr"},
		"#21": {Key: "#21", Kind: KeyOutcome, Name: "Who will win the HL 100 meter dash?", Index: 21, Asset: 100000021, SzDecimals: -1, Outcome: m.Outcomes[1], Side: 1, SideName: "Usain Bolt"},
	} {
		got, ok := m.Market(key)
		require.True(t, ok, key)
		assert.Equal(t, want, got, key)
	}
	assert.Equal(t, "HYPE", m.Dexes[0].Perps[159].Name)
	assert.Equal(t, "USDT0", m.Tokens[m.tokens[m.Spots[m.spots[207]].Quote]].Name)
	assert.False(t, m.missed.Load())

	// Keys the metadata does not cover: unresolved, and remembered so that
	// the client fetches again.
	for _, key := range []string{"@71", "@258", "#12", "#30", "NOPE", "xyz:NOPE", "flx:TSLA", "zzz:A", "HYPE/USD"} {
		m.missed.Store(false)
		_, ok := m.Market(key)
		assert.False(t, ok, key)
		assert.True(t, m.missed.Load(), key)
	}
	// A key of no known form is no market and asks for nothing.
	for _, key := range []string{"", "~x", "@", "#", "@01", ":x"} {
		m.missed.Store(false)
		_, ok := m.Market(key)
		assert.False(t, ok, key)
		assert.False(t, m.missed.Load(), key)
	}
}

// Every key of the recorded allMids body against the metadata: each perp
// and the named spot pair resolve; of the 258 "@N" keys, those whose index
// the four months older spotMeta lacks stay unresolved, and the others
// resolve to the pair of that index (not the pair at that position).
func TestMarketsCoverRecordedMids(t *testing.T) {
	m := recordedMarkets(t)
	var mids map[string]string
	require.NoError(t, json.Unmarshal(readFixture(t, "allMids_2025-12.json"), &mids))
	universe := generic(t, readFixture(t, "spotMeta_2025-08.json")).(map[string]any)["universe"].([]any)
	byIndex := map[int]map[string]any{}
	for _, raw := range universe {
		w := raw.(map[string]any)
		byIndex[num(t, w["index"])] = w
	}
	var unresolved []int
	named := map[Kind]int{}
	for key := range mids {
		got, ok := m.Market(key)
		mid := classify(key)
		if !ok {
			require.Equal(t, KeySpotIndex, mid.Kind, "%s unresolved", key)
			_, inMeta := byIndex[mid.Index]
			assert.False(t, inMeta, key)
			unresolved = append(unresolved, mid.Index)
			continue
		}
		named[got.Kind]++
		assert.Equal(t, key, got.Key)
		assert.Equal(t, mid.Kind, got.Kind, key)
		if mid.Kind == KeySpotIndex {
			w := byIndex[mid.Index]
			require.NotNil(t, w, key)
			ts := w["tokens"].([]any)
			assert.Equal(t, []int{num(t, ts[0]), num(t, ts[1])}, []int{got.Base.Index, got.Quote.Index}, key)
			assert.Equal(t, got.Base.Name+"/"+got.Quote.Name, got.Name)
			assert.Equal(t, got.Base.SzDecimals, got.SzDecimals)
		}
	}
	slices.Sort(unresolved)
	assert.Len(t, unresolved, 60)
	assert.Equal(t, []int{71, 98, 144, 149, 154, 167, 168, 169, 181, 186}, unresolved[:10])
	assert.Equal(t, map[Kind]int{KeyPerp: 223, KeySpotPair: 1, KeySpotIndex: 198}, named)
}

// Kind is KeyKind, short for the test's tables.
type Kind = KeyKind

// Each token's Spots are the pairs it is the base of, in universe order.
func TestMarketsTokenSpots(t *testing.T) {
	m := recordedMarkets(t)
	hype := m.Tokens[m.tokens[150]]
	assert.Equal(t, []int{107, 207}, hype.Spots)
	assert.Empty(t, m.Tokens[m.tokens[0]].Spots, "USDC is only a quote")
	total := 0
	for _, tk := range m.Tokens {
		total += len(tk.Spots)
		for _, s := range tk.Spots {
			assert.Equal(t, tk.Index, m.Spots[m.spots[s]].Base, "pair %s", strconv.Itoa(s))
		}
	}
	assert.Equal(t, len(m.Spots), total)
}
