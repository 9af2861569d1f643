package beacon_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/require"
)

// The gindex formulas of the past proofs, written out from the specs (the
// containers' field positions, SLOTS_PER_HISTORICAL_ROOT, HISTORICAL_ROOTS_LIMIT
// = 2^24 in both presets): block_roots[j] is g_field·SPHR + j; a list
// element k is 2·g_field·2^24 + k; a summary's roots are its children
// ·2 + 0 (blocks) and + 1 (states); a HistoricalBatch's vectors are its
// children 2 and 3.

// historyFields returns the generalized indices of block_roots,
// state_roots, historical_roots and historical_summaries in the state of
// fork v: binary (next power of two of the field count + position) before
// gloas, progressive in gloas (fields 5-20 at 352 + (i-5), 21-84 at
// 2944 + (i-21)).
func historyFields(v beacon.Version) (blocks, states, hist, summaries beacon.GIndex) {
	switch {
	case v >= beacon.Gloas:
		return 352, 353, 354, 2944 + 27 - 21
	case v >= beacon.Electra: // 37 or 38 fields: 64 + i
		return 64 + 5, 64 + 6, 64 + 7, 64 + 27
	default: // 21 to 28 fields: 32 + i
		return 32 + 5, 32 + 6, 32 + 7, 32 + 27
	}
}

// merkleizeRoots is the specs' merkleize of a vector of roots (a power of
// two of them), written out here apart from the package.
func merkleizeRoots(roots []beacon.Root) beacon.Root {
	level := append([]beacon.Root(nil), roots...)
	for len(level) > 1 {
		next := make([]beacon.Root, len(level)/2)
		for i := range next {
			next[i] = sha256.Sum256(append(level[2*i][:], level[2*i+1][:]...))
		}
		level = next
	}
	return level[0]
}

// TestProveRootsInWindow proves block and state roots of the last
// SLOTS_PER_HISTORICAL_ROOT slots, on every fork and both presets, at
// the window's edges (slot = state slot - 1 and state slot - SPHR) and
// between: the leaf is the ring's element slot % SPHR, the index is the
// formula's, the branch verifies by the specs' rule, and it goes on to
// the block root. A slot outside the window is an InputError naming it.
func TestProveRootsInWindow(t *testing.T) {
	for _, p := range presets {
		for _, v := range allForks() {
			t.Run(p.Name+"/"+v.String(), func(t *testing.T) {
				per := p.SlotsPerHistoricalRoot
				st := beacontest.NewState(v, p, 9, uint64(v)+7)
				st.Slot = beacon.Slot(40*per + 3) // the window wraps the ring
				st.LatestBlockHeader.StateRoot = beacon.Root{}
				pv, err := beacon.NewProver(st)
				require.NoError(t, err)
				blockRoot, err := pv.BlockRoot()
				require.NoError(t, err)
				gb, gs, _, _ := historyFields(v)
				for _, slot := range []beacon.Slot{st.Slot - 1, st.Slot - 2, st.Slot - 3, st.Slot - 4, st.Slot - beacon.Slot(per)/2, st.Slot - beacon.Slot(per)} {
					j := uint64(slot) % per
					for _, c := range []struct {
						name  string
						prove func(beacon.Slot, *beacon.HistoricalBatch) (beacon.Proof, error)
						ring  []beacon.Root
						g     beacon.GIndex
					}{{"block", pv.ProveBlockRoot, st.BlockRoots, gb}, {"state", pv.ProveStateRoot, st.StateRoots, gs}} {
						what := fmt.Sprintf("%s root of slot %d", c.name, slot)
						pr, err := c.prove(slot, nil)
						require.NoError(t, err, what)
						require.Equal(t, c.ring[j], pr.Leaf, what)
						require.Equal(t, c.g*beacon.GIndex(per)+beacon.GIndex(j), pr.GIndex, what)
						checkProof(t, pr, pv.StateRoot(), what)
						// past is ignored in the window.
						again, err := c.prove(slot, &beacon.HistoricalBatch{})
						require.NoError(t, err, what)
						require.Equal(t, pr, again, what)
						up, err := pv.ToBlockRoot(pr)
						require.NoError(t, err, what)
						checkProof(t, up, blockRoot, what+" to the block root")
					}
				}
				for _, slot := range []beacon.Slot{st.Slot, st.Slot + 1, st.Slot + 1<<40} {
					_, err := pv.ProveBlockRoot(slot, nil)
					requireInputError(t, err, "slot", fmt.Sprintf("%d is not before the state's slot %d", slot, st.Slot))
					_, err = pv.ProveStateRoot(slot, nil)
					requireInputError(t, err, "slot", fmt.Sprintf("%d is not before the state's slot %d", slot, st.Slot))
				}
				old := st.Slot - beacon.Slot(per) - 1
				_, err = pv.ProveBlockRoot(old, nil)
				requireInputError(t, err, "past", fmt.Sprintf("slot %d is more than %d slots before the state's slot %d: give the HistoricalBatch of period 39 (the block_roots of a state at slot %d)", old, per, st.Slot, 40*per))
			})
		}
	}
}

func requireInputError(t *testing.T, err error, arg, substr string) {
	t.Helper()
	require.Error(t, err)
	var ie *nodeaccess.InputError
	require.True(t, errors.As(err, &ie), "%T %v", err, err)
	require.True(t, errors.Is(err, nodeaccess.ErrInvalidInput))
	require.Equal(t, arg, ie.Arg, err.Error())
	require.Contains(t, ie.Reason, substr)
}

// chain is a newer state and the HistoricalBatch of each of its past
// periods, consistent as a chain would have them: historical_roots holds
// the batches of periods 0 to h-1 (the ones before capella, genesis at
// slot 0) and historical_summaries the ones after, counted back from the
// state's slot.
type chain struct {
	st      *beacon.State
	batches []beacon.HistoricalBatch // by period
}

func newChain(t testing.TB, v beacon.Version, p beacon.Preset, h, n int, seed uint64) chain {
	t.Helper()
	per := p.SlotsPerHistoricalRoot
	st := beacontest.NewState(v, p, 5, seed)
	periods := h
	if v < beacon.Capella {
		n = 0
	}
	periods += n
	c := chain{st: st, batches: make([]beacon.HistoricalBatch, periods)}
	st.HistoricalRoots, st.HistoricalSummaries = nil, nil
	for k := range c.batches {
		// The period's vectors: those of another generated state.
		o := beacontest.NewState(beacon.Phase0, p, 1, seed*1000+uint64(k))
		c.batches[k] = beacon.HistoricalBatch{BlockRoots: o.BlockRoots, StateRoots: o.StateRoots}
		b, s := merkleizeRoots(o.BlockRoots), merkleizeRoots(o.StateRoots)
		if k < h {
			st.HistoricalRoots = append(st.HistoricalRoots, sha256.Sum256(append(b[:], s[:]...)))
		} else {
			st.HistoricalSummaries = append(st.HistoricalSummaries, beacon.HistoricalSummary{BlockSummaryRoot: b, StateSummaryRoot: s})
		}
	}
	st.Slot = beacon.Slot(uint64(periods)*per + per/2)
	st.LatestBlockHeader.StateRoot = beacon.Root{}
	return c
}

// TestProveRootsFromPast proves block and state roots older than the
// window through the period's HistoricalBatch, on every fork and both
// presets: through historical_summaries (capella on) and historical_roots
// (the periods before capella, and every period before it), each with its
// gindex by the formula, verified by the specs' rule against the state
// root and, through ToBlockRoot, the block root.
func TestProveRootsFromPast(t *testing.T) {
	for _, p := range presets {
		for _, v := range allForks() {
			t.Run(p.Name+"/"+v.String(), func(t *testing.T) {
				per := p.SlotsPerHistoricalRoot
				c := newChain(t, v, p, 3, 4, uint64(v)+1)
				pv, err := beacon.NewProver(c.st)
				require.NoError(t, err)
				blockRoot, err := pv.BlockRoot()
				require.NoError(t, err)
				_, _, gh, gsum := historyFields(v)
				const limit = 1 << 24 // HISTORICAL_ROOTS_LIMIT
				proven := 0
				for period := range c.batches {
					for _, j := range []uint64{0, 1, per / 3, per - 1} {
						slot := beacon.Slot(uint64(period)*per + j)
						if uint64(c.st.Slot-slot) <= per {
							continue // in the window
						}
						batch := &c.batches[period]
						for _, k := range []struct {
							name  string
							prove func(beacon.Slot, *beacon.HistoricalBatch) (beacon.Proof, error)
							leaf  beacon.Root
							child beacon.GIndex // in a summary, in a batch
						}{{"block", pv.ProveBlockRoot, batch.BlockRoots[j], 0}, {"state", pv.ProveStateRoot, batch.StateRoots[j], 1}} {
							what := fmt.Sprintf("%s root of slot %d (period %d)", k.name, slot, period)
							pr, err := k.prove(slot, batch)
							require.NoError(t, err, what)
							require.Equal(t, k.leaf, pr.Leaf, what)
							var entry beacon.GIndex
							if period < len(c.st.HistoricalRoots) {
								entry = 2*gh*limit + beacon.GIndex(period)
								entry = entry*2 + k.child // the batch's child 2 or 3
							} else {
								entry = 2*gsum*limit + beacon.GIndex(period-len(c.st.HistoricalRoots))
								entry = entry*2 + k.child
							}
							require.Equal(t, entry*beacon.GIndex(per)+beacon.GIndex(j), pr.GIndex, what)
							checkProof(t, pr, pv.StateRoot(), what)
							up, err := pv.ToBlockRoot(pr)
							require.NoError(t, err, what)
							checkProof(t, up, blockRoot, what+" to the block root")
							proven++
						}
					}
				}
				require.Greater(t, proven, 8)
			})
		}
	}
}

// TestProveRootsFromPastStreamed: a Prover that ReadProver made (the one
// DownloadState's Prover option makes) keeps no list elements, yet proves the
// roots of every slot as NewProver's does, on every fork and both presets:
// the window, each period through historical_roots or
// historical_summaries, and the same errors for a slot not before the
// state, a missing batch and a period the state holds no entry for.
func TestProveRootsFromPastStreamed(t *testing.T) {
	for _, p := range presets {
		for _, v := range allForks() {
			t.Run(p.Name+"/"+v.String(), func(t *testing.T) {
				per := p.SlotsPerHistoricalRoot
				c := newChain(t, v, p, 2, 3, uint64(v)+21)
				want, err := beacon.NewProver(c.st)
				require.NoError(t, err)
				data, err := marshalSSZ(c.st)
				require.NoError(t, err)
				got, err := beacon.ReadProver(onlyReader{bytes.NewReader(data)}, sszBody(v, len(data)), bytes.NewReader(data), beacon.ReadOptions{Preset: p})
				require.NoError(t, err)
				require.Equal(t, want.StateRoot(), got.StateRoot())
				slots := []beacon.Slot{c.st.Slot - 1, c.st.Slot - beacon.Slot(per), c.st.Slot, c.st.Slot + 1}
				for period := range c.batches {
					slots = append(slots, beacon.Slot(uint64(period)*per), beacon.Slot(uint64(period)*per+per-1))
				}
				proven := 0
				for _, slot := range slots {
					for _, past := range []*beacon.HistoricalBatch{nil, &c.batches[min(int(uint64(slot)/per), len(c.batches)-1)]} {
						what := fmt.Sprintf("slot %d, batch %v", slot, past != nil)
						for _, prove := range []func(*beacon.Prover) (beacon.Proof, error){
							func(pv *beacon.Prover) (beacon.Proof, error) { return pv.ProveBlockRoot(slot, past) },
							func(pv *beacon.Prover) (beacon.Proof, error) { return pv.ProveStateRoot(slot, past) },
						} {
							exp, wantErr := prove(want)
							pr, err := prove(got)
							if wantErr != nil {
								require.EqualError(t, err, wantErr.Error(), what)
								continue
							}
							require.NoError(t, err, what)
							require.Equal(t, exp, pr, what)
							checkProof(t, pr, got.StateRoot(), what)
							proven++
						}
					}
				}
				require.Greater(t, proven, 4*len(c.batches))
			})
		}
	}
}

// TestProveRootsFromPastGIndices pins the formulas' values on mainnet: the
// numbers of the research table (block_roots[j], historical_roots[k],
// historical_summaries[k].block_summary_root, each fork's family).
func TestProveRootsFromPastGIndices(t *testing.T) {
	const limit = 1 << 24
	for _, c := range []struct {
		v                              beacon.Version
		blocks, states, hist, summary0 beacon.GIndex
	}{
		{beacon.Phase0, 303104, 311296, 1308622848, 0},
		{beacon.Capella, 303104, 311296, 1308622848, 3959422976},
		{beacon.Deneb, 303104, 311296, 1308622848, 3959422976},
		{beacon.Electra, 565248, 573440, 2382364672, 6106906624},
		{beacon.Fulu, 565248, 573440, 2382364672, 6106906624},
		{beacon.Gloas, 2883584, 2891776, 11878268928, 197971148800},
	} {
		gb, gs, gh, gsum := historyFields(c.v)
		require.Equal(t, c.blocks, gb*8192, c.v.String())
		require.Equal(t, c.states, gs*8192, c.v.String())
		require.Equal(t, c.hist, 2*gh*limit, c.v.String())
		if c.summary0 != 0 {
			require.Equal(t, c.summary0, 2*(2*gsum*limit), c.v.String())
		}
		st := beacontest.NewState(c.v, beacon.MainnetPreset(), 1, 1)
		pv, err := beacon.NewProver(st)
		require.NoError(t, err)
		for name, want := range map[string]beacon.GIndex{"block_roots": gb, "state_roots": gs, "historical_roots": gh} {
			g, err := pv.GIndexOf(name)
			require.NoError(t, err)
			require.Equal(t, want, g, name)
		}
		if c.summary0 != 0 {
			g, err := pv.GIndexOf("historical_summaries", 0, "block_summary_root")
			require.NoError(t, err)
			require.Equal(t, c.summary0, g)
		}
	}
}

// TestProveRootsFromPastErrors: a batch of another period, of the wrong
// length or missing the vector the path needs, and a period the state
// holds no entry for, are InputErrors that name the period and entry.
func TestProveRootsFromPastErrors(t *testing.T) {
	p := beacon.MinimalPreset()
	per := p.SlotsPerHistoricalRoot
	for _, v := range []beacon.Version{beacon.Bellatrix, beacon.Deneb, beacon.Gloas} {
		t.Run(v.String(), func(t *testing.T) {
			c := newChain(t, v, p, 2, 3, 11)
			pv, err := beacon.NewProver(c.st)
			require.NoError(t, err)
			last := len(c.batches) - 1
			slot := beacon.Slot(uint64(last)*per + 1)
			if uint64(c.st.Slot-slot) <= per {
				slot = beacon.Slot(uint64(last-1)*per + 1)
				last--
			}
			_, err = pv.ProveBlockRoot(slot, &c.batches[last-1])
			requireInputError(t, err, "past", fmt.Sprintf("the entry of slot %d's period %d", slot, last))
			_, err = pv.ProveBlockRoot(slot, &beacon.HistoricalBatch{BlockRoots: c.batches[last].BlockRoots[1:], StateRoots: c.batches[last].StateRoots})
			requireInputError(t, err, "past", fmt.Sprintf("BlockRoots has %d roots, want SLOTS_PER_HISTORICAL_ROOT, %d", per-1, per))
			// Through historical_roots both vectors are needed.
			_, err = pv.ProveBlockRoot(1, &beacon.HistoricalBatch{BlockRoots: c.batches[0].BlockRoots})
			requireInputError(t, err, "past", "StateRoots has 0 roots")
			if v >= beacon.Capella {
				// Through a summary the one vector is enough.
				_, err = pv.ProveBlockRoot(slot, &beacon.HistoricalBatch{BlockRoots: c.batches[last].BlockRoots})
				require.NoError(t, err)
				_, err = pv.ProveStateRoot(slot, &beacon.HistoricalBatch{BlockRoots: c.batches[last].BlockRoots})
				requireInputError(t, err, "past", "StateRoots has 0 roots")
			}
			// A period neither list holds.
			c.st.HistoricalRoots = c.st.HistoricalRoots[:1]
			pv, err = beacon.NewProver(c.st)
			require.NoError(t, err)
			_, err = pv.ProveBlockRoot(beacon.Slot(per+2), &c.batches[1])
			requireInputError(t, err, "slot", fmt.Sprintf("%d is in period 1, which the state at slot %d does not hold (it has historical_roots periods 0 to 0", per+2, c.st.Slot))
		})
	}
}

// BenchmarkProveBlockRoot: a block root of the last 8192 slots, one through
// a historical summary (hashing the period's 8192 roots once more) and one
// through historical_roots (both vectors), mainnet preset.
func BenchmarkProveBlockRoot(b *testing.B) {
	c := newChain(b, beacon.Electra, beacon.MainnetPreset(), 2, 3, 5)
	p, err := beacon.NewProver(c.st)
	if err != nil {
		b.Fatal(err)
	}
	per := beacon.Slot(8192)
	for _, bc := range []struct {
		name string
		slot beacon.Slot
		past *beacon.HistoricalBatch
	}{
		{"window", c.st.Slot - 100, nil},
		{"summary", 3*per + 7, &c.batches[3]},
		{"historical_roots", per + 7, &c.batches[1]},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.ProveBlockRoot(bc.slot, bc.past); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
