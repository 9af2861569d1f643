package light

import (
	"fmt"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
)

// VerifyError says which check of the consensus specs' light-client sync
// protocol (or of the encoding) failed: a bootstrap that is not the
// trusted block's, an update whose signature, participation, slots,
// periods or branches the consensus specs refuse, a header whose execution
// branch proves another payload, bytes or JSON that are not a light-client
// object of the fork they claim, a saved store that was changed, a state
// that is not the verified header's. It matches nodeaccess.ErrUnverified
// (and so nodeaccess.ErrInvalidResponse): the provider's answer cannot be
// believed. No value comes with such an error, and nothing of the data
// that failed is kept (Sync keeps the updates verified before it).
//
// Check is one of:
//
//   - "encoding": the bytes or the JSON are not the object of the fork and
//     chain configuration they were decoded for (Detail names the field);
//   - "trusted block root": the bootstrap's header does not hash to the
//     trusted block root (Want the trusted root, Got the header's root);
//   - "header": a header is not a valid light-client header of its slot's
//     fork (is_valid_light_client_header): an execution branch that does
//     not lead to the body root (Want the body root, Got the root the
//     branch leads to), execution data before Capella, blob gas before
//     Deneb, a form that cannot carry its slot's fork;
//   - "current sync committee branch", "next sync committee branch",
//     "finality branch": a branch that does not lead to the header's state
//     root (Want the state root, Got the root the branch leads to), or one
//     too short for the slot's fork or with non-zero padding;
//   - "participation": fewer participants than the minimum;
//   - "slot order": not current slot >= signature slot > attested slot >=
//     finalized slot;
//   - "period": a signature from a sync committee period the store has no
//     committee for;
//   - "stale": the update brings nothing the store does not have (an
//     attested header no newer than the finalized one, and no next sync
//     committee the store lacks). Such an update may be genuine: its
//     signature was not checked, and nothing was taken from it;
//   - "finalized header": a non-zero finalized header where the update has
//     no finality branch, or at the genesis slot;
//   - "next sync committee": a non-zero next committee without a branch, or
//     one other than the next committee the store already knows (Want and
//     Got the committees' roots);
//   - "signature": the sync committee's aggregate signature does not
//     verify, is not a valid point, or names an invalid key;
//   - "saved store": MarshalBinary's output that was changed or belongs to
//     another chain;
//   - "state root": a beacon state that does not hash to the verified
//     header's state root (Want the header's, Got the state's).
type VerifyError struct {
	// Check names the failed check (see the list above).
	Check string
	// Want and Got are the roots the check compared, when it compares
	// roots; zero otherwise.
	Want, Got beacon.Root
	// Detail says what was found.
	Detail string
}

// Error formats the check, the detail and the roots.
func (e *VerifyError) Error() string {
	s := "light client: " + e.Check + ": " + e.Detail
	if e.Want != (beacon.Root{}) || e.Got != (beacon.Root{}) {
		s += fmt.Sprintf(" (want %s, got %s)", e.Want, e.Got)
	}
	return s
}

// Unwrap returns nodeaccess.ErrUnverified (which wraps
// nodeaccess.ErrInvalidResponse).
func (e *VerifyError) Unwrap() error { return nodeaccess.ErrUnverified }

// unverified returns a *VerifyError.
func unverified(check, format string, args ...any) *VerifyError {
	return &VerifyError{Check: check, Detail: fmt.Sprintf(format, args...)}
}

// mismatch returns a *VerifyError of a root comparison.
func mismatch(check string, want, got beacon.Root, format string, args ...any) *VerifyError {
	return &VerifyError{Check: check, Want: want, Got: got, Detail: fmt.Sprintf(format, args...)}
}

// encodingError is the error of bytes or JSON that do not decode.
func encodingError(format string, args ...any) *VerifyError {
	return unverified("encoding", format, args...)
}

// errInput is the error of a caller's argument that cannot be used (a
// Version without light-client data, a nil value, a bad configuration):
// nothing was verified, and the provider is not at fault.
func errInput(arg, format string, args ...any) error {
	return &nodeaccess.InputError{Arg: arg, Reason: fmt.Sprintf(format, args...)}
}
