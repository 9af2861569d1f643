package beacon_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// BenchmarkNewProver prepares proofs for generated fulu states: one hash of
// the state, keeping the collections' upper levels. Compare with
// BenchmarkHashTreeRoot at the same size; retained-B/op is the memory the
// Prover keeps beside the state.
func BenchmarkNewProver(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("validators=%d", n), func(b *testing.B) {
			s, data := benchFixture(b, n)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := beacon.NewProver(s); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			before := liveHeap()
			p, _ := beacon.NewProver(s)
			b.ReportMetric(float64(liveHeap()-before), "retained-B")
			runtime.KeepAlive(p)
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

// BenchmarkProve makes proofs from a prepared Prover: a validator (the
// container), a validator's withdrawal credentials, a balance, each with
// indices spread over the registry, and a validator proof extended to the
// block root.
func BenchmarkProve(b *testing.B) {
	for _, n := range benchSizes {
		s, _ := benchFixture(b, n)
		post := *s // the post-state of its block: the header's state_root not yet filled
		post.LatestBlockHeader.StateRoot = beacon.Root{}
		p, err := beacon.NewProver(&post)
		if err != nil {
			b.Fatal(err)
		}
		idx := func(i int) beacon.ValidatorIndex { return beacon.ValidatorIndex(i * 7919 % n) }
		b.Run(fmt.Sprintf("validator/validators=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := proveValidator(p, idx(i)); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run(fmt.Sprintf("credentials/validators=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := proveValidatorField(p, idx(i), "withdrawal_credentials"); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run(fmt.Sprintf("balance/validators=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := proveBalance(p, idx(i)); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run(fmt.Sprintf("validator-to-block/validators=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				pr, err := proveValidator(p, idx(i))
				if err == nil {
					_, err = p.ToBlockRoot(pr)
				}
				if err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
