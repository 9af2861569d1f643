package hyper

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// generic decodes a JSON body with encoding/json into plain values (numbers
// as json.Number), the independent reading the decoders are checked
// against.
func generic(t testing.TB, body []byte) any {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&v))
	return v
}

func num(t testing.TB, v any) int {
	t.Helper()
	n, err := v.(json.Number).Int64()
	require.NoError(t, err)
	return int(n)
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// Every pair and token of the recorded spotMeta bodies, each member against
// encoding/json's reading of the same bytes.
func TestDecodeSpotMetaRecorded(t *testing.T) {
	for name, body := range map[string][]byte{
		"spotMeta_2025-08.json":                  readFixture(t, "spotMeta_2025-08.json"),
		"spotMetaAndAssetCtxs_2025-08.json[0]":   elementZero(t, readFixture(t, "spotMetaAndAssetCtxs_2025-08.json")),
		"spotMeta_handwritten_minimal_and_nulls": []byte(`{"universe":[{"tokens":[1,0],"name":"PURR/USDC","index":0}],"tokens":[{"name":"USDC","szDecimals":8,"weiDecimals":8,"index":0,"evmContract":null,"fullName":null},{"name":"PURR","szDecimals":0,"weiDecimals":5,"index":1,"new":{"x":1}}],"new":[]}`),
	} {
		t.Run(name, func(t *testing.T) {
			pairs, tokens, err := decodeSpotMeta(body)
			require.NoError(t, err)
			g := generic(t, body).(map[string]any)
			universe, toks := g["universe"].([]any), g["tokens"].([]any)
			require.Len(t, pairs, len(universe))
			require.Len(t, tokens, len(toks))
			for i, raw := range universe {
				w := raw.(map[string]any)
				ts := w["tokens"].([]any)
				canon, _ := w["isCanonical"].(bool)
				assert.Equal(t, SpotPair{Index: num(t, w["index"]), Name: str(w["name"]), Base: num(t, ts[0]), Quote: num(t, ts[1]), IsCanonical: canon}, pairs[i])
			}
			for i, raw := range toks {
				w := raw.(map[string]any)
				want := Token{Index: num(t, w["index"]), Name: str(w["name"]), FullName: str(w["fullName"]), SzDecimals: num(t, w["szDecimals"]),
					WeiDecimals: num(t, w["weiDecimals"]), TokenID: str(w["tokenId"])}
				want.IsCanonical, _ = w["isCanonical"].(bool)
				if ec, ok := w["evmContract"].(map[string]any); ok {
					want.EVMContract = common.HexToAddress(str(ec["address"]))
					want.EVMExtraWeiDecimals = num(t, ec["evm_extra_wei_decimals"])
				}
				if s := str(w["deployerTradingFeeShare"]); s != "" {
					want.DeployerTradingFeeShare = decimal.RequireFromString(s)
				}
				got := tokens[i]
				assert.True(t, want.DeployerTradingFeeShare.Equal(got.DeployerTradingFeeShare), "token %d fee share", want.Index)
				want.DeployerTradingFeeShare, got.DeployerTradingFeeShare = decimal.Decimal{}, decimal.Decimal{}
				assert.Equal(t, want, got)
			}
		})
	}

	// And the facts spelt out (the research notes, from the same body).
	pairs, tokens, err := decodeSpotMeta(readFixture(t, "spotMeta_2025-08.json"))
	require.NoError(t, err)
	assert.Len(t, pairs, 199)
	assert.Len(t, tokens, 342)
	assert.Equal(t, SpotPair{Index: 0, Name: "PURR/USDC", Base: 1, Quote: 0, IsCanonical: true}, pairs[0])
	offPosition := 0
	for i, p := range pairs {
		if p.Index != i {
			offPosition++
		}
	}
	assert.Equal(t, 128, offPosition, "pairs whose index is not their position: look pairs up by index")
	hype := tokens[150]
	assert.Equal(t, "HYPE", hype.Name)
	assert.Equal(t, "Hyperliquid", hype.FullName)
	assert.Equal(t, []int{2, 8}, []int{hype.SzDecimals, hype.WeiDecimals})
	assert.Equal(t, common.Address{}, hype.EVMContract)
	assert.Equal(t, "0x6d1e7cde53ba9467b783cb7c530ce054", tokens[0].TokenID)
	extra := map[string]int{}
	for _, tk := range tokens {
		if tk.Name == "UBTC" || tk.Name == "PURR" {
			extra[tk.Name] = tk.EVMExtraWeiDecimals
		}
	}
	assert.Equal(t, map[string]int{"UBTC": -2, "PURR": 13}, extra)
}

func elementZero(t testing.TB, body []byte) []byte {
	t.Helper()
	var arr []json.RawMessage
	require.NoError(t, json.Unmarshal(body, &arr))
	require.NotEmpty(t, arr)
	return arr[0]
}

// Every perp of the recorded meta bodies, of three shapes (2023 without
// margin tables, 2025-08 without collateralToken, 2025-12 with it) and of a
// builder dex.
func TestDecodePerpMetaRecorded(t *testing.T) {
	for _, tc := range []struct {
		name       string
		body       []byte
		perps      int
		collateral int
	}{
		{"meta_2023-07.json", readFixture(t, "meta_2023-07.json"), 0, 0},
		{"meta_2025-08.json", readFixture(t, "meta_2025-08.json"), 203, 0},
		{"meta_2025-12.json", readFixture(t, "meta_2025-12.json"), 223, 0},
		{"metaAndAssetCtxs_xyz_2026-02.json[0]", elementZero(t, readFixture(t, "metaAndAssetCtxs_xyz_2026-02.json")), 43, 0},
		{"handwritten collateral", []byte(`{"universe":[{"name":"A","szDecimals":1}],"collateralToken":360}`), 1, 360},
	} {
		t.Run(tc.name, func(t *testing.T) {
			perps, col, err := decodePerpMeta(tc.body)
			require.NoError(t, err)
			assert.Equal(t, tc.collateral, col)
			universe := generic(t, tc.body).(map[string]any)["universe"].([]any)
			require.Len(t, perps, len(universe))
			if tc.perps > 0 {
				assert.Len(t, perps, tc.perps)
			}
			for i, raw := range universe {
				w := raw.(map[string]any)
				want := Perp{Index: i, Name: str(w["name"]), SzDecimals: num(t, w["szDecimals"]), MarginMode: str(w["marginMode"])}
				if v, ok := w["maxLeverage"]; ok {
					want.MaxLeverage = num(t, v)
				}
				if v, ok := w["marginTableId"]; ok {
					want.MarginTableID = num(t, v)
				}
				want.OnlyIsolated, _ = w["onlyIsolated"].(bool)
				want.IsDelisted, _ = w["isDelisted"].(bool)
				assert.Equal(t, want, perps[i])
			}
		})
	}
	perps, _, err := decodePerpMeta(readFixture(t, "meta_2025-12.json"))
	require.NoError(t, err)
	assert.Equal(t, Perp{Index: 0, Name: "BTC", SzDecimals: 5, MaxLeverage: 40, MarginTableID: 56}, perps[0])
	assert.Equal(t, "HYPE", perps[159].Name)
	var delisted, modes int
	for _, p := range perps {
		if p.IsDelisted {
			delisted++
		}
		if p.MarginMode != "" {
			modes++
		}
	}
	assert.Equal(t, []int{37, 10}, []int{delisted, modes})
	xyz, _, err := decodePerpMeta(elementZero(t, readFixture(t, "metaAndAssetCtxs_xyz_2026-02.json")))
	require.NoError(t, err)
	assert.Equal(t, []string{"xyz:GOLD", "xyz:CL"}, []string{xyz[3].Name, xyz[29].Name})
	assert.Equal(t, []int{4, 3}, []int{xyz[3].SzDecimals, xyz[29].SzDecimals})
}

func TestDecodePerpDexsRecorded(t *testing.T) {
	dexes, err := decodePerpDexs(readFixture(t, "perpDexs_2025-12.json"))
	require.NoError(t, err)
	arr := generic(t, readFixture(t, "perpDexs_2025-12.json")).([]any)
	require.Len(t, dexes, len(arr))
	assert.Equal(t, PerpDex{Index: 0}, dexes[0])
	assert.Nil(t, arr[0])
	for i := 1; i < len(arr); i++ {
		w := arr[i].(map[string]any)
		assert.Equal(t, PerpDex{Index: i, Name: str(w["name"]), FullName: str(w["fullName"]), Deployer: common.HexToAddress(str(w["deployer"]))}, dexes[i])
	}
	assert.Equal(t, []string{"", "xyz", "flx", "vntl", "hyna"}, []string{dexes[0].Name, dexes[1].Name, dexes[2].Name, dexes[3].Name, dexes[4].Name})

	// The docs' example, and entries without a dex: positions are kept.
	docs, err := decodePerpDexs(readFixture(t, "perpDexs_docs.json"))
	require.NoError(t, err)
	assert.Equal(t, []PerpDex{{Index: 0}, {Index: 1, Name: "test", FullName: "test dex", Deployer: common.HexToAddress("0x5e89b26d8d66da9888c835c9bfcc2aa51813e152")}}, docs)
	gaps, err := decodePerpDexs([]byte(`[null,null,{"name":""},{"name":"km","extra":[1]}]`))
	require.NoError(t, err)
	assert.Equal(t, []PerpDex{{Index: 0}, {Index: 3, Name: "km"}}, gaps)
}

func TestDecodeOutcomeMeta(t *testing.T) {
	hand, err := decodeOutcomeMeta(readFixture(t, "outcomeMeta_handbuilt.json"))
	require.NoError(t, err)
	assert.Equal(t, []Outcome{
		{ID: 1, Name: "Recurring", Description: "class:priceBinary|underlying:BTC|expiry:20260504-0600|targetPrice:78213|period:1d", Sides: []string{"Yes", "No"}, QuoteToken: "USDC"},
		{ID: 2, Name: "Who will win the HL 100 meter dash?", Description: "This race is yet to be scheduled.", Sides: []string{"Hypurr", "Usain Bolt"}, QuoteToken: "USDH"},
	}, hand)
	docs, err := decodeOutcomeMeta(readFixture(t, "outcomeMeta_docs.json"))
	require.NoError(t, err)
	assert.Equal(t, []Outcome{{ID: 123, Name: "Recurring", Description: "class:priceBinary|underlying:HYPE|expiry:20260310-1100|targetPrice:34.5|period:3m", Sides: []string{"Yes", "No"}}}, docs)

	// The live shape's questions name their outcomes; an outcome without
	// sides, and members the SDK does not read, decode.
	live := `{"deployers":[],"feeScale":"1.0","outcomes":[{"outcome":0,"name":"A","description":"","sideSpecs":[{"name":"Yes","token":3},{"name":"No"}],"quoteToken":"USDC","deployer":"0x01"},` +
		`{"outcome":5,"name":"Legacy","sideSpecs":[]},{"outcome":6,"name":"F","sideSpecs":[{"name":"Over"},{"name":"Under"}]}],` +
		`"questions":[{"question":1,"name":"Q?","description":"","fallbackOutcome":6,"namedOutcomes":[0],"settledNamedOutcomes":[]}]}`
	got, err := decodeOutcomeMeta([]byte(live))
	require.NoError(t, err)
	assert.Equal(t, []Outcome{
		{ID: 0, Name: "A", Sides: []string{"Yes", "No"}, QuoteToken: "USDC", Question: "Q?"},
		{ID: 5, Name: "Legacy", Sides: []string{}},
		{ID: 6, Name: "F", Sides: []string{"Over", "Under"}, Question: "Q?"},
	}, got)
}

// Bodies the decoders refuse, each with the reason.
func TestDecodeMetadataErrors(t *testing.T) {
	for _, tc := range []struct {
		dec  func([]byte) error
		body string
		want string
	}{
		{spotDec, `[]`, "spotMeta: want a JSON object, got an array"},
		{spotDec, `{"universe":[]}`, `spotMeta: want "universe" and "tokens" arrays`},
		{spotDec, `{"universe":[{"tokens":[1,0],"name":"x"}],"tokens":[]}`, "spotMeta: pair 0 has no index"},
		{spotDec, `{"universe":[{"tokens":[1],"name":"x","index":4}],"tokens":[]}`, "spotMeta: pair 4: want two token indexes, got 1"},
		{spotDec, `{"universe":[{"tokens":[1,0],"name":"a","index":4},{"tokens":[1,0],"name":"b","index":4}],"tokens":[]}`, "spotMeta: pair index 4 appears twice"},
		{spotDec, `{"universe":[],"tokens":[{"name":"A","szDecimals":1,"index":2}]}`, "spotMeta: token 2 lacks its name, szDecimals or weiDecimals"},
		{spotDec, `{"universe":[],"tokens":[{"name":"A","szDecimals":1,"weiDecimals":8,"index":2,"evmContract":{"address":"0x12"}}]}`, `spotMeta: token 2: evmContract: "0x12" is not a 42-character hex address`},
		{spotDec, `{"universe":[],"tokens":[{"name":"A","szDecimals":-1,"weiDecimals":8,"index":2}]}`, "spotMeta: token 2: decimals -1 and 8 out of range"},
		{perpDec, `{"universe":[{"name":"BTC"}]}`, "meta: perp 0 lacks its name or szDecimals"},
		{perpDec, `{"universe":null}`, `meta: want a "universe" array`},
		{perpDec, `{"universe":[],"collateralToken":-1}`, "meta: collateralToken -1 is negative"},
		{dexDec, `{}`, "perpDexs: want a JSON array, got an object"},
		{dexDec, `[null,{"name":"a b"}]`, `perpDexs: entry 1: the name "a b" is not a dex name, or appears twice`},
		{dexDec, `[null,{"name":"x"},{"name":"x"}]`, `perpDexs: entry 2: the name "x" is not a dex name, or appears twice`},
		{dexDec, `[null,{"name":"x","deployer":7}]`, "perpDexs: entry 1: deployer: 7 is not a 42-character hex address"},
		{outDec, `{"outcomes":[{"name":"A"}]}`, "outcomeMeta: outcome 0 has no id from 0 to 214748363"},
		{outDec, `{"outcomes":[{"outcome":1,"name":"A","sideSpecs":[{}]}]}`, "outcomeMeta: outcome 1: side 0 has no name"},
		{outDec, `{"outcomes":[{"outcome":1,"name":"A"},{"outcome":1,"name":"B"}]}`, "outcomeMeta: outcome 1 appears twice"},
		{outDec, `{"questions":[]}`, `outcomeMeta: want an "outcomes" array`},
		{outDec, `null`, "outcomeMeta: want a JSON object, got null"},
	} {
		assert.EqualError(t, tc.dec([]byte(tc.body)), tc.want, tc.body)
	}
	// encoding/json's own words differ between Go releases.
	assert.ErrorContains(t, perpDec([]byte(`{"universe":[{"name":"A","szDecimals":"5"}]}`)), "meta: perp 0: json: cannot unmarshal string")
}

func spotDec(b []byte) error { _, _, err := decodeSpotMeta(b); return err }
func perpDec(b []byte) error { _, _, err := decodePerpMeta(b); return err }
func dexDec(b []byte) error  { _, err := decodePerpDexs(b); return err }
func outDec(b []byte) error  { _, err := decodeOutcomeMeta(b); return err }
