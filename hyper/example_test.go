package hyper_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
)

// localHyperliquid starts, for these examples, a local provider's node
// (userVaultEquities at /{key}/info) and public API (allMids at /info) with
// the recorded data of package hypertest. Real use passes the provider's
// base URL and key to New and leaves the public API at its default.
func localHyperliquid() *hypertest.Server {
	srv, err := hypertest.New(hypertest.WithKey("YOUR-ACCESS-KEY"))
	if err != nil {
		log.Fatal(err)
	}
	return srv
}

// The vaults a user has deposited into, with exact equities.
func ExampleClient_UserVaultEquities() {
	srv := localHyperliquid()
	defer srv.Close()

	c, err := hyper.New(srv.URL, "YOUR-ACCESS-KEY", hyper.WithPublicURL(srv.Public.URL))
	if err != nil {
		log.Fatal(err)
	}
	user := common.HexToAddress("0x2b804617c6f63c040377e95bb276811747006f4b")
	vaults, err := c.UserVaultEquities(context.Background(), user)
	if err != nil {
		log.Fatal(err)
	}
	now := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	for _, v := range vaults {
		fmt.Printf("%s %s USD, locked until %s: %v\n", v.VaultAddress.Hex(), v.Equity, v.LockedUntil.Format(time.RFC3339), now.Before(v.LockedUntil))
	}
	// Output:
	// 0x07Fd993f0fA3A185F7207ADcCD29f7A87404689D 688536.0314879999 USD, locked until 2025-01-24T05:48:51Z: false
	// 0x7F6CE756BDEe0db22A8FbDA15aA48023AAE5a8bE 100.003834 USD, locked until 2025-06-13T23:27:19Z: true
}

// Mid prices from the public API: look a symbol up, count the key forms, and
// walk the first perps in key order without the spot index keys.
func ExampleClient_AllMids() {
	srv := localHyperliquid()
	defer srv.Close()
	// Without WithPublicURL the client asks https://api.hyperliquid.xyz.
	c, err := hyper.New(srv.URL, "YOUR-ACCESS-KEY", hyper.WithPublicURL(srv.Public.URL))
	if err != nil {
		log.Fatal(err)
	}

	mids, err := c.AllMids(context.Background(), "")
	if err != nil {
		log.Fatal(err)
	}
	btcMid, _ := mids.Get("BTC")
	btc := btcMid.Price
	fmt.Println("BTC:", btc)
	kinds := map[hyper.KeyKind]int{}
	for _, m := range mids.All() {
		kinds[m.Kind]++
	}
	fmt.Printf("%d keys: %d perps, %d spot pair, %d spot index keys, %d outcome sides\n", mids.Len(),
		kinds[hyper.KeyPerp], kinds[hyper.KeySpotPair], kinds[hyper.KeySpotIndex], kinds[hyper.KeyOutcome])
	n := 0
	for _, m := range mids.All() {
		if m.Kind != hyper.KeyPerp {
			continue
		}
		if n++; n > 3 {
			break
		}
		fmt.Println(m.Key, m.Price)
	}
	if m, ok := mids.Get("@107"); ok {
		fmt.Println(m.Key, m.Kind, m.Index, m.Price)
	}
	// HIP-4 outcome sides: "#21" is outcome 2, side 1 (Markets.Market names it).
	if m, ok := mids.Get("#21"); ok {
		fmt.Println(m.Key, m.Kind, m.Index/10, m.Index%10, m.Price)
	}
	// Output:
	// BTC: 89926.5
	// 426 keys: 223 perps, 1 spot pair, 198 spot index keys, 4 outcome sides
	// 0G 0.898545
	// 2Z 0.12065
	// AAVE 197.01
	// @107 spot index 107 28.718
	// #21 outcome 2 1 0.4875
}

// Mid prices of a builder-deployed perp dex.
func ExampleClient_AllMids_builderDex() {
	srv := localHyperliquid()
	defer srv.Close()
	c, err := hyper.New(srv.URL, "YOUR-ACCESS-KEY", hyper.WithPublicURL(srv.Public.URL))
	if err != nil {
		log.Fatal(err)
	}

	mids, err := c.AllMids(context.Background(), "xyz")
	if err != nil {
		log.Fatal(err)
	}
	for key, m := range mids.All() {
		fmt.Println(key, m.Kind, m.Dex, m.Coin, m.Price)
	}

	_, err = c.AllMids(context.Background(), "nope")
	fmt.Println(errors.Is(err, nodeaccess.ErrNotFound))
	// Output:
	// xyz:CL builder dex xyz CL 60.123
	// xyz:GOLD builder dex xyz GOLD 4210.25
	// true
}

// Any /info request on the node: here userVaultEquities through the generic
// call, decoded into a type of the caller's own (the typed call,
// UserVaultEquities, reads the same request into exact decimals).
func ExampleClient_Info() {
	srv := localHyperliquid()
	defer srv.Close()
	c, err := hyper.New(srv.URL, "YOUR-ACCESS-KEY", hyper.WithPublicURL(srv.Public.URL))
	if err != nil {
		log.Fatal(err)
	}

	req := struct {
		Type string `json:"type"`
		User string `json:"user"`
	}{"userVaultEquities", "0x2b804617c6f63c040377e95bb276811747006f4b"}
	var vaults []struct {
		VaultAddress string `json:"vaultAddress"`
		Equity       string `json:"equity"`
	}
	if err := c.Info(context.Background(), &vaults, req); err != nil {
		log.Fatal(err)
	}
	for _, v := range vaults {
		fmt.Println(v.VaultAddress, v.Equity)
	}
	// A type the node does not serve is Hyperliquid's 422.
	err = c.Info(context.Background(), nil, map[string]string{"type": "allMids"})
	fmt.Println(errors.Is(err, hyper.ErrUnsupportedRequest))
	// Output:
	// 0x07fd993f0fa3a185f7207adccd29f7a87404689d 688536.0314879999
	// 0x7f6ce756bdee0db22a8fbda15aa48023aae5a8be 100.003834
	// true
}

// What each key of allMids names: the client fetches the market metadata
// once and keeps it; a key it does not cover is no error.
func ExampleClient_Markets() {
	srv := localHyperliquid()
	defer srv.Close()
	c, err := hyper.New(srv.URL, "YOUR-ACCESS-KEY", hyper.WithPublicURL(srv.Public.URL))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	markets, err := c.Markets(ctx)
	if err != nil {
		log.Fatal(err)
	}
	mids, err := c.AllMids(ctx, "")
	if err != nil {
		log.Fatal(err)
	}
	for _, key := range []string{"BTC", "@107", "PURR/USDC", "#20", "#21", "@258"} {
		m, ok := markets.Market(key)
		if !ok { // such as a pair listed after the metadata was fetched
			fmt.Printf("%-9s not in the metadata\n", key)
			continue
		}
		priceMid, _ := mids.Get(key)
		price := priceMid.Price
		switch {
		case m.Kind == hyper.KeyOutcome:
			fmt.Printf("%-9s %s: %q, side %d %q\n", key, price, m.Name, m.Side, m.SideName)
		default:
			fmt.Printf("%-9s %s: %s, asset %d, %d size decimals\n", key, price, m.Name, m.Asset, m.SzDecimals)
		}
	}
	// By the tokens' names: the key to look the price up by.
	hype, _ := markets.Market("HYPE/USDC")
	fmt.Println("HYPE/USDC is", hype.Key)
	// Output:
	// BTC       89926.5: BTC, asset 0, 5 size decimals
	// @107      28.718: HYPE/USDC, asset 10107, 2 size decimals
	// PURR/USDC 0.0664375: PURR/USDC, asset 10000, 0 size decimals
	// #20       0.5125: "Who will win the HL 100 meter dash?", side 0 "Hypurr"
	// #21       0.4875: "Who will win the HL 100 meter dash?", side 1 "Usain Bolt"
	// @258      not in the metadata
	// HYPE/USDC is @107
}

// Any /info request on the public API, which never receives the key and
// charges each request its published weight to the public budget: here
// allMids of a builder dex, as a plain map.
func ExampleClient_PublicInfo() {
	srv := localHyperliquid()
	defer srv.Close()
	c, err := hyper.New(srv.URL, "YOUR-ACCESS-KEY", hyper.WithPublicURL(srv.Public.URL))
	if err != nil {
		log.Fatal(err)
	}

	var mids map[string]string
	err = c.PublicInfo(context.Background(), &mids, map[string]string{"type": "allMids", "dex": "xyz"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(mids)
	// The key in a request to the public API is refused before sending.
	err = c.PublicInfo(context.Background(), nil, map[string]string{"type": "userRole", "user": "YOUR-ACCESS-KEY"})
	fmt.Println(err)
	// Output:
	// map[xyz:CL:60.123 xyz:GOLD:4210.25]
	// hyper: userRole: invalid input: req: the request holds the access key; the public API takes no key
}

// The client's two endpoints; the key never shows.
func ExampleNew() {
	c, err := hyper.New("https://hyperliquid.node.example", "YOUR-ACCESS-KEY", hyper.WithPublicURL(hyper.TestnetAPIURL),
		nodeaccess.WithMaxAttempts(5))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c)
	// Output:
	// hyper.Client{node https://hyperliquid.node.example/REDACTED/info, public https://api.hyperliquid-testnet.xyz/info}
}

// The node's whole endpoint URL as providers show it: the key alone, or
// either endpoint below it, gives the same client. Any other path is
// refused without a guess at the key.
func ExampleNewFromURL() {
	for _, endpoint := range []string{
		"https://hyperliquid.node.example/YOUR-ACCESS-KEY",
		"https://hyperliquid.node.example/YOUR-ACCESS-KEY/info",
		"https://hyperliquid.node.example/YOUR-ACCESS-KEY/evm",
	} {
		c, err := hyper.NewFromURL(endpoint)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(c)
	}
	_, err := hyper.NewFromURL("https://hyperliquid.node.example/YOUR-ACCESS-KEY/rpc")
	fmt.Println(err)
	// Output:
	// hyper.Client{node https://hyperliquid.node.example/REDACTED/info, public https://api.hyperliquid.xyz/info}
	// hyper.Client{node https://hyperliquid.node.example/REDACTED/info, public https://api.hyperliquid.xyz/info}
	// hyper.Client{node https://hyperliquid.node.example/REDACTED/info, public https://api.hyperliquid.xyz/info}
	// hyper: invalid input: endpoint: the endpoint URL's path is not a form hyper.NewFromURL takes (https://host/<KEY>, https://host/<KEY>/info, https://host/<KEY>/evm, with no other path segment); for a base URL with a path of its own, use hyper.New(baseURL, key)
}

// A request type the node does not serve, or a body it cannot read: HTTP
// 422 "Failed to deserialize the JSON body into the target type". Here the
// local node is told to answer the next request that way.
func ExampleErrUnsupportedRequest() {
	srv := localHyperliquid()
	defer srv.Close()
	c, err := hyper.New(srv.URL, "YOUR-ACCESS-KEY", hyper.WithPublicURL(srv.Public.URL))
	if err != nil {
		log.Fatal(err)
	}

	srv.FailNext(1, nodeaccesstest.ServerError(http.StatusUnprocessableEntity))
	_, err = c.UserVaultEquities(context.Background(), hypertest.DefaultUser())
	fmt.Println(errors.Is(err, hyper.ErrUnsupportedRequest))
	var he *nodeaccess.HTTPError
	fmt.Println(errors.As(err, &he), he.StatusCode, string(he.Body))
	// Output:
	// true
	// true 422 Failed to deserialize the JSON body into the target type
}
