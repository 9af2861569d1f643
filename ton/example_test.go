package ton_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"log"
	"math/big"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// alice is an account the examples' local server knows, besides the
// defaults of tontest (the recorded masterchain block 39984096 and the
// account 0:00194AAD… with its states and its pending transaction).
var alice = mustAddress("0:5B6A643CF4E32FF0391C476456FED5BDB17EF10A55CBB7C2980C76D4AAD07875")

// localTON starts a local TON endpoint (ton/tontest) that stands in for a
// provider's in these examples: the defaults of tontest (unless opts say
// WithoutDefaults) plus alice's state and address book entry.
func localTON(opts ...tontest.Option) *tontest.Server {
	state := ton.AccountState{
		Account: alice, Status: ton.StatusActive, Balance: big.NewInt(1234567890123),
		Hash:                tontest.RecordedBlock().Transactions[0].Hash,
		LastTransactionLT:   48756940000002,
		LastTransactionHash: tontest.RecordedBlock().Transactions[1].Hash,
	}
	srv, err := tontest.New(opts...)
	if err == nil {
		err = errors.Join(srv.SetAccountStates(alice, state),
			srv.SetAddressBookEntry(alice, ton.AddressBookEntry{UserFriendly: "UQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4dbz1", Domain: "alice.ton"}))
	}
	if err != nil {
		log.Fatal(err)
	}
	return srv
}

// Read one page of a masterchain block's transactions, and the next page
// while the block is incomplete.
func ExampleClient_BlockTransactions() {
	node := localTON() // your provider's base URL and access key in real use
	defer node.Close()
	c, err := ton.New(node.URL, node.Key())
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	q := ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(39984096), Count: 2}
	for {
		page, err := c.BlockTransactions(ctx, q)
		if err != nil {
			log.Fatal(err)
		}
		for _, tx := range page.Transactions {
			fmt.Println(tx.Account.Raw()[:8], tx.LT, tx.Hash, tx.Time.Format("2006-01-02 15:04:05"))
		}
		next, more := page.Next()
		if !more {
			break
		}
		q.After = &next
	}
	// Output:
	// -1:33333 48756940000001 RzoRGcEyx5Ia5tEKUWlCpFbg8B0scpuXSyNXf9a4Nsk= 2024-08-27 07:40:27
	// -1:33333 48756940000002 0kwvliWmBxHEXXWVNhNfBZsQFGaWejcojKq79d3Im+A= 2024-08-27 07:40:27
	// -1:55555 48756940000003 AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src= 2024-08-27 07:40:27
}

// Walk a whole block with an iterator, through the JSON-RPC form of API v2.
func ExampleClient_AllBlockTransactions() {
	node := localTON()
	defer node.Close()
	c, err := ton.New(node.URL, node.Key(), ton.WithJSONRPC())
	if err != nil {
		log.Fatal(err)
	}
	block, err := ton.ParseBlockRef("(-1,8000000000000000,39984096)")
	if err != nil {
		log.Fatal(err)
	}
	n := 0
	for tx, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: block, Count: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		n++
		fmt.Println(n, tx.Account.Friendly(true, false), tx.LT)
	}
	// Output:
	// 1 Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF 48756940000001
	// 2 Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF 48756940000002
	// 3 Ef9VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVbxn 48756940000003
}

// Walk a block with a transaction the server cannot read: the walk yields
// its id with ton.ErrUnreadableTransaction and goes on with the rest.
func ExampleClient_AllBlockTransactions_unreadable() {
	block := tontest.RecordedBlock()
	block.Unreadable = []int{1} // tonlib's "Failed to unpack balance (2)" for it
	node := localTON()
	defer node.Close()
	if err := node.SetBlock(block); err != nil {
		log.Fatal(err)
	}
	c, err := ton.New(node.URL, node.Key())
	if err != nil {
		log.Fatal(err)
	}
	for tx, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock()}) {
		switch {
		case errors.Is(err, ton.ErrUnreadableTransaction):
			fmt.Println("unreadable", tx.LT, tx.Hash)
		case err != nil:
			log.Fatal(err)
		default:
			fmt.Println("read", tx.LT, tx.Fee)
		}
	}
	// Output:
	// read 48756940000001 0
	// unreadable 48756940000002 0kwvliWmBxHEXXWVNhNfBZsQFGaWejcojKq79d3Im+A=
	// read 48756940000003 0
}

// Read a bounced message's body: here one in protocol version 12's format
// (TEP 503), for a jetton transfer that bounced because the destination
// had no state (its compute phase was skipped, exit code -1).
func ExampleMessage_ParseBounce() {
	body, err := base64.StdEncoding.DecodeString("te6ccgEBAwEANQACE/////4A/////0ABAgAlD4p+pREiM0RVZneIQ7msoAAIDgAfNMS0AAABtI61fgALRzvABA==")
	if err != nil {
		log.Fatal(err)
	}
	m := ton.Message{Bounced: true, Body: body}
	b, ok := m.ParseBounce()
	fmt.Println(ok, b.New, b.Phase, b.ExitCode, b.OriginalBits)
	if b.OriginalBits >= 32 {
		fmt.Printf("original op %#08x\n", binary.BigEndian.Uint32(b.Original))
	}
	// Output:
	// true true 0 -1 150
	// original op 0x0f8a7ea5
}

// Read an account's state, and its user-friendly form from the address book.
func ExampleClient_AccountStates() {
	node := localTON()
	defer node.Close()
	c, err := ton.New(node.URL, node.Key())
	if err != nil {
		log.Fatal(err)
	}
	page, err := c.AccountStates(context.Background(), ton.AccountStatesQuery{
		Accounts: []string{"EQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4deEw"}, // any form
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range page.States {
		book := page.AddressBook[s.Account]
		fmt.Println(book.UserFriendly, book.Domain, s.Status)
		fmt.Println("balance (nanotons):", s.Balance)
		fmt.Println("last transaction:", s.LastTransactionLT, s.LastTransactionHash)
	}
	// Output:
	// UQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4dbz1 alice.ton active
	// balance (nanotons): 1234567890123
	// last transaction: 48756940000002 0kwvliWmBxHEXXWVNhNfBZsQFGaWejcojKq79d3Im+A=
}

// Walk every page of accountStates; the walk ends at an empty page (or,
// on a server that does not page, after its one answer).
func ExampleClient_AllAccountStates() {
	node := localTON(tontest.WithoutDefaults()) // alice's state only
	defer node.Close()
	c, err := ton.New(node.URL, node.Key())
	if err != nil {
		log.Fatal(err)
	}
	for s, err := range c.AllAccountStates(context.Background(), ton.AccountStatesQuery{Limit: 50, Sort: ton.SortDesc}) {
		if errors.Is(err, ton.ErrRepeatedPage) {
			log.Fatal("the server ignores offset")
		} else if err != nil {
			log.Fatal(err)
		}
		fmt.Println(s.Account, s.Balance)
	}
	// Output:
	// 0:5b6a643cf4e32ff0391c476456fed5bdb17ef10a55cbb7c2980c76d4aad07875 1234567890123
}

// List an account's pending transactions; nothing pending is an empty page.
func ExampleClient_PendingTransactions() {
	node := localTON()
	defer node.Close()
	c, err := ton.New(node.URL, node.Key())
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	for _, acct := range []string{"0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A", "UQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4dbz1"} {
		page, err := c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{acct}, Limit: 10})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(len(page.Transactions), "pending")
		for _, tx := range page.Transactions {
			fmt.Println(tx.LT, tx.Now.Format("2006-01-02 15:04:05"), tx.MCBlockSeqno, tx.TotalFees)
		}
	}
	// Output:
	// 1 pending
	// 36582626000003 2025-07-08 11:09:36 33013054 6617389
	// 0 pending
}

// Walk every pending transaction of an account, page by page (limit and
// offset). The walk ends at an empty page; nothing is yielded twice (a
// server that ignores offset ends it after its one answer).
func ExampleClient_AllPendingTransactions() {
	// A stand-in for the provider's endpoint: three pending transactions.
	acct, err := ton.ParseAddress("0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A")
	if err != nil {
		log.Fatal(err)
	}
	var pending []ton.PendingTransaction
	for i := range 3 {
		pending = append(pending, ton.PendingTransaction{Account: acct, LT: 36582626000001 + uint64(i), MCBlockSeqno: 33013054,
			Hash: ton.Hash(bytes.Repeat([]byte{byte(i + 1)}, 32)), Now: time.Unix(1751972976+int64(i), 0)})
	}
	node := localTON()
	defer node.Close()
	if err := node.SetPendingTransactions(acct, pending...); err != nil {
		log.Fatal(err)
	}

	c, err := ton.New(node.URL, node.Key())
	if err != nil {
		log.Fatal(err)
	}
	q := ton.PendingTransactionsQuery{Accounts: []string{"0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A"}, Limit: 2}
	for tx, err := range c.AllPendingTransactions(context.Background(), q) {
		if err != nil {
			log.Fatal(err) // yielded once; the walk stops after it
		}
		fmt.Println(tx.LT, tx.Now.Format("15:04:05"), tx.Hash.Hex()[:8])
	}
	// Output:
	// 36582626000001 11:09:36 01010101
	// 36582626000002 11:09:37 02020202
	// 36582626000003 11:09:38 03030303
}

// Addresses compare by account whatever form they come in.
func ExampleParseAddress() {
	raw, _ := ton.ParseAddress("0:5B6A643CF4E32FF0391C476456FED5BDB17EF10A55CBB7C2980C76D4AAD07875")
	wallet, _ := ton.ParseAddress("UQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4dbz1")
	fmt.Println(raw == wallet)
	fmt.Println(raw)
	fmt.Println(raw.Friendly(true, false))
	fmt.Println(raw.Friendly(false, true))

	f, _ := ton.ParseFriendlyAddress("kQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4dVq6")
	fmt.Println(f.Bounceable, f.Testnet, f.Address == raw)

	_, err := ton.ParseAddress("EQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4deEx")
	fmt.Println(err)
	// Output:
	// true
	// 0:5b6a643cf4e32ff0391c476456fed5bdb17ef10a55cbb7c2980c76d4aad07875
	// EQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4deEw
	// 0QBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4dQd_
	// true true true
	// invalid input: address: "EQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4deEx": checksum mismatch (address says e131, content gives e130)
}

// Shards read and write the v2 decimal and the v3 hex forms.
func ExampleParseShardID() {
	a, _ := ton.ParseShardID("-9223372036854775808") // v2
	b, _ := ton.ParseShardID("8000000000000000")     // v3
	fmt.Println(a == b, a == ton.MasterchainShard)
	fmt.Println(strconv.FormatInt(int64(a), 10), a)
	_, err := ton.ParseShardID("shard-0")
	fmt.Println(err)
	// Output:
	// true true
	// -9223372036854775808 8000000000000000
	// invalid input: shard: "shard-0" is not a shard id (16 hex digits, hex digits after 0x, or a signed decimal in the int64 range)
}

// A string of 16 decimal digits is both forms, and ParseShardID reads it as
// hex; where the form is known, "0x" says hex, and a decimal converts.
func ExampleParseShardID_knownForm() {
	guessed, _ := ton.ParseShardID("1125899906842624")
	n, _ := strconv.ParseInt("1125899906842624", 10, 64)
	hex, _ := ton.ParseShardID("0x8")
	fmt.Println(guessed, ton.ShardID(n).String(), strconv.FormatInt(int64(hex), 10))
	// Output:
	// 1125899906842624 0004000000000000 8
}

// Server errors reach the shared typed errors; the key never shows.
func ExampleNew() {
	srv := localTON()
	defer srv.Close()
	srv.FailNext(1, nodeaccesstest.RateLimited(0)) // toncenter's 429 body
	c, err := ton.New(srv.URL, srv.Key(), nodeaccess.WithMaxAttempts(1))
	if err != nil {
		log.Fatal(err)
	}
	_, err = c.BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(1)})
	var he *nodeaccess.HTTPError
	if errors.As(err, &he) {
		fmt.Println(he.StatusCode, he.Message)
	}
	fmt.Println(errors.Is(err, nodeaccess.ErrRateLimited))
	fmt.Println(err)
	fmt.Println(strings.Replace(c.String(), srv.URL, "http://127.0.0.1", 1))
	// Output:
	// 429 Ratelimit exceed
	// true
	// ton: getBlockTransactionsExt: HTTP 429 Too Many Requests: Ratelimit exceed
	// ton.Client{http://127.0.0.1, key REDACTED, v2 REST}
}

// Read the messages of a block's transactions: who sent what, exactly, and
// the comment when there is one.
func ExampleMessage() {
	node := localTON()
	defer node.Close()
	c, err := ton.New(node.URL, node.Key())
	if err != nil {
		log.Fatal(err)
	}
	page, err := c.BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(39984096)})
	if err != nil {
		log.Fatal(err)
	}
	for _, tx := range page.Transactions {
		in := tx.InMsg
		switch {
		case in == nil:
			fmt.Println(tx.LT, "no in-message (a tick-tock transaction)")
		case in.Source == nil:
			fmt.Println(tx.LT, "external message to", in.Destination.Raw()[:8])
		case in.HasComment:
			fmt.Printf("%d %s nanotons from %s, comment %q\n", tx.LT, in.Value, in.Source.Raw()[:8], in.Comment)
		default:
			fmt.Println(tx.LT, in.Value, "nanotons from", in.Source.Raw()[:8], "without a comment")
		}
		fmt.Println(" sent", len(tx.OutMsgs), "messages")
	}
	// Output:
	// 48756940000001 no in-message (a tick-tock transaction)
	//  sent 0 messages
	// 48756940000002 29165187604 nanotons from -1:00000 without a comment
	//  sent 0 messages
	// 48756940000003 no in-message (a tick-tock transaction)
	//  sent 0 messages
}

// Call reaches what the package has no typed call for, in either API
// version, through the same client: here v2 getBlockTransactions (the ids of
// a block's transactions) and v3 accountStates, decoded into the caller's
// own types.
func ExampleClient_Call() {
	srv := localTON()
	defer srv.Close()
	c, err := ton.New(srv.URL, srv.Key())
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	var ids struct {
		Transactions []struct {
			Account ton.Address `json:"account"`
			LT      string      `json:"lt"`
		} `json:"transactions"`
	}
	err = c.Call(ctx, &ids, "v2/getBlockTransactions", url.Values{
		"workchain": {"-1"}, "shard": {strconv.FormatInt(int64(ton.MasterchainShard), 10)}, "seqno": {"39984096"}, "count": {"2"},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, tx := range ids.Transactions {
		fmt.Println(tx.LT, tx.Account)
	}
	var states struct {
		States []struct {
			Balance string `json:"balance"`
		} `json:"account_states"`
	}
	if err := c.Call(ctx, &states, "v3/accountStates", url.Values{"address": {alice.Raw()}}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(states.States[0].Balance)
	err = c.Call(ctx, nil, "v2/getMasterchainInfo", nil)
	fmt.Println(errors.Is(err, nodeaccess.ErrNotFound)) // the local server has no such method
	// Output:
	// 48756940000001 -1:3333333333333333333333333333333333333333333333333333333333333333
	// 48756940000002 -1:3333333333333333333333333333333333333333333333333333333333333333
	// 1234567890123
	// true
}
