package beacon

import (
	"fmt"
	"math/bits"
)

// A JSON envelope may send "data" before "version" (Lodestar does:
// {data, version, execution_optimistic, finalized}). The state object is
// then decoded without buffering it, into a State with the fields of every
// fork allowed (State holds them all), and the fields that came are checked
// against the fork once "version" has come: a field the fork does not have
// and a field it has that did not come are errors, as they are when the
// fork is known first. The memory used is the same as with the version
// first: each field is decoded once, into the State that is returned.

// unsettled is what an object decoded before its fork was known holds:
// the schema it was decoded with and which of its fields came, where.
type unsettled struct {
	fields []field // every fork's fields
	seen   uint64  // a bit per fields entry
	at     []int64 // the offset of each field's key
	hdr    unsettledHeader
}

// unsettledHeader records the execution payload header's members decoded
// before the fork was known: a bit per payloadHeaderNames entry, and the
// offset of each one's key.
type unsettledHeader struct {
	seen uint64
	at   []int64
}

// allFields returns the fields of every fork, each once: the schema of s
// as a phase0 state, then those of later forks that phase0 does not have.
func (s *State) allFields() []field {
	v := s.Version
	defer func() { s.Version = v }()
	var out []field
	for _, fv := range versions() {
		s.Version = fv
	next:
		for _, f := range s.fields() {
			for _, g := range out {
				if g.name == f.name {
					continue next
				}
			}
			out = append(out, f)
		}
	}
	return out
}

// unsettledBody decodes the members of a state object whose '{' is
// consumed, before its fork is known, into s.
func (d *jsonDecoder) unsettledBody(s *State) (*unsettled, error) {
	u := &unsettled{fields: s.allFields()}
	u.at = make([]int64, len(u.fields))
	u.hdr.at = make([]int64, len(payloadHeaderNames))
	d.hdr = &u.hdr
	defer func() { d.hdr = nil }()
	seen, err := d.members(s, u.fields, nil, u.at)
	if err != nil {
		return nil, err
	}
	u.seen = seen
	return u, nil
}

// settle gives s, decoded before its fork was known, the fork v, and
// checks that the fields that came are those of a v state: none of another
// fork, none missing, in the execution payload header too.
func (d *jsonDecoder) settle(s *State, v Version, u *unsettled) error {
	s.Version = v
	fields := s.fields()
	has := func(name string) bool {
		for _, f := range fields {
			if f.name == name {
				return true
			}
		}
		return false
	}
	for i, f := range u.fields {
		if u.seen&(1<<i) != 0 && !has(f.name) {
			return &DecodeError{Format: "json", Path: f.name, Offset: u.at[i],
				Reason: fmt.Sprintf("not a field of %s %s state (it is %s): the version is wrong", article(v), v, forkRange(stateFieldForks[f.name]))}
		}
	}
	for _, f := range fields {
		i := 0
		for u.fields[i].name != f.name {
			i++
		}
		if u.seen&(1<<i) == 0 {
			return &DecodeError{Format: "json", Path: f.name, Offset: -1, Reason: "missing field"}
		}
	}
	if !has("latest_execution_payload_header") {
		// Phase0 and altair have no header yet, gloas none any more: a
		// member that came is refused above, as a field of another fork.
		return nil
	}
	want := payloadHeaderFields(v)
	const path = "latest_execution_payload_header."
	if extra := u.hdr.seen &^ want; extra != 0 {
		i := bits.TrailingZeros64(extra)
		return &DecodeError{Format: "json", Path: path + payloadHeaderNames[i], Offset: u.hdr.at[i],
			Reason: fmt.Sprintf("not a field of %s %s execution payload header: the version is wrong", article(v), v)}
	}
	if missing := want &^ u.hdr.seen; missing != 0 {
		return &DecodeError{Format: "json", Path: path + payloadHeaderNames[bits.TrailingZeros64(missing)], Offset: -1, Reason: "missing field"}
	}
	return nil
}
