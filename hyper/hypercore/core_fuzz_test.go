package hypercore

import (
	"math/big"
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/nodeaccess/nodeaccess/hyper"
)

// Whatever the SDK's ABI decoders accept, go-ethereum's decoder reads to
// the same values: the SDK's is as strict or stricter, never looser, and
// never panics. Seeds: the hand-built vectors and the recorded testnet
// answer (testdata/SOURCES.md).
func FuzzCoreAnswers(f *testing.F) {
	for _, b := range handBuilt(f) {
		f.Add(b)
	}
	f.Add(common.FromHex("0x000000000000000000000000000000000000000000000000000000000006d364"))
	f.Add([]byte{})
	k, _ := testCore(f)
	user := common.HexToAddress("0x01")
	perp := hyper.Market{Key: "BTC", Kind: hyper.KeyPerp, SzDecimals: 5}
	f.Fuzz(func(t *testing.T, b []byte) {
		if p, err := k.Position(user, perp).decode(b); err == nil {
			g := mustGeth(t, "position", b)
			wantEq(t, "szi", decimal.New(field(g, "Szi").(int64), -5), p.Size)
			wantEq(t, "entryNtl", scaled(field(g, "EntryNtl").(uint64), 6), p.EntryNotional)
			wantEq(t, "isolatedRawUsd", decimal.New(field(g, "IsolatedRawUsd").(int64), -6), p.IsolatedRawUSD)
			if int(field(g, "Leverage").(uint32)) != p.Leverage || field(g, "IsIsolated").(bool) != p.Isolated {
				t.Fatalf("position %+v, go-ethereum %+v", p, g)
			}
		}
		if v, err := k.VaultEquity(user, user).decode(b); err == nil {
			g := mustGeth(t, "userVaultEquity", b)
			wantEq(t, "equity", scaled(field(g, "Equity").(uint64), 6), v.Equity)
			if ms := field(g, "LockedUntilTimestamp").(uint64); ms != uint64(max(v.LockedUntil.UnixMilli(), 0)) && !(ms == 0 && v.LockedUntil.IsZero()) {
				t.Fatalf("locked %v, go-ethereum %d", v.LockedUntil, ms)
			}
		}
		if ds, err := k.delegations(user).decode(b); err == nil {
			g := reflect.ValueOf(mustGeth(t, "delegations", b))
			if g.Len() != len(ds) {
				t.Fatalf("%d delegations, go-ethereum %d", len(ds), g.Len())
			}
			for i, d := range ds {
				e := g.Index(i).Interface()
				wantEq(t, "amount", scaled(field(e, "Amount").(uint64), 8), d.Amount)
				if field(e, "Validator").(common.Address) != d.Validator {
					t.Fatalf("validator %s, go-ethereum %v", d.Validator, e)
				}
			}
		}
		if m, err := k.AssetInfo(10003).decode(b); err == nil {
			sp := m.Spot
			g := mustGeth(t, "spotInfo", b)
			tokens := field(g, "Tokens").([2]uint64)
			if field(g, "Name").(string) != sp.Name || uint64(sp.Base) != tokens[0] || uint64(sp.Quote) != tokens[1] {
				t.Fatalf("spotInfo %+v, go-ethereum %+v", sp, g)
			}
		}
		if m, err := k.AssetInfo(3).decode(b); err == nil {
			p := m.Perp
			g := mustGeth(t, "perpAssetInfo", b)
			if field(g, "Coin").(string) != p.Name || int(field(g, "MarginTableId").(uint32)) != p.MarginTableID || int(field(g, "SzDecimals").(uint8)) != p.SzDecimals ||
				int(field(g, "MaxLeverage").(uint8)) != p.MaxLeverage || field(g, "OnlyIsolated").(bool) != p.OnlyIsolated {
				t.Fatalf("perpAssetInfo %+v, go-ethereum %+v", p, g)
			}
		}
		if tk, err := k.TokenInfo(3).decode(b); err == nil {
			g := mustGeth(t, "tokenInfo", b)
			spots := field(g, "Spots").([]uint64)
			if field(g, "Name").(string) != tk.Name || len(spots) != len(tk.Spots) || field(g, "EvmContract").(common.Address) != tk.EVMContract ||
				field(g, "Deployer").(common.Address) != tk.Deployer || int(field(g, "EvmExtraWeiDecimals").(int8)) != tk.EVMExtraWeiDecimals ||
				int(field(g, "WeiDecimals").(uint8)) != tk.WeiDecimals || int(field(g, "SzDecimals").(uint8)) != tk.SzDecimals {
				t.Fatalf("tokenInfo %+v, go-ethereum %+v", tk, g)
			}
			for i, s := range spots {
				if uint64(tk.Spots[i]) != s {
					t.Fatalf("spots %v, go-ethereum %v", tk.Spots, spots)
				}
			}
		}
		if s, err := k.delegatorSummary(user).decode(b); err == nil {
			g := mustGeth(t, "delegatorSummary", b)
			wantEq(t, "delegated", scaled(field(g, "Delegated").(uint64), 8), s.Delegated)
			if field(g, "NPendingWithdrawals").(uint64) != uint64(s.PendingWithdrawals) {
				t.Fatalf("summary %+v, go-ethereum %+v", s, g)
			}
		}
		if m, err := k.MarginSummary(0, user).decode(b); err == nil {
			g := mustGeth(t, "margin", b)
			wantEq(t, "accountValue", decimal.New(field(g, "AccountValue").(int64), -6), m.AccountValue)
			wantEq(t, "rawUsd", decimal.New(field(g, "RawUsd").(int64), -6), m.RawUSD)
		}
		if px, err := k.Price(perp).decode(b); err == nil {
			g := mustGeth(t, "uint64", b)
			if px.Cmp(decimal.NewFromBigInt(new(big.Int).SetUint64(g.(uint64)), -1)) != 0 {
				t.Fatalf("markPx %s, go-ethereum %d", px, g)
			}
		}
	})
}

func mustGeth(t *testing.T, typ string, b []byte) any {
	t.Helper()
	g, err := gethUnpack(t, typ, b)
	if err != nil {
		t.Fatalf("the SDK read an answer go-ethereum refuses as %s: %v (%x)", typ, err, b)
	}
	return g
}

func wantEq(t *testing.T, what string, want, got decimal.Decimal) {
	t.Helper()
	if !want.Equal(got) {
		t.Fatalf("%s: %s, go-ethereum %s", what, got, want)
	}
}
