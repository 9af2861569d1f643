// Command tonblock walks a whole TON block page by page, as an indexer
// does: it asks getBlockTransactionsExt for a few transactions at a time,
// continues after the last one while the server says the block is
// incomplete, and prints every transaction (logical time, account in the
// user-friendly form, fee in TON with exact decimals) and a summary.
//
//	go run ./examples/tonblock
//
// With no configuration it starts a local TON server in-process
// (ton/tontest, serving the recorded masterchain block 39984096) and says
// so in its first line. To walk a block of a real node-access endpoint,
// set:
//
//	NODEACCESS_TON_URL        the provider's base URL (https://host)
//	NODEACCESS_TON_KEY        the access key (required with the URL: TON endpoints
//	                          put it in a different place for API v2 and v3;
//	                          refused without the URL)
//	NODEACCESS_TON_SEQNO      the block's seqno (required with the URL)
//	NODEACCESS_TON_WORKCHAIN  the block's workchain (default -1, the masterchain)
//	NODEACCESS_TON_SHARD      the block's shard, as a signed decimal
//	                          (-9223372036854775808) or 16 hex digits
//	                          (8000000000000000, the default)
//	NODEACCESS_TON_COUNT      transactions per page (default 2)
//
// Fees are nanotons (1 TON = 10^9 nanotons) summed as integers and printed
// as exact decimals: no floating point touches an amount. The transactions
// of the recorded block are tick-tock transactions of system contracts,
// which pay no fees.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"os"
	"strconv"
	"time"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
	"github.com/shopspring/decimal"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		log.Fatal(err)
	}
}

// run is the program, with its output and environment passed in so that a
// test can run it.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	c, q, stop, err := setup(getenv, out)
	if err != nil {
		return err
	}
	defer stop()
	return walk(ctx, out, c, q)
}

// setup makes the client and the first query: from the environment, or
// against a local server when NODEACCESS_TON_URL and NODEACCESS_TON_KEY are
// both unset (a key without a URL is refused, rather than ignored).
func setup(getenv func(string) string, out io.Writer) (*ton.Client, ton.BlockTransactionsQuery, func(), error) {
	q := ton.BlockTransactionsQuery{Count: 2}
	if s := getenv("NODEACCESS_TON_COUNT"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return nil, q, nil, fmt.Errorf("NODEACCESS_TON_COUNT %q is not a positive integer", s)
		}
		q.Count = n
	}
	url, key := getenv("NODEACCESS_TON_URL"), getenv("NODEACCESS_TON_KEY")
	if url == "" && key != "" {
		return nil, q, nil, errors.New("NODEACCESS_TON_KEY is set but NODEACCESS_TON_URL is not: set both, or neither to use a local server")
	}
	if url == "" {
		srv, err := tontest.New()
		if err != nil {
			return nil, q, nil, fmt.Errorf("starting the local TON server: %w", err)
		}
		c, err := srv.Client()
		if err != nil {
			srv.Close()
			return nil, q, nil, err
		}
		fmt.Fprintf(out, "No NODEACCESS_TON_URL set: using a local TON server at %s (key REDACTED).\n", srv.URL)
		q.Block = tontest.DefaultBlock()
		return c, q, srv.Close, nil
	}
	if key == "" {
		return nil, q, nil, fmt.Errorf("NODEACCESS_TON_KEY is required with NODEACCESS_TON_URL")
	}
	block, err := blockFromEnv(getenv)
	if err != nil {
		return nil, q, nil, err
	}
	q.Block = block
	c, err := ton.New(url, key)
	if err != nil {
		return nil, q, nil, err
	}
	fmt.Fprintf(out, "Calling %s.\n", c)
	return c, q, func() {}, nil
}

func blockFromEnv(getenv func(string) string) (ton.BlockRef, error) {
	block := ton.MasterchainBlock(0)
	s := getenv("NODEACCESS_TON_SEQNO")
	seqno, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return block, fmt.Errorf("NODEACCESS_TON_SEQNO %q is not a block seqno (required with NODEACCESS_TON_URL)", s)
	}
	block.Seqno = uint32(seqno)
	if s := getenv("NODEACCESS_TON_WORKCHAIN"); s != "" {
		wc, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return block, fmt.Errorf("NODEACCESS_TON_WORKCHAIN %q is not a workchain id", s)
		}
		block.Workchain = int32(wc)
	}
	if s := getenv("NODEACCESS_TON_SHARD"); s != "" {
		if block.Shard, err = ton.ParseShardID(s); err != nil {
			return block, fmt.Errorf("NODEACCESS_TON_SHARD: %w", err)
		}
	}
	return block, nil
}

// walk asks for the block page by page and prints what it gets.
func walk(ctx context.Context, out io.Writer, c *ton.Client, q ton.BlockTransactionsQuery) error {
	type txKey struct {
		account ton.Address
		lt      uint64
	}
	seen := map[txKey]bool{}
	accounts := map[ton.Address]bool{}
	total := new(big.Int)
	unknownFees := 0
	for n := 1; ; n++ {
		page, err := c.BlockTransactions(ctx, q)
		if err != nil {
			return err
		}
		if n == 1 {
			fmt.Fprintf(out, "Block %s\n", page.Block.BlockRef)
			fmt.Fprintf(out, "  root hash %s, file hash %s\n", page.Block.RootHash, page.Block.FileHash)
			fmt.Fprintf(out, "Walking it %d transactions a page.\n", q.Count)
		}
		state := "complete"
		if page.Incomplete {
			state = "incomplete: asking for the next page"
		}
		fmt.Fprintf(out, "page %d: %s, %s\n", n, plural(len(page.Transactions), "transaction"), state)
		for _, tx := range page.Transactions {
			k := txKey{tx.Account, tx.LT}
			if seen[k] {
				return fmt.Errorf("the server sent transaction %s lt %d twice: it does not page by after_lt/after_hash", tx.Account, tx.LT)
			}
			seen[k] = true
			accounts[tx.Account] = true
			fee := "fee unknown"
			if tx.Fee != nil {
				total.Add(total, tx.Fee)
				fee = "fee " + formatTON(tx.Fee) + " TON"
			} else {
				unknownFees++
			}
			when := "time unknown"
			if !tx.Time.IsZero() {
				when = tx.Time.Format("2006-01-02 15:04:05 UTC")
			}
			fmt.Fprintf(out, "  lt %d  %s  %s  %s\n", tx.LT, tx.Account.Friendly(true, false), fee, when)
			if in := tx.InMsg; in != nil {
				fmt.Fprintf(out, "    in: %s\n", describe(in))
			}
		}
		next, more := page.Next()
		if !more {
			if page.Incomplete {
				return fmt.Errorf("the server says the block is incomplete but sent no transaction to continue after")
			}
			break
		}
		q.After = &next
		// The block's hashes spare the server a lookup by seqno on the
		// next pages.
		q.RootHash, q.FileHash = page.Block.RootHash, page.Block.FileHash
	}
	fmt.Fprintf(out, "Summary: %s, %s, total fees %s TON", plural(len(seen), "transaction"), plural(len(accounts), "distinct account"), formatTON(total))
	if unknownFees > 0 {
		fmt.Fprintf(out, " (%d without a fee)", unknownFees)
	}
	fmt.Fprintln(out, ".")
	return nil
}

// describe says what an in-message brought: an external message (a
// wallet's signed request, no value), or a value from a sender, with the
// text comment when the server decoded one.
func describe(m *ton.Message) string {
	if m.Source == nil {
		return "external message"
	}
	s := "from " + m.Source.Friendly(true, false).String()
	if m.Value != nil {
		s = formatTON(m.Value) + " TON " + s
	}
	if m.HasComment {
		s += ", comment " + strconv.Quote(m.Comment)
	}
	return s
}

// formatTON writes a non-negative nanoton amount in TON, exactly: the
// integer part, and the fraction with its trailing zeros dropped
// ("6617389" nanotons is "0.006617389", 10^9 is "1", 0 is "0").
func formatTON(nano *big.Int) string {
	return decimal.NewFromBigInt(nano, -9).String()
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
