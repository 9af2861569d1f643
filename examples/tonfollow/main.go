// Command tonfollow follows the TON chain and prints the jetton transfers
// it sees as they arrive, the way a deposit scanner does: every
// transaction of every block each masterchain block commits, once, in
// order (ton.Client.Follow), each in-message read as a TEP-74 transfer
// (Message.ParseJettonTransfer). After each transaction it stores the
// follower's cursor in a file, and a later run goes on from there,
// repeating and losing nothing.
//
//	go run ./examples/tonfollow
//
// With no configuration it starts a local TON chain in-process
// (ton/tontest's WithChain: 2.5 masterchain blocks a second, two shards,
// jetton transfers among the transactions), follows it from masterchain
// block 1 for 5 rounds and says so in its first line. To follow a real
// node-access endpoint, set:
//
//	NODEACCESS_TON_URL     the provider's base URL (https://host)
//	NODEACCESS_TON_KEY     the access key (required with the URL; refused without it)
//	NODEACCESS_TON_CURSOR  a file that keeps the cursor: read at start when it
//	                       exists, written after each transaction (default: none)
//	NODEACCESS_TON_FROM    where to start without a stored cursor: a masterchain
//	                       seqno, or "now" (the default with a URL; 1 locally)
//	NODEACCESS_TON_ROUNDS  stop after this many masterchain rounds (default: 5
//	                       locally, never with a URL)
//
// Before crediting a deposit, a real scanner checks that the jetton wallet
// the transfer reached belongs to the jetton master it expects (the
// master's get_wallet_address for the owner), and that the transaction
// did not abort: anyone can send these messages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strconv"
	"time"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		log.Fatal(err)
	}
}

// config is what the environment says.
type config struct {
	client     *ton.Client
	stop       func()
	from       ton.FollowCursor
	cursorFile string
	rounds     int // 0: no end
}

// run is the program, with its output and environment passed in so that a
// test can run it.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	cfg, err := setup(getenv, out)
	if err != nil {
		return err
	}
	defer cfg.stop()
	return follow(ctx, out, cfg)
}

func setup(getenv func(string) string, out io.Writer) (*config, error) {
	cfg := &config{cursorFile: getenv("NODEACCESS_TON_CURSOR"), stop: func() {}}
	url, key := getenv("NODEACCESS_TON_URL"), getenv("NODEACCESS_TON_KEY")
	if url == "" && key != "" {
		return nil, errors.New("NODEACCESS_TON_KEY is set but NODEACCESS_TON_URL is not: set both, or neither to follow a local chain")
	}
	from := getenv("NODEACCESS_TON_FROM")
	if url == "" {
		srv, err := tontest.New(tontest.WithChain(400*time.Millisecond), tontest.WithoutDefaults())
		if err != nil {
			return nil, fmt.Errorf("starting the local TON chain: %w", err)
		}
		if cfg.client, err = srv.Client(); err != nil {
			srv.Close()
			return nil, err
		}
		cfg.stop, cfg.rounds = srv.Close, 5
		if from == "" {
			from = "1"
		}
		fmt.Fprintf(out, "No NODEACCESS_TON_URL set: following a local TON chain at %s (key REDACTED).\n", srv.URL)
	} else {
		if key == "" {
			return nil, errors.New("NODEACCESS_TON_KEY is required with NODEACCESS_TON_URL")
		}
		c, err := ton.New(url, key)
		if err != nil {
			return nil, err
		}
		cfg.client = c
		fmt.Fprintf(out, "Following %s.\n", c)
	}
	if s := getenv("NODEACCESS_TON_ROUNDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			cfg.stop()
			return nil, fmt.Errorf("NODEACCESS_TON_ROUNDS %q is not a positive integer", s)
		}
		cfg.rounds = n
	}
	if from != "" && from != "now" {
		n, err := strconv.ParseUint(from, 10, 32)
		if err != nil || n == 0 {
			cfg.stop()
			return nil, fmt.Errorf("NODEACCESS_TON_FROM %q is neither a masterchain seqno nor \"now\"", from)
		}
		cfg.from = ton.FollowCursor{Seqno: uint32(n)}
	}
	if cfg.cursorFile != "" {
		b, err := os.ReadFile(cfg.cursorFile)
		switch {
		case err == nil:
			if err := cfg.from.UnmarshalText(b); err != nil {
				cfg.stop()
				return nil, fmt.Errorf("the cursor in %s: %w", cfg.cursorFile, err)
			}
			fmt.Fprintf(out, "Resuming from cursor %s.\n", cfg.from)
		case !errors.Is(err, os.ErrNotExist):
			cfg.stop()
			return nil, err
		}
	}
	return cfg, nil
}

// follow prints the jetton transfers of every transaction from cfg.from,
// and a line per masterchain round, storing the cursor as it goes.
func follow(ctx context.Context, out io.Writer, cfg *config) error {
	var round uint32
	rounds, txs := 0, 0
	for tx, err := range cfg.client.Follow(ctx, ton.FollowQuery{From: cfg.from}) {
		if err != nil {
			if ctx.Err() != nil {
				return nil // interrupted: the stored cursor resumes the next run
			}
			// A failure the follower keeps retrying (a lagging lite server, a
			// rate limit): say so and go on; anything else ended the walk.
			fmt.Fprintf(out, "  (%v)\n", err)
			continue
		}
		if tx.Masterchain != round {
			round = tx.Masterchain
		}
		txs++
		if tx.InMsg != nil {
			printTransfer(out, tx.InMsg, &tx)
		}
		for i := range tx.OutMsgs {
			printTransfer(out, &tx.OutMsgs[i], &tx)
		}
		if cfg.cursorFile != "" {
			text, _ := tx.Cursor.MarshalText()
			if err := os.WriteFile(cfg.cursorFile, text, 0o600); err != nil {
				return err
			}
		}
		if tx.Cursor.Seqno != round { // the round's last transaction
			fmt.Fprintf(out, "round %d done: %d transactions\n", round, txs)
			txs = 0
			rounds++
			if cfg.rounds > 0 && rounds == cfg.rounds {
				return nil
			}
		}
	}
	return ctx.Err()
}

// printTransfer prints a message that is a jetton transfer.
func printTransfer(out io.Writer, m *ton.Message, tx *ton.FollowedTransaction) {
	t, ok := m.ParseJettonTransfer()
	if !ok {
		return
	}
	kind := t.Op.String()
	to := "jetton wallet " + tx.Account.Friendly(true, false).String()
	if t.Destination.Std != nil {
		to = "owner " + t.Destination.Std.Friendly(false, false).String()
	}
	comment := ""
	if t.HasComment {
		comment = fmt.Sprintf(" comment %q", t.Comment)
	}
	fmt.Fprintf(out, "  %s %s: %s units from %s to %s%s\n", tx.Block.BlockRef, kind, t.Amount, t.Sender, to, comment)
}
