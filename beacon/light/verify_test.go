package light

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// bootstrapped returns a chain and a store bootstrapped at slot (in the
// store's period) with its next committee known when withNext.
func bootstrapped(t *testing.T, slot beacon.Slot, withNext bool) (*testChain, *store) {
	c := newTestChain(t, false)
	b := c.bootstrap(slot)
	s, err := c.cfg.bootstrap(htr(t, b.Header.Beacon), b)
	require.NoError(t, err)
	if withNext {
		base := slot - slot%c.slotsPerPeriod()
		s, err = c.cfg.process(s, c.update(base+50, base+40, true, 32), base+60)
		require.NoError(t, err)
		require.NotNil(t, s.next)
	}
	return c, s
}

// Every lie of an update is refused by the check that catches it, and the
// store is left as it was.
func TestUpdateLies(t *testing.T) {
	const att, fin, now = 3*64 + 50, 3*64 + 40, 3*64 + 60 // deneb
	other := newTestChain(t, false)
	other.cfg.GenesisValidatorsRoot[3] ^= 1
	cases := []struct {
		name  string
		check string
		lie   func(c *testChain, u *Update) // then u is sent as it is
	}{
		{"forged signature (another committee)", "signature", func(c *testChain, u *Update) {
			msg := c.cfg.signingRootOf(u)
			u.SyncCommitteeSignature = c.committee(9).sign(msg[:], u.SyncCommitteeBits)
		}},
		{"signature not a point", "signature", func(c *testChain, u *Update) { u.SyncCommitteeSignature[40] ^= 0x55 }},
		{"one bit more or less than signed", "signature", func(c *testChain, u *Update) { u.SyncCommitteeBits[3] &^= 0x80 }},
		{"no participants", "participation", func(c *testChain, u *Update) {
			u.SyncCommitteeBits = make([]byte, 4)
		}},
		{"another fork's domain", "signature", func(c *testChain, u *Update) {
			r := c.cfg.signingRoot(htr(t, u.AttestedHeader.Beacon), c.cfg.ForkVersions[beacon.Capella])
			u.SyncCommitteeSignature = c.committee(3).sign(r[:], u.SyncCommitteeBits)
		}},
		{"another chain's domain", "signature", func(c *testChain, u *Update) {
			msg := other.cfg.signingRootOf(u)
			u.SyncCommitteeSignature = c.committee(3).sign(msg[:], u.SyncCommitteeBits)
		}},
		{"header of another fork's form", "header", func(c *testChain, u *Update) {
			u.AttestedHeader.form = beacon.Capella
			c.sign(u, 32)
		}},
		{"execution branch for another payload", "header", func(c *testChain, u *Update) {
			u.AttestedHeader.Execution.StateRoot[0] ^= 1
			c.sign(u, 32)
		}},
		{"execution branch one short", "header", func(c *testChain, u *Update) {
			u.AttestedHeader.ExecutionBranch = u.AttestedHeader.ExecutionBranch[1:]
			c.sign(u, 32)
		}},
		{"blob gas before deneb", "header", func(c *testChain, u *Update) {
			h := c.header(2*64+50, beacon.Deneb, nil) // a capella block in deneb's form
			h.Execution.BlobGasUsed = 1
			u.FinalizedHeader = h
		}},
		{"finality branch for another root", "finality branch", func(c *testChain, u *Update) {
			u.FinalizedHeader.Beacon.ProposerIndex++
		}},
		{"finality branch of another depth", "finality branch", func(c *testChain, u *Update) {
			u.FinalityBranch = u.FinalityBranch[1:]
		}},
		{"finality branch padded with a non-zero root", "finality branch", func(c *testChain, u *Update) {
			u.FinalityBranch = append([]beacon.Root{{1}}, u.FinalityBranch...)
		}},
		{"finalized header without a branch", "finalized header", func(c *testChain, u *Update) {
			u.FinalityBranch = make([]beacon.Root, len(u.FinalityBranch))
		}},
		{"next committee branch for another committee", "next sync committee branch", func(c *testChain, u *Update) {
			nc := c.committee(7).sc
			u.NextSyncCommittee = &nc
		}},
		{"next committee without a branch", "next sync committee", func(c *testChain, u *Update) {
			u.NextSyncCommitteeBranch = make([]beacon.Root, len(u.NextSyncCommitteeBranch))
		}},
		{"signature slot not after the attested slot", "slot order", func(c *testChain, u *Update) {
			u.SignatureSlot = att
			c.sign(u, 32)
		}},
		{"signature slot in the future", "slot order", func(c *testChain, u *Update) {
			u.SignatureSlot = now + 1
			c.sign(u, 32)
		}},
		{"finalized after attested", "slot order", func(c *testChain, u *Update) {
			u.FinalizedHeader.Beacon.Slot = att + 1
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, s := bootstrapped(t, 3*64+8, false)
			u := c.update(att, fin, true, 32)
			_, err := c.cfg.process(s, u, now)
			require.NoError(t, err, "the honest update verifies")
			before := *s
			u = c.update(att, fin, true, 32)
			tc.lie(c, u)
			ns, err := c.cfg.process(s, u, now)
			assertCheck(t, err, tc.check)
			assert.Nil(t, ns)
			assert.Equal(t, before, *s, "the store is left as it was")
		})
	}
}

// Periods: an update signed in a period the store has no committee for,
// a next committee other than the one the store knows, an update that
// brings nothing.
func TestUpdatePeriodLies(t *testing.T) {
	t.Run("signature two periods ahead", func(t *testing.T) {
		c, s := bootstrapped(t, 3*64+8, true)
		_, err := c.cfg.process(s, c.update(5*64+50, 5*64+40, true, 32), 5*64+60)
		assertCheck(t, err, "period")
	})
	t.Run("next period without the next committee", func(t *testing.T) {
		c, s := bootstrapped(t, 3*64+8, false)
		_, err := c.cfg.process(s, c.update(4*64+50, 4*64+40, true, 32), 4*64+60)
		assertCheck(t, err, "period")
	})
	t.Run("next committee other than the known one", func(t *testing.T) {
		c, s := bootstrapped(t, 3*64+8, true)
		// An update of the same period whose state holds another next
		// committee (its branch is right for it, and it is signed).
		c2 := newTestChain(t, false)
		c2.committees[3], c2.committees[4] = c.committee(3), c.committee(8)
		u := c2.update(3*64+55, 3*64+48, true, 32)
		ns, err := c.cfg.process(s, u, 3*64+60)
		assertCheck(t, err, "next sync committee")
		assert.Nil(t, ns)
	})
	t.Run("stale", func(t *testing.T) {
		c, s := bootstrapped(t, 3*64+8, true)
		_, err := c.cfg.process(s, c.update(3*64+30, 3*64+20, false, 32), 3*64+60)
		assertCheck(t, err, "stale")
	})
}

// The bootstrap must be the trusted block's, and its committee the
// block's state's.
func TestBootstrapLies(t *testing.T) {
	c := newTestChain(t, false)
	for _, slot := range []beacon.Slot{8, 2*64 + 8, 4*64 + 8, 6*64 + 8} {
		b := c.bootstrap(slot)
		root := htr(t, b.Header.Beacon)
		_, err := c.cfg.bootstrap(root, b)
		require.NoError(t, err, "slot %d", slot)

		other := c.bootstrap(slot + 1)
		_, err = c.cfg.bootstrap(root, other)
		assertCheck(t, err, "trusted block root")
		var ve *VerifyError
		require.ErrorAs(t, err, &ve)
		assert.Equal(t, root, ve.Want)
		assert.Equal(t, htr(t, other.Header.Beacon), ve.Got)

		bad := *b
		bad.CurrentSyncCommittee = c.committee(9).sc
		_, err = c.cfg.bootstrap(root, &bad)
		assertCheck(t, err, "current sync committee branch")

		bad = *b
		bad.CurrentSyncCommitteeBranch = b.CurrentSyncCommitteeBranch[:len(b.CurrentSyncCommitteeBranch)-1]
		_, err = c.cfg.bootstrap(root, &bad)
		assertCheck(t, err, "current sync committee branch")
	}
}

// Through the Client: a node that serves a bootstrap of another block is
// refused and nothing is kept; nor is an update that does not verify.
func TestClientRefusesLies(t *testing.T) {
	c := newTestChain(t, false)
	s, root, now := syncedServer(t, c, 2)
	wrong := s.addBootstrap(c.bootstrap(9))
	s.bootstraps[root] = s.bootstraps[wrong]
	lc := s.client(t, root, beacon.EncodingJSON)
	lc.now = c.clock(now)
	assertCheck(t, lc.Sync(context.Background()), "trusted block root")
	_, ok := lc.Finalized()
	assert.False(t, ok)

	s, root, now = syncedServer(t, c, 2)
	s.finality.SyncCommitteeSignature[50] ^= 1
	lc = s.client(t, root, beacon.EncodingSSZ)
	lc.now = c.clock(now)
	err := lc.Sync(context.Background())
	assertCheck(t, err, "signature")
	fin, _ := lc.Finalized()
	assert.Equal(t, s.updates[1].FinalizedHeader.Beacon, fin.Beacon, "the verified updates before it are kept")
	assert.False(t, strings.Contains(err.Error(), "lc-test-key"))
}

// A header is checked by its slot's fork, whatever form a later fork's
// update sends it in: a capella block in deneb's form hashes its payload
// header as capella's, a block of any fork in gloas's form proves its
// execution block hash with the normalized branch of its own fork's
// index, and a block before capella carries no execution data in any form.
func TestHeaderFormsAcrossForks(t *testing.T) {
	c := newTestChain(t, false)
	cases := []struct {
		slot beacon.Slot
		form beacon.Version
	}{
		{2*64 + 5, beacon.Deneb}, {2*64 + 5, beacon.Electra}, {3*64 + 5, beacon.Fulu},
		{5*64 + 5, beacon.Gloas}, {3*64 + 5, beacon.Gloas}, {2*64 + 5, beacon.Gloas},
		{5, beacon.Gloas}, {64 + 5, beacon.Deneb}, {5, beacon.Capella},
	}
	for _, tc := range cases {
		h := c.header(tc.slot, tc.form, nil)
		require.NoError(t, c.cfg.validHeader(&h, "h"), "slot %d (%s) in %s's form", tc.slot, c.cfg.slotFork(tc.slot), tc.form)
		if c.cfg.slotFork(tc.slot) >= beacon.Capella {
			bad := h
			bad.ExecutionBlockHash[0] ^= 1
			if bad.Execution != nil {
				e := *bad.Execution
				e.BlockHash[0] ^= 1
				bad.Execution = &e
			}
			assertCheck(t, c.cfg.validHeader(&bad, "h"), "header")
		} else {
			bad := h
			bad.ExecutionBlockHash = beacon.Root{1}
			assertCheck(t, c.cfg.validHeader(&bad, "h"), "header")
		}
	}
	// A form older than the slot's fork cannot carry it.
	h := c.header(6*64+5, beacon.Gloas, nil)
	h.form = beacon.Fulu
	h.Execution = &beacon.ExecutionPayloadHeader{}
	assertCheck(t, c.cfg.validHeader(&h, "h"), "header")
}
