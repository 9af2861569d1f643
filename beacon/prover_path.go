package beacon

import (
	"fmt"
	"math/bits"
	"strconv"

	"github.com/nodeaccess/nodeaccess"
)

// sszType describes a type of the state for GIndexOf: a container (its
// field names and types) or a list or vector (its length or limit and its
// element). A nil *sszType is a chunk, which a path cannot enter.
type sszType struct {
	name   string // for errors: "a validator", "a list of roots"
	fields []string
	types  []*sszType
	// collections
	coll bool
	list bool
	// progressive marks a progressive list or container (EIP-7916,
	// EIP-7495): its contents or fields are its node's left child, laid
	// out as progressiveGIndex says.
	progressive bool
	n           uint64   // a vector's length, a list's limit (elements)
	elemSize    uint64   // a packed basic element's bytes; 0 for a composite one
	elem        *sszType // a composite element's type (nil for a leaf element)
}

func containerType(name string, fields []string, types ...*sszType) *sszType {
	t := &sszType{name: name, fields: fields, types: types}
	for len(t.types) < len(fields) {
		t.types = append(t.types, nil) // a chunk
	}
	return t
}

var (
	checkpointType      = containerType("a checkpoint", checkpointNames)
	attestationDataType = containerType("attestation data", attestationDataNames, nil, nil, nil, checkpointType, checkpointType)
	validatorType       = containerType("a validator", validatorNames[:])
)

// chunks returns the number of chunks of t's tree (its leaves before
// padding): the specs' chunk_count.
func (t *sszType) chunks() uint64 {
	if !t.coll {
		return uint64(len(t.fields))
	}
	if t.elemSize > 0 {
		return (t.n*t.elemSize + 31) / 32
	}
	return t.n
}

// fieldType returns the type of the state's field f, as GIndexOf walks it.
func (s *State) fieldType(f *field) *sszType {
	list := func(name string, elemSize uint64, elem *sszType) *sszType {
		return &sszType{name: name, coll: true, list: !f.vector, progressive: f.progressive, n: f.n, elemSize: elemSize, elem: elem}
	}
	switch f.ptr.(type) {
	case *Fork:
		return containerType("a fork", forkNames)
	case *BeaconBlockHeader:
		return containerType("a block header", blockHeaderNames)
	case *Eth1Data:
		return containerType("eth1 data", eth1DataNames)
	case *Checkpoint:
		return checkpointType
	case *SyncCommittee:
		keys := &sszType{name: "the public keys", coll: true, n: f.n}
		return containerType("a sync committee", syncCommitteeNames, keys)
	case *ExecutionPayloadHeader:
		n := 14
		if s.Version >= Deneb {
			n = 17
		} else if s.Version >= Capella {
			n = 15
		}
		return containerType("an execution payload header", payloadHeaderNames[:n])
	case *[]Root:
		return list("a list of roots", 0, nil)
	case *[]Gwei, *[]ValidatorIndex, *[]uint64:
		return list("a list of uint64", 8, nil)
	case *[]uint8:
		return list("a list of participation flags", 1, nil)
	case *[]Validator:
		return list("the validators", 0, validatorType)
	case *[]Eth1Data:
		return list("the eth1 data votes", 0, containerType("eth1 data", eth1DataNames))
	case *[]HistoricalSummary:
		return list("the historical summaries", 0, containerType("a historical summary", historicalSummaryNames))
	case *[]PendingDeposit:
		return list("the pending deposits", 0, containerType("a pending deposit", pendingDepositNames))
	case *[]PendingPartialWithdrawal:
		return list("the pending partial withdrawals", 0, containerType("a pending partial withdrawal", pendingPartialWithdrawalNames))
	case *[]PendingConsolidation:
		return list("the pending consolidations", 0, containerType("a pending consolidation", pendingConsolidationNames))
	case *[]PendingAttestation:
		return list("the pending attestations", 0, containerType("a pending attestation", pendingAttestationNames, nil, attestationDataType))
	}
	return s.gloasFieldType(f)
}

// stateType returns the type of s, whose fields are fields, as GIndexOf
// walks it.
func (s *State) stateType(fields []field) *sszType {
	t := &sszType{name: article(s.Version) + " " + s.Version.String() + " state", fields: make([]string, len(fields)), types: make([]*sszType, len(fields)), progressive: s.Version >= Gloas}
	for i := range fields {
		t.fields[i] = fields[i].name
		t.types[i] = s.fieldType(&fields[i])
	}
	return t
}

// GIndexOf returns the generalized index of the node that path names in
// the state's tree, as the specs' get_generalized_index does: each element
// is a field name (a string, as the specs spell it) of a container, an
// index (any integer type) of a list or vector element, or "__len__" for a
// list's length. In a list of packed basic values (balances, inactivity
// scores, participation flags) an index names the chunk that holds the
// value, and the path ends there. For example, in a fulu state:
//
//	p.GIndexOf("validators", 5, "exit_epoch")
//	p.GIndexOf("pending_deposits", 0, "amount")
//	p.GIndexOf("current_sync_committee", "pubkeys", 7)
//	p.GIndexOf("historical_summaries", "__len__")
//
// A name that is not a field, an index past a vector's length or a list's
// limit, or a path that goes on below a leaf is a *nodeaccess.InputError.
func (p *Prover) GIndexOf(path ...any) (GIndex, error) {
	if err := p.check(); err != nil {
		return 0, err
	}
	return gindexOf(p.typ, path)
}

// gindexOf is GIndexOf in the tree of a value of type t.
func gindexOf(t *sszType, path []any) (GIndex, error) {
	g := GIndex(1)
	for k, step := range path {
		if t == nil {
			return 0, badPath(path, k, "goes below a leaf")
		}
		var (
			pos   uint64
			next  *sszType
			depth = depthFor(t.chunks())
			base  = GIndex(1)
		)
		switch v := step.(type) {
		case string:
			if v == "__len__" {
				if !t.list {
					return 0, badPath(path, k, "__len__ of "+t.name+", which is not a list")
				}
				depth, base, pos = 0, 2, 1 // the right child of the list's node
				break
			}
			if t.coll {
				return 0, badPath(path, k, fmt.Sprintf("%q: %s takes an index, not a name", cutName(v), t.name))
			}
			i := -1
			for j, n := range t.fields {
				if n == v {
					i = j
				}
			}
			if i < 0 {
				return 0, badPath(path, k, fmt.Sprintf("%q is not a field of %s", cutName(v), t.name))
			}
			pos, next = uint64(i), t.types[i]
		default:
			idx, ok := asIndex(step)
			if !ok {
				return 0, badPath(path, k, fmt.Sprintf("%v (%T) is neither a field name nor an index", step, step))
			}
			if !t.coll {
				return 0, badPath(path, k, fmt.Sprintf("index %d into %s, which takes a field name", idx, t.name))
			}
			if idx >= t.n {
				what := "length"
				if t.list {
					what = "limit"
				}
				return 0, badPath(path, k, fmt.Sprintf("index %d is past the %s %d of %s", idx, what, t.n, t.name))
			}
			pos, next = idx, t.elem
			if t.elemSize > 0 {
				pos = idx * t.elemSize / 32
			}
		}
		if (t.list || t.progressive) && base == 1 {
			base = 2 // a list's contents (a progressive container's fields) are its node's left child
		}
		if t.progressive && step != "__len__" {
			rel, err := progressiveGIndex(pos)
			if err != nil {
				return 0, badPath(path, k, "is too deep for a 64-bit generalized index")
			}
			depth, pos = rel.depth(), rel.index()
		}
		if g.depth()+bits.Len64(uint64(base))-1+depth > 63 {
			return 0, badPath(path, k, "is too deep for a 64-bit generalized index")
		}
		g = (g*base)<<depth | GIndex(pos)
		t = next
		if step == "__len__" {
			t = nil
		}
	}
	return g, nil
}

// asIndex converts an integer of any Go integer type to a uint64.
func asIndex(v any) (uint64, bool) {
	switch x := v.(type) {
	case int:
		return uint64(x), x >= 0
	case int64:
		return uint64(x), x >= 0
	case int32:
		return uint64(x), x >= 0
	case uint:
		return uint64(x), true
	case uint64:
		return x, true
	case uint32:
		return uint64(x), true
	case ValidatorIndex:
		return uint64(x), true
	case BuilderIndex:
		return uint64(x), true
	case Slot:
		return uint64(x), true
	case Epoch:
		return uint64(x), true
	}
	return 0, false
}

func badPath(path []any, k int, why string) error {
	s := ""
	for i, e := range path[:k+1] {
		if i > 0 {
			s += "."
		}
		if str, ok := e.(string); ok {
			s += cutName(str)
		} else {
			s += fmt.Sprint(e)
		}
	}
	return &nodeaccess.InputError{Arg: "path", Reason: strconv.Quote(cutName(s)) + " " + why}
}
