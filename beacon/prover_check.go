package beacon

import (
	"fmt"
	"strconv"

	"github.com/nodeaccess/nodeaccess"
)

// A Prover's guard against a state that changed after NewProver: every
// method first checks, in well under a microsecond, that its state still
// has the version, the preset and the lengths of the lists and vectors
// that NewProver prepared its tree and its generalized indices for, and
// refuses it otherwise. A proof never indexes the state with a position
// taken from the state as it is now: the tree, the field types and the
// lengths are those NewProver saw.

// preparedLen is the length, as NewProver saw it, of a field's list or
// vector, or of the one inside a container field.
type preparedLen struct {
	field int // index in Prover.fields
	n     int
}

// fieldLen returns the length of the list or vector at ptr (a field's
// pointer) and, for a container field with a list or vector inside (a sync
// committee's public keys, the payload header's extra data, the bid's
// commitments), that one's length and name; ok is false for a field with
// neither.
func fieldLen(ptr any) (n int, sub string, ok bool) {
	switch p := ptr.(type) {
	case *[]Root:
		return len(*p), "", true
	case *[]Gwei:
		return len(*p), "", true
	case *[]ValidatorIndex:
		return len(*p), "", true
	case *[]uint64:
		return len(*p), "", true
	case *[]uint8:
		return len(*p), "", true
	case *[]Validator:
		return len(*p), "", true
	case *[]Eth1Data:
		return len(*p), "", true
	case *[]HistoricalSummary:
		return len(*p), "", true
	case *[]PendingDeposit:
		return len(*p), "", true
	case *[]PendingPartialWithdrawal:
		return len(*p), "", true
	case *[]PendingConsolidation:
		return len(*p), "", true
	case *[]PendingAttestation:
		return len(*p), "", true
	case *bitvector:
		return len(*p), "", true
	case *[]Builder:
		return len(*p), "", true
	case *[]BuilderPendingPayment:
		return len(*p), "", true
	case *[]BuilderPendingWithdrawal:
		return len(*p), "", true
	case *[]Withdrawal:
		return len(*p), "", true
	case *[][]ValidatorIndex:
		return len(*p), "", true
	case *SyncCommittee:
		return len(p.PublicKeys), ".pubkeys", true
	case *ExecutionPayloadHeader:
		return len(p.ExtraData), ".extra_data", true
	case *ExecutionPayloadBid:
		return len(p.BlobKZGCommitments), ".blob_kzg_commitments", true
	}
	return 0, "", false
}

// prepareLens returns the lengths of the fields' lists and vectors.
func prepareLens(fields []field) []preparedLen {
	var lens []preparedLen
	for i := range fields {
		if n, _, ok := fieldLen(fields[i].ptr); ok {
			lens = append(lens, preparedLen{field: i, n: n})
		}
	}
	return lens
}

// check returns an *nodeaccess.InputError when p was not made by
// NewProver, or when its state no longer has the version, the preset or a
// list's or vector's length that NewProver prepared.
func (p *Prover) check() error {
	if p == nil || p.st == nil {
		return &nodeaccess.InputError{Arg: "prover", Reason: "not made by NewProver (a nil or zero Prover)"}
	}
	s := p.st
	if s.Version != p.version {
		return stateChanged("version " + s.Version.String() + ", prepared for " + p.version.String())
	}
	if pr := s.preset(); pr != p.preset {
		if pr.Name == p.preset.Name {
			return stateChanged("preset " + strconv.Quote(presetName(pr)) + " with other values than when prepared")
		}
		return stateChanged("preset " + strconv.Quote(presetName(pr)) + ", prepared for " + strconv.Quote(presetName(p.preset)))
	}
	for _, l := range p.lens {
		f := &p.fields[l.field]
		if n, sub, _ := fieldLen(f.ptr); n != l.n {
			return stateChanged(fmt.Sprintf("%s%s has length %d, prepared with %d", f.name, sub, n, l.n))
		}
	}
	return nil
}

func stateChanged(what string) error {
	return &nodeaccess.InputError{Arg: "state", Reason: "changed since NewProver: " + what}
}
