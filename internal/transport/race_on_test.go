//go:build race

package transport

// raceEnabled: the race detector adds allocations of its own, so the
// allocation tests skip.
const raceEnabled = true
