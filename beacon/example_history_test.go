package beacon_test

import (
	"fmt"
	"log"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// An old block root proven against a newer state, and on to that state's
// block root (the root EIP-4788's beacon roots contract serves): the old
// root sits in its period's block_roots, whose root the newer state keeps
// in historical_summaries. A root of the last 8192 slots needs only the
// newer state.
func ExampleProver_ProveBlockRoot() {
	const per = 8192 // SLOTS_PER_HISTORICAL_ROOT (mainnet)

	// The state at the end of period 1000 (slot 1001·8192), whose
	// block_roots are the period's: in real use
	// c.State(ctx, beacon.SlotID(1001*per), beacon.StateOptions{}), or only its block_roots read
	// from a saved file.
	end := beacontest.NewState(beacon.Electra, beacon.MainnetPreset(), 4, 1)
	end.Slot = 1001 * per
	// The newer state, in real use c.State(ctx, beacon.Head, beacon.StateOptions{}).
	head := beacontest.NewState(beacon.Electra, beacon.MainnetPreset(), 64, 2)
	head.Slot = 1005*per + 40
	head.LatestBlockHeader.StateRoot = beacon.Root{} // the post-state of its block
	// (What the chain did at slot 1001·8192, written in here: the summary
	// of period 1000, the roots of the period's two vectors, counted back
	// from head's slot the fifth from last.)
	ep, err := beacon.NewProver(end)
	if err != nil {
		log.Fatal(err)
	}
	blocks, _ := ep.GIndexOf("block_roots")
	states, _ := ep.GIndexOf("state_roots")
	b, _ := ep.Prove(blocks)
	s, _ := ep.Prove(states)
	head.HistoricalSummaries = make([]beacon.HistoricalSummary, 5)
	head.HistoricalSummaries[0] = beacon.HistoricalSummary{BlockSummaryRoot: b.Leaf, StateSummaryRoot: s.Leaf}

	p, err := beacon.NewProver(head)
	if err != nil {
		log.Fatal(err)
	}
	// A recent slot: head's own block_roots (an electra state's field 5
	// of 64, 69; element j of 8192: 69·8192 + j).
	recent, err := p.ProveBlockRoot(head.Slot-3, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("recent:", recent.Leaf == head.BlockRoots[(head.Slot-3)%per], recent.GIndex, recent.Verify(p.StateRoot()))

	// An older slot: the period's block roots (element 123 of 8192), then
	// its summary (historical_summaries is field 27, 91; entry k of 2^24,
	// block_summary_root its first child: (2·91·2^24 + k)·2), so the index
	// is ((2·91·2^24 + 0)·2)·8192 + 123.
	slot := beacon.Slot(1000*per + 123)
	old, err := p.ProveBlockRoot(slot, &beacon.HistoricalBatch{BlockRoots: end.BlockRoots})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("old:", old.Leaf == end.BlockRoots[123], old.GIndex, len(old.Branch), old.Verify(p.StateRoot()))

	// On to head's block root.
	up, err := p.ToBlockRoot(old)
	if err != nil {
		log.Fatal(err)
	}
	blockRoot, err := p.BlockRoot()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("to the block root:", up.GIndex, len(up.Branch), up.Verify(blockRoot))

	// Without the batch, the error says which state to take it from.
	_, err = p.ProveBlockRoot(slot, nil)
	fmt.Println(err)
	// Output:
	// recent: true 565285 true
	// old: true 50027779063931 45 true
	// to the block root: 401871499952251 48 true
	// invalid input: past: nil, but slot 8192123 is more than 8192 slots before the state's slot 8233000: give the HistoricalBatch of period 1000 (the block_roots of a state at slot 8200192)
}

// The generalized indices a light client proves, per fork: the state's
// against a header's state_root, the body's against its body_root.
func ExampleVersion_LightClientGIndices() {
	for _, v := range []beacon.Version{beacon.Altair, beacon.Capella, beacon.Deneb, beacon.Electra, beacon.Gloas} {
		g := v.LightClientGIndices()
		fmt.Printf("%-8s finalized root %d, sync committees %d/%d, body: execution payload %d, block hash %d\n",
			v, g.FinalizedRoot, g.CurrentSyncCommittee, g.NextSyncCommittee, g.ExecutionPayload, g.ExecutionBlockHash)
	}
	// Output:
	// altair   finalized root 105, sync committees 54/55, body: execution payload 0, block hash 0
	// capella  finalized root 105, sync committees 54/55, body: execution payload 25, block hash 412
	// deneb    finalized root 105, sync committees 54/55, body: execution payload 25, block hash 812
	// electra  finalized root 169, sync committees 86/87, body: execution payload 25, block hash 812
	// gloas    finalized root 735, sync committees 2945/2946, body: execution payload 0, block hash 2856
}
