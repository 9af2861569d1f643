package beacontest

import (
	"errors"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// Option configures a Server made by New.
type Option func(*settings) error

type settings struct {
	key        string
	states     []*beacon.State
	pins       []pin
	optimistic bool
	noDefaults bool
}

type pin struct {
	id   beacon.StateID
	slot beacon.Slot
}

// WithKey sets the access key the server accepts (default: a random one of
// 32 hex characters). It may hold only ASCII letters, digits and "._~-",
// so that it is one path segment as written; New fails otherwise.
func WithKey(key string) Option {
	return func(s *settings) error {
		if key == "" {
			return errors.New("beacontest: WithKey: empty key (leave WithKey out for a random one)")
		}
		s.key = key
		return nil
	}
}

// WithoutDefaults starts the server with no state (every state id is then
// 404 until AddState), instead of the default states when no WithState is
// given.
func WithoutDefaults() Option {
	return func(s *settings) error {
		s.noDefaults = true
		return nil
	}
}

// WithState adds st to the states the server holds; repeat it for several.
// With any WithState the default states are not generated. A later state at
// the same slot replaces an earlier one. The server keeps st and encodes it
// when first asked for it: do not change st afterwards. New fails when st
// is nil or not a valid state (see beacon.State.Validate).
func WithState(st *beacon.State) Option {
	return func(s *settings) error {
		if st == nil {
			return errors.New("beacontest: WithState: nil state")
		}
		s.states = append(s.states, st)
		return nil
	}
}

// WithPin makes the named id (beacon.Head, beacon.Genesis,
// beacon.Finalized or beacon.Justified) name the state at slot instead of
// the state the package's rule picks (see Server.Pin). New fails when no
// state is held at slot.
func WithPin(id beacon.StateID, slot beacon.Slot) Option {
	return func(s *settings) error {
		s.pins = append(s.pins, pin{id: id, slot: slot})
		return nil
	}
}

// WithExecutionOptimistic sets the execution_optimistic flag of the JSON
// responses for states after the finalized one (see
// Server.SetExecutionOptimistic); false by default.
func WithExecutionOptimistic(b bool) Option {
	return func(s *settings) error {
		s.optimistic = b
		return nil
	}
}
