package main

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"strconv"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
	"github.com/shopspring/decimal"
)

// tonTarget is where the TON calls go and what they ask for.
type tonTarget struct {
	rest, rpc *ton.Client // the same endpoint, API v2 in REST and JSON-RPC form
	where     string
	block     *ton.BlockRef // nil: skip getBlockTransactionsExt
	account   string        // "": skip the v3 calls
}

// tonClients returns the clients for NODEACCESS_TON_URL, or on a local
// tontest server when it is unset.
func tonClients(getenv func(string) string) (t tonTarget, stop func(), err error) {
	url, key := getenv("NODEACCESS_TON_URL"), getenv("NODEACCESS_TON_KEY")
	if url == "" {
		srv, err := tontest.New()
		if err != nil {
			return t, nil, fmt.Errorf("starting the local TON server: %w", err)
		}
		t.rest, err = srv.Client()
		if err == nil {
			t.rpc, err = srv.Client(ton.WithJSONRPC())
		}
		if err != nil {
			srv.Close()
			return t, nil, err
		}
		block := tontest.DefaultBlock()
		t.where, t.block, t.account = "local tontest "+srv.URL, &block, tontest.DefaultAccount
		return t, srv.Close, nil
	}
	if key == "" {
		return t, nil, fmt.Errorf("NODEACCESS_TON_KEY is not set: TON puts the key at a different place in the v2 and v3 paths, so it cannot come inside NODEACCESS_TON_URL")
	}
	if t.rest, err = ton.New(url, key); err != nil {
		return t, nil, err
	}
	if t.rpc, err = ton.New(url, key, ton.WithJSONRPC()); err != nil {
		return t, nil, err
	}
	t.where = t.rest.String()
	if s := getenv("NODEACCESS_TON_SEQNO"); s != "" {
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return t, nil, fmt.Errorf("NODEACCESS_TON_SEQNO %q is not a masterchain block number", s)
		}
		block := ton.MasterchainBlock(uint32(n))
		t.block = &block
	}
	t.account = getenv("NODEACCESS_TON_ACCOUNT")
	return t, func() {}, nil
}

// runTON reads a block's transactions (both forms of API v2), an account's
// states and its pending transactions (API v3).
func runTON(ctx context.Context, out io.Writer, getenv func(string) string) error {
	t, stop, err := tonClients(getenv)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Fprintf(out, "\n== TON (%s)\n", t.where)

	if t.block == nil {
		fmt.Fprintln(out, "getBlockTransactionsExt: skipped (set NODEACCESS_TON_SEQNO)")
	} else {
		q := ton.BlockTransactionsQuery{Block: *t.block, Count: 5}
		page, err := t.rest.BlockTransactions(ctx, q)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "getBlockTransactionsExt %s: %s, incomplete=%t\n", page.Block.BlockRef, count(len(page.Transactions), "transaction"), page.Incomplete)
		for _, tx := range page.Transactions {
			fmt.Fprintf(out, "  lt %d  %s  fee %s TON\n", tx.LT, tx.Account.Friendly(true, false), nanoTON(tx.Fee))
		}
		again, err := t.rpc.BlockTransactions(ctx, q)
		if err != nil {
			return err
		}
		same := len(again.Transactions) == len(page.Transactions)
		for i := 0; same && i < len(page.Transactions); i++ {
			same = again.Transactions[i].Hash == page.Transactions[i].Hash
		}
		fmt.Fprintf(out, "getBlockTransactionsExt (JSON-RPC form): %s, the same: %t\n", count(len(again.Transactions), "transaction"), same)
	}

	if t.account == "" {
		fmt.Fprintln(out, "accountStates, pendingTransactions: skipped (set NODEACCESS_TON_ACCOUNT)")
		return nil
	}
	states, err := t.rest.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{t.account}, Limit: 10})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "accountStates %s: %s\n", t.account, count(len(states.States), "state"))
	for _, s := range states.States {
		fmt.Fprintf(out, "  %s  last lt %d  balance %s TON\n", s.Status, s.LastTransactionLT, nanoTON(s.Balance))
	}
	pending, err := t.rest.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{t.account}, Limit: 10})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "pendingTransactions %s: %d pending\n", t.account, len(pending.Transactions))
	for _, p := range pending.Transactions {
		fmt.Fprintf(out, "  lt %d  at %s  masterchain block %d\n", p.LT, p.Now.UTC().Format("2006-01-02 15:04:05 MST"), p.MCBlockSeqno)
	}
	return nil
}

// nanoTON writes an amount of nanotons in TON, exactly ("unknown" when the
// server sent none).
func nanoTON(n *big.Int) string {
	if n == nil {
		return "unknown"
	}
	return decimal.NewFromBigInt(n, -9).String()
}
