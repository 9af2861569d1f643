package main

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// validatorIndex parses NODEACCESS_BEACON_VALIDATOR: the validator to
// prove (0 when unset).
func validatorIndex(s string) (beacon.ValidatorIndex, error) {
	if s == "" {
		return 0, nil
	}
	i, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("NODEACCESS_BEACON_VALIDATOR: %q is not a validator index (a decimal number)", s)
	}
	return beacon.ValidatorIndex(i), nil
}

// proveValidator reads validator i and its balance from the file in place
// (sr), proves the validator against the state root with p, checks the
// proof as a verifier would (with nothing but the proof and the root), and
// says what it found.
func proveValidator(p *beacon.Prover, sr *beacon.StateReader, i beacon.ValidatorIndex, n uint64) (string, error) {
	if uint64(i) >= n {
		return "", fmt.Errorf("NODEACCESS_BEACON_VALIDATOR: %d, but the state has %d validators (0 to %d)", i, n, n-1)
	}
	vals, err := sr.Validators(i, i+1)
	if err != nil {
		return "", err
	}
	bals, err := sr.Balances(i, i+1)
	if err != nil {
		return "", err
	}
	g, err := p.GIndexOf("validators", i)
	if err != nil {
		return "", err
	}
	proof, err := p.Prove(g)
	if err != nil {
		return "", err
	}
	v := vals[0]
	leaf, err := beacon.HashTreeRoot(v)
	if err != nil {
		return "", err
	}
	if leaf != proof.Leaf || !proof.Verify(p.StateRoot()) {
		return "", fmt.Errorf("the proof of validator %d does not verify against the state root", i)
	}
	return fmt.Sprintf("Validator %d: public key %s, balance %d gwei; proven against the state root (generalized index %d, %d sibling roots)",
		i, v.PublicKey, bals[0], proof.GIndex, len(proof.Branch)), nil
}

// heapWatch samples the Go heap (runtime/metrics) every millisecond, and
// keeps its highest value above the value it started from.
type heapWatch struct {
	base, peak atomic.Uint64
	done, quit chan struct{}
	stopped    atomic.Bool
}

func startHeapWatch() *heapWatch {
	runtime.GC()
	h := &heapWatch{done: make(chan struct{}), quit: make(chan struct{})}
	h.base.Store(heapBytes())
	go func() {
		defer close(h.done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			h.sample()
			select {
			case <-h.quit:
				h.sample()
				return
			case <-t.C:
			}
		}
	}()
	return h
}

func (h *heapWatch) sample() {
	if v := heapBytes(); v > h.peak.Load() {
		h.peak.Store(v)
	}
}

// stop ends the sampling (once) and returns the peak above the start.
func (h *heapWatch) stop() uint64 {
	if h.stopped.CompareAndSwap(false, true) {
		close(h.quit)
	}
	<-h.done
	return h.peak.Load() - min(h.base.Load(), h.peak.Load())
}

// heapBytes is the memory the heap's objects take, live or not yet freed.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
