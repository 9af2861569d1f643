package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
)

// timeLayout shows lock-up ends to the millisecond the server sent.
const timeLayout = "2006-01-02 15:04:05.000 UTC"

// printVaults writes the table of a user's vaults at the time at: address,
// equity (every digit the server sent, aligned on the decimal point), share
// of the total, lock-up state; then the exact total.
func printVaults(out io.Writer, user common.Address, at time.Time, vaults []hyper.VaultEquity) {
	fmt.Fprintf(out, "Vaults of %s at %s:\n", user.Hex(), at.Format(timeLayout))
	if len(vaults) == 0 {
		fmt.Fprintln(out, "  no vault deposits")
		return
	}
	total := decimal.Zero
	for _, v := range vaults {
		total = total.Add(v.Equity) // exact: decimals add digit for digit
	}
	equities := make([]string, 0, len(vaults)+1)
	for _, v := range vaults {
		equities = append(equities, exact(v.Equity))
	}
	equities = alignPoints(append(equities, exact(total)))

	const addrWidth = 42
	eqWidth := max(len(equities[0]), len("EQUITY (USD)"))
	fmt.Fprintf(out, "  %-*s  %*s  %7s  %s\n", addrWidth, "VAULT", eqWidth, "EQUITY (USD)", "SHARE", "LOCK-UP")
	for i, v := range vaults {
		fmt.Fprintf(out, "  %-*s  %*s  %7s  %s\n", addrWidth, v.VaultAddress.Hex(), eqWidth, equities[i], share(v.Equity, total), lockup(v, at))
	}
	label := fmt.Sprintf("TOTAL (%d vaults)", len(vaults))
	if len(vaults) == 1 {
		label = "TOTAL (1 vault)"
	}
	fmt.Fprintf(out, "  %-*s  %s\n", addrWidth, label, strings.TrimRight(fmt.Sprintf("%*s", eqWidth, equities[len(vaults)]), " "))
}

// lockup says whether the deposit is locked at at.
func lockup(v hyper.VaultEquity, at time.Time) string {
	switch {
	case v.LockedUntil.IsZero():
		return "no lock-up"
	case at.Before(v.LockedUntil):
		return "locked until " + v.LockedUntil.Format(timeLayout)
	}
	return "unlocked since " + v.LockedUntil.Format(timeLayout)
}

// share is part's share of total in percent, rounded to two decimals.
func share(part, total decimal.Decimal) string {
	if !total.IsPositive() {
		return "-"
	}
	return part.Mul(decimal.NewFromInt(100)).DivRound(total, 2).StringFixed(2) + "%"
}

// exact writes d with the digits it carries: 100.50 stays 100.50.
func exact(d decimal.Decimal) string {
	if e := d.Exponent(); e < 0 {
		return d.StringFixed(-e)
	}
	return d.String()
}

// alignPoints pads decimal texts so that their points line up: the integer
// parts right-aligned, the fractions left-aligned.
func alignPoints(nums []string) []string {
	intW, fracW := 0, 0
	for _, s := range nums {
		i, f, _ := strings.Cut(s, ".")
		intW, fracW = max(intW, len(i)), max(fracW, len(f))
	}
	out := make([]string, len(nums))
	for k, s := range nums {
		i, f, ok := strings.Cut(s, ".")
		point := "."
		if !ok {
			point = " "
			if fracW == 0 {
				point = ""
			}
		}
		out[k] = strings.Repeat(" ", intW-len(i)) + i + point + f + strings.Repeat(" ", fracW-len(f))
	}
	return out
}

// printPrecompileEquities writes each vault's equity as HyperEVM's
// precompile read it, in millionths of a USD, and whether it agrees with the
// /info answer rounded to 6 decimals (the precompile reads the state at the
// start of the EVM block, /info the state now: a moving equity may differ).
func printPrecompileEquities(out io.Writer, vaults []hyper.VaultEquity, reads []*hypercore.Read[hyper.VaultEquity]) {
	fmt.Fprintln(out, "The same vaults from HyperEVM's vault equity precompile (0x…0802):")
	for i, v := range vaults {
		pre, err := reads[i].Result()
		if err != nil {
			fmt.Fprintf(out, "  %s  %v\n", v.VaultAddress.Hex(), err)
			continue
		}
		same := "differs from"
		if pre.Equity.Equal(v.Equity.Round(6)) && pre.LockedUntil.Equal(v.LockedUntil) {
			same = "equals"
		}
		fmt.Fprintf(out, "  %s  %s USD, %s /info's %s rounded to 6 decimals\n", v.VaultAddress.Hex(), exact(pre.Equity), same, exact(v.Equity))
	}
}

// printMids writes the mid price of each coin, aligned on the point, and
// the market its key names in the metadata: a coin may be a key of allMids
// ("BTC", "@107", "#21") or a spot pair's name ("HYPE/USDC").
func printMids(out io.Writer, mids *hyper.Mids, markets *hyper.Markets, coins []string) {
	fmt.Fprintf(out, "Mid prices from the public API (%d keys), named from its metadata:\n", mids.Len())
	keys := make([]string, len(coins))
	var found []string
	for i, coin := range coins {
		keys[i] = coin
		if m, ok := markets.Market(coin); ok {
			keys[i] = m.Key
		}
		if m, ok := mids.Get(keys[i]); ok {
			found = append(found, exact(m.Price))
		}
	}
	found = alignPoints(found)
	w := 0
	for _, coin := range coins {
		w = max(w, len(coin))
	}
	n := 0
	for i, coin := range coins {
		if _, ok := mids.Get(keys[i]); !ok {
			fmt.Fprintf(out, "  %-*s  not listed\n", w, coin)
			continue
		}
		line := fmt.Sprintf("  %-*s  %s", w, coin, found[n])
		n++
		if m, ok := markets.Market(coin); ok {
			line += "  " + describe(m)
		}
		fmt.Fprintln(out, strings.TrimRight(line, " "))
	}
}

// describe says what market m is, with the names its metadata gives.
func describe(m hyper.Market) string {
	switch m.Kind {
	case hyper.KeyPerp, hyper.KeyBuilderDex:
		return fmt.Sprintf("perp %s, asset %d, %d size decimals", m.Name, m.Asset, m.SzDecimals)
	case hyper.KeySpotPair, hyper.KeySpotIndex:
		return fmt.Sprintf("spot %s (%s), asset %d, %d size decimals", m.Name, m.Key, m.Asset, m.SzDecimals)
	case hyper.KeyOutcome:
		return fmt.Sprintf("outcome %d %q, side %d %q", m.Outcome.ID, m.Outcome.Name, m.Side, m.SideName)
	}
	return m.Kind.String()
}
