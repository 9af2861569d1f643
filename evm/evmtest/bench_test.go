package evmtest_test

import (
	"testing"

	"github.com/nodeaccess/nodeaccess/evm/evmtest"
)

// New with the default scenario (five transactions in five blocks), then
// Close: the cost of a server per test.
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		s, err := evmtest.New()
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// One empty block.
func BenchmarkCommit(b *testing.B) {
	s, err := evmtest.New(evmtest.WithoutScenario())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for b.Loop() {
		s.Commit()
	}
}
