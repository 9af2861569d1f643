package light

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// TestIsBetterUpdate: is_better_update's order, each rule deciding when
// the rules before it tie, both ways round.
func TestIsBetterUpdate(t *testing.T) {
	c := Config{SlotsPerEpoch: 8, EpochsPerSyncCommitteePeriod: 8, SyncCommitteeSize: 32}
	branch := []beacon.Root{{1}}
	up := func(n int, att, fin, sig beacon.Slot, next, final bool) *Update {
		u := &Update{SyncCommitteeBits: make([]byte, 4), SignatureSlot: sig}
		for i := range n {
			u.SyncCommitteeBits[i/8] |= 1 << (i % 8)
		}
		u.AttestedHeader.Beacon.Slot, u.FinalizedHeader.Beacon.Slot = att, fin
		if next {
			u.NextSyncCommitteeBranch = branch
		}
		if final {
			u.FinalityBranch = branch
		}
		return u
	}
	for name, tc := range map[string][2]*Update{
		"supermajority over more participants":       {up(22, 70, 0, 71, false, false), up(21, 70, 64, 71, true, true)},
		"more participants below supermajority":      {up(20, 90, 0, 91, false, false), up(19, 70, 64, 71, true, true)},
		"a next committee of the signature's period": {up(22, 90, 0, 91, true, false), up(32, 70, 64, 71, false, true)},
		"a next committee, not across periods":       {up(22, 126, 0, 127, true, false), up(32, 127, 64, 128, true, true)},
		"finality":                                   {up(22, 90, 0, 91, true, true), up(32, 70, 0, 71, true, false)},
		"finality within the period":                 {up(22, 90, 64, 91, true, true), up(32, 70, 8, 71, true, true)},
		"more participants on a tie":                 {up(23, 90, 64, 91, true, true), up(22, 70, 64, 71, true, true)},
		"older attested header":                      {up(22, 70, 64, 91, true, true), up(22, 90, 64, 91, true, true)},
		"earlier signature":                          {up(22, 70, 64, 71, true, true), up(22, 70, 64, 72, true, true)},
	} {
		assert.True(t, c.isBetter(tc[0], tc[1]), name)
		assert.False(t, c.isBetter(tc[1], tc[0]), name+", reversed")
	}
	u := up(22, 70, 64, 71, true, true)
	assert.False(t, c.isBetter(u, u), "an update is not better than itself")
}
