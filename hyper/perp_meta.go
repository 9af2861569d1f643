package hyper

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess/internal/jsontext"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Perp is a perpetual: an entry of a perp dex's universe (the public API's
// meta request), or the answer of the perpAssetInfo read precompile
// (Core.AssetInfo).
type Perp struct {
	// Index is the perp's position in its dex's universe, delisted perps
	// included: BTC is 0 on mainnet. On the first perp dex it is the perp's
	// asset id.
	Index int
	// Name is the perp's coin as allMids keys it: "BTC" on the first perp
	// dex, "xyz:GOLD" (the dex's name, a colon, the coin) on a builder
	// dex.
	Name string
	// SzDecimals is the number of decimals of an order size; prices have
	// at most 6 - SzDecimals.
	SzDecimals int
	// MaxLeverage is the highest leverage the perp allows.
	MaxLeverage int
	// MarginTableID names the perp's margin table in the meta answer's
	// marginTables; 0 when the answer gave none.
	MarginTableID int
	// OnlyIsolated is true for a perp that allows isolated margin only
	// (meta's onlyIsolated, which Hyperliquid's docs mark deprecated in
	// favour of MarginMode).
	OnlyIsolated bool
	// MarginMode is meta's marginMode as written ("strictIsolated":
	// margin cannot be removed; "noCross": isolated only), "" when absent
	// (and from the precompile).
	MarginMode string
	// IsDelisted is true for a perp no longer traded; it keeps its index.
	IsDelisted bool
	// Unread names the secondary members the SDK could not read (see the
	// package documentation): the fields they fill are left as when not
	// sent. Nil when every member was read.
	Unread []string
}

// PerpDex is a perp dex with its perps: the first perp dex (Index 0, Name
// "") or a builder-deployed one, as the public API's perpDexs lists them
// (its entries' positions are the dexes' indexes), each with the universe of
// its meta answer.
type PerpDex struct {
	// Index is the dex's position in perpDexs: 0 for the first perp dex.
	// Builder-dex asset ids are 100000 + 10000*Index + the perp's index.
	Index int
	// Name is the dex's name, the prefix of its keys ("xyz" of "xyz:GOLD");
	// "" for the first perp dex.
	Name string
	// FullName is the dex's long name, "" for the first perp dex.
	FullName string
	// Deployer is the address that deployed the dex; the zero address for
	// the first perp dex.
	Deployer common.Address
	// CollateralToken is the token index of the dex's collateral (meta's
	// collateralToken); 0, USDC, when the answer does not say.
	CollateralToken int
	// Perps is the dex's universe, in its order: Perps[i].Index == i.
	Perps []Perp
	// Unread names the secondary members the SDK could not read (see the
	// package documentation): the fields they fill are left as when not
	// sent. Nil when every member was read.
	Unread []string
}

// wirePerp is one element of meta's universe.
type wirePerp struct {
	Name       *string `json:"name"`
	SzDecimals *int    `json:"szDecimals"`
	// Secondary: one that cannot be read is named in Unread (the
	// margin mode is kept as sent).
	MaxLeverage   jsontext.Soft[int]  `json:"maxLeverage"`
	MarginTableID jsontext.Soft[int]  `json:"marginTableId"`
	OnlyIsolated  jsontext.Soft[bool] `json:"onlyIsolated"`
	MarginMode    jsontext.Enum       `json:"marginMode"`
	IsDelisted    jsontext.Soft[bool] `json:"isDelisted"`
}

// decodePerpMeta decodes a meta body: {"universe":[perp…],
// "marginTables":…, "collateralToken":n}. marginTables and
// collateralToken may be absent (older answers lack them), as may
// marginTableId, onlyIsolated, isDelisted and marginMode; unknown members
// are ignored. A perp without its name or szDecimals is an error.
func decodePerpMeta(body []byte) ([]Perp, int, error) {
	var wire struct {
		Universe        *[]json.RawMessage `json:"universe"`
		CollateralToken *int               `json:"collateralToken"`
	}
	if err := unmarshalObject("meta", body, &wire); err != nil {
		return nil, 0, err
	}
	if wire.Universe == nil {
		return nil, 0, fmt.Errorf(`meta: want a "universe" array`)
	}
	perps := make([]Perp, len(*wire.Universe))
	for i, raw := range *wire.Universe {
		var w wirePerp
		if err := json.Unmarshal(raw, &w); err != nil {
			return nil, 0, fmt.Errorf("meta: perp %d: %v", i, err)
		}
		switch {
		case w.Name == nil || w.SzDecimals == nil:
			return nil, 0, fmt.Errorf("meta: perp %d lacks its name or szDecimals", i)
		case *w.SzDecimals < 0 || *w.SzDecimals > maxDecimals:
			return nil, 0, fmt.Errorf("meta: perp %d: szDecimals %d out of range", i, *w.SzDecimals)
		}
		p := Perp{Index: i, Name: *w.Name, SzDecimals: *w.SzDecimals, MaxLeverage: w.MaxLeverage.V, MarginTableID: w.MarginTableID.V,
			OnlyIsolated: w.OnlyIsolated.V, MarginMode: string(w.MarginMode), IsDelisted: w.IsDelisted.V}
		u := (*jsontext.Unread)(&p.Unread)
		u.Check("maxLeverage", w.MaxLeverage.Err)
		u.Check("marginTableId", w.MarginTableID.Err)
		u.Check("onlyIsolated", w.OnlyIsolated.Err)
		u.Check("isDelisted", w.IsDelisted.Err)
		perps[i] = p
	}
	collateral := 0
	if wire.CollateralToken != nil {
		if *wire.CollateralToken < 0 {
			return nil, 0, fmt.Errorf("meta: collateralToken %d is negative", *wire.CollateralToken)
		}
		collateral = *wire.CollateralToken
	}
	return perps, collateral, nil
}

// decodePerpDexs decodes a perpDexs body: a JSON array whose element i is
// perp dex i, null for the first perp dex (and for any other entry without
// a dex). It returns the dexes with their Index, Name, FullName and
// Deployer; the first perp dex is always there, as Index 0. Entries
// without a name are left out (they have no keys); a name that is not a
// dex name (1 to 32 ASCII letters, digits, '-' or '_'), or that appears
// twice, is an error.
func decodePerpDexs(body []byte) ([]PerpDex, error) {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '[' {
		return nil, fmt.Errorf("perpDexs: want a JSON array, got %s", jsonKind(b))
	}
	var wire []*struct {
		Name     string                `json:"name"`
		Deployer json.RawMessage       `json:"deployer"`
		FullName jsontext.Soft[string] `json:"fullName"` // secondary

	}
	if err := json.Unmarshal(b, &wire); err != nil {
		return nil, fmt.Errorf("perpDexs: %v", err)
	}
	dexes := []PerpDex{{Index: 0}}
	seen := map[string]bool{"": true}
	for i, w := range wire {
		if i == 0 || w == nil || w.Name == "" {
			continue
		}
		if err := checkDex(w.Name); err != nil || seen[w.Name] {
			return nil, fmt.Errorf("perpDexs: entry %d: the name %s is not a dex name, or appears twice", i, transport.Quote(w.Name))
		}
		seen[w.Name] = true
		d := PerpDex{Index: i, Name: w.Name, FullName: w.FullName.V}
		(*jsontext.Unread)(&d.Unread).Check("fullName", w.FullName.Err)
		if err := decodeAddress(w.Deployer, &d.Deployer); err != nil {
			return nil, fmt.Errorf("perpDexs: entry %d: deployer: %v", i, err)
		}
		dexes = append(dexes, d)
	}
	return dexes, nil
}
