package beacontest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
)

// The default chain: fetch the head state and compare it with what the
// server holds.
func Example() {
	srv, err := beacontest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	res, body, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	if err != nil {
		log.Fatal(err)
	}
	root, err := beacon.HashTreeRoot(res)
	if err != nil {
		log.Fatal(err)
	}
	head, _ := srv.Lookup(beacon.Head)
	fmt.Println(res.Version, body.Encoding, res.Slot, len(res.Validators))
	fmt.Println("same root as served:", root == head.Root)
	for _, info := range srv.States() {
		fmt.Println(info.Slot, info.Version, "finalized:", info.Flags.Finalized)
	}
	// Output:
	// fulu ssz 13200031 16384
	// same root as served: true
	// 0 phase0 finalized: true
	// 13199936 fulu finalized: true
	// 13199968 fulu finalized: false
	// 13200031 fulu finalized: false
}

// Serve your own states, with a key of your choice; the client decodes with
// the head state's preset.
func ExampleWithStates() {
	older := beacontest.NewState(beacon.Deneb, beacon.MinimalPreset(), 64, 1)
	older.Slot = 100
	newer := beacontest.NewState(beacon.Electra, beacon.MinimalPreset(), 64, 2)
	newer.Slot = 108
	srv, err := beacontest.New(beacontest.WithKey("test-key"), beacontest.WithStates(older, newer))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	c, err := srv.Client(beacon.WithEncoding(beacon.EncodingJSON))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	for _, id := range []beacon.StateID{beacon.Head, beacon.Genesis, beacon.SlotID(100)} {
		res, body, err := c.State(ctx, id, beacon.StateOptions{})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(id, "->", res.Version, res.Slot, body.Encoding)
	}
	_, _, err = c.State(ctx, beacon.SlotID(104), beacon.StateOptions{})
	fmt.Println(errors.Is(err, nodeaccess.ErrNotFound))
	fmt.Println(err)
	// Output:
	// head -> electra 108 json
	// genesis -> deneb 100 json
	// 100 -> deneb 100 json
	// true
	// beacon: getStateV2: state 104: HTTP 404 Not Found: NOT_FOUND: beacon state at slot 104
}

// Queue faults to see how your code copes: two 429s are waited out.
func ExampleServer_FailNext() {
	st := beacontest.NewState(beacon.Fulu, beacon.MinimalPreset(), 16, 1)
	srv, err := beacontest.New(beacontest.WithStates(st))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	attempts := 0
	c, err := srv.Client(nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
		attempts++
		fmt.Println("attempt", a.Number, "status", a.StatusCode)
	}))
	if err != nil {
		log.Fatal(err)
	}
	srv.FailNext(2, nodeaccesstest.RateLimited(time.Second))
	if _, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(attempts, "attempts,", srv.RequestCount(), "requests")
	// Output:
	// attempt 1 status 429
	// attempt 2 status 429
	// attempt 3 status 200
	// 3 attempts, 3 requests
}

// Pin a name to a state of your choice.
func ExampleServer_Pin() {
	srv, err := beacontest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	if err := srv.Pin(beacon.Finalized, defaultJustifiedSlot); err != nil {
		log.Fatal(err)
	}
	fin, _ := srv.Lookup(beacon.Finalized)
	head, _ := srv.Lookup(beacon.Head)
	fmt.Println(fin.Slot, fin.Flags.Finalized, head.Flags.Finalized)
	// Output:
	// 13199968 true false
}
