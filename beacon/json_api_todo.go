package beacon

// TEMPORARY (owned by the JSON helper): the JSON API's signatures, so the
// package compiles while they are written. Each function moves to its real
// file when implemented, and this file is deleted.

import (
	"errors"
	"io"
)

var errTODOJSON = errors.New("beacon: json: not implemented yet")

// DecodeJSON decodes a JSON state as it streams from r: the beacon API's
// envelope {version, execution_optimistic, finalized, data}, or a bare data
// object when the fork is given with AssumeVersion. Flags is nil when the
// input had no envelope flags.
func DecodeJSON(r io.Reader, opts ...DecodeOption) (*State, *Flags, error) {
	return nil, nil, errTODOJSON
}

// EncodeJSON writes s to w as the beacon API's JSON "data" object.
func (s *State) EncodeJSON(w io.Writer) error { return errTODOJSON }

// EncodeJSONResponse writes the beacon API's whole JSON response:
// {"version":…,"execution_optimistic":…,"finalized":…,"data":…}.
func (s *State) EncodeJSONResponse(w io.Writer, f Flags) error { return errTODOJSON }
