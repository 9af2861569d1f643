//go:build !race

package evm_test

// raceEnabled is true under -race, which adds allocations of its own.
const raceEnabled = false
