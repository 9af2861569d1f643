package light

import (
	"time"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/internal/bls"
)

// store is the specs' LightClientStore, less best_valid_update (the
// client follows the node's updates and finality updates, and does not
// force an update when finality stalls for a whole period).
type store struct {
	finalized, optimistic Header
	current, next         *committee // next nil: not known
	prevMax, curMax       int
}

// bootstrap is initialize_light_client_store: the bootstrap's header must
// be valid and hash to the trusted root, its committee must be the
// header's state's.
func (c *Config) bootstrap(trusted beacon.Root, b *Bootstrap) (*store, error) {
	if err := c.validHeader(&b.Header, "bootstrap.header"); err != nil {
		return nil, err
	}
	root, _ := beacon.HashTreeRoot(b.Header.Beacon)
	if root != trusted {
		return nil, mismatch("trusted block root", trusted, root, "the bootstrap's header at slot %d is not the trusted block", b.Header.Beacon.Slot)
	}
	cm, err := c.newCommittee(b.CurrentSyncCommittee, "bootstrap.current_sync_committee")
	if err != nil {
		return nil, err
	}
	g := c.slotFork(b.Header.Beacon.Slot).LightClientGIndices().CurrentSyncCommittee
	if err := checkBranch("current sync committee branch", cm.root, b.CurrentSyncCommitteeBranch, g, b.Header.Beacon.StateRoot); err != nil {
		return nil, err
	}
	return &store{finalized: b.Header, optimistic: b.Header, current: cm}, nil
}

// currentSlot is get_current_slot with the specs' allowed clock disparity
// (MAXIMUM_GOSSIP_CLOCK_DISPARITY, 500 ms).
func (c *Config) currentSlot(now time.Time) beacon.Slot {
	ms := now.UnixMilli() + 500 - int64(c.GenesisTime)*1000
	if ms < 0 {
		return 0
	}
	return beacon.Slot(uint64(ms) / (c.SecondsPerSlot * 1000))
}

// validate is validate_light_client_update; it returns the committee that
// signed and the number of participants.
func (c *Config) validate(s *store, u *Update, now beacon.Slot) (int, error) {
	n := participants(u.SyncCommitteeBits)
	if len(u.SyncCommitteeBits) != int(c.SyncCommitteeSize)/8 {
		return 0, encodingError("sync_committee_bits: %d bytes, want %d", len(u.SyncCommitteeBits), c.SyncCommitteeSize/8)
	}
	if n < 1 { // MIN_SYNC_COMMITTEE_PARTICIPANTS
		return 0, unverified("participation", "no sync committee member signed")
	}
	if err := c.validHeader(&u.AttestedHeader, "attested_header"); err != nil {
		return 0, err
	}
	att, fin := u.AttestedHeader.Beacon.Slot, u.FinalizedHeader.Beacon.Slot
	if !(now >= u.SignatureSlot && u.SignatureSlot > att && att >= fin) {
		return 0, unverified("slot order", "current slot %d, signature slot %d, attested slot %d, finalized slot %d: want current >= signature > attested >= finalized", now, u.SignatureSlot, att, fin)
	}
	storePeriod, sigPeriod, attPeriod := c.period(s.finalized.Beacon.Slot), c.period(u.SignatureSlot), c.period(att)
	if s.next != nil {
		if sigPeriod != storePeriod && sigPeriod != storePeriod+1 {
			return 0, unverified("period", "signature period %d; the store has the committees of periods %d and %d", sigPeriod, storePeriod, storePeriod+1)
		}
	} else if sigPeriod != storePeriod {
		return 0, unverified("period", "signature period %d; the store has the committee of period %d only", sigPeriod, storePeriod)
	}
	committeeUpdate := !allZero(u.NextSyncCommitteeBranch)
	hasNext := s.next == nil && committeeUpdate && attPeriod == storePeriod
	if !(att > s.finalized.Beacon.Slot || hasNext) {
		return 0, unverified("stale", "attested slot %d is not after the finalized slot %d, and the update brings no next sync committee the store lacks", att, s.finalized.Beacon.Slot)
	}
	if allZero(u.FinalityBranch) {
		if !isZeroHeader(&u.FinalizedHeader) {
			return 0, unverified("finalized header", "a finalized header without a finality branch")
		}
	} else {
		var root beacon.Root
		if fin == 0 { // GENESIS_SLOT
			if !isZeroHeader(&u.FinalizedHeader) {
				return 0, unverified("finalized header", "a finalized header at the genesis slot that is not the zero header")
			}
		} else {
			if err := c.validHeader(&u.FinalizedHeader, "finalized_header"); err != nil {
				return 0, err
			}
			root, _ = beacon.HashTreeRoot(u.FinalizedHeader.Beacon)
		}
		g := c.slotFork(att).LightClientGIndices().FinalizedRoot
		if err := checkBranch("finality branch", root, u.FinalityBranch, g, u.AttestedHeader.Beacon.StateRoot); err != nil {
			return 0, err
		}
	}
	if !committeeUpdate {
		if u.NextSyncCommittee != nil && !zeroCommittee(u.NextSyncCommittee) {
			return 0, unverified("next sync committee", "a next sync committee without a branch")
		}
	} else {
		if u.NextSyncCommittee == nil {
			return 0, unverified("next sync committee", "a branch without a next sync committee")
		}
		root, err := committeeRoot(u.NextSyncCommittee)
		if err != nil || len(u.NextSyncCommittee.PublicKeys) != int(c.SyncCommitteeSize) {
			return 0, encodingError("next_sync_committee: %d keys, want %d", len(u.NextSyncCommittee.PublicKeys), c.SyncCommitteeSize)
		}
		if attPeriod == storePeriod && s.next != nil && root != s.next.root {
			return 0, mismatch("next sync committee", s.next.root, root, "not the next sync committee the store knows")
		}
		g := c.slotFork(att).LightClientGIndices().NextSyncCommittee
		if err := checkBranch("next sync committee branch", root, u.NextSyncCommitteeBranch, g, u.AttestedHeader.Beacon.StateRoot); err != nil {
			return 0, err
		}
	}
	cm := s.current
	if sigPeriod != storePeriod {
		cm = s.next
	}
	sig, err := bls.ParseSignature(u.SyncCommitteeSignature[:])
	if err != nil {
		return 0, unverified("signature", "%v", err)
	}
	msg := c.signingRootOf(u)
	if _, err := cm.keys.VerifyBits(u.SyncCommitteeBits, msg[:], &sig); err != nil {
		return 0, unverified("signature", "%v (signing root %x)", err, msg)
	}
	return n, nil
}

// zeroCommittee reports whether sc is SyncCommittee().
func zeroCommittee(sc *beacon.SyncCommittee) bool {
	if sc.AggregatePublicKey != (beacon.BLSPubKey{}) {
		return false
	}
	for i := range sc.PublicKeys {
		if sc.PublicKeys[i] != (beacon.BLSPubKey{}) {
			return false
		}
	}
	return true
}

// process is process_light_client_update (without best_valid_update): it
// returns the new store, s itself being left as it was.
func (c *Config) process(s *store, u *Update, now beacon.Slot) (*store, error) {
	n, err := c.validate(s, u, now)
	if err != nil {
		return nil, err
	}
	ns := *s
	ns.curMax = max(ns.curMax, n)
	if n > max(ns.prevMax, ns.curMax)/2 && u.AttestedHeader.Beacon.Slot > ns.optimistic.Beacon.Slot {
		ns.optimistic = u.AttestedHeader
	}
	fin, att := u.FinalizedHeader.Beacon.Slot, u.AttestedHeader.Beacon.Slot
	committeeUpdate, finalityUpdate := !allZero(u.NextSyncCommitteeBranch), !allZero(u.FinalityBranch)
	finalizedNext := ns.next == nil && committeeUpdate && finalityUpdate && c.period(fin) == c.period(att)
	if n*3 >= int(c.SyncCommitteeSize)*2 && (fin > ns.finalized.Beacon.Slot || finalizedNext) {
		if err := c.apply(&ns, u); err != nil {
			return nil, err
		}
	}
	return &ns, nil
}

// apply is apply_light_client_update.
func (c *Config) apply(s *store, u *Update) error {
	storePeriod, finPeriod := c.period(s.finalized.Beacon.Slot), c.period(u.FinalizedHeader.Beacon.Slot)
	next := func() (*committee, error) {
		if u.NextSyncCommittee == nil || allZero(u.NextSyncCommitteeBranch) {
			return nil, nil
		}
		return c.newCommittee(*u.NextSyncCommittee, "next_sync_committee")
	}
	switch {
	case s.next == nil:
		if finPeriod != storePeriod {
			return unverified("period", "a finalized header of period %d for a store of period %d without a next committee", finPeriod, storePeriod)
		}
		nc, err := next()
		if err != nil {
			return err
		}
		s.next = nc
	case finPeriod == storePeriod+1:
		nc, err := next()
		if err != nil {
			return err
		}
		s.current, s.next = s.next, nc
		s.prevMax, s.curMax = s.curMax, 0
	}
	if u.FinalizedHeader.Beacon.Slot > s.finalized.Beacon.Slot {
		s.finalized = u.FinalizedHeader
		if s.finalized.Beacon.Slot > s.optimistic.Beacon.Slot {
			s.optimistic = s.finalized
		}
	}
	return nil
}
