package beacon_test

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// TestSSZParallelDecode: UnmarshalSSZ decodes a large in-memory list in
// parts on several goroutines; the result, and the first bad element it
// reports, are those of the sequential stream decoder, whatever GOMAXPROCS.
func TestSSZParallelDecode(t *testing.T) {
	p := beacon.MinimalPreset()
	const n = 50_000 // 6 MB of validators: over the parallel threshold
	st := beacontest.NewState(beacon.Deneb, p, n, 11)
	orig := mustMarshal(t, st)
	typ := refStateType(beacon.Deneb, p)
	const iValidators = 11
	vals := offsetOf(orig, typ, iValidators)

	for _, procs := range []int{1, 2, 3, 8} {
		prev := runtime.GOMAXPROCS(procs)
		got, err := unmarshalSSZ(orig, beacon.Deneb, p)
		if err != nil {
			runtime.GOMAXPROCS(prev)
			t.Fatalf("GOMAXPROCS %d: %v", procs, err)
		}
		if again := mustMarshal(t, got); string(again) != string(orig) {
			t.Errorf("GOMAXPROCS %d: re-encoding differs", procs)
		}

		// Two bad elements in different parts: the lower index is reported.
		for _, first := range []int{7, n/2 + 3, n - 1} {
			b := append([]byte(nil), orig...)
			b[vals+first*121+88] = 2
			if first != n-1 {
				b[vals+(n-1)*121+88] = 3
			}
			err := decodeBoth(t, b, beacon.Deneb, p)
			wantDecodeError(t, err, "validators["+strconv.Itoa(first)+"]", "slashed: 0x2 is not a boolean")
		}
		runtime.GOMAXPROCS(prev)
	}
}
