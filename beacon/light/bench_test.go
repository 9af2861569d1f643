package light

import (
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// benchUpdate returns a store and an update of a mainnet-sized committee
// (512 members, all signing) with a finalized header and the next
// committee: the largest update there is.
func benchUpdate(b *testing.B) (*testChain, *store, *Update, beacon.Slot) {
	c := newTestChain(b, false)
	c.cfg.SyncCommitteeSize = 512
	bs := c.bootstrap(3*64 + 8)
	s, err := c.cfg.bootstrap(htr(b, bs.Header.Beacon), bs)
	if err != nil {
		b.Fatal(err)
	}
	u := c.update(3*64+50, 3*64+40, true, 512)
	return c, s, u, 3*64 + 60
}

// BenchmarkVerifyUpdate is validate_light_client_update of one update on
// one core (go test -bench VerifyUpdate -cpu 1): the headers' execution
// branches, the finality and next committee branches (hashing the 512
// keys), the signing root, the aggregation of the participants' keys and
// one pairing check.
func BenchmarkVerifyUpdate(b *testing.B) {
	c, s, u, now := benchUpdate(b)
	b.ResetTimer()
	for range b.N {
		if _, err := c.cfg.validate(s, u, now); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProcessUpdate adds what the store does with it: here it learns
// the next committee, whose 512 keys it decompresses and checks once.
func BenchmarkProcessUpdate(b *testing.B) {
	c, s, u, now := benchUpdate(b)
	b.ResetTimer()
	for range b.N {
		if _, err := c.cfg.process(s, u, now); err != nil {
			b.Fatal(err)
		}
	}
}
