package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
)

// hyperClient returns the client for NODEACCESS_HYPER_URL, or one on a local
// hypertest server when it is unset, with the user to ask about.
func hyperClient(getenv func(string) string) (c *hyper.Client, where string, user common.Address, stop func(), err error) {
	url, key := getenv("NODEACCESS_HYPER_URL"), getenv("NODEACCESS_HYPER_KEY")
	if url == "" {
		srv, err := hypertest.New()
		if err != nil {
			return nil, "", user, nil, fmt.Errorf("starting the local Hyperliquid server: %w", err)
		}
		if c, err = srv.Client(); err != nil {
			srv.Close()
			return nil, "", user, nil, err
		}
		return c, "local hypertest: node " + srv.URL + ", public API " + srv.Public.URL, hypertest.DefaultUser(), srv.Close, nil
	}
	var opts []nodeaccess.Option
	if p := getenv("NODEACCESS_HYPER_PUBLIC_URL"); p != "" {
		opts = append(opts, hyper.WithPublicURL(p))
	}
	if key != "" {
		c, err = hyper.New(url, key, opts...)
	} else {
		c, err = hyper.NewFromURL(url, opts...)
	}
	if err != nil {
		return nil, "", user, nil, err
	}
	s := getenv("NODEACCESS_HYPER_USER")
	if s == "" {
		s = hypertest.DefaultUser().Hex()
	}
	if user, err = evm.ParseAddress(s); err != nil {
		return nil, "", user, nil, fmt.Errorf("NODEACCESS_HYPER_USER: %w", err)
	}
	return c, c.String(), user, func() {}, nil
}

// runHyper asks for a user's vault equities on the node and the mid prices
// on the public API.
func runHyper(ctx context.Context, out io.Writer, getenv func(string) string) error {
	c, where, user, stop, err := hyperClient(getenv)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Fprintf(out, "\n== Hyperliquid (%s)\n", where)

	vaults, err := c.UserVaultEquities(ctx, user)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "userVaultEquities %s: %s\n", user.Hex(), count(len(vaults), "vault"))
	for _, v := range vaults {
		lock := "no lock-up"
		switch {
		case time.Now().Before(v.LockedUntil):
			lock = "locked until " + v.LockedUntil.Format("2006-01-02 15:04:05.000 MST")
		case !v.LockedUntil.IsZero():
			lock = "lock-up ended " + v.LockedUntil.Format("2006-01-02 15:04:05.000 MST")
		}
		fmt.Fprintf(out, "  %s  %s USD  (%s)\n", v.VaultAddress.Hex(), v.Equity, lock)
	}

	mids, err := c.AllMids(ctx, "")
	if err != nil {
		return err
	}
	kinds := map[hyper.KeyKind]int{}
	for _, m := range mids.All() {
		kinds[m.Kind]++
	}
	fmt.Fprintf(out, "allMids: %s (%s, %s by name, %s by index, %s)\n",
		count(mids.Len(), "mid"), count(kinds[hyper.KeyPerp], "perp"), count(kinds[hyper.KeySpotPair], "spot pair"), count(kinds[hyper.KeySpotIndex], "spot pair"),
		count(kinds[hyper.KeyOutcome], "outcome side"))
	for _, coin := range []string{"BTC", "ETH", "HYPE"} {
		if m, ok := mids.Get(coin); ok {
			fmt.Fprintf(out, "  %-5s %s\n", coin, m.Price)
		}
	}
	return nil
}
