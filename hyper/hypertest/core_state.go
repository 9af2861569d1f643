package hypertest

import (
	"encoding/json"
	"math"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"
)

// coreState is HyperCore's state as the precompiles see it, read from the
// server's data (the metadata and mids the public API serves, the vault
// equities the node serves) once per EVM request, part by part as the
// calls need it. What the data does not hold (positions, balances,
// delegations) is zero.
type coreState struct {
	s *Server

	spotOnce sync.Once
	spots    spotState

	dexOnce sync.Once
	dexes   map[uint64]string // perp dex index -> name ("" the first)

	perpMu sync.Mutex
	perps  map[uint64]*perpState // dex index -> its perps, read once
}

func (s *Server) coreState() *coreState {
	return &coreState{s: s, perps: map[uint64]*perpState{}}
}

type spotState struct {
	pairs  map[uint64]spotPairState
	tokens map[uint64]tokenState
}

type spotPairState struct {
	name        string
	base, quote uint64
	baseSz      int
	mid         string
}

type tokenState struct {
	name        string
	sz, wei     uint8
	extra       int8
	evmContract common.Address
	spots       []uint64
}

type perpState struct {
	byIndex []perpInfo
}

type perpInfo struct {
	name         string
	sz           int
	maxLeverage  int
	marginTable  int
	onlyIsolated bool
	mid          string
}

// spot reads spotMeta and the first dex's mids.
func (st *coreState) spot() *spotState {
	st.spotOnce.Do(func() {
		st.spots = spotState{pairs: map[uint64]spotPairState{}, tokens: map[uint64]tokenState{}}
		var meta struct {
			Universe []struct {
				Tokens []uint64
				Name   string
				Index  uint64
			}
			Tokens []struct {
				Name        string
				SzDecimals  uint8
				WeiDecimals uint8
				Index       uint64
				EvmContract *struct {
					Address string
					Extra   int8 `json:"evm_extra_wei_decimals"`
				}
			}
		}
		if json.Unmarshal(st.s.data.answer(`{"type":"spotMeta"}`), &meta) != nil {
			return // no spot metadata: no pair or token is known
		}
		mids := st.mids("")
		for _, t := range meta.Tokens {
			ts := tokenState{name: t.Name, sz: t.SzDecimals, wei: t.WeiDecimals, spots: []uint64{}}
			if t.EvmContract != nil {
				ts.evmContract, ts.extra = common.HexToAddress(t.EvmContract.Address), t.EvmContract.Extra
			}
			st.spots.tokens[t.Index] = ts
		}
		for _, p := range meta.Universe {
			if len(p.Tokens) != 2 {
				continue
			}
			base, ok := st.spots.tokens[p.Tokens[0]]
			if !ok {
				continue
			}
			st.spots.pairs[p.Index] = spotPairState{name: p.Name, base: p.Tokens[0], quote: p.Tokens[1], baseSz: int(base.sz), mid: mids[p.Name]}
			base.spots = append(base.spots, p.Index)
			st.spots.tokens[p.Tokens[0]] = base
		}
	})
	return &st.spots
}

func (st *coreState) spotPair(index uint64) (spotPairState, bool) {
	p, ok := st.spot().pairs[index]
	return p, ok
}

// mids reads the mids of dex.
func (st *coreState) mids(dex string) map[string]string {
	var m map[string]string
	_ = json.Unmarshal(st.s.data.allMids(dex), &m)
	return m
}

// dexNames reads perpDexs: index -> name, the first perp dex always there.
func (st *coreState) dexNames() map[uint64]string {
	st.dexOnce.Do(func() {
		st.dexes = map[uint64]string{0: ""}
		var list []*struct{ Name string }
		if json.Unmarshal(st.s.data.answer(`{"type":"perpDexs"}`), &list) != nil {
			return
		}
		for i, d := range list {
			if i > 0 && d != nil && d.Name != "" {
				st.dexes[uint64(i)] = d.Name
			}
		}
	})
	return st.dexes
}

// perp finds a perp by its precompile index, 10000 * dex + its index.
func (st *coreState) perp(index uint64) (perpInfo, bool) {
	dex, i := index/10000, index%10000
	name, ok := st.dexNames()[dex]
	if !ok {
		return perpInfo{}, false
	}
	st.perpMu.Lock()
	ps, read := st.perps[dex]
	if !read {
		ps = st.readPerps(name)
		st.perps[dex] = ps
	}
	st.perpMu.Unlock()
	if i >= uint64(len(ps.byIndex)) {
		return perpInfo{}, false
	}
	return ps.byIndex[i], true
}

func (st *coreState) readPerps(dex string) *perpState {
	req := `{"type":"meta"}`
	if dex != "" {
		req = `{"dex":` + jsonString(dex) + `,"type":"meta"}`
	}
	var meta struct {
		Universe []struct {
			Name          string
			SzDecimals    int
			MaxLeverage   int
			MarginTableID int `json:"marginTableId"`
			OnlyIsolated  bool
		}
	}
	ps := &perpState{}
	if json.Unmarshal(st.s.data.answer(req), &meta) != nil {
		return ps
	}
	mids := st.mids(dex)
	for _, u := range meta.Universe {
		ps.byIndex = append(ps.byIndex, perpInfo{name: u.Name, sz: u.SzDecimals, maxLeverage: u.MaxLeverage, marginTable: u.MarginTableID,
			onlyIsolated: u.OnlyIsolated, mid: mids[u.Name]})
	}
	return ps
}

// assetPx is the price integer of an asset id, as the bbo precompile
// answers it: a perp of the first dex is its index, a spot pair 10000 +
// its index, a builder-dex perp 100000 + 10000 * dex + its index.
func (st *coreState) assetPx(asset uint64) (uint64, bool) {
	switch {
	case asset < 10000:
		p, ok := st.perp(asset)
		return st.scaled(p.mid, 6-p.sz), ok
	case asset < 100000:
		p, ok := st.spotPair(asset - 10000)
		return st.scaled(p.mid, 8-p.baseSz), ok
	case asset < math.MaxUint32:
		p, ok := st.perp(asset - 100000)
		if asset-100000 < 10000 {
			return 0, false // dex 0 has no builder-dex asset ids
		}
		return st.scaled(p.mid, 6-p.sz), ok
	}
	return 0, false
}

// vaultEquity answers the vault equity precompile from userVaultEquities:
// the equity in millionths of a USD, round(equity × 10^6), and the lock-up
// end in Unix milliseconds. A vault the user has no deposit in answers
// zeros when some user has a deposit in it (it is a vault), and is invalid
// input otherwise, as is an equity a uint64 cannot hold.
func (st *coreState) vaultEquity(user, vault common.Address) (equity, locked uint64, ok bool) {
	var entries []struct {
		VaultAddress string
		Equity       json.RawMessage
		Locked       json.RawMessage `json:"lockedUntilTimestamp"`
	}
	if json.Unmarshal(st.s.data.vaultEquities(user), &entries) == nil {
		for _, e := range entries {
			if common.HexToAddress(e.VaultAddress) != vault {
				continue
			}
			eq, err := decimal.NewFromString(unquote(e.Equity))
			if err != nil {
				return 0, 0, false
			}
			v := eq.Shift(6).Round(0).BigInt()
			if v.Sign() < 0 || !v.IsUint64() {
				return 0, 0, false
			}
			var ms uint64
			if s := unquote(e.Locked); s != "" && s != "null" {
				d, err := decimal.NewFromString(s)
				if err != nil || !d.IsInteger() || d.IsNegative() || !d.BigInt().IsUint64() {
					return 0, 0, false
				}
				ms = d.BigInt().Uint64()
			}
			return v.Uint64(), ms, true
		}
	}
	return 0, 0, st.s.data.isVault(vault)
}

// unquote is the text of a JSON string or number.
func unquote(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
