package light

import (
	"time"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/internal/bls"
)

// store is the specs' LightClientStore. best is best_valid_update: the
// best update verified since the store last moved its finalized header,
// which a forced update applies once finality has stalled for
// UPDATE_TIMEOUT slots. It is never changed once taken (force copies it).
type store struct {
	finalized, optimistic Header
	current, next         *committee // next nil: not known
	prevMax, curMax       int
	best                  *Update // nil: none
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
	if c.Clock != nil {
		return c.Clock()
	}
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

// process is process_light_client_update: it returns the new store, s
// itself being left as it was. Only an update that validates (its
// signature verified) can become the store's best_valid_update.
func (c *Config) process(s *store, u *Update, now beacon.Slot) (*store, error) {
	n, err := c.validate(s, u, now)
	if err != nil {
		return nil, err
	}
	ns := *s
	if ns.best == nil || c.isBetter(u, ns.best) {
		ns.best = u
	}
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
		ns.best = nil
	}
	return &ns, nil
}

// updateTimeout is UPDATE_TIMEOUT, SLOTS_PER_EPOCH *
// EPOCHS_PER_SYNC_COMMITTEE_PERIOD: how long finality may stall before a
// forced update.
func (c *Config) updateTimeout() beacon.Slot {
	return beacon.Slot(c.SlotsPerEpoch * c.EpochsPerSyncCommitteePeriod)
}

// stalled reports whether the current slot is more than UPDATE_TIMEOUT
// past the finalized header: a forced update is due.
func (c *Config) stalled(s *store, now beacon.Slot) bool {
	return now > s.finalized.Beacon.Slot+c.updateTimeout()
}

// force is process_light_client_store_force_update: once the current slot
// is more than UPDATE_TIMEOUT past the finalized header and the store
// holds a best_valid_update, that update is applied, its attested header
// standing for its finalized header when the latter is not newer than the
// store's. It returns s itself when nothing is forced, else a new store.
func (c *Config) force(s *store, now beacon.Slot) (*store, error) {
	if s.best == nil || !c.stalled(s, now) {
		return s, nil
	}
	u := *s.best
	if u.FinalizedHeader.Beacon.Slot <= s.finalized.Beacon.Slot {
		u.FinalizedHeader = u.AttestedHeader
	}
	ns := *s
	if err := c.apply(&ns, &u); err != nil {
		return nil, err
	}
	ns.best = nil
	return &ns, nil
}

// isBetter is is_better_update: whether a ranks above b as the update to
// force.
func (c *Config) isBetter(a, b *Update) bool {
	size := len(a.SyncCommitteeBits) * 8
	na, nb := participants(a.SyncCommitteeBits), participants(b.SyncCommitteeBits)
	// Supermajority (2/3) of the committee signed.
	if sa, sb := na*3 >= size*2, nb*3 >= size*2; sa != sb {
		return sa
	} else if !sa && na != nb {
		return na > nb
	}
	// A next sync committee of the signature's period.
	relevant := func(u *Update) bool {
		return !allZero(u.NextSyncCommitteeBranch) && c.period(u.AttestedHeader.Beacon.Slot) == c.period(u.SignatureSlot)
	}
	if ra, rb := relevant(a), relevant(b); ra != rb {
		return ra
	}
	// Finality, then finality within the attested header's period.
	fa, fb := !allZero(a.FinalityBranch), !allZero(b.FinalityBranch)
	if fa != fb {
		return fa
	}
	if fa {
		committeeFinal := func(u *Update) bool {
			return c.period(u.FinalizedHeader.Beacon.Slot) == c.period(u.AttestedHeader.Beacon.Slot)
		}
		if ca, cb := committeeFinal(a), committeeFinal(b); ca != cb {
			return ca
		}
	}
	// Tie breakers: more participants, older data, earlier signature.
	if na != nb {
		return na > nb
	}
	if aa, ab := a.AttestedHeader.Beacon.Slot, b.AttestedHeader.Beacon.Slot; aa != ab {
		return aa < ab
	}
	return a.SignatureSlot < b.SignatureSlot
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
