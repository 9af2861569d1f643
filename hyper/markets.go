package hyper

import (
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nodeaccess/nodeaccess/hyper/internal/assets"
)

// Markets is Hyperliquid's market metadata at one time, as Client.Markets
// fetches it from the public API: the spot tokens and pairs (spotMeta),
// the perp dexes (perpDexs) with each one's perps (meta), and the HIP-4
// outcomes (outcomeMeta). Market names every key of allMids from it. A
// Markets is read-only (do not change its slices) and safe for concurrent
// use.
type Markets struct {
	// Time is when the client received the metadata.
	Time time.Time
	// Tokens are spotMeta's tokens, in its order.
	Tokens []Token
	// Spots are spotMeta's pairs, in its order (not by index).
	Spots []SpotPair
	// Dexes are the perp dexes in perpDexs order with their perps: Dexes[0]
	// is the first perp dex. A dex's Index is its position in perpDexs,
	// which entries without a dex (null) keep.
	Dexes []PerpDex
	// Outcomes are outcomeMeta's outcomes, in its order.
	Outcomes []Outcome

	tokens   map[int]int      // token index -> position in Tokens
	spots    map[int]int      // pair index -> position in Spots
	pairs    map[string]int   // pair name, and "BASE/QUOTE" -> position in Spots
	dexes    map[string]int   // dex name -> position in Dexes
	perps    []map[string]int // per position in Dexes: perp name -> position in Perps
	outcomes map[int]int      // outcome id -> position in Outcomes
	missed   atomic.Bool      // Market did not know a key of a known form
}

// newMarkets indexes the metadata. The tokens' Spots are worked out from
// the pairs.
func newMarkets(at time.Time, tokens []Token, pairs []SpotPair, dexes []PerpDex, outcomes []Outcome) *Markets {
	m := &Markets{Time: at, Tokens: tokens, Spots: pairs, Dexes: dexes, Outcomes: outcomes,
		tokens: make(map[int]int, len(tokens)), spots: make(map[int]int, len(pairs)), pairs: make(map[string]int, 2*len(pairs)),
		dexes: make(map[string]int, len(dexes)), perps: make([]map[string]int, len(dexes)), outcomes: make(map[int]int, len(outcomes))}
	for i, t := range tokens {
		m.tokens[t.Index] = i
		m.Tokens[i].Spots = nil
	}
	for i, p := range pairs {
		m.spots[p.Index] = i
		if _, ok := m.pairs[p.Name]; !ok {
			m.pairs[p.Name] = i
		}
		if b, ok := m.tokens[p.Base]; ok {
			m.Tokens[b].Spots = append(m.Tokens[b].Spots, p.Index)
		}
	}
	// The readable names come after the metadata's own, and the first
	// pair of a name keeps it (names need not be unique).
	for i, p := range pairs {
		if name, ok := m.pairName(p); ok {
			if _, dup := m.pairs[name]; !dup {
				m.pairs[name] = i
			}
		}
	}
	for i, d := range dexes {
		m.dexes[d.Name] = i
		byName := make(map[string]int, len(d.Perps))
		for j, p := range d.Perps {
			if _, dup := byName[p.Name]; !dup {
				byName[p.Name] = j
			}
			if d.Name != "" && !strings.HasPrefix(p.Name, d.Name+":") {
				if _, dup := byName[d.Name+":"+p.Name]; !dup {
					byName[d.Name+":"+p.Name] = j
				}
			}
		}
		m.perps[i] = byName
	}
	for i, o := range outcomes {
		m.outcomes[o.ID] = i
	}
	return m
}

// pairName is "BASE/QUOTE" of the pair's tokens, when both are known.
func (m *Markets) pairName(p SpotPair) (string, bool) {
	b, okb := m.tokens[p.Base]
	q, okq := m.tokens[p.Quote]
	if !okb || !okq {
		return "", false
	}
	return m.Tokens[b].Name + "/" + m.Tokens[q].Name, true
}

// Market says what a key of allMids names: Market("@107") is the spot
// pair HYPE/USDC, Market("BTC") the perp, Market("xyz:GOLD") the perp GOLD
// of the builder dex xyz, Market("#21") side 1 of outcome 2. A spot pair
// is also found by its tokens' names, Market("HYPE/USDC"), whose Key is
// then "@107" (the first pair of that name in the universe, when several
// share it). ok is false for a key the metadata does not cover, such as
// a market listed after it was fetched: such a key is not an error, and
// makes the client's next Markets call fetch the metadata again once a
// minute has passed since this snapshot (see Client.Markets).
func (m *Markets) Market(key string) (Market, bool) {
	mid := classify(key)
	var (
		out Market
		ok  bool
	)
	switch mid.Kind {
	case KeyPerp:
		out, ok = m.perp(0, key)
	case KeyBuilderDex:
		if d, known := m.dexes[mid.Dex]; known && mid.Dex != "" {
			out, ok = m.perp(d, key)
		}
	case KeySpotIndex:
		if i, known := m.spots[mid.Index]; known {
			out, ok = m.spot(i)
		}
	case KeySpotPair:
		if i, known := m.pairs[key]; known {
			out, ok = m.spot(i)
		}
	case KeyOutcome:
		out, ok = m.outcome(mid.Index)
	default:
		return Market{}, false // not a key: nothing newer would name it
	}
	if !ok {
		m.missed.Store(true)
	}
	return out, ok
}

// perp resolves a perp by its key on the dex at position d of Dexes.
func (m *Markets) perp(d int, key string) (Market, bool) {
	if d >= len(m.Dexes) {
		return Market{}, false
	}
	j, ok := m.perps[d][key]
	if !ok {
		return Market{}, false
	}
	dex, p := m.Dexes[d], m.Dexes[d].Perps[j]
	mk := Market{Key: p.Name, Kind: KeyPerp, Name: p.Name, Index: p.Index, Asset: p.Index, SzDecimals: p.SzDecimals, Perp: p}
	if dex.Name != "" {
		mk.Key, mk.Kind, mk.Dex, mk.DexIndex = key, KeyBuilderDex, dex.Name, dex.Index
		mk.Name, mk.Asset = key, builderAsset+dex.Index*dexStride+p.Index
	}
	return mk, true
}

// spot resolves the pair at position i of Spots: both tokens must be known.
func (m *Markets) spot(i int) (Market, bool) {
	p := m.Spots[i]
	name, ok := m.pairName(p)
	if !ok {
		return Market{}, false
	}
	base, quote := m.Tokens[m.tokens[p.Base]], m.Tokens[m.tokens[p.Quote]]
	kind := classify(p.Name).Kind
	if kind != KeySpotPair {
		kind = KeySpotIndex
	}
	return Market{Key: p.Name, Kind: kind, Name: name, Index: p.Index, Asset: spotAsset + p.Index, SzDecimals: base.SzDecimals,
		Spot: p, Base: base, Quote: quote}, true
}

// outcome resolves the outcome side of encoding n = 10*outcome + side: the
// outcome must be known and have a side of that number.
func (m *Markets) outcome(n int) (Market, bool) {
	i, ok := m.outcomes[n/10]
	if !ok {
		return Market{}, false
	}
	o, side := m.Outcomes[i], n%10
	if side >= len(o.Sides) {
		return Market{}, false
	}
	return Market{Key: "#" + strconv.Itoa(n), Kind: KeyOutcome, Name: o.Name, Index: n, Asset: outcomeAsset + n, SzDecimals: -1,
		Outcome: o, Side: side, SideName: o.Sides[side]}, true
}

// The asset ids of Hyperliquid's API docs (assets.Spot …).
const (
	spotAsset    = assets.Spot
	builderAsset = assets.Builder
	dexStride    = assets.DexStride
	outcomeAsset = assets.Outcome
)

// Market is what a key of allMids names, resolved from the metadata by
// Markets.Market: the market, its size decimals and its asset id.
type Market struct {
	// Key is the market's key in allMids: "BTC", "@107", "PURR/USDC",
	// "xyz:GOLD", "#21".
	Key string
	// Kind is the key's form: KeyPerp, KeySpotPair, KeySpotIndex,
	// KeyBuilderDex or KeyOutcome.
	Kind KeyKind
	// Name is the market's readable name: the perp's coin ("BTC",
	// "xyz:GOLD"), the spot pair's tokens ("HYPE/USDC"), or the outcome's
	// name (see Outcome and SideName).
	Name string
	// Index is the perp's index in its dex's universe, the spot pair's
	// index, or the outcome side's encoding 10*outcome + side.
	Index int
	// Asset is the asset id of Hyperliquid's API docs: a perp of the first
	// dex its index, a builder-dex perp 100000 + 10000*DexIndex + Index, a
	// spot pair 10000 + Index, an outcome side 100000000 + Index.
	Asset int
	// Dex and DexIndex are the perp dex of a builder-dex perp, by name and
	// by its index in perpDexs; "" and 0 otherwise (a perp of the first
	// dex included).
	Dex      string
	DexIndex int
	// SzDecimals is the number of decimals of an order size: the perp's,
	// or the spot pair's base token's. It is -1 for an outcome side (the
	// metadata gives outcomes none, and the SDK does not make one up) and
	// for a spot pair read by Core.AssetInfo (see there).
	SzDecimals int
	// Perp is the perp's metadata (KeyPerp, KeyBuilderDex).
	Perp Perp
	// Spot, Base and Quote are the spot pair and its two tokens
	// (KeySpotPair, KeySpotIndex).
	Spot        SpotPair
	Base, Quote Token
	// Outcome, Side and SideName are the outcome, the side's number and
	// the side's name as the metadata gives it (KeyOutcome).
	Outcome  Outcome
	Side     int
	SideName string
}
