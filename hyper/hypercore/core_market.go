package hypercore

import (
	"fmt"
	"math"
	"strings"

	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/internal/assets"
	"github.com/nodeaccess/nodeaccess/internal/transport"

	"github.com/shopspring/decimal"
)

// The reads of markets, prices and metadata (see Core), and what the reads
// share.

// The read precompiles' addresses (hyper-evm-lib's HLConstants.sol).
const (
	pcSpotBalance      = 0x801
	pcVaultEquity      = 0x802
	pcWithdrawable     = 0x803
	pcDelegations      = 0x804
	pcDelegatorSummary = 0x805
	pcMarkPx           = 0x806
	pcOraclePx         = 0x807
	pcSpotPx           = 0x808
	pcL1BlockNumber    = 0x809
	pcPerpAssetInfo    = 0x80a
	pcSpotInfo         = 0x80b
	pcTokenInfo        = 0x80c
	pcBBO              = 0x80e
	pcMarginSummary    = 0x80f
	pcPosition2        = 0x813 // position, with a uint32 perp index (0x800 takes a uint16)
)

// The scales of the precompiles' integers: USD amounts in millionths
// (hyper-evm-lib: perp USD), HYPE staking amounts in 10^-8 (HYPE's
// weiDecimals), perp prices with 6 - szDecimals decimals, spot prices with
// 8 - the base token's szDecimals. And the bounds of the answers that the
// gas limits are made for.
const (
	usdDecimals      = 6
	hypeWeiDecimals  = 8
	perpPxDecimals   = 6
	spotPxDecimals   = 8
	maxDelegations   = 256 // for the gas limit of Delegations
	maxTokenSpots    = 128 // for the gas limit of TokenInfo
	maxNameBytes     = 64  // for the gas limit of the reads that return a name
	userWhat         = "user %s"
	zeroUserReason   = "the zero address is not a user (is the address unset?)"
	outcomeBBOReason = "an outcome side: its prices have no documented scale"
)

// Price reads the price of market: a perp's mark price (the precompile
// 0x…0806; a Market of kind KeyPerp or KeyBuilderDex), scaled by
// 10^(6 - SzDecimals), or a spot pair's price in its quote token (0x…0808;
// KeySpotIndex or KeySpotPair), scaled by 10^(8 - SzDecimals), the base
// token's size decimals.
func (k Core) Price(market hyper.Market) *Read[decimal.Decimal] {
	switch market.Kind {
	case hyper.KeyPerp, hyper.KeyBuilderDex:
		return perpPx(k, "markPx", pcMarkPx, market)
	case hyper.KeySpotIndex, hyper.KeySpotPair:
	default:
		return refused[decimal.Decimal](k, "price", "market", fmt.Sprintf("market %s is of kind %s: want a perp or a spot pair", transport.Quote(market.Key), market.Kind))
	}
	const op = "spotPx"
	idx, why := spotArg(market)
	if why != "" {
		return refused[decimal.Decimal](k, op, "market", why)
	}
	return pxRead(k, op, fmt.Sprintf("spot pair %s (%d)", transport.Quote(market.Key), idx), pcSpotPx, wordUint(nil, idx), spotPxDecimals-market.SzDecimals)
}

// OraclePx reads the oracle price of perp, scaled as Price scales its mark
// price.
func (k Core) OraclePx(perp hyper.Market) *Read[decimal.Decimal] {
	return perpPx(k, "oraclePx", pcOraclePx, perp)
}

// L1BlockNumber reads the number of HyperCore's (the L1's) latest block.
func (k Core) L1BlockNumber() *Read[uint64] {
	return addRead(k, "l1BlockNumber", "the L1", pcL1BlockNumber, nil, 32, func(b []byte) (uint64, error) {
		a, err := answerWords(b, 1)
		if err != nil {
			return 0, err
		}
		return a.uint(0, 64)
	})
}

// AssetInfo reads the metadata of the market of asset id asset, as
// Hyperliquid's docs number assets (Market.Asset): a perp of the first dex
// is its index, a spot pair 10000 + its index, a builder-dex perp 100000 +
// 10000 × its dex's index + its index. A perp is read through 0x…080a
// (its Name, which is the allMids key, SzDecimals and Perp's MaxLeverage,
// MarginTableID and OnlyIsolated), a spot pair through 0x…080b (its Key
// and Name are the pair's name in the spot metadata, "@107" or
// "PURR/USDC", and Base and Quote have only their Index: TokenInfo reads
// the rest). A spot pair's SzDecimals, its base token's, is not in the
// answer: it is -1 until the caller sets it from TokenInfo, as Price and
// BBO need it. Dex is empty: the answer names a builder dex by index.
func (k Core) AssetInfo(asset int) *Read[hyper.Market] {
	switch {
	case asset >= 0 && asset < assets.Spot:
		return readPerpInfo(k, asset, asset)
	case asset >= assets.Spot && asset < assets.Builder:
		return readSpotInfo(k, asset)
	case asset >= assets.Builder && asset < assets.Outcome:
		return readPerpInfo(k, asset, asset-assets.Builder)
	}
	return refused[hyper.Market](k, "assetInfo", "asset", fmt.Sprintf("asset id %d is not a perp or a spot pair", asset))
}

// readPerpInfo reads the perp of precompile index perp (10000 × the dex's
// index + the perp's index in its dex).
func readPerpInfo(k Core, asset, perp int) *Read[hyper.Market] {
	const op = "perpAssetInfo"
	return addRead(k, op, fmt.Sprintf("perp %d", perp), pcPerpAssetInfo, wordUint(nil, uint64(perp)), 5*32+32+maxNameBytes,
		func(b []byte) (hyper.Market, error) {
			a, err := dynamic(b)
			if err != nil {
				return hyper.Market{}, err
			}
			p := hyper.Perp{Index: perp % assets.DexStride}
			var (
				table, sz, lev uint64
				errs           [5]error
			)
			p.Name, errs[0] = a.string(0)
			table, errs[1] = a.uint(1, 32)
			sz, errs[2] = a.uint(2, 8)
			lev, errs[3] = a.uint(3, 8)
			p.OnlyIsolated, errs[4] = a.bool(4)
			if err := firstErr(errs[:]); err != nil {
				return hyper.Market{}, err
			}
			p.MarginTableID, p.SzDecimals, p.MaxLeverage = int(table), int(sz), int(lev)
			m := hyper.Market{Key: p.Name, Kind: hyper.KeyPerp, Name: p.Name, Index: p.Index, Asset: asset, DexIndex: perp / assets.DexStride, SzDecimals: p.SzDecimals, Perp: p}
			if m.DexIndex > 0 {
				m.Kind = hyper.KeyBuilderDex
			}
			return m, nil
		})
}

// readSpotInfo reads the spot pair of asset id asset.
func readSpotInfo(k Core, asset int) *Read[hyper.Market] {
	const op = "spotInfo"
	spot := asset - assets.Spot
	return addRead(k, op, fmt.Sprintf("spot pair %d", spot), pcSpotInfo, wordUint(nil, uint64(spot)), 3*32+32+maxNameBytes,
		func(b []byte) (hyper.Market, error) {
			a, err := dynamic(b)
			if err != nil {
				return hyper.Market{}, err
			}
			p := hyper.SpotPair{Index: spot}
			var (
				base, quote uint64
				errs        [3]error
			)
			p.Name, errs[0] = a.string(0)
			base, errs[1] = a.uint(1, 32)
			quote, errs[2] = a.uint(2, 32)
			if err := firstErr(errs[:]); err != nil {
				return hyper.Market{}, err
			}
			p.Base, p.Quote = int(base), int(quote)
			m := hyper.Market{Key: p.Name, Kind: hyper.KeySpotIndex, Name: p.Name, Index: spot, Asset: asset, SzDecimals: -1, Spot: p,
				Base: hyper.Token{Index: p.Base}, Quote: hyper.Token{Index: p.Quote}}
			if strings.Contains(p.Name, "/") {
				m.Kind = hyper.KeySpotPair
			}
			return m, nil
		})
}

// TokenInfo reads the token of index token: its Name, Spots (the pairs it
// is the base of), Deployer, EVMContract, SzDecimals, WeiDecimals and
// EVMExtraWeiDecimals.
func (k Core) TokenInfo(token int) *Read[hyper.Token] {
	const op = "tokenInfo"
	if token < 0 || int64(token) > math.MaxUint32 {
		return refused[hyper.Token](k, op, "token", fmt.Sprintf("token index %d is out of range", token))
	}
	return addRead(k, op, fmt.Sprintf("token %d", token), pcTokenInfo, wordUint(nil, uint64(token)), 8*32+32+maxNameBytes+32+32*maxTokenSpots,
		func(b []byte) (hyper.Token, error) {
			a, err := dynamic(b)
			if err != nil {
				return hyper.Token{}, err
			}
			t := hyper.Token{Index: token}
			var (
				sz, wei uint64
				extra   int64
				errs    [8]error
			)
			t.Name, errs[0] = a.string(0)
			t.Spots, errs[1] = a.uints(1)
			_, errs[2] = a.uint(2, 64) // deployerTradingFeeShare: no documented scale
			t.Deployer, errs[3] = a.address(3)
			t.EVMContract, errs[4] = a.address(4)
			sz, errs[5] = a.uint(5, 8)
			wei, errs[6] = a.uint(6, 8)
			extra, errs[7] = a.int(7, 8)
			if err := firstErr(errs[:]); err != nil {
				return hyper.Token{}, err
			}
			t.SzDecimals, t.WeiDecimals, t.EVMExtraWeiDecimals = int(sz), int(wei), int(extra)
			return t, nil
		})
}

// BBO reads the best bid and offer of market (a perp or a spot pair),
// whose Asset the precompile takes (10000 + the index for a spot pair),
// scaled as the market's Price. Hyperliquid documents the asset id of builder-dex perps for
// orders (100000 + 10000 × dex + index); that the precompile takes it too
// is not documented.
func (k Core) BBO(market hyper.Market) *Read[BBO] {
	const op = "bbo"
	var (
		why string
		dec int
	)
	switch market.Kind {
	case hyper.KeyPerp, hyper.KeyBuilderDex:
		_, why = perpArg(market)
		dec = perpPxDecimals - market.SzDecimals
	case hyper.KeySpotIndex, hyper.KeySpotPair:
		_, why = spotArg(market)
		dec = spotPxDecimals - market.SzDecimals
	case hyper.KeyOutcome:
		why = outcomeBBOReason
	default:
		why = fmt.Sprintf("a market of kind %s: want a perp or a spot pair", market.Kind)
	}
	if why == "" && (market.Asset < 0 || int64(market.Asset) > math.MaxUint32) {
		why = fmt.Sprintf("asset id %d is out of range", market.Asset)
	}
	if why != "" {
		return refused[BBO](k, op, "market", why)
	}
	return addRead(k, op, fmt.Sprintf("market %s (asset %d)", transport.Quote(market.Key), market.Asset), pcBBO, wordUint(nil, uint64(market.Asset)), 2*32,
		func(b []byte) (BBO, error) {
			a, err := answerWords(b, 2)
			if err != nil {
				return BBO{}, err
			}
			bid, err := a.uint(0, 64)
			if err != nil {
				return BBO{}, err
			}
			ask, err := a.uint(1, 64)
			if err != nil {
				return BBO{}, err
			}
			return BBO{Bid: scaled(bid, dec), Ask: scaled(ask, dec)}, nil
		})
}

// perpPx is the mark price of Price and OraclePx.
func perpPx(k Core, op string, pc uint16, perp hyper.Market) *Read[decimal.Decimal] {
	idx, why := perpArg(perp)
	if why != "" {
		return refused[decimal.Decimal](k, op, "perp", why)
	}
	return pxRead(k, op, fmt.Sprintf("perp %s (%d)", transport.Quote(perp.Key), idx), pc, wordUint(nil, idx), perpPxDecimals-perp.SzDecimals)
}

// pxRead reads one uint64 word, scaled by decimals, with the call data in.
func pxRead(k Core, op, what string, pc uint16, in []byte, decimals int) *Read[decimal.Decimal] {
	return addRead(k, op, what, pc, in, 32, func(b []byte) (decimal.Decimal, error) {
		a, err := answerWords(b, 1)
		if err != nil {
			return decimal.Decimal{}, err
		}
		v, err := a.uint(0, 64)
		if err != nil {
			return decimal.Decimal{}, err
		}
		return scaled(v, decimals), nil
	})
}

// perpArg is the precompile index of a perp Market (10000 × its dex's
// index + its index), or why the Market is not one.
func perpArg(m hyper.Market) (uint64, string) {
	switch {
	case m.Kind != hyper.KeyPerp && m.Kind != hyper.KeyBuilderDex:
		return 0, fmt.Sprintf("market %s is %s, not a perp", transport.Quote(m.Key), withArticle(m.Kind))
	case m.Index < 0 || m.Index >= assets.DexStride || m.DexIndex < 0 || m.SzDecimals < 0 || m.SzDecimals > assets.MaxDecimals:
		return 0, fmt.Sprintf("perp %s: index %d of dex %d with %d size decimals is not a perp", transport.Quote(m.Key), m.Index, m.DexIndex, m.SzDecimals)
	}
	idx := uint64(m.DexIndex)*assets.DexStride + uint64(m.Index)
	if idx > math.MaxUint32 {
		return 0, fmt.Sprintf("perp %s: dex index %d is out of range", transport.Quote(m.Key), m.DexIndex)
	}
	return idx, ""
}

// withArticle names kind with its indefinite article: "a perp", "an
// outcome", "an unknown key".
func withArticle(k hyper.KeyKind) string {
	s := k.String()
	if k == hyper.KeyUnknown {
		s += " key"
	}
	switch s[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + s
	}
	return "a " + s
}

// spotArg is the index of a spot pair Market, or why the Market is not one.
func spotArg(m hyper.Market) (uint64, string) {
	switch {
	case m.Kind != hyper.KeySpotIndex && m.Kind != hyper.KeySpotPair:
		return 0, fmt.Sprintf("market %s is %s, not a spot pair", transport.Quote(m.Key), withArticle(m.Kind))
	case m.Index < 0 || int64(m.Index) > math.MaxUint32 || m.SzDecimals < 0 || m.SzDecimals > assets.MaxDecimals:
		return 0, fmt.Sprintf("spot pair %s: index %d with %d size decimals is not a spot pair", transport.Quote(m.Key), m.Index, m.SzDecimals)
	}
	return uint64(m.Index), ""
}

func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
