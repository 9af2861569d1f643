// Command vaults is a vault dashboard for one Hyperliquid user: the equity
// of each vault the user has deposited into, with every decimal the server
// sent, whether the deposit is still locked up, and the exact total; the
// same equities read a second way, from HyperEVM's vault equity precompile
// (0x…0802) in one JSON-RPC batch, next to the first; and a few mid prices
// from the public API, each with the market its key names (Markets.Market:
// "@107" is the spot pair HYPE/USDC, "#21" side 1 of outcome 2 with the
// side's name from the metadata).
//
//	go run ./examples/vaults
//
// With no configuration it starts a local Hyperliquid in-process (package
// hyper/hypertest: a node and a public API on 127.0.0.1 serving recorded
// data) and says so in its first line; the user is then
// hypertest.DefaultUser(), whose two recorded vaults it shows. To ask a real
// node-access service instead, set:
//
//	NODEACCESS_HYPER_URL         the node's base URL (https://host), or the
//	                             whole endpoint https://host/<KEY> (or
//	                             https://host/<KEY>/info, https://host/<KEY>/evm;
//	                             hyper.NewFromURL refuses any other path)
//	NODEACCESS_HYPER_KEY         the access key (leave unset when the URL
//	                             carries it)
//	NODEACCESS_HYPER_PUBLIC_URL  the public API that serves allMids (default
//	                             https://api.hyperliquid.xyz; with no
//	                             NODEACCESS_HYPER_URL, the local one)
//	NODEACCESS_HYPER_USER        the user's address (default
//	                             0x2b804617c6f63c040377e95bb276811747006f4b)
//	NODEACCESS_HYPER_AT          the time at which lock-ups are judged, RFC 3339
//	                             (default: now), e.g. 2025-03-01T00:00:00Z
//	NODEACCESS_HYPER_COINS       the mid prices to show, comma-separated keys
//	                             of allMids or spot pair names (default
//	                             BTC,ETH,HYPE,@107,#21)
//
// For example:
//
//	NODEACCESS_HYPER_URL=https://host/<KEY> NODEACCESS_HYPER_USER=0x… go run ./examples/vaults
//
// The key is never printed: the first line shows the endpoints with the key
// masked.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		log.Fatal(err)
	}
}

// run is the program, with its output and environment passed in so that a
// test can run it.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	cfg, err := readConfig(getenv)
	if err != nil {
		return err
	}
	c, hev, intro, stop, err := connect(getenv)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Fprintln(out, intro)

	vaults, err := c.UserVaultEquities(ctx, cfg.user)
	if err != nil {
		return err
	}
	fmt.Fprintln(out)
	printVaults(out, cfg.user, cfg.at, vaults)

	if len(vaults) > 0 {
		// The same positions from HyperEVM: one eth_call per vault to the
		// vault equity precompile, all in one JSON-RPC batch, each read with
		// its own result or error.
		var b evm.Batch
		core := hypercore.Reads(&b)
		reads := make([]*hypercore.Read[hyper.VaultEquity], len(vaults))
		for i, v := range vaults {
			reads[i] = core.VaultEquity(cfg.user, v.VaultAddress)
		}
		if err := hev.SendBatch(ctx, &b); err != nil {
			return err
		}
		fmt.Fprintln(out)
		printPrecompileEquities(out, vaults, reads)
	}

	mids, err := c.AllMids(ctx, "")
	if err != nil {
		return err
	}
	markets, err := c.Markets(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintln(out)
	printMids(out, mids, markets, cfg.coins)
	return nil
}

// config is what the dashboard shows.
type config struct {
	user  common.Address
	at    time.Time
	coins []string
}

func readConfig(getenv func(string) string) (config, error) {
	cfg := config{user: hypertest.DefaultUser(), at: time.Now().UTC(), coins: []string{"BTC", "ETH", "HYPE", "@107", "#21"}}
	if s := getenv("NODEACCESS_HYPER_USER"); s != "" {
		u, err := evm.ParseAddress(s)
		if err != nil {
			return cfg, fmt.Errorf("NODEACCESS_HYPER_USER: %w", err)
		}
		cfg.user = u
	}
	if s := getenv("NODEACCESS_HYPER_AT"); s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return cfg, fmt.Errorf("NODEACCESS_HYPER_AT %q is not an RFC 3339 time such as 2025-03-01T00:00:00Z", s)
		}
		cfg.at = t.UTC()
	}
	if s := getenv("NODEACCESS_HYPER_COINS"); s != "" {
		cfg.coins = cfg.coins[:0]
		for _, coin := range strings.Split(s, ",") {
			if coin = strings.TrimSpace(coin); coin != "" {
				cfg.coins = append(cfg.coins, coin)
			}
		}
	}
	return cfg, nil
}

// localKey is the access key of the local server (never printed).
const localKey = "local-demo-key"

// connect returns a client for the configured endpoint, or for a local
// Hyperliquid started here (stop closes it), and the line that says which.
func connect(getenv func(string) string) (c *hyper.Client, hev *evm.Client, intro string, stop func(), err error) {
	stop = func() {}
	base, key, public := getenv("NODEACCESS_HYPER_URL"), getenv("NODEACCESS_HYPER_KEY"), getenv("NODEACCESS_HYPER_PUBLIC_URL")
	var opts []nodeaccess.Option
	if public != "" {
		opts = append(opts, hyper.WithPublicURL(public))
	}
	switch {
	case base == "" && key != "":
		return nil, nil, "", stop, errors.New("NODEACCESS_HYPER_KEY is set but NODEACCESS_HYPER_URL is not: set both, or neither to use a local server")
	case base == "":
		srv, err := hypertest.New(hypertest.WithKey(localKey))
		if err != nil {
			return nil, nil, "", stop, err
		}
		if c, err = srv.Client(opts...); err == nil {
			hev, err = hypercore.New(srv.URL, localKey)
		}
		if err != nil {
			srv.Close()
			return nil, nil, "", stop, err
		}
		intro = fmt.Sprintf("No NODEACCESS_HYPER_URL set: using a local Hyperliquid server at %s (key REDACTED), public API at %s.",
			srv.URL, srv.Public.URL)
		return c, hev, intro, srv.Close, nil
	case key != "":
		if c, err = hyper.New(base, key, opts...); err == nil {
			hev, err = hypercore.New(base, key)
		}
	default:
		if c, err = hyper.NewFromURL(base, opts...); err == nil {
			hev, err = hypercore.NewFromURL(base)
		}
	}
	if err != nil {
		return nil, nil, "", stop, err
	}
	return c, hev, fmt.Sprintf("Calling %s.", c), stop, nil
}
