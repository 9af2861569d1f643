// Command erc20 reads an ERC-20 token through an abigen binding whose calls
// run on *evm.Client: the token's name, symbol, decimals and total supply,
// and one holder's balance, at a block of your choice, with amounts printed
// exactly (integer arithmetic on the token's smallest unit, never a float).
// Then it reads the balances of many holders in one request through
// Multicall3 (evm.Client.Multicall): one eth_call, one request unit.
//
//	go run ./examples/erc20
//
// With no configuration it starts a local EVM node in-process (evmtest: a
// real chain on 127.0.0.1 with the "Local USD" token in its genesis) and
// says so in its first line. To read a token on a real node-access service,
// set:
//
//	NODEACCESS_EVM_URL     the EVM node's base URL (https://host), or the whole
//	                       endpoint https://host/<KEY> (or https://host/<KEY>/evm;
//	                       evm.NewFromURL refuses any other path)
//	NODEACCESS_EVM_KEY     the access key (leave unset when the URL carries it)
//	NODEACCESS_EVM_TOKEN   the token contract's address (required with a URL)
//	NODEACCESS_EVM_HOLDER  an address whose balance to print (optional with a URL)
//	NODEACCESS_EVM_HOLDERS addresses, comma-separated, whose balances to read
//	                       in one Multicall3 request (optional with a URL;
//	                       default on the local node: its funded accounts)
//	NODEACCESS_EVM_BLOCK   the block to read at: latest (default), safe,
//	                       finalized, earliest, pending, a number (1234 or
//	                       0x4d2) or a block hash
//
// On the local node, NODEACCESS_EVM_BLOCK=0 shows the holder's balance
// before the token transfer mined in block 5.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"os"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/examples/erc20/erc20"
	"github.com/shopspring/decimal"
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
	cfg, err := configure(getenv)
	if err != nil {
		return err
	}
	defer cfg.stop()
	fmt.Fprintln(out, cfg.describe)

	token, err := erc20.NewERC20Caller(cfg.token, cfg.client.ContractCaller())
	if err != nil {
		return err
	}
	opts, err := callOpts(ctx, cfg.block)
	if err != nil {
		return err
	}
	name, err := token.Name(opts)
	if err != nil {
		return fmt.Errorf("name: %w", err)
	}
	symbol, err := token.Symbol(opts)
	if err != nil {
		return fmt.Errorf("symbol: %w", err)
	}
	decimals, err := token.Decimals(opts)
	if err != nil {
		return fmt.Errorf("decimals: %w", err)
	}
	supply, err := token.TotalSupply(opts)
	if err != nil {
		return fmt.Errorf("totalSupply: %w", err)
	}
	fmt.Fprintf(out, "Token:        %s at block %s\n", cfg.token.Hex(), cfg.block)
	fmt.Fprintf(out, "Name:         %s\n", name)
	fmt.Fprintf(out, "Symbol:       %s\n", symbol)
	fmt.Fprintf(out, "Decimals:     %d\n", decimals)
	fmt.Fprintf(out, "Total supply: %s %s\n", formatUnits(supply, decimals), symbol)
	if cfg.holder != (common.Address{}) {
		balance, err := token.BalanceOf(opts, cfg.holder)
		if err != nil {
			return fmt.Errorf("balanceOf: %w", err)
		}
		fmt.Fprintf(out, "Balance of %s: %s %s\n", cfg.holder.Hex(), formatUnits(balance, decimals), symbol)
	}
	if len(cfg.holders) == 0 {
		return nil
	}
	return multicallBalances(ctx, out, cfg, decimals, symbol)
}

// config is where the calls go and what they read.
type config struct {
	describe string // the first line printed
	client   *evm.Client
	token    common.Address
	holder   common.Address   // zero: no balance to print
	holders  []common.Address // read in one Multicall3 request; none: no multicall
	block    evm.Block
	stop     func()
}

// configure reads the environment, or starts the local node when
// NODEACCESS_EVM_URL is unset.
func configure(getenv func(string) string) (config, error) {
	cfg := config{stop: func() {}}
	var err error
	if cfg.block, err = evm.ParseBlock(getenv("NODEACCESS_EVM_BLOCK")); err != nil {
		return cfg, fmt.Errorf("NODEACCESS_EVM_BLOCK: %w", err)
	}
	if cfg.token, err = address(getenv, "NODEACCESS_EVM_TOKEN"); err != nil {
		return cfg, err
	}
	if cfg.holder, err = address(getenv, "NODEACCESS_EVM_HOLDER"); err != nil {
		return cfg, err
	}
	if cfg.holders, err = holders(getenv); err != nil {
		return cfg, err
	}
	url := getenv("NODEACCESS_EVM_URL")
	if url == "" && getenv("NODEACCESS_EVM_KEY") != "" {
		return cfg, errors.New("NODEACCESS_EVM_KEY is set but NODEACCESS_EVM_URL is not: set both, or neither to use a local server")
	}
	if url == "" {
		srv, err := evmtest.New()
		if err != nil {
			return cfg, fmt.Errorf("starting the local node: %w", err)
		}
		if cfg.client, err = srv.Client(); err != nil {
			srv.Close()
			return cfg, err
		}
		cfg.stop = srv.Close
		cfg.describe = fmt.Sprintf("No NODEACCESS_EVM_URL set: using a local EVM node at %s (key REDACTED).", srv.URL)
		if cfg.token == (common.Address{}) {
			cfg.token = evmtest.Token()
		}
		if cfg.holder == (common.Address{}) {
			cfg.holder = evmtest.Holder()
		}
		if cfg.holders == nil {
			for _, a := range evmtest.Accounts() {
				cfg.holders = append(cfg.holders, a.Address)
			}
		}
		return cfg, nil
	}
	if cfg.token == (common.Address{}) {
		return cfg, errors.New("NODEACCESS_EVM_TOKEN is not set: with NODEACCESS_EVM_URL, name the token to read")
	}
	if key := getenv("NODEACCESS_EVM_KEY"); key != "" {
		cfg.client, err = evm.New(url, key)
	} else {
		cfg.client, err = evm.NewFromURL(url)
	}
	if err != nil {
		return cfg, err
	}
	cfg.describe = "Reading through " + cfg.client.String() + "."
	return cfg, nil
}

// address reads an address from the environment variable name; unset is
// the zero address.
func address(getenv func(string) string, name string) (common.Address, error) {
	s := getenv(name)
	if s == "" {
		return common.Address{}, nil
	}
	if !common.IsHexAddress(s) {
		return common.Address{}, fmt.Errorf("%s %q is not a 20-byte hex address", name, s)
	}
	return common.HexToAddress(s), nil
}

// callOpts turns a block selector into the binding's call options:
// go-ethereum's conventions of a number, a hash, Pending, or the negative
// numbers of its rpc package for the other tags. *evm.Client reads them back
// into the same selector.
func callOpts(ctx context.Context, b evm.Block) (*bind.CallOpts, error) {
	opts := &bind.CallOpts{Context: ctx}
	switch b := b.(type) {
	case evm.BlockNumber:
		opts.BlockNumber = new(big.Int).SetUint64(uint64(b))
	case evm.BlockHash:
		opts.BlockHash = b.Hash
	case evm.Tag:
		switch b {
		case evm.Latest:
		case evm.Pending:
			opts.Pending = true
		case evm.Safe:
			opts.BlockNumber = big.NewInt(int64(rpc.SafeBlockNumber))
		case evm.Finalized:
			opts.BlockNumber = big.NewInt(int64(rpc.FinalizedBlockNumber))
		case evm.Earliest:
			opts.BlockNumber = big.NewInt(int64(rpc.EarliestBlockNumber))
		default:
			return nil, fmt.Errorf("block %s: not a selector this example knows", b)
		}
	default:
		return nil, fmt.Errorf("block %v: not a selector this example knows", b)
	}
	return opts, nil
}

// formatUnits writes amount (in the token's smallest unit) with decimals
// digits after the point, exactly: 1234567891 with 6 decimals is
// "1234.567891". Zero decimals print no point.
func formatUnits(amount *big.Int, decimals uint8) string {
	return decimal.NewFromBigInt(amount, -int32(decimals)).StringFixed(int32(decimals))
}
