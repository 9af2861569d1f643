package beacontest

import (
	"math/rand/v2"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/beacon"
)

// NewState returns a state of fork v and preset p with the given number of
// validators (at least 1), filled from a random generator seeded with seed:
// the same arguments give the same state, byte for byte. Every list the
// fork has is non-empty (and within the preset's limits), every vector has
// the preset's length, and the execution payload header has extra data
// (gloas: the bid has commitments, the builder registry has builders), so
// an encoder or decoder that skips a field is caught. Values are random but
// well-formed (bitlists have their length bit, balances and epochs are
// plausible), not a consistent chain history.
func NewState(v beacon.Version, p beacon.Preset, validators int, seed uint64) *beacon.State {
	if validators < 1 {
		validators = 1
	}
	g := gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	n := validators
	s := &beacon.State{Version: v, Preset: p}

	s.GenesisTime = 1606824023 + g.u64n(1000)
	s.GenesisValidatorsRoot = g.root()
	s.Slot = beacon.Slot(1_000_000 + g.u64n(10_000_000))
	s.Fork = beacon.Fork{PreviousVersion: beacon.ForkVersion{byte(v) - min(byte(v), 1)}, CurrentVersion: beacon.ForkVersion{byte(v)}, Epoch: beacon.Epoch(uint64(s.Slot) / p.SlotsPerEpoch)}
	s.LatestBlockHeader = beacon.BeaconBlockHeader{Slot: s.Slot, ProposerIndex: beacon.ValidatorIndex(g.u64n(uint64(n))), ParentRoot: g.root(), StateRoot: g.root(), BodyRoot: g.root()}
	s.BlockRoots = g.roots(int(p.SlotsPerHistoricalRoot))
	s.StateRoots = g.roots(int(p.SlotsPerHistoricalRoot))
	s.HistoricalRoots = g.roots(1 + int(g.u64n(16)))
	s.Eth1Data = g.eth1Data()
	s.Eth1DataVotes = make([]beacon.Eth1Data, 1+g.u64n(min(p.EpochsPerEth1VotingPeriod*p.SlotsPerEpoch, 32)))
	for i := range s.Eth1DataVotes {
		s.Eth1DataVotes[i] = g.eth1Data()
	}
	s.Eth1DepositIndex = g.u64n(1 << 32)

	s.Validators = make([]beacon.Validator, n)
	s.Balances = make([]beacon.Gwei, n)
	for i := range s.Validators {
		s.Validators[i] = g.validator()
		s.Balances[i] = beacon.Gwei(31_000_000_000 + g.u64n(2_000_000_000))
	}
	s.RandaoMixes = g.roots(int(p.EpochsPerHistoricalVector))
	s.Slashings = make([]beacon.Gwei, p.EpochsPerSlashingsVector)
	for i := range s.Slashings {
		if g.u64n(8) == 0 {
			s.Slashings[i] = beacon.Gwei(g.u64n(1 << 40))
		}
	}

	if v == beacon.Phase0 {
		s.PreviousEpochAttestations = g.attestations(p)
		s.CurrentEpochAttestations = g.attestations(p)
	} else {
		s.PreviousEpochParticipation = g.participation(n)
		s.CurrentEpochParticipation = g.participation(n)
	}
	s.JustificationBits = uint8(g.u64n(16))
	s.PreviousJustifiedCheckpoint = beacon.Checkpoint{Epoch: s.Fork.Epoch - 2, Root: g.root()}
	s.CurrentJustifiedCheckpoint = beacon.Checkpoint{Epoch: s.Fork.Epoch - 1, Root: g.root()}
	s.FinalizedCheckpoint = beacon.Checkpoint{Epoch: s.Fork.Epoch - 3, Root: g.root()}

	if v >= beacon.Altair {
		s.InactivityScores = make([]uint64, n)
		for i := range s.InactivityScores {
			if g.u64n(16) == 0 {
				s.InactivityScores[i] = g.u64n(1 << 16)
			}
		}
		s.CurrentSyncCommittee = g.syncCommittee(p)
		s.NextSyncCommittee = g.syncCommittee(p)
	}
	if v >= beacon.Bellatrix && v < beacon.Gloas {
		h := &s.LatestExecutionPayloadHeader
		h.ParentHash = common.Hash(g.root())
		g.fill(h.FeeRecipient[:])
		h.StateRoot, h.ReceiptsRoot, h.PrevRandao = g.root(), g.root(), g.root()
		g.fill(h.LogsBloom[:])
		h.BlockNumber = 20_000_000 + g.u64n(1_000_000)
		h.GasLimit = 36_000_000
		h.GasUsed = g.u64n(h.GasLimit)
		h.Timestamp = s.GenesisTime + uint64(s.Slot)*12
		h.ExtraData = make([]byte, 1+g.u64n(p.MaxExtraDataBytes))
		g.fill(h.ExtraData)
		h.BaseFeePerGas.SetUint64(g.u64n(100_000_000_000))
		if g.u64n(2) == 0 { // sometimes a value above 2^64, to exercise all 32 bytes
			h.BaseFeePerGas.Lsh(&h.BaseFeePerGas, 100)
		}
		h.BlockHash = common.Hash(g.root())
		h.TransactionsRoot = g.root()
		if v >= beacon.Capella {
			h.WithdrawalsRoot = g.root()
		}
		if v >= beacon.Deneb {
			h.BlobGasUsed = g.u64n(1 << 20)
			h.ExcessBlobGas = g.u64n(1 << 24)
		}
	}
	if v >= beacon.Capella {
		s.NextWithdrawalIndex = g.u64n(1 << 40)
		s.NextWithdrawalValidatorIndex = beacon.ValidatorIndex(g.u64n(uint64(n)))
		s.HistoricalSummaries = make([]beacon.HistoricalSummary, 1+g.u64n(16))
		for i := range s.HistoricalSummaries {
			s.HistoricalSummaries[i] = beacon.HistoricalSummary{BlockSummaryRoot: g.root(), StateSummaryRoot: g.root()}
		}
	}
	if v >= beacon.Electra {
		s.DepositRequestsStartIndex = g.u64n(1 << 32)
		s.DepositBalanceToConsume = beacon.Gwei(g.u64n(1 << 40))
		s.ExitBalanceToConsume = beacon.Gwei(g.u64n(1 << 40))
		s.EarliestExitEpoch = s.Fork.Epoch + beacon.Epoch(g.u64n(100))
		s.ConsolidationBalanceToConsume = beacon.Gwei(g.u64n(1 << 40))
		s.EarliestConsolidationEpoch = s.Fork.Epoch + beacon.Epoch(g.u64n(100))
		s.PendingDeposits = make([]beacon.PendingDeposit, 1+g.u64n(min(p.PendingDepositsLimit, 32)))
		for i := range s.PendingDeposits {
			d := &s.PendingDeposits[i]
			g.fill(d.PublicKey[:])
			d.WithdrawalCredentials = g.root()
			d.Amount = beacon.Gwei(32_000_000_000)
			g.fill(d.Signature[:])
			d.Slot = s.Slot - beacon.Slot(g.u64n(1000))
		}
		s.PendingPartialWithdrawals = make([]beacon.PendingPartialWithdrawal, 1+g.u64n(min(p.PendingPartialWithdrawalsLimit, 16)))
		for i := range s.PendingPartialWithdrawals {
			s.PendingPartialWithdrawals[i] = beacon.PendingPartialWithdrawal{ValidatorIndex: beacon.ValidatorIndex(g.u64n(uint64(n))), Amount: beacon.Gwei(g.u64n(1 << 36)), WithdrawableEpoch: s.Fork.Epoch + beacon.Epoch(g.u64n(256))}
		}
		s.PendingConsolidations = make([]beacon.PendingConsolidation, 1+g.u64n(min(p.PendingConsolidationsLimit, 16)))
		for i := range s.PendingConsolidations {
			s.PendingConsolidations[i] = beacon.PendingConsolidation{SourceIndex: beacon.ValidatorIndex(g.u64n(uint64(n))), TargetIndex: beacon.ValidatorIndex(g.u64n(uint64(n)))}
		}
	}
	if v >= beacon.Fulu {
		s.ProposerLookahead = make([]beacon.ValidatorIndex, (p.MinSeedLookahead+1)*p.SlotsPerEpoch)
		for i := range s.ProposerLookahead {
			s.ProposerLookahead[i] = beacon.ValidatorIndex(g.u64n(uint64(n)))
		}
	}
	if v >= beacon.Gloas {
		g.gloas(s, p, n)
	}
	return s
}

type gen struct{ r *rand.Rand }

func (g gen) u64n(n uint64) uint64 {
	if n == 0 {
		return 0
	}
	return g.r.Uint64N(n)
}

func (g gen) fill(b []byte) {
	for len(b) >= 8 {
		x := g.r.Uint64()
		b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24), byte(x>>32), byte(x>>40), byte(x>>48), byte(x>>56)
		b = b[8:]
	}
	if len(b) > 0 {
		x := g.r.Uint64()
		for i := range b {
			b[i] = byte(x >> (8 * i))
		}
	}
}

func (g gen) root() (r beacon.Root) {
	g.fill(r[:])
	return r
}

func (g gen) roots(n int) []beacon.Root {
	out := make([]beacon.Root, n)
	for i := range out {
		out[i] = g.root()
	}
	return out
}

func (g gen) eth1Data() beacon.Eth1Data {
	return beacon.Eth1Data{DepositRoot: g.root(), DepositCount: g.u64n(1 << 32), BlockHash: g.root()}
}

func (g gen) validator() beacon.Validator {
	var v beacon.Validator
	g.fill(v.PublicKey[:])
	v.WithdrawalCredentials = g.root()
	v.WithdrawalCredentials[0] = byte(g.u64n(3)) // 0x00, 0x01 or 0x02 prefix
	v.EffectiveBalance = beacon.Gwei(32_000_000_000 - 1_000_000_000*g.u64n(2))
	v.Slashed = g.u64n(64) == 0
	v.ActivationEligibilityEpoch = beacon.Epoch(g.u64n(300_000))
	v.ActivationEpoch = v.ActivationEligibilityEpoch + beacon.Epoch(g.u64n(1000))
	if g.u64n(8) == 0 {
		v.ExitEpoch = v.ActivationEpoch + beacon.Epoch(g.u64n(100_000))
		v.WithdrawableEpoch = v.ExitEpoch + 256
	} else {
		v.ExitEpoch, v.WithdrawableEpoch = beacon.FarFutureEpoch, beacon.FarFutureEpoch
	}
	return v
}

func (g gen) participation(n int) []uint8 {
	out := make([]uint8, n)
	for i := range out {
		out[i] = uint8(g.u64n(8))
	}
	return out
}

func (g gen) attestations(p beacon.Preset) []beacon.PendingAttestation {
	out := make([]beacon.PendingAttestation, 1+g.u64n(min(p.MaxAttestations*p.SlotsPerEpoch, 8)))
	for i := range out {
		bits := 1 + g.u64n(p.MaxValidatorsPerCommittee) // number of bits before the length bit
		bl := make(beacon.Bitlist, bits/8+1)
		g.fill(bl)
		last := bits % 8 // position of the length bit in the last byte
		bl[len(bl)-1] &= byte(1)<<last - 1
		bl[len(bl)-1] |= byte(1) << last
		out[i] = beacon.PendingAttestation{
			AggregationBits: bl,
			Data: beacon.AttestationData{
				Slot: beacon.Slot(g.u64n(1 << 24)), Index: g.u64n(64), BeaconBlockRoot: g.root(),
				Source: beacon.Checkpoint{Epoch: beacon.Epoch(g.u64n(1 << 20)), Root: g.root()},
				Target: beacon.Checkpoint{Epoch: beacon.Epoch(g.u64n(1 << 20)), Root: g.root()},
			},
			InclusionDelay: beacon.Slot(1 + g.u64n(32)),
			ProposerIndex:  beacon.ValidatorIndex(g.u64n(1 << 20)),
		}
	}
	return out
}

func (g gen) syncCommittee(p beacon.Preset) beacon.SyncCommittee {
	sc := beacon.SyncCommittee{PublicKeys: make([]beacon.BLSPubKey, p.SyncCommitteeSize)}
	for i := range sc.PublicKeys {
		g.fill(sc.PublicKeys[i][:])
	}
	g.fill(sc.AggregatePublicKey[:])
	return sc
}
