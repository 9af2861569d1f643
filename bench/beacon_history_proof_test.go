package bench_test

import (
	"crypto/sha256"
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// go-eth2-client v0.30.1 as a proof oracle, gloas included. Its merkle
// tree (VersionedBeaconState.GetTree, dynamic-ssz v1.4.0) has the specs'
// shape on every fork, gloas's progressive state container and lists
// included: its root is the state's root, and its Prove(gindex) at the
// spec's (progressive) generalized indices gives the leaf and the branch
// ours gives. Its name-based helpers do not: FieldGeneralizedIndex
// computes a binary index for every container (84 for gloas's
// finalized_checkpoint, whose progressive index is 367), so ProveField
// returns, without an error, a branch that does not prove the field, or
// "Node not found in tree" (validators, block_roots). The bench uses
// GetTree + Prove with our generalized indices, never FieldGeneralizedIndex
// or ProveField. TestPeerFieldHelpersBinary pins that behaviour, so that a
// go-eth2-client that changes it fails here.

// peerTree decodes st's SSZ in go-eth2-client and returns its tree.
func peerTree(t *testing.T, st *beacon.State) (tree interface {
	Hash() []byte
}, prove func(g beacon.GIndex) (leaf beacon.Root, branch []beacon.Root)) {
	t.Helper()
	ssz, err := marshalSSZ(st)
	if err != nil {
		t.Fatal(err)
	}
	peer := newPeerState(st.Version)
	if err := peer.UnmarshalSSZ(ssz); err != nil {
		t.Fatal(err)
	}
	n, err := versioned(st.Version, peer).GetTree()
	if err != nil {
		t.Fatal(err)
	}
	return n, func(g beacon.GIndex) (beacon.Root, []beacon.Root) {
		t.Helper()
		pr, err := n.Prove(int(g))
		if err != nil {
			t.Fatalf("go-eth2-client, gindex %d: %v", g, err)
		}
		out := make([]beacon.Root, len(pr.Hashes))
		for i, h := range pr.Hashes {
			out[i] = beacon.Root(h)
		}
		return beacon.Root(pr.Leaf), out
	}
}

// TestDifferentialHistoryProofs checks ProveBlockRoot and ProveStateRoot
// against go-eth2-client's trees on every fork (mainnet): a root of the
// last 8192 slots is go-eth2-client's proof of the ring element; an older
// one is, bottom-up, go-eth2-client's proof of the element in the period's
// state (the state at the period's end, its first 13 siblings: the
// vector's) and its proof of the period's entry in the newer state
// (historical_summaries[k].block_summary_root / state_summary_root from
// capella, historical_roots[P] and the batch's other vector before). The
// entry's value is computed from go-eth2-client's tree of the period's
// state, so the two states are tied by go-eth2-client's hashing, not ours.
// The light-client generalized indices of each fork prove, in
// go-eth2-client's tree, the leaves ours prove.
func TestDifferentialHistoryProofs(t *testing.T) {
	const per = 8192
	for _, v := range allForks() {
		t.Run(v.String(), func(t *testing.T) {
			const period, later = 41, 3 // the older period, and how many periods later the newer state is
			old := beacontest.NewState(v, beacon.MainnetPreset(), 8, uint64(v)+500)
			old.Slot = (period + 1) * per
			_, oldProve := peerTree(t, old)
			op, err := beacon.NewProver(old)
			if err != nil {
				t.Fatal(err)
			}
			gb, err := op.GIndexOf("block_roots")
			if err != nil {
				t.Fatal(err)
			}
			gs, err := op.GIndexOf("state_roots")
			if err != nil {
				t.Fatal(err)
			}
			blocksRoot, _ := oldProve(gb) // go-eth2-client's roots of the period's vectors
			statesRoot, _ := oldProve(gs)

			st := beacontest.NewState(v, beacon.MainnetPreset(), 40, uint64(v)+600)
			st.Slot = (period+later)*per + 77
			st.LatestBlockHeader.StateRoot = beacon.Root{}
			if v >= beacon.Capella {
				// Entry k covers period (slot/8192 - len + k): put the
				// period's summary at k = 2 of 2+later.
				st.HistoricalSummaries = make([]beacon.HistoricalSummary, 2+later)
				for i := range st.HistoricalSummaries {
					st.HistoricalSummaries[i] = beacon.HistoricalSummary{BlockSummaryRoot: beacon.Root{byte(i), 1}, StateSummaryRoot: beacon.Root{byte(i), 2}}
				}
				st.HistoricalSummaries[2] = beacon.HistoricalSummary{BlockSummaryRoot: blocksRoot, StateSummaryRoot: statesRoot}
			} else {
				st.HistoricalRoots = make([]beacon.Root, period+later)
				for i := range st.HistoricalRoots {
					st.HistoricalRoots[i] = beacon.Root{byte(i), 3}
				}
				st.HistoricalRoots[period] = sha256.Sum256(append(blocksRoot[:], statesRoot[:]...)) // HistoricalBatch's root
			}
			tree, prove := peerTree(t, st)
			p, err := beacon.NewProver(st)
			if err != nil {
				t.Fatal(err)
			}
			if beacon.Root(tree.Hash()) != p.StateRoot() {
				t.Fatalf("go-eth2-client's tree root %x, ours %s", tree.Hash(), p.StateRoot())
			}
			same := func(what string, leaf beacon.Root, branch []beacon.Root, pr beacon.Proof) {
				t.Helper()
				if leaf != pr.Leaf || len(branch) != len(pr.Branch) {
					t.Fatalf("%s: leaf %s and %d siblings, go-eth2-client %s and %d", what, pr.Leaf, len(pr.Branch), leaf, len(branch))
				}
				for i := range branch {
					if branch[i] != pr.Branch[i] {
						t.Fatalf("%s: sibling %d is %s, go-eth2-client %s", what, i, pr.Branch[i], branch[i])
					}
				}
				if !pr.Verify(p.StateRoot()) {
					t.Fatalf("%s does not verify", what)
				}
			}

			// The last 8192 slots.
			for _, slot := range []beacon.Slot{st.Slot - 1, st.Slot - 100, st.Slot - per} {
				pr, err := p.ProveBlockRoot(slot, nil)
				if err != nil {
					t.Fatal(err)
				}
				leaf, branch := prove(pr.GIndex)
				same(fmt.Sprintf("block root of slot %d", slot), leaf, branch, pr)
				pr, err = p.ProveStateRoot(slot, nil)
				if err != nil {
					t.Fatal(err)
				}
				leaf, branch = prove(pr.GIndex)
				same(fmt.Sprintf("state root of slot %d", slot), leaf, branch, pr)
			}

			// The older period.
			batch := &beacon.HistoricalBatch{BlockRoots: old.BlockRoots, StateRoots: old.StateRoots}
			for _, j := range []uint64{0, 4097, per - 1} {
				slot := beacon.Slot(period*per + j)
				for _, c := range []struct {
					name  string
					prove func(beacon.Slot, *beacon.HistoricalBatch) (beacon.Proof, error)
					field beacon.GIndex // in the period's state
					entry []any         // in the newer state
					other beacon.Root   // the batch's other vector, before capella
				}{
					{"block", p.ProveBlockRoot, gb, []any{"historical_summaries", 2, "block_summary_root"}, statesRoot},
					{"state", p.ProveStateRoot, gs, []any{"historical_summaries", 2, "state_summary_root"}, blocksRoot},
				} {
					what := fmt.Sprintf("%s root of slot %d", c.name, slot)
					pr, err := c.prove(slot, batch)
					if err != nil {
						t.Fatal(what, err)
					}
					g, err := concatGIndices(c.field, beacon.GIndex(per+j))
					if err != nil {
						t.Fatal(err)
					}
					leaf, inner := oldProve(g)
					inner = inner[:13] // the siblings inside the vector
					if v < beacon.Capella {
						inner = append(inner, c.other)
						c.entry = []any{"historical_roots", period}
					}
					ge, err := p.GIndexOf(c.entry...)
					if err != nil {
						t.Fatal(err)
					}
					_, outer := prove(ge)
					same(what, leaf, append(inner, outer...), pr)
				}
			}

			// The light-client generalized indices.
			lc := v.LightClientGIndices()
			for _, g := range []beacon.GIndex{lc.FinalizedRoot, lc.CurrentSyncCommittee, lc.NextSyncCommittee} {
				if g == 0 {
					continue
				}
				pr, err := p.Prove(g)
				if err != nil {
					t.Fatal(err)
				}
				leaf, branch := prove(g)
				same(fmt.Sprintf("light-client gindex %d", g), leaf, branch, pr)
			}
			if pr, _ := p.Prove(lc.FinalizedRoot); pr.Leaf != st.FinalizedCheckpoint.Root {
				t.Fatalf("gindex %d is not finalized_checkpoint.root", lc.FinalizedRoot)
			}
		})
	}
}

// TestPeerFieldHelpersBinary pins what go-eth2-client v0.30.1's name-based
// proof helpers do on a gloas state: FieldGeneralizedIndex is binary (84
// for finalized_checkpoint, 75 for validators), ProveField's branch for
// finalized_checkpoint does not prove it at 84 (nor at the progressive
// 367), and for validators it fails with "Node not found in tree"; while
// GetTree + Prove at the progressive 367 proves it (TestDifferentialProofs
// compares every field that way).
func TestPeerFieldHelpersBinary(t *testing.T) {
	st := beacontest.NewState(beacon.Gloas, beacon.MainnetPreset(), 40, 9)
	ssz, err := marshalSSZ(st)
	if err != nil {
		t.Fatal(err)
	}
	peer := newPeerState(beacon.Gloas)
	if err := peer.UnmarshalSSZ(ssz); err != nil {
		t.Fatal(err)
	}
	vs := versioned(beacon.Gloas, peer)
	p, err := beacon.NewProver(st)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := p.GIndexOf("finalized_checkpoint")
	if err != nil {
		t.Fatal(err)
	}
	if ours != 367 {
		t.Fatalf("our finalized_checkpoint gindex %d, want 367", ours)
	}
	g, err := vs.FieldGeneralizedIndex("FinalizedCheckpoint")
	if err != nil || g != 84 {
		t.Fatalf("go-eth2-client's FieldGeneralizedIndex(FinalizedCheckpoint) = %d, %v; this test pins 84 (binary): update the bench README if it changed", g, err)
	}
	branch, err := vs.ProveField("FinalizedCheckpoint")
	if err != nil {
		t.Fatalf("ProveField(FinalizedCheckpoint): %v; this test pins a silent wrong proof", err)
	}
	leaf, err := beacon.HashTreeRoot(st.FinalizedCheckpoint)
	if err != nil {
		t.Fatal(err)
	}
	hb := make([]beacon.Root, len(branch))
	for i := range branch {
		hb[i] = beacon.Root(branch[i])
	}
	for _, at := range []beacon.GIndex{84, 367} {
		if (beacon.Proof{Leaf: leaf, Branch: hb, GIndex: at}).Verify(p.StateRoot()) {
			t.Fatalf("go-eth2-client's ProveField(FinalizedCheckpoint) proves the checkpoint at %d: update the bench README", at)
		}
	}
	if g, err := vs.FieldGeneralizedIndex("Validators"); err != nil || g != 75 {
		t.Fatalf("FieldGeneralizedIndex(Validators) = %d, %v, pinned 75", g, err)
	}
	if _, err := vs.ProveField("Validators"); err == nil || !strings.Contains(err.Error(), "Node not found in tree") {
		t.Fatalf("ProveField(Validators): %v, pinned \"Node not found in tree\"", err)
	}
	tree, err := vs.GetTree()
	if err != nil {
		t.Fatal(err)
	}
	pr, err := tree.Prove(int(ours))
	if err != nil {
		t.Fatal(err)
	}
	if beacon.Root(pr.Leaf) != leaf || len(pr.Hashes) != bits.Len64(uint64(ours))-1 {
		t.Fatalf("GetTree+Prove(367): leaf %x, %d siblings", pr.Leaf, len(pr.Hashes))
	}
}
