//go:build linux && (amd64 || arm64)

package beacon_test

import (
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// TestValidateRefusesOver4GiB gives a state a participation list of 2^32
// entries, within its list limit (2^40) but past the 4 GiB that SSZ's
// 32-bit offsets address: EncodeSSZ refuses it, so Validate must, naming
// the list, and so must HashTreeRoot and EncodeJSON. The list is an
// untouched anonymous mapping: it costs address space, not memory.
func TestValidateRefusesOver4GiB(t *testing.T) {
	const n = 1 << 32
	mem, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("no 4 GiB of address space: %v", err)
	}
	defer func() { _ = syscall.Munmap(mem) }()
	s := beacontest.NewState(beacon.Altair, beacon.MinimalPreset(), 3, 1)
	s.PreviousEpochParticipation = unsafe.Slice((*uint8)(unsafe.Pointer(&mem[0])), n)
	// The check first: were it to pass, the encoders would go through the
	// 4 GiB before failing.
	if err := validateState(s); err == nil || !strings.Contains(err.Error(), "previous_epoch_participation") || !strings.Contains(err.Error(), "4 GiB") {
		t.Fatalf("Validate: %v, want an error naming previous_epoch_participation and the 4 GiB", err)
	}
	checkValidateAgrees(t, "a 4 GiB participation list", s)
}
