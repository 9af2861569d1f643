// Command evmfollow follows an ERC-20 token's Transfer events the way a
// deposit scanner does: every one once, in block and log order
// (evm.Client.Follow), the removals of a reorganisation printed as such,
// and the cursor stored after each event so that a later run goes on from
// it, repeating and losing nothing.
//
//	go run ./examples/evmfollow
//
// With no configuration it starts a local EVM node in-process (evmtest)
// and says so in its first line. There it mines six blocks of transfers of
// the "Local USD" token, follows them from block 1, stops after three (as
// a program that crashes), resumes from the cursor it kept, and, caught
// up, has the node replace its two newest blocks (Server.Reorg): the
// transfers of those blocks are printed as removed, then again in the new
// branch's block. To follow a token on a real node-access service, set:
//
//	NODEACCESS_EVM_URL     the EVM node's base URL (https://host), or the whole
//	                       endpoint https://host/<KEY> (or https://host/<KEY>/evm)
//	NODEACCESS_EVM_KEY     the access key (leave unset when the URL carries it)
//	NODEACCESS_EVM_TOKEN   the token contract's address (required with a URL)
//	NODEACCESS_EVM_CURSOR  a file that keeps the cursor: read at start when it
//	                       exists, written after each event (default: none)
//	NODEACCESS_EVM_FROM    where to start without a stored cursor: a block
//	                       number, or "now" (the default)
//	NODEACCESS_EVM_POLL    how often to ask for a new block, such as 12s (the
//	                       default: 2s)
//
// Amounts are printed in the token's smallest unit.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
)

// transferTopic is the topic of ERC-20's Transfer(address,address,uint256).
var transferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		log.Fatal(err)
	}
}

// config is what the environment says.
type config struct {
	client     *evm.Client
	srv        *evmtest.Server // the local node; nil with a URL
	query      evm.FollowQuery
	cursorFile string
}

// run is the program, with its output and environment passed in so that a
// test can run it.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	cfg, err := setup(getenv, out)
	if err != nil {
		return err
	}
	if cfg.srv == nil {
		return follow(ctx, out, cfg, 0, nil)
	}
	defer cfg.srv.Close()
	return local(ctx, out, cfg)
}

func setup(getenv func(string) string, out io.Writer) (*config, error) {
	cfg := &config{cursorFile: getenv("NODEACCESS_EVM_CURSOR")}
	cfg.query.Topics = [][]common.Hash{{transferTopic}}
	url, key, token := getenv("NODEACCESS_EVM_URL"), getenv("NODEACCESS_EVM_KEY"), getenv("NODEACCESS_EVM_TOKEN")
	if url == "" && key != "" {
		return nil, errors.New("NODEACCESS_EVM_KEY is set but NODEACCESS_EVM_URL is not: set both, or neither to follow a local node")
	}
	if s := getenv("NODEACCESS_EVM_POLL"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("NODEACCESS_EVM_POLL %q is not a positive duration such as 12s", s)
		}
		cfg.query.Poll = d
	}
	if from := getenv("NODEACCESS_EVM_FROM"); from != "" && from != "now" {
		n, err := strconv.ParseUint(from, 10, 64)
		if err != nil || n == 0 {
			return nil, fmt.Errorf("NODEACCESS_EVM_FROM %q is neither a block number nor \"now\"", from)
		}
		cfg.query.From = evm.FollowCursor{Number: n}
	}
	if cfg.cursorFile != "" {
		b, err := os.ReadFile(cfg.cursorFile)
		switch {
		case err == nil:
			if err := cfg.query.From.UnmarshalText(b); err != nil {
				return nil, fmt.Errorf("the cursor in %s: %w", cfg.cursorFile, err)
			}
			fmt.Fprintf(out, "Resuming from cursor %s.\n", cfg.query.From)
		case !errors.Is(err, os.ErrNotExist):
			return nil, err
		}
	}
	if url == "" {
		srv, err := evmtest.New(evmtest.WithoutScenario())
		if err != nil {
			return nil, fmt.Errorf("starting the local EVM node: %w", err)
		}
		if cfg.client, err = srv.Client(); err != nil {
			srv.Close()
			return nil, err
		}
		cfg.srv = srv
		cfg.query.Addresses = []common.Address{evmtest.Token()}
		cfg.query.Poll = 10 * time.Millisecond
		fmt.Fprintf(out, "No NODEACCESS_EVM_URL set: following %s's transfers on a local EVM node at %s (key REDACTED).\n", evmtest.TokenSymbol, srv.URL)
		return cfg, nil
	}
	if !common.IsHexAddress(token) {
		return nil, fmt.Errorf("NODEACCESS_EVM_TOKEN %q is not an address: it is required with NODEACCESS_EVM_URL", token)
	}
	cfg.query.Addresses = []common.Address{common.HexToAddress(token)}
	var err error
	if key == "" {
		cfg.client, err = evm.NewFromURL(url)
	} else {
		cfg.client, err = evm.New(url, key)
	}
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "Following %s's transfers through %s.\n", token, cfg.client)
	return cfg, nil
}

// local runs the local demonstration: six blocks of transfers, a stop after
// three, a resume from the cursor, and a reorganisation of the two newest
// blocks.
func local(ctx context.Context, out io.Writer, cfg *config) error {
	acc := evmtest.Accounts()
	for i := range 6 {
		to := evmtest.Token()
		data, err := evmtest.TokenABI().Pack("transfer", acc[1+i%3].Address, big.NewInt(int64(i+1)*1_500_000))
		if err != nil {
			return err
		}
		if _, err := cfg.srv.Transact(ctx, acc[0], &to, nil, data); err != nil {
			return err
		}
	}
	if cfg.query.From == (evm.FollowCursor{}) {
		cfg.query.From = evm.FollowCursor{Number: 1}
	}
	if err := follow(ctx, out, cfg, 3, nil); err != nil {
		return err
	}
	fmt.Fprintf(out, "Stopped; resuming from cursor block %d, log %d.\n", cfg.query.From.Number, cfg.query.From.Index)
	reorged := false
	return follow(ctx, out, cfg, 7, func(l evm.FollowedLog) error {
		if l.BlockNumber == 6 && !reorged { // caught up: the node replaces blocks 5 and 6
			reorged = true
			fmt.Fprintln(out, "The local node replaces its two newest blocks.")
			return cfg.srv.Reorg(2)
		}
		return nil
	})
}

// follow prints the transfers from cfg.query.From, storing the cursor as
// it goes; it stops after stop events (0: never), calling after (when not
// nil) after each.
func follow(ctx context.Context, out io.Writer, cfg *config, stop int, after func(evm.FollowedLog) error) error {
	n := 0
	for l, err := range cfg.client.Follow(ctx, cfg.query) {
		if err != nil {
			if ctx.Err() != nil {
				return nil // interrupted: the stored cursor resumes the next run
			}
			// A failure the follower keeps retrying (a 5xx, a rate limit):
			// say so and go on; anything else ended the walk.
			fmt.Fprintf(out, "  (%v)\n", err)
			continue
		}
		printTransfer(out, &l.Log)
		cfg.query.From = l.Cursor
		if cfg.cursorFile != "" {
			text, _ := l.Cursor.MarshalText()
			if err := os.WriteFile(cfg.cursorFile, text, 0o600); err != nil {
				return err
			}
		}
		if after != nil {
			if err := after(l); err != nil {
				return err
			}
		}
		if n++; n == stop {
			return nil
		}
	}
	return ctx.Err()
}

// printTransfer prints a Transfer log: block, sender, recipient, amount.
func printTransfer(out io.Writer, l *types.Log) {
	if len(l.Topics) != 3 || len(l.Data) != 32 {
		fmt.Fprintf(out, "  block %d log %d: not an ERC-20 Transfer\n", l.BlockNumber, l.Index)
		return
	}
	what := "transfer"
	if l.Removed {
		what = "REMOVED transfer"
	}
	from, to := common.BytesToAddress(l.Topics[1][:]), common.BytesToAddress(l.Topics[2][:])
	fmt.Fprintf(out, "  block %d: %s of %s units from %s to %s\n", l.BlockNumber, what, new(big.Int).SetBytes(l.Data), short(from), short(to))
}

// short writes an address as its first and last four hex digits.
func short(a common.Address) string {
	h := a.Hex()
	return strings.Join([]string{h[:6], h[len(h)-4:]}, "…")
}
