package bench_test

import (
	"runtime"
	"testing"

	"github.com/attestantio/go-eth2-client/spec"
	"github.com/attestantio/go-eth2-client/spec/altair"
	"github.com/attestantio/go-eth2-client/spec/bellatrix"
	"github.com/attestantio/go-eth2-client/spec/capella"
	"github.com/attestantio/go-eth2-client/spec/deneb"
	"github.com/attestantio/go-eth2-client/spec/electra"
	"github.com/attestantio/go-eth2-client/spec/fulu"
	"github.com/attestantio/go-eth2-client/spec/gloas"
	"github.com/attestantio/go-eth2-client/spec/phase0"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// versioned wraps a go-eth2-client state of fork v in its
// VersionedBeaconState, whose GetTree builds the whole merkle tree.
func versioned(v beacon.Version, s peerState) *spec.VersionedBeaconState {
	vs := &spec.VersionedBeaconState{}
	switch v {
	case beacon.Phase0:
		vs.Version, vs.Phase0 = spec.DataVersionPhase0, s.(*phase0.BeaconState)
	case beacon.Altair:
		vs.Version, vs.Altair = spec.DataVersionAltair, s.(*altair.BeaconState)
	case beacon.Bellatrix:
		vs.Version, vs.Bellatrix = spec.DataVersionBellatrix, s.(*bellatrix.BeaconState)
	case beacon.Capella:
		vs.Version, vs.Capella = spec.DataVersionCapella, s.(*capella.BeaconState)
	case beacon.Deneb:
		vs.Version, vs.Deneb = spec.DataVersionDeneb, s.(*deneb.BeaconState)
	case beacon.Electra:
		vs.Version, vs.Electra = spec.DataVersionElectra, s.(*electra.BeaconState)
	case beacon.Fulu:
		vs.Version, vs.Fulu = spec.DataVersionFulu, s.(*fulu.BeaconState)
	case beacon.Gloas:
		vs.Version, vs.Gloas = spec.DataVersionGloas, s.(*gloas.BeaconState)
	}
	return vs
}

// TestDifferentialProofs checks our proofs against go-eth2-client's (its
// GetTree and Prove, through dynamic-ssz v1.4.0) for every fork from phase0
// to gloas: for the gindices GIndexOf computes (every top-level field,
// validators, each validator field, balances, a public key's chunks,
// elements of the other lists) both give the same leaf and the same
// branch, and the proof verifies against the state root.
func TestDifferentialProofs(t *testing.T) {
	for _, v := range allForks() {
		t.Run(v.String(), func(t *testing.T) {
			st := beacontest.NewState(v, beacon.MainnetPreset(), 70, 8)
			ssz, err := marshalSSZ(st)
			if err != nil {
				t.Fatal(err)
			}
			peer := newPeerState(v)
			if err := peer.UnmarshalSSZ(ssz); err != nil {
				t.Fatal(err)
			}
			tree, err := versioned(v, peer).GetTree()
			if err != nil {
				t.Fatal(err)
			}
			p, err := beacon.NewProver(st)
			if err != nil {
				t.Fatal(err)
			}
			if got := beacon.Root(tree.Hash()); got != p.StateRoot() {
				t.Fatalf("go-eth2-client's tree root %s, ours %s", got, p.StateRoot())
			}

			var gs []beacon.GIndex
			add := func(g beacon.GIndex, err error) {
				if err != nil {
					t.Fatal(err)
				}
				gs = append(gs, g)
			}
			for _, name := range fieldNames(t, p) {
				add(p.GIndexOf(name))
			}
			for _, i := range []beacon.ValidatorIndex{0, 1, 15, 16, 33, 69} {
				g, err := p.GIndexOf("validators", i)
				add(g, err)
				for f := range 8 {
					add(concatGIndices(g, beacon.GIndex(8+f)))
				}
				add(concatGIndices(g, 8, 2)) // the pubkey's first chunk
				add(concatGIndices(g, 8, 3)) // and its second
				add(p.GIndexOf("balances", i))
			}
			for _, name := range []string{"eth1_data_votes", "historical_summaries", "pending_deposits", "pending_partial_withdrawals", "pending_consolidations", "previous_epoch_attestations", "block_roots", "randao_mixes"} {
				g, err := p.GIndexOf(name)
				if err != nil {
					continue // not in this fork
				}
				add(g*2+1, nil) // the list's length
				add(concatGIndices(g, 2))
				add(concatGIndices(g, 4)) // an inner node
			}
			// Paths through GIndexOf (the specs' get_generalized_index).
			add(p.GIndexOf("finalized_checkpoint", "root"))
			add(p.GIndexOf("validators", 33, "exit_epoch"))
			add(p.GIndexOf("validators", "__len__"))
			add(p.GIndexOf("randao_mixes", 1000))
			if v == beacon.Phase0 {
				add(p.GIndexOf("previous_epoch_attestations", 0, "data", "target", "root"))
			}
			if v >= beacon.Electra {
				add(p.GIndexOf("pending_deposits", 1, "amount"))
				add(p.GIndexOf("pending_consolidations", 0, "target_index"))
			}
			if g, err := p.GIndexOf("current_sync_committee"); err == nil {
				add(concatGIndices(g, 2, 512+5)) // key 5
			}
			if g, err := p.GIndexOf("latest_execution_payload_header"); err == nil {
				width := beacon.GIndex(16) // 14 or 15 fields
				if v >= beacon.Deneb {
					width = 32 // 17 fields
				}
				add(concatGIndices(g, width+10))      // extra_data
				add(concatGIndices(g, (width+10)*2))  // its contents
				add(concatGIndices(g, (width+4)*8+3)) // logs_bloom's fourth chunk
			}

			for _, g := range gs {
				ours, err := p.Prove(g)
				if err != nil {
					t.Fatalf("gindex %d: %v", g, err)
				}
				theirs, err := tree.Prove(int(g))
				if err != nil {
					t.Fatalf("go-eth2-client, gindex %d: %v", g, err)
				}
				if beacon.Root(theirs.Leaf) != ours.Leaf {
					t.Fatalf("gindex %d: leaf %s, go-eth2-client %x", g, ours.Leaf, theirs.Leaf)
				}
				if len(theirs.Hashes) != len(ours.Branch) {
					t.Fatalf("gindex %d: %d siblings, go-eth2-client %d", g, len(ours.Branch), len(theirs.Hashes))
				}
				for i := range theirs.Hashes {
					if beacon.Root(theirs.Hashes[i]) != ours.Branch[i] {
						t.Fatalf("gindex %d: sibling %d is %s, go-eth2-client %x", g, i, ours.Branch[i], theirs.Hashes[i])
					}
				}
				if !ours.Verify(p.StateRoot()) {
					t.Fatalf("gindex %d does not verify", g)
				}
			}
			t.Logf("%d proofs compared", len(gs))
		})
	}
}

// fieldNames returns the top-level field names of p's fork.
func fieldNames(t *testing.T, p *beacon.Prover) []string {
	t.Helper()
	var names []string
	for _, n := range allFieldNames {
		if _, err := p.GIndexOf(n); err == nil {
			names = append(names, n)
		}
	}
	if len(names) < 21 {
		t.Fatalf("only %d fields: %v", len(names), names)
	}
	return names
}

var allFieldNames = []string{"genesis_time", "genesis_validators_root", "slot", "fork", "latest_block_header",
	"block_roots", "state_roots", "historical_roots", "eth1_data", "eth1_data_votes", "eth1_deposit_index",
	"validators", "balances", "randao_mixes", "slashings", "previous_epoch_attestations",
	"current_epoch_attestations", "previous_epoch_participation", "current_epoch_participation",
	"justification_bits", "previous_justified_checkpoint", "current_justified_checkpoint",
	"finalized_checkpoint", "inactivity_scores", "current_sync_committee", "next_sync_committee",
	"latest_execution_payload_header", "next_withdrawal_index", "next_withdrawal_validator_index",
	"historical_summaries", "deposit_requests_start_index", "deposit_balance_to_consume",
	"exit_balance_to_consume", "earliest_exit_epoch", "consolidation_balance_to_consume",
	"earliest_consolidation_epoch", "pending_deposits", "pending_partial_withdrawals",
	"pending_consolidations", "proposer_lookahead", "latest_block_hash", "builders",
	"next_withdrawal_builder_index", "execution_payload_availability", "builder_pending_payments",
	"builder_pending_withdrawals", "latest_execution_payload_bid", "payload_expected_withdrawals", "ptc_window"}

// BenchmarkBeaconProver measures proofs on the mainnet-size fulu state
// (2.15 million validators): "prepare" is NewProver (one hash of the
// state; compare BenchmarkBeaconHashTreeRoot), reporting the memory the
// Prover keeps (retained-B), its peak while preparing (peak-heap-B) and
// the state's own heap size (state-B) for the ratio; the others are one
// proof each from a prepared Prover, over validator indices spread across
// the registry.
func BenchmarkBeaconProver(b *testing.B) {
	f := bigState()
	post := *f.st // the post-state of its block: the header's state_root not yet filled
	post.LatestBlockHeader.StateRoot = beacon.Root{}
	want, err := beacon.HashTreeRoot(&post)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("prepare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			settle(b)
			p, err := beacon.NewProver(&post)
			if err != nil || p.StateRoot() != want {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		before := liveHeap()
		var p *beacon.Prover
		peak := peakHeap(func() { p, _ = beacon.NewProver(&post) })
		b.ReportMetric(float64(liveHeap()-before), "retained-B")
		b.ReportMetric(float64(peak), "peak-heap-B")
		runtime.KeepAlive(p)
		p = nil
		before = liveHeap()
		st, err := unmarshalSSZ(f.ssz, beacon.Fulu)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(liveHeap()-before), "state-B")
		runtime.KeepAlive(st)
	})
	p, err := beacon.NewProver(&post)
	if err != nil {
		b.Fatal(err)
	}
	idx := func(i int) beacon.ValidatorIndex { return beacon.ValidatorIndex(i * 7919 % mainnetValidators) }
	proofs := []struct {
		name  string
		prove func(i beacon.ValidatorIndex) (beacon.Proof, error)
	}{
		{"validator", func(i beacon.ValidatorIndex) (beacon.Proof, error) { return prove(p, "validators", i) }},
		{"credentials", func(i beacon.ValidatorIndex) (beacon.Proof, error) {
			return prove(p, "validators", i, "withdrawal_credentials")
		}},
		{"balance", func(i beacon.ValidatorIndex) (beacon.Proof, error) { return prove(p, "balances", i) }},
		{"validator-to-block", func(i beacon.ValidatorIndex) (beacon.Proof, error) {
			pr, err := prove(p, "validators", i)
			if err != nil {
				return pr, err
			}
			return p.ToBlockRoot(pr)
		}},
	}
	for _, pc := range proofs {
		b.Run(pc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := pc.prove(idx(i)); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// liveHeap returns the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
