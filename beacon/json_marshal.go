package beacon

import (
	"bytes"
	"encoding/json"
)

var (
	_ json.Marshaler   = State{}
	_ json.Unmarshaler = (*State)(nil)
)

// MarshalJSON returns the state as the beacon API's JSON "data" object,
// like EncodeJSON, so json.Marshal of a State (or of a struct holding one)
// writes the beacon API's form, never Go field names. It has a value
// receiver so that a State value marshals the same way as a *State. The
// fork is not part of the data object: use EncodeJSONResponse for the
// envelope that names it. For a mainnet state prefer EncodeJSON, which
// streams instead of building ~900 MB in memory (and encoding/json then
// re-scans what MarshalJSON returns).
func (s State) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := s.EncodeJSON(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// UnmarshalJSON decodes b into s, for json.Unmarshal. b is either the
// beacon API's envelope, whose "version" names the fork, or a bare "data"
// object, which is decoded as the fork already in s.Version (the zero
// State is phase0: set Version first, or send the envelope; a state of
// another fork fails with an error naming a field that phase0 does not
// have, never silently). The preset is s.Preset (zero: mainnet). The
// envelope's flags are dropped: DecodeJSON returns them, and streams
// instead of needing the whole input in memory.
func (s *State) UnmarshalJSON(b []byte) error {
	cfg := newDecodeConfig(nil)
	cfg.preset = s.preset()
	cfg.sizeHint = int64(len(b))
	st, _, err := decodeJSON(bytes.NewReader(b), cfg, s.Version, true)
	if err != nil {
		return err
	}
	*s = *st
	return nil
}
