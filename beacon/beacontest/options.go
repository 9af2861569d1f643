package beacontest

import (
	"errors"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// Option configures a Server made by New: WithKey, WithStates. The zero
// Option does nothing.
type Option struct{ apply func(*settings) error }

type settings struct {
	key       string
	states    []*beacon.State
	statesSet bool // WithStates was given, with or without states
	execution func(beacon.Slot) *beacon.ExecutionPayloadHeader
}

// WithKey sets the access key the server accepts (default: a random one of
// 32 hex characters). It may hold only ASCII letters, digits and "._~-",
// so that it is one path segment as written; New fails otherwise.
func WithKey(key string) Option {
	return Option{func(s *settings) error {
		if key == "" {
			return errors.New("beacontest: WithKey: empty key (leave WithKey out for a random one)")
		}
		s.key = key
		return nil
	}}
}

// WithStates makes the server hold the given states instead of the default
// chain (DefaultStates); several calls add up, and a later state at the
// same slot replaces an earlier one. WithStates() with no state starts the
// server empty: every state id is 404 until AddState. The server keeps each
// state and encodes it when first asked for it: do not change it
// afterwards. New fails for a nil state, or one that beacon.WriteState
// refuses.
func WithStates(states ...*beacon.State) Option {
	return Option{func(s *settings) error {
		for _, st := range states {
			if st == nil {
				return errors.New("beacontest: WithStates: nil state")
			}
		}
		s.states = append(s.states, states...)
		s.statesSet = true
		return nil
	}}
}

// WithExecution makes f give the execution payload header of each block the
// chain makes (New's genesis block, Advance's and Reorg's blocks): f is
// called with the block's slot, under the server's lock (it must not call
// the server), and its header is the block's as given; nil makes one up, as
// the server does without this option. With the blocks of an evmtest
// server, a light client following this server verifies that server's
// execution blocks, so that package evm/verified reads evmtest anchored to
// this chain (see examples/verified):
//
//	beacontest.WithExecution(func(beacon.Slot) *beacon.ExecutionPayloadHeader {
//		return &beacon.ExecutionPayloadHeader{BlockHash: evmHead.Hash(), BlockNumber: evmHead.Number.Uint64()}
//	})
func WithExecution(f func(slot beacon.Slot) *beacon.ExecutionPayloadHeader) Option {
	return Option{func(s *settings) error {
		if f == nil {
			return errors.New("beacontest: WithExecution: nil function")
		}
		s.execution = f
		return nil
	}}
}
