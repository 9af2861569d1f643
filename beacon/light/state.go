package light

import (
	"github.com/nodeaccess/nodeaccess/beacon"
)

// CheckState checks that st, a beacon state decoded whole (*beacon.State:
// Client.State, ReadState) or hashed as it streamed (*beacon.Prover:
// DownloadOptions.Prover, ReadProver, NewProver), is the post-state of the
// block of h: that its hash tree root is h.Beacon.StateRoot. h must be a
// header the light client verified (Client.Finalized,
// Client.Optimistic or Client.Header); any other Header is refused before
// anything is hashed.
//
// A state of another root fails with a *VerifyError of check "state root"
// (matching nodeaccess.ErrUnverified) that names the root wanted (the
// header's) and the one that came. A Prover that passes proves against a
// root the sync committee signed, so its proofs (validators, balances,
// block roots) stand on signatures, not on the node's word. A state hashes
// in about the time HashTreeRoot takes; a Prover's root is already known.
func CheckState[T *beacon.State | *beacon.Prover](st T, h Header) error {
	if !h.verified {
		return errInput("h", "not a header the light client verified (take it from Client.Finalized, Client.Optimistic or Client.Header)")
	}
	var got beacon.Root
	switch x := any(st).(type) {
	case *beacon.State:
		if x == nil {
			return errInput("st", "nil state")
		}
		r, err := beacon.HashTreeRoot(x)
		if err != nil {
			return err
		}
		got = r
	case *beacon.Prover:
		if x == nil {
			return errInput("st", "nil prover")
		}
		got = x.StateRoot()
	}
	if got != h.Beacon.StateRoot {
		return mismatch("state root", h.Beacon.StateRoot, got, "the state is not the post-state of the verified block at slot %d", h.Beacon.Slot)
	}
	return nil
}
