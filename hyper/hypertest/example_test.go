package hypertest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
)

// The default data: the recorded vaults of DefaultUser and the recorded
// mids, through the hyper client.
func Example() {
	srv, err := hypertest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	vaults, err := c.UserVaultEquities(ctx, hypertest.DefaultUser())
	if err != nil {
		log.Fatal(err)
	}
	for _, v := range vaults {
		fmt.Println(v.VaultAddress.Hex(), v.Equity, v.LockedUntil.Format(time.RFC3339Nano))
	}
	mids, err := c.AllMids(ctx, "")
	if err != nil {
		log.Fatal(err)
	}
	btcMid, _ := mids.Get("BTC")
	btc := btcMid.Price
	fmt.Println(mids.Len(), "mids, BTC", btc)
	// Output:
	// 0x07Fd993f0fA3A185F7207ADcCD29f7A87404689D 688536.0314879999 2025-01-24T05:48:51.869Z
	// 0x7F6CE756BDEe0db22A8FbDA15aA48023AAE5a8bE 100.003834 2025-06-13T23:27:19.3Z
	// 426 mids, BTC 89926.5
}

// The answer to a request the SDK has no typed call for, sent with the
// generic call: here perp metadata, as a test of code that reads it would
// set it (the body is written for the example, not recorded).
func ExampleServer_SetInfo() {
	srv, err := hypertest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	err = srv.SetInfo(map[string]string{"type": "meta"},
		[]byte(`{"universe":[{"name":"BTC","szDecimals":5,"maxLeverage":40},{"name":"ETH","szDecimals":4,"maxLeverage":25}]}`))
	if err != nil {
		log.Fatal(err)
	}
	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}

	var meta struct {
		Universe []struct {
			Name        string
			SzDecimals  int
			MaxLeverage int
		}
	}
	if err := c.PublicInfo(context.Background(), &meta, map[string]string{"type": "meta"}); err != nil {
		log.Fatal(err)
	}
	for _, a := range meta.Universe {
		fmt.Println(a.Name, a.SzDecimals, a.MaxLeverage)
	}
	// A request nothing was set for: Hyperliquid's 422.
	err = c.PublicInfo(context.Background(), &meta, map[string]string{"type": "l2Book", "coin": "BTC"})
	fmt.Println(errors.Is(err, hyper.ErrUnsupportedRequest))
	// Output:
	// BTC 5 40
	// ETH 4 25
	// true
}

// Vaults of your own test user, with every digit kept.
func ExampleServer_SetVaultEquities() {
	srv, err := hypertest.New(hypertest.WithoutDefaults())
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	user := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	err = srv.SetVaultEquities(user, []hyper.VaultEquity{{
		VaultAddress: common.HexToAddress("0xdfc24b077bc1425ad1dea75bcb6f8158e10df303"),
		Equity:       decimal.RequireFromString("1250.50"),
		LockedUntil:  time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC),
	}})
	if err != nil {
		log.Fatal(err)
	}

	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	vaults, err := c.UserVaultEquities(context.Background(), user)
	if err != nil {
		log.Fatal(err)
	}
	v := vaults[0]
	fmt.Println(v.Equity.StringFixed(-v.Equity.Exponent()), v.LockedUntil, time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC).Before(v.LockedUntil))
	// Output:
	// 1250.50 2030-01-01 00:00:00 +0000 UTC true
}

// Mids of a builder dex of your own, and a dex the public API does not
// know.
func ExampleServer_SetMids() {
	srv, err := hypertest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.SetMids("flx", map[string]string{"flx:TSLA": "251.40", "flx:NVDA": "180.2"}); err != nil {
		log.Fatal(err)
	}

	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	mids, err := c.AllMids(context.Background(), "flx")
	if err != nil {
		log.Fatal(err)
	}
	for key, m := range mids.All() {
		fmt.Println(key, m.Kind, m.Coin, m.Price.StringFixed(-m.Price.Exponent()))
	}
	_, err = c.AllMids(context.Background(), "nope")
	fmt.Println(errors.Is(err, nodeaccess.ErrNotFound))
	// Output:
	// flx:NVDA builder dex NVDA 180.2
	// flx:TSLA builder dex TSLA 251.40
	// true
}

// Faults: the node answers 500 null twice (Hyperliquid's transient
// failure), and the client's third attempt succeeds; the public API is
// rate limited once.
func Example_faults() {
	srv, err := hypertest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client(nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
		fmt.Println("attempt", a.Number, a.Op, a.StatusCode)
	}), nodeaccess.WithBackoff(time.Millisecond, time.Millisecond))
	if err != nil {
		log.Fatal(err)
	}

	srv.FailNext(2, nodeaccesstest.ServerError(500))
	vaults, err := c.UserVaultEquities(context.Background(), hypertest.DefaultUser())
	fmt.Println(len(vaults), err)

	srv.Public.FailNext(1, nodeaccesstest.RateLimited(0))
	mids, err := c.AllMids(context.Background(), "")
	fmt.Println(mids.Len(), err)
	// Output:
	// attempt 1 userVaultEquities 500
	// attempt 2 userVaultEquities 500
	// attempt 3 userVaultEquities 200
	// 2 <nil>
	// attempt 1 allMids 429
	// attempt 2 allMids 200
	// 426 <nil>
}

// A position of the test's own for a HyperCore read: the precompile's
// answer written with go-ethereum's ABI encoder, read back by hyper's Core
// scaled by the perp's size decimals.
func ExampleServer_SetPrecompile() {
	srv, err := hypertest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	user := hypertest.DefaultUser()

	// Position precompile 0x…0813, input (address user, uint32 perp):
	// perp 0 (BTC, 5 size decimals) short 0.25, entry notional 22,481.625 USD,
	// 10x cross.
	typ, err := abi.NewType("tuple", "", []abi.ArgumentMarshaling{
		{Name: "szi", Type: "int64"}, {Name: "entryNtl", Type: "uint64"}, {Name: "isolatedRawUsd", Type: "int64"},
		{Name: "leverage", Type: "uint32"}, {Name: "isIsolated", Type: "bool"},
	})
	if err != nil {
		log.Fatal(err)
	}
	answer, err := abi.Arguments{{Type: typ}}.Pack(struct {
		Szi            int64
		EntryNtl       uint64
		IsolatedRawUsd int64
		Leverage       uint32
		IsIsolated     bool
	}{-25000, 22481625000, 0, 10, false})
	if err != nil {
		log.Fatal(err)
	}
	input := append(common.LeftPadBytes(user.Bytes(), 32), make([]byte, 32)...)
	if err := srv.SetPrecompile(common.HexToAddress("0x0000000000000000000000000000000000000813"), input, answer); err != nil {
		log.Fatal(err)
	}

	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	markets, err := c.Markets(ctx)
	if err != nil {
		log.Fatal(err)
	}
	btc, _ := markets.Market("BTC")
	var b evm.Batch
	pos := hypercore.Reads(&b).Position(user, btc)
	hev, err := hypercore.New(srv.URL, srv.Key())
	if err != nil {
		log.Fatal(err)
	}
	if err := hev.SendBatch(ctx, &b); err != nil {
		log.Fatal(err)
	}
	p, err := pos.Result()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Size, p.EntryNotional, p.Leverage, p.Isolated)
	// Output:
	// -0.25 22481.625 10 false
}
