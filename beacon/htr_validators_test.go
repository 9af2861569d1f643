package beacon

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon/internal/merkle"
)

// validatorRootByHand is a validator's hash tree root from the definition,
// with crypto/sha256, one pair at a time.
func validatorRootByHand(v *Validator) Root {
	pk := h(v.PublicKey[:32], v.PublicKey[32:], make([]byte, 16))
	var slashed uint64
	if v.Slashed {
		slashed = 1
	}
	a := h(pk[:], v.WithdrawalCredentials[:])
	b := h(chunk64(uint64(v.EffectiveBalance)), chunk64(slashed))
	c := h(chunk64(uint64(v.ActivationEligibilityEpoch)), chunk64(uint64(v.ActivationEpoch)))
	d := h(chunk64(uint64(v.ExitEpoch)), chunk64(uint64(v.WithdrawableEpoch)))
	e, f := h(a[:], b[:]), h(c[:], d[:])
	return h(e[:], f[:])
}

// mixedValidators returns n validators whose (effective_balance, slashed)
// and (exit_epoch, withdrawable_epoch) pairs repeat the way a registry's
// do, with a share of one-off values, so that fillValidators meets cache
// hits, pairs pending in the same block, misses and evictions.
func mixedValidators(r *rand.Rand, n int) []Validator {
	balances := []Gwei{32e9, 31e9, 2048e9, 0, 17e9}
	exits := []Epoch{100, 2000, 300_000}
	vals := make([]Validator, n)
	for i := range vals {
		v := &vals[i]
		for j := range v.PublicKey {
			v.PublicKey[j] = byte(r.Uint32())
		}
		for j := range v.WithdrawalCredentials {
			v.WithdrawalCredentials[j] = byte(r.Uint32())
		}
		switch x := r.IntN(10); {
		case x < 8:
			v.EffectiveBalance = balances[r.IntN(len(balances))]
		default:
			v.EffectiveBalance = Gwei(r.Uint64())
		}
		v.Slashed = r.IntN(20) == 0
		v.ActivationEligibilityEpoch = Epoch(r.IntN(1000))
		v.ActivationEpoch = v.ActivationEligibilityEpoch + Epoch(r.IntN(5))
		switch x := r.IntN(10); {
		case x < 6:
			v.ExitEpoch, v.WithdrawableEpoch = FarFutureEpoch, FarFutureEpoch
		case x < 8:
			v.ExitEpoch = exits[r.IntN(len(exits))]
			v.WithdrawableEpoch = v.ExitEpoch + 256
		case x < 9:
			v.ExitEpoch, v.WithdrawableEpoch = Epoch(r.Uint64()), Epoch(r.Uint64())
		default:
			v.ExitEpoch, v.WithdrawableEpoch = FarFutureEpoch, 5 // same first leaf, other pair
		}
	}
	return vals
}

// checkFill runs fillValidators over vals in blocks of the given size, with
// one workspace as a hashing goroutine does, and compares every root with
// validatorRootByHand.
func checkFill(t *testing.T, vals []Validator, block int) {
	t.Helper()
	ws := &workspace{}
	fill := fillValidators(vals)
	for from := 0; from < len(vals); from += block {
		to := min(len(vals), from+block)
		dst := make([]byte, 32*(to-from))
		fill(ws, dst, from, to)
		for i := from; i < to; i++ {
			if got, want := Root(dst[32*(i-from):]), validatorRootByHand(&vals[i]); got != want {
				t.Fatalf("block %d, validator %d: root %x, want %x (%+v)", block, i, got, want, vals[i])
			}
		}
	}
}

func TestFillValidatorsCachedPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	vals := mixedValidators(r, 9000)
	for _, block := range []int{1, 3, 7, 8, 15, 16, 17, 100, 1 << merkle.TaskDepth, 9000} {
		checkFill(t, vals, block)
	}
}

// TestFillValidatorsCacheCollisions cycles through three pairs that share
// a cache slot, two with the same first value: each evicts the others,
// pending or ready, within a block and across blocks.
func TestFillValidatorsCacheCollisions(t *testing.T) {
	var c pairCache
	const x1, y1 = 1, 7
	x2, y2 := uint64(x1+1), uint64(y1+1)
	for c.slot(x2, y1) != c.slot(x1, y1) {
		x2++
	}
	for c.slot(x1, y2) != c.slot(x1, y1) {
		y2++
	}
	keys := [][2]uint64{{x1, y1}, {x2, y1}, {x1, y1}, {x1, y2}, {x1, y2}}
	vals := mixedValidators(rand.New(rand.NewPCG(33, 34)), 200)
	for i := range vals {
		k := keys[i%len(keys)]
		vals[i].ExitEpoch, vals[i].WithdrawableEpoch = Epoch(k[0]), Epoch(k[1])
		// The balance cache goes through the same cycle, one step ahead.
		vals[i].EffectiveBalance, vals[i].Slashed = Gwei(keys[(i+1)%len(keys)][0]), false
	}
	for _, block := range []int{1, 2, 5, 16, 40, 200} {
		checkFill(t, vals, block)
	}
}

// TestValidatorListRootSizes compares the root of validator lists around
// the subtree boundaries, whatever GOMAXPROCS, with a root from
// validatorRootByHand and a pair-by-pair merkleization.
func TestValidatorListRootSizes(t *testing.T) {
	const sub = 1 << merkle.TaskDepth
	all := mixedValidators(rand.New(rand.NewPCG(35, 36)), 2*sub+1)
	byHand := make([]Root, len(all))
	for i := range all {
		byHand[i] = validatorRootByHand(&all[i])
	}
	f := field{n: 1 << 40}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, n := range []int{0, 1, 2, 16, 17, sub - 1, sub, sub + 1, 2*sub + 1} {
		chunks := append([]Root(nil), byHand[:n]...)
		want := mixInLength(merkleSmall(chunks, 40), uint64(n))
		for _, procs := range []int{1, 2, 3} {
			runtime.GOMAXPROCS(procs)
			t.Run(fmt.Sprintf("n=%d/procs=%d", n, procs), func(t *testing.T) {
				if got := collectionRoot(&f, n, 0, fillValidators(all[:n])); got != want {
					t.Fatalf("root %x, want %x", got, want)
				}
			})
		}
	}
}
