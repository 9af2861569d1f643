package tontest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/big"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// Walk the default block, two transactions a page.
func Example() {
	srv, err := tontest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	for tx, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock(), Count: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(tx.Account.Friendly(true, false), tx.LT, tx.Fee)
	}
	// Output:
	// Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF 48756940000001 0
	// Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF 48756940000002 0
	// Ef9VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVbxn 48756940000003 0
}

// The default account's states (newest first) and its pending transaction.
func Example_defaultAccount() {
	srv, err := tontest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	states, err := c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount}})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range states.States {
		fmt.Println(s.Status, s.Balance, s.LastTransactionLT)
	}
	pending, err := c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}})
	if err != nil {
		log.Fatal(err)
	}
	for _, tx := range pending.Transactions {
		fmt.Println("pending:", tx.LT, tx.TotalFees, tx.Now.Format(time.DateTime))
	}
	// Output:
	// active 2715939331 36582626000003
	// active 2717267789 36552848000003
	// pending: 36582626000003 6617389 2025-07-08 11:09:36
}

// Serve your own data: here a basechain block and an account, with the
// ton package's own types.
func ExampleNew() {
	acct, err := ton.ParseAddress("0:5B6A643CF4E32FF0391C476456FED5BDB17EF10A55CBB7C2980C76D4AAD07875")
	if err != nil {
		log.Fatal(err)
	}
	block := tontest.Block{
		ID: ton.BlockID{BlockRef: ton.BlockRef{Workchain: 0, Shard: ton.MasterchainShard, Seqno: 1000}},
		Transactions: []ton.BlockTransaction{
			{Account: acct, LT: 7, Fee: big.NewInt(2500000)},
			{Account: acct, LT: 5, Fee: big.NewInt(1000000)},
		},
	}
	srv, err := tontest.New(tontest.WithoutDefaults())
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	err = errors.Join(srv.SetBlock(block),
		srv.SetAccountStates(acct, ton.AccountState{Account: acct, Balance: big.NewInt(1234567890123), Status: ton.StatusActive, LastTransactionLT: 7}),
		srv.SetAddressBookEntry(acct, ton.AddressBookEntry{UserFriendly: "UQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4dbz1", Domain: "alice.ton"}))
	if err != nil {
		log.Fatal(err)
	}
	c, err := srv.Client(ton.WithJSONRPC())
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	page, err := c.BlockTransactions(ctx, ton.BlockTransactionsQuery{Block: block.ID.BlockRef})
	if err != nil {
		log.Fatal(err)
	}
	for _, tx := range page.Transactions {
		fmt.Println(tx.LT, tx.Fee) // in the block's order
	}
	states, err := c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{acct.Raw()}})
	if err != nil {
		log.Fatal(err)
	}
	book := states.AddressBook[acct]
	fmt.Println(book.UserFriendly, book.Domain, states.States[0].Balance)
	// Output:
	// 5 1000000
	// 7 2500000
	// UQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4dbz1 alice.ton 1234567890123
}

// Test how code copes with a provider that rate-limits and then fails.
func ExampleServer_FailNext() {
	srv, err := tontest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	attempts := 0
	c, err := srv.Client(nodeaccess.WithMaxAttempts(2), nodeaccess.WithHook(func(context.Context, nodeaccess.Attempt) { attempts++ }))
	if err != nil {
		log.Fatal(err)
	}
	srv.FailNext(2, nodeaccesstest.RateLimited(0))
	_, err = c.BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock()})
	var he *nodeaccess.HTTPError
	if errors.As(err, &he) {
		fmt.Println(he.StatusCode, he.Message)
	}
	fmt.Println(errors.Is(err, nodeaccess.ErrRateLimited), attempts)
	// Output:
	// 429 Ratelimit exceed
	// true 2
}

// The faults of the README's test: a 429 with Retry-After, then a 503. The
// client's three default attempts retry through both, and the walk reads
// the whole block.
func ExampleServer_FailNext_retried() {
	srv, err := tontest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	srv.FailNext(1, nodeaccesstest.RateLimited(time.Second))
	srv.FailNext(1, nodeaccesstest.ServerError(503))
	n := 0
	for _, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock(), Count: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		n++
	}
	fmt.Println(n, "transactions,", srv.Requests(), "requests")
	// Output:
	// 3 transactions, 4 requests
}
