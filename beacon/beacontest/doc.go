// Package beacontest makes beacon states for tests: deterministic, of any
// fork and preset, with every list non-empty, at any validator count up to
// the mainnet size.
//
//	st := beacontest.NewState(beacon.Fulu, beacon.MainnetPreset(), 1000, 1)
//	root, err := st.HashTreeRoot()
package beacontest
