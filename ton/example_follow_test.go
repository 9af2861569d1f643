package ton_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"log"
	"time"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// Follow the chain from masterchain block 1: every transaction of every
// block each masterchain block commits, once, with the cursor to resume
// after it. Here the chain is tontest's (two masterchain blocks, two
// shards); on a provider, From: ton.FollowCursor{} starts at the newest
// block and the loop runs until the context ends.
func ExampleClient_Follow() {
	srv, err := tontest.New(tontest.WithChain(0), tontest.WithoutDefaults())
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	if err := srv.Advance(1); err != nil { // masterchain block 2
		log.Fatal(err)
	}
	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for tx, err := range c.Follow(ctx, ton.FollowQuery{From: ton.FollowCursor{Seqno: 1}}) {
		if err != nil {
			log.Fatal(err) // or log it, store tx.Cursor of the last one, and resume later
		}
		fmt.Printf("round %d %s lt %d, then %s\n", tx.Masterchain, tx.Block.BlockRef, tx.LT, tx.Cursor)
		if tx.Cursor.Seqno > 2 {
			break // caught up with block 2
		}
	}
	// Output:
	// round 1 (0,4000000000000000,1) lt 1000002, then 1/1
	// round 1 (0,4000000000000000,2) lt 1000014, then 1/1/0:21c5ce6677d2674b1ab5fae57f808e8acf2ce959f1165215808b9bb288c7c6fd/1000014
	// round 1 (0,4000000000000000,2) lt 1000016, then 1/2
	// round 1 (-1,8000000000000000,1) lt 1000028, then 2
	// round 2 (0,C000000000000000,1) lt 1000040, then 2/1
	// round 2 (-1,8000000000000000,2) lt 1000052, then 3
}

// A deposit scanner: follow the chain and read the jetton transfers its
// transactions receive. Check that the jetton wallet (the in-message's
// Destination) is the one the jetton master gives for the owner before
// trusting a transfer: anyone can send these messages.
func ExampleMessage_ParseJettonTransfer() {
	// An internal_transfer's body, as a message carries it (a bag of cells):
	// a real one, from tongo's tests.
	body, err := hex.DecodeString("b5ee9c720101020100600001ad178d45190000000067065c7e66532ecb20c5f80187e3b51d9b51f19a85759c449d47e36d2e3d54fea98925a9a320a4f69eae7ef90030fc76a3b36a3e3350aeb38893a8fc6da5c7aa9fd53124b53464149ed3d5cfdf040701000800000000")
	if err != nil {
		log.Fatal(err)
	}
	m := ton.Message{Body: body}
	t, ok := m.ParseJettonTransfer()
	fmt.Println(ok, t.Op, t.Amount, t.Sender, t.HasComment, fmt.Sprintf("%q", t.Comment))
	// Output:
	// true internal_transfer 111269393861727 0:c3f1da8ecda8f8cd42bace224ea3f1b6971eaa7f54c492d4d190527b4f573f7c true ""
}
