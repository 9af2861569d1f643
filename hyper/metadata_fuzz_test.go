package hyper

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"
)

// metaSeeds adds the recorded bodies named and hand-written ones.
func metaSeeds(f *testing.F, files []string, extra ...string) {
	for _, name := range files {
		f.Add(readFixture(f, name))
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
}

// What decodes is an object that encoding/json reads too, with one pair and
// one token per entry, every index non-negative and unique, and a snapshot
// built from it names each pair by its index.
func FuzzDecodeSpotMeta(f *testing.F) {
	metaSeeds(f, []string{"spotMeta_2025-08.json"},
		`{"universe":[],"tokens":[]}`, `{"universe":null,"tokens":[]}`,
		`{"universe":[{"tokens":[1,0],"name":"PURR/USDC","index":0}],"tokens":[{"name":"USDC","szDecimals":8,"weiDecimals":8,"index":0},{"name":"PURR","szDecimals":0,"weiDecimals":5,"index":1,"evmContract":{"address":"0x9b498c3c8a0b8cd8ba1d9851d40d186f1872b44e","evm_extra_wei_decimals":13}}]}`,
		`{"universe":[{"tokens":[7,9],"name":"@3","index":3}],"tokens":[{"name":"A","szDecimals":1,"weiDecimals":2,"index":7,"fullName":"\u00e9\ud83d\ude00","deployerTradingFeeShare":"0.5"}]}`)
	f.Fuzz(func(t *testing.T, body []byte) {
		pairs, tokens, err := decodeSpotMeta(body)
		if err != nil {
			return
		}
		var plain struct {
			Universe []json.RawMessage
			Tokens   []json.RawMessage
		}
		if err := json.Unmarshal(body, &plain); err != nil || len(plain.Universe) != len(pairs) || len(plain.Tokens) != len(tokens) {
			t.Fatalf("%d pairs, %d tokens from a body encoding/json reads otherwise (%v)", len(pairs), len(tokens), err)
		}
		seen := map[int]bool{}
		for _, p := range pairs {
			if p.Index < 0 || p.Base < 0 || p.Quote < 0 || seen[p.Index] {
				t.Fatalf("pair %+v", p)
			}
			seen[p.Index] = true
		}
		clear(seen)
		for _, tk := range tokens {
			if tk.Index < 0 || seen[tk.Index] || tk.SzDecimals < 0 || tk.WeiDecimals < 0 {
				t.Fatalf("token %+v", tk)
			}
			seen[tk.Index] = true
			checkDecimal(t, tk.DeployerTradingFeeShare)
		}
		m := newMarkets(time.Time{}, tokens, pairs, []PerpDex{{}}, nil)
		for _, p := range pairs {
			got, ok := m.spots[p.Index]
			if !ok || m.Spots[got].Index != p.Index {
				t.Fatalf("pair %d not found by its index", p.Index)
			}
			if mk, ok := m.Market("@" + strconv.Itoa(p.Index)); ok && (mk.Index != p.Index || mk.Asset != spotAsset+p.Index) {
				t.Fatalf("@%d resolved to %+v", p.Index, mk)
			}
		}
	})
}

func FuzzDecodePerpMeta(f *testing.F) {
	metaSeeds(f, []string{"meta_2023-07.json", "meta_2025-08.json", "meta_2025-12.json"},
		string(elementZero(f, readFixture(f, "metaAndAssetCtxs_xyz_2026-02.json"))),
		`{"universe":[]}`, `{"universe":[{"name":"A","szDecimals":0}],"collateralToken":5,"marginTables":[[1,{}]]}`, `{"universe":[{"name":"A"}]}`)
	f.Fuzz(func(t *testing.T, body []byte) {
		perps, col, err := decodePerpMeta(body)
		if err != nil {
			return
		}
		var plain struct{ Universe []json.RawMessage }
		if err := json.Unmarshal(body, &plain); err != nil || len(plain.Universe) != len(perps) || col < 0 {
			t.Fatalf("%d perps from a body encoding/json reads otherwise (%v)", len(perps), err)
		}
		for i, p := range perps {
			if p.Index != i || p.SzDecimals < 0 || p.SzDecimals > maxDecimals {
				t.Fatalf("perp %d: %+v", i, p)
			}
		}
	})
}

func FuzzDecodePerpDexs(f *testing.F) {
	metaSeeds(f, []string{"perpDexs_2025-12.json", "perpDexs_docs.json"}, `[]`, `[null]`, `[null,null,{"name":"a"}]`, `[{"name":"x"}]`, `null`)
	f.Fuzz(func(t *testing.T, body []byte) {
		dexes, err := decodePerpDexs(body)
		if err != nil {
			return
		}
		if len(dexes) == 0 || dexes[0].Index != 0 || dexes[0].Name != "" {
			t.Fatalf("no first perp dex: %+v", dexes)
		}
		names := map[string]bool{}
		for i, d := range dexes {
			if i > 0 && (d.Index <= dexes[i-1].Index || d.Name == "" || names[d.Name] || checkDex(d.Name) != nil) {
				t.Fatalf("dex %d: %+v", i, d)
			}
			names[d.Name] = true
		}
	})
}

func FuzzDecodeOutcomeMeta(f *testing.F) {
	metaSeeds(f, []string{"outcomeMeta_handbuilt.json", "outcomeMeta_docs.json"},
		`{"outcomes":[]}`, `{"outcomes":[{"outcome":0,"name":"A","sideSpecs":[]}],"questions":[{"name":"Q","fallbackOutcome":0,"namedOutcomes":[0,9]}]}`)
	f.Fuzz(func(t *testing.T, body []byte) {
		outcomes, err := decodeOutcomeMeta(body)
		if err != nil {
			return
		}
		m := newMarkets(time.Time{}, nil, nil, []PerpDex{{}}, outcomes)
		for _, o := range outcomes {
			if o.ID < 0 || o.ID > maxOutcome {
				t.Fatalf("outcome %+v", o)
			}
			for side, name := range o.Sides {
				if side > 9 {
					break
				}
				mk, ok := m.Market("#" + strconv.Itoa(10*o.ID+side))
				if !ok || mk.SideName != name || mk.Outcome.ID != o.ID || mk.Side != side || mk.SzDecimals != -1 {
					t.Fatalf("side %d of %d: %+v %v", side, o.ID, mk, ok)
				}
			}
		}
	})
}
