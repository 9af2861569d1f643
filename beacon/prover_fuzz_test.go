package beacon_test

import (
	"os"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/require"
)

// FuzzProverChangedState: NewProver prepares any state that decodes (the
// SSZ of the fork and preset the input selects); every proof its probes
// get (proverProbes, with the input's generalized index and validator
// index among their arguments) verifies; then the input's change (one of
// stateChanges, by number) is made to the state, and checkChanged holds:
// every method refuses a change of what was prepared, proves the prepared
// state after any other change, and none panics. The seeds are the
// recorded Sepolia genesis, Lodestar's gloas state and generated states of
// every fork, with changes spread over stateChanges' list.
func FuzzProverChangedState(f *testing.F) {
	rec := recordedGenesis(f)
	f.Add(rec, uint8(beacon.Phase0), fuzzMainnet, uint16(0), uint64(43)<<41|1569, uint64(1569))
	f.Add(rec, uint8(beacon.Phase0), fuzzMainnet, uint16(40), uint64(44)<<39, uint64(1570))
	if b, err := os.ReadFile("testdata/gloas/minimal-1.ssz"); err == nil {
		f.Add(b, uint8(beacon.Gloas), fuzzMinimal, uint16(3), uint64(11466), uint64(20))
		f.Add(b, uint8(beacon.Gloas), fuzzMinimal, uint16(77), uint64(91734), uint64(21))
	}
	for _, v := range allForks() {
		for _, sel := range []uint8{fuzzTiny, fuzzMinimal} {
			b, err := marshalSSZ(beacontest.NewState(v, fuzzPreset(sel), 1+int(v)%3, uint64(v)))
			require.NoError(f, err)
			for _, c := range []uint16{uint16(v), 13*uint16(v) + uint16(sel), 100 - uint16(v)} {
				f.Add(b, uint8(v), sel, c, uint64(c)<<30|uint64(v), uint64(c%4))
			}
		}
	}
	names := allFieldNames(f)
	members := map[beacon.Version]map[string]bool{}
	for _, v := range allForks() {
		members[v] = map[string]bool{}
		for name := range stateMembers(f, beacontest.NewState(v, beacon.MinimalPreset(), 1, 1)) {
			members[v][name] = true
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, fork, sel uint8, change uint16, g, i uint64) {
		if fuzzSkip(data, rec) {
			return
		}
		v := beacon.Version(fork % uint8(len(allForks())))
		st, err := unmarshalSSZ(data, v, fuzzPreset(sel))
		if err != nil {
			return
		}
		p, err := beacon.NewProver(st)
		require.NoError(t, err, "a decoded state")
		a := makeProbeArgs(t, p, uint64(len(st.Validators)), names)
		a.gindices = append(a.gindices, beacon.GIndex(g))
		a.indices = []uint64{i}
		probes := proverProbes(a)
		var before proverRoots
		before.state = p.StateRoot()
		before.block, before.blockErr = p.BlockRoot()
		checkChanged(t, p, probes, stateChange{name: "unchanged"}, before)
		changes := stateChanges(st, members[v])
		c := changes[int(change)%len(changes)]
		c.apply(st)
		checkChanged(t, p, probes, c, before)
	})
}
