//go:build race

package transport

// raceEnabled is true under -race, which adds allocations of its own.
const raceEnabled = true
