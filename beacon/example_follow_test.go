package beacon_test

import (
	"context"
	"fmt"
	"time"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// Follow the chain from slot 1 against a local beacon node, and see a
// reorganisation: the block that left the chain comes again with Removed
// set, then its replacement. Store Cursor to resume after a restart.
func ExampleClient_Follow() {
	srv, err := beacontest.New(beacontest.WithStates()) // the chain of headers alone
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	if err := srv.Advance(4, 2); err != nil { // slots 1 to 4, slot 2 empty
		panic(err)
	}
	c, err := srv.Client()
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	n := 0
	q := beacon.FollowQuery{From: beacon.FollowCursor{Slot: 1}, Poll: 10 * time.Millisecond}
	for h, err := range c.Follow(ctx, q) {
		if err != nil {
			fmt.Println(err) // a fault retried 30 times in a row; the walk goes on
			continue
		}
		fmt.Printf("slot %d removed=%t, resume after slot %d\n", h.Header.Slot, h.Removed, h.Cursor.Slot)
		if n++; n == 3 {
			if err := srv.Reorg(1); err != nil { // block 4 is replaced
				panic(err)
			}
		}
		if n == 5 {
			break
		}
	}
	// Output:
	// slot 1 removed=false, resume after slot 1
	// slot 3 removed=false, resume after slot 3
	// slot 4 removed=false, resume after slot 4
	// slot 4 removed=true, resume after slot 3
	// slot 4 removed=false, resume after slot 4
}
