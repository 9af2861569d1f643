package beacon_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
)

// FuzzProveHistory: any slot and any batch (a chain's own, or one of any
// length and content) give ProveBlockRoot and ProveStateRoot either a proof
// that verifies against the state root, whose leaf is the ring's or the
// batch's element for the slot, or an InputError; never a panic. A Prover
// that ReadProver made from the same state (keeping no list elements)
// gives the same proof or the same error.
func FuzzProveHistory(f *testing.F) {
	const per = 64 // minimal SLOTS_PER_HISTORICAL_ROOT
	c := newChain(f, beacon.Deneb, beacon.MinimalPreset(), 2, 3, 1)
	p, err := beacon.NewProver(c.st)
	if err != nil {
		f.Fatal(err)
	}
	data, err := marshalSSZ(c.st)
	if err != nil {
		f.Fatal(err)
	}
	streamed, err := beacon.ReadProver(bytes.NewReader(data), sszBody(beacon.Deneb, len(data)), bytes.NewReader(data), beacon.ReadOptions{Preset: beacon.MinimalPreset()})
	if err != nil {
		f.Fatal(err)
	}
	now := uint64(c.st.Slot)
	for _, slot := range []uint64{0, 1, per + 5, 3*per + 9, 4*per + 63, now - per - 1, now - per, now - 1, now, now + 1, 1 << 63} {
		f.Add(slot, true, uint16(0), uint16(0), byte(0), false)
		f.Add(slot, false, uint16(per), uint16(per), byte(7), true)
	}
	f.Fuzz(func(t *testing.T, slot uint64, own bool, nb, ns uint16, fill byte, states bool) {
		var past *beacon.HistoricalBatch
		if own {
			if k := slot / per; k < uint64(len(c.batches)) {
				past = &c.batches[k]
			}
		} else if nb > 0 || ns > 0 {
			past = &beacon.HistoricalBatch{BlockRoots: make([]beacon.Root, nb%300), StateRoots: make([]beacon.Root, ns%300)}
			for i := range past.BlockRoots {
				past.BlockRoots[i][0] = fill
			}
		}
		prove, proveStreamed, leafOf := p.ProveBlockRoot, streamed.ProveBlockRoot, func(b *beacon.HistoricalBatch) []beacon.Root { return b.BlockRoots }
		ring := c.st.BlockRoots
		if states {
			prove, proveStreamed, leafOf, ring = p.ProveStateRoot, streamed.ProveStateRoot, func(b *beacon.HistoricalBatch) []beacon.Root { return b.StateRoots }, c.st.StateRoots
		}
		pr, err := prove(beacon.Slot(slot), past)
		spr, serr := proveStreamed(beacon.Slot(slot), past)
		if fmt.Sprint(err) != fmt.Sprint(serr) || !reflect.DeepEqual(pr, spr) {
			t.Fatalf("slot %d: NewProver's %v (%v), ReadProver's %v (%v)", slot, pr, err, spr, serr)
		}
		if err != nil {
			var ie *nodeaccess.InputError
			if !errors.As(err, &ie) || !errors.Is(err, nodeaccess.ErrInvalidInput) {
				t.Fatalf("slot %d: %T %v", slot, err, err)
			}
			return
		}
		if !pr.Verify(p.StateRoot()) {
			t.Fatalf("slot %d: the proof does not verify", slot)
		}
		want := ring[slot%per]
		if now-slot > per {
			want = leafOf(past)[slot%per]
		}
		if pr.Leaf != want {
			t.Fatalf("slot %d: leaf %s, want %s", slot, pr.Leaf, want)
		}
	})
}
