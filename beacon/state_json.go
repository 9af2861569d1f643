package beacon

import (
	"bytes"
)

// MarshalJSON makes encoding/json write a State as WriteState does with
// EncodingJSON and no flags: the beacon API's {"version":…,"data":…}, the
// data object in the fields of s.Version only. It is there so that
// json.Marshal of a State (or of a struct holding one) writes what a beacon
// node serves and ReadState reads, never Go's field names.
func (s *State) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := WriteState(&buf, s, EncodingJSON, nil); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// UnmarshalJSON makes encoding/json read a State as ReadState does with
// EncodingJSON: the beacon API's envelope, in the preset s already holds
// (the mainnet preset when it is zero). The envelope's flags are dropped;
// call ReadState to keep them, to read a bare data object, or to read a
// stream without holding its bytes.
func (s *State) UnmarshalJSON(b []byte) error {
	st, _, err := ReadState(bytes.NewReader(b), Body{Encoding: EncodingJSON, Bytes: int64(len(b))}, ReadOptions{Preset: s.Preset})
	if err != nil {
		return err
	}
	*s = *st
	return nil
}
