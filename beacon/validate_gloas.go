package beacon

import "fmt"

// checkGloasPreset refuses, for a gloas state, a preset without the gloas
// values (a custom preset may leave them zero for earlier forks).
func (s *State) checkGloasPreset(p Preset) error {
	if s.Version < Gloas {
		return nil
	}
	for _, c := range []struct {
		name string
		v    uint64
	}{{"MaxWithdrawalsPerPayload", p.MaxWithdrawalsPerPayload}, {"MaxBlobCommitmentsPerBlock", p.MaxBlobCommitmentsPerBlock}, {"PTCSize", p.PTCSize}} {
		if c.v == 0 {
			return fmt.Errorf("beacon: preset %q: %s = 0: a gloas state needs it", presetName(p), c.name)
		}
	}
	return nil
}

// gloasForeign returns the JSON name of the first gloas field set in a
// state of an earlier fork, or "".
func (s *State) gloasForeign() string {
	switch {
	case s.LatestBlockHash != [32]byte{}:
		return "latest_block_hash"
	case s.Builders != nil:
		return "builders"
	case s.NextWithdrawalBuilderIndex != 0:
		return "next_withdrawal_builder_index"
	case s.ExecutionPayloadAvailability != nil:
		return "execution_payload_availability"
	case s.BuilderPendingPayments != nil:
		return "builder_pending_payments"
	case s.BuilderPendingWithdrawals != nil:
		return "builder_pending_withdrawals"
	case s.PayloadExpectedWithdrawals != nil:
		return "payload_expected_withdrawals"
	case s.PTCWindow != nil:
		return "ptc_window"
	case !s.gloasZero(): // nothing else is set: the bid is
		return "latest_execution_payload_bid"
	}
	return ""
}

// checkGloasField is checkField for the gloas types.
func checkGloasField(f field) error {
	var n int
	switch p := f.ptr.(type) {
	case *bitvector:
		if want := (f.n + 7) / 8; uint64(len(*p)) != want {
			return fmt.Errorf("has %d bytes, the preset's Bitvector[%d] has %d", len(*p), f.n, want)
		}
		if r := f.n % 8; r != 0 && (*p)[len(*p)-1]>>r != 0 {
			return fmt.Errorf("sets bits beyond the %d of the Bitvector", f.n)
		}
		return nil
	case *ExecutionPayloadBid:
		if uint64(len(p.BlobKZGCommitments)) > f.n {
			return fmt.Errorf("blob_kzg_commitments: %d commitments, over the limit of %d", len(p.BlobKZGCommitments), f.n)
		}
		return nil
	case *[][]ValidatorIndex:
		for i, v := range *p {
			if uint64(len(v)) != f.bits {
				return fmt.Errorf("[%d]: has %d indices, the preset's PTC_SIZE is %d", i, len(v), f.bits)
			}
		}
		n = len(*p)
	case *[]Builder:
		n = len(*p)
	case *[]BuilderPendingPayment:
		n = len(*p)
	case *[]BuilderPendingWithdrawal:
		n = len(*p)
	case *[]Withdrawal:
		n = len(*p)
	default:
		return nil
	}
	if f.vector && uint64(n) != f.n {
		return fmt.Errorf("has %d elements, the preset's vector has %d", n, f.n)
	}
	if !f.vector && uint64(n) > f.n {
		return fmt.Errorf("has %d elements, over the preset's limit of %d", n, f.n)
	}
	return nil
}
