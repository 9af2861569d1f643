package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/evm"
)

// holders reads NODEACCESS_EVM_HOLDERS: addresses separated by commas
// (spaces around them allowed); unset is none.
func holders(getenv func(string) string) ([]common.Address, error) {
	s := strings.TrimSpace(getenv("NODEACCESS_EVM_HOLDERS"))
	if s == "" {
		return nil, nil
	}
	var out []common.Address
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if !common.IsHexAddress(f) {
			return nil, fmt.Errorf("NODEACCESS_EVM_HOLDERS: %q is not a 20-byte hex address", f)
		}
		out = append(out, common.HexToAddress(f))
	}
	return out, nil
}

// multicallBalances reads balanceOf of every holder in one request, through
// Multicall3 (one eth_call, one request unit, all at the same block), and
// prints each balance and their sum exactly.
func multicallBalances(ctx context.Context, out io.Writer, cfg config, decimals uint8, symbol string) error {
	calls := make([]evm.Call3, len(cfg.holders))
	for i, h := range cfg.holders {
		// balanceOf(address): selector 0x70a08231 and the address padded to 32 bytes.
		data := append(common.FromHex("0x70a08231"), common.LeftPadBytes(h[:], 32)...)
		calls[i] = evm.Call3{Target: cfg.token, Data: data, AllowFailure: true}
	}
	res, err := cfg.client.Multicall(ctx, calls, cfg.block, evm.MulticallOptions{})
	if errors.Is(err, evm.ErrMulticallNotDeployed) {
		fmt.Fprintf(out, "Multicall3 is not deployed at %s on this chain: no balances in one request.\n", evm.Multicall3Address().Hex())
		return nil
	}
	if err != nil {
		return fmt.Errorf("multicall: %w", err)
	}
	fmt.Fprintf(out, "Balances of %d holders in one request (Multicall3):\n", len(res))
	sum := new(big.Int)
	for i, r := range res {
		switch {
		case !r.Success:
			fmt.Fprintf(out, "  %s: failed: %v\n", cfg.holders[i].Hex(), r.Revert)
		case len(r.ReturnData) != 32:
			fmt.Fprintf(out, "  %s: not a balance (%d bytes returned)\n", cfg.holders[i].Hex(), len(r.ReturnData))
		default:
			b := new(big.Int).SetBytes(r.ReturnData)
			sum.Add(sum, b)
			fmt.Fprintf(out, "  %s: %s %s\n", cfg.holders[i].Hex(), formatUnits(b, decimals), symbol)
		}
	}
	fmt.Fprintf(out, "  sum: %s %s\n", formatUnits(sum, decimals), symbol)
	return nil
}
