package hypercore_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
)

// localHyperliquid starts a local Hyperliquid node, HyperEVM included,
// whose key is "YOUR-ACCESS-KEY".
func localHyperliquid() *hypertest.Server {
	srv, err := hypertest.New(hypertest.WithKey("YOUR-ACCESS-KEY"))
	if err != nil {
		log.Fatal(err)
	}
	return srv
}

// HyperEVM through the evm package, at {base}/{key}/evm: here a raw
// eth_call to the read precompile of the L1 block number, which the local
// node answers (Reads reads it typed).
func ExampleNew() {
	srv := localHyperliquid()
	defer srv.Close()
	c, err := hypercore.New(srv.URL, "YOUR-ACCESS-KEY")
	if err != nil {
		log.Fatal(err)
	}

	l1Block := common.HexToAddress("0x0000000000000000000000000000000000000809")
	out, err := c.Call(context.Background(), evm.CallMsg{To: l1Block, Gas: 100_000}, evm.Latest)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("L1 block:", new(big.Int).SetBytes(out))
	// Output:
	// L1 block: 800000000
}

// HyperCore's state read from HyperEVM: many reads in one JSON-RPC batch,
// each with its own value or error, prices scaled by the metadata's size
// decimals; and a vault equity read both ways.
func ExampleReads() {
	srv := localHyperliquid()
	defer srv.Close()
	c, err := hyper.New(srv.URL, "YOUR-ACCESS-KEY", hyper.WithPublicURL(srv.Public.URL))
	if err != nil {
		log.Fatal(err)
	}
	hyperEVM, err := hypercore.New(srv.URL, "YOUR-ACCESS-KEY")
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	markets, err := c.Markets(ctx)
	if err != nil {
		log.Fatal(err)
	}
	btc, _ := markets.Market("BTC")
	hype, _ := markets.Market("HYPE/USDC")
	user := common.HexToAddress("0x2b804617c6f63c040377e95bb276811747006f4b")
	vault := common.HexToAddress("0x07fd993f0fa3a185f7207adccd29f7a87404689d")

	var b evm.Batch
	core := hypercore.Reads(&b)
	mark := core.Price(btc)
	spot := core.Price(hype)
	token := core.TokenInfo(hype.Base.Index)
	equity := core.VaultEquity(user, vault)
	ghost := core.AssetInfo(9999) // no such perp: this read fails alone
	if err := hyperEVM.SendBatch(ctx, &b); err != nil {
		log.Fatal(err)
	}
	px, err := mark.Result()
	fmt.Println("BTC mark:", px, err)
	px, err = spot.Result()
	fmt.Println("HYPE/USDC:", px, err)
	t, err := token.Result()
	fmt.Println("token 150:", t.Name, t.WeiDecimals, t.Spots, err)
	_, err = ghost.Result()
	fmt.Println("perp 9999:", errors.Is(err, hypercore.ErrPrecompile))

	// The same vault equity from /info: the precompile's is in millionths
	// of a USD, the API's rounded to that.
	pre, err := equity.Result()
	if err != nil {
		log.Fatal(err)
	}
	api, err := c.UserVaultEquities(ctx, user)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("precompile:", pre.Equity, "API:", api[0].Equity, "equal at 6 decimals:", pre.Equity.Equal(api[0].Equity.Round(6)))
	// Output:
	// BTC mark: 89926.5 <nil>
	// HYPE/USDC: 28.718 <nil>
	// token 150: HYPE 8 [107 207] <nil>
	// perp 9999: true
	// precompile: 688536.031488 API: 688536.0314879999 equal at 6 decimals: true
}
