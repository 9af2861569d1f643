package beacontest

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/beacon"
)

// gloas fills the fields gloas adds: a builder registry of 1 to 16
// builders, every vector at the preset's length, and some uint64 values
// above 2^53 (full 64-bit values: the gas limit, a balance, the payment),
// which a JavaScript-number implementation cannot carry.
func (g gen) gloas(s *beacon.State, p beacon.Preset, n int) {
	s.LatestBlockHash = common.Hash(g.root())
	s.Builders = make([]beacon.Builder, 1+g.u64n(16))
	for i := range s.Builders {
		b := &s.Builders[i]
		g.fill(b.PublicKey[:])
		b.Version = uint8(g.u64n(256))
		g.fill(b.ExecutionAddress[:])
		b.Balance = beacon.Gwei(g.r.Uint64())
		b.DepositEpoch = s.Fork.Epoch - beacon.Epoch(g.u64n(1000))
		b.WithdrawableEpoch = beacon.FarFutureEpoch
	}
	s.NextWithdrawalBuilderIndex = beacon.BuilderIndex(g.u64n(uint64(len(s.Builders))))
	s.ExecutionPayloadAvailability = make([]byte, (p.SlotsPerHistoricalRoot+7)/8)
	g.fill(s.ExecutionPayloadAvailability)
	if r := p.SlotsPerHistoricalRoot % 8; r != 0 {
		s.ExecutionPayloadAvailability[len(s.ExecutionPayloadAvailability)-1] &= 1<<r - 1
	}
	s.BuilderPendingPayments = make([]beacon.BuilderPendingPayment, 2*p.SlotsPerEpoch)
	for i := range s.BuilderPendingPayments {
		if g.u64n(4) == 0 {
			s.BuilderPendingPayments[i] = beacon.BuilderPendingPayment{Weight: beacon.Gwei(g.u64n(1 << 50)), Withdrawal: g.builderWithdrawal(len(s.Builders)), ProposerIndex: beacon.ValidatorIndex(g.u64n(uint64(n)))}
		}
	}
	s.BuilderPendingWithdrawals = make([]beacon.BuilderPendingWithdrawal, 1+g.u64n(8))
	for i := range s.BuilderPendingWithdrawals {
		s.BuilderPendingWithdrawals[i] = g.builderWithdrawal(len(s.Builders))
	}
	b := &s.LatestExecutionPayloadBid
	b.ParentBlockHash, b.ParentBlockRoot, b.BlockHash, b.PrevRandao = common.Hash(g.root()), g.root(), common.Hash(g.root()), g.root()
	g.fill(b.FeeRecipient[:])
	b.GasLimit = g.r.Uint64()
	b.BuilderIndex = 1<<64 - 1 // BUILDER_INDEX_SELF_BUILD
	b.Slot = s.Slot
	b.Value = beacon.Gwei(g.u64n(1 << 40))
	b.ExecutionPayment = beacon.Gwei(g.r.Uint64())
	b.BlobKZGCommitments = make([]beacon.KZGCommitment, 1+g.u64n(min(p.MaxBlobCommitmentsPerBlock, 9)))
	for i := range b.BlobKZGCommitments {
		g.fill(b.BlobKZGCommitments[i][:])
	}
	b.ExecutionRequestsRoot = g.root()
	s.PayloadExpectedWithdrawals = make([]beacon.Withdrawal, 1+g.u64n(p.MaxWithdrawalsPerPayload))
	for i := range s.PayloadExpectedWithdrawals {
		w := &s.PayloadExpectedWithdrawals[i]
		w.Index = g.u64n(1 << 40)
		w.ValidatorIndex = beacon.ValidatorIndex(g.u64n(uint64(n)))
		g.fill(w.Address[:])
		w.Amount = beacon.Gwei(g.u64n(1 << 36))
	}
	s.PTCWindow = make([][]beacon.ValidatorIndex, (2+p.MinSeedLookahead)*p.SlotsPerEpoch)
	for i := range s.PTCWindow {
		s.PTCWindow[i] = make([]beacon.ValidatorIndex, p.PTCSize)
		for j := range s.PTCWindow[i] {
			s.PTCWindow[i][j] = beacon.ValidatorIndex(g.u64n(uint64(n)))
		}
	}
}

func (g gen) builderWithdrawal(builders int) beacon.BuilderPendingWithdrawal {
	w := beacon.BuilderPendingWithdrawal{Amount: beacon.Gwei(g.u64n(1 << 40)), BuilderIndex: beacon.BuilderIndex(g.u64n(uint64(builders)))}
	g.fill(w.FeeRecipient[:])
	return w
}
