package beacon

import (
	"errors"
	"fmt"
)

// ErrInvalidState is matched (errors.Is) by every *DecodeError: the bytes
// are not a valid state of the expected fork and preset.
var ErrInvalidState = errors.New("invalid beacon state")

// DecodeError reports bytes that are not a valid state: a bad offset, a
// length over a list's limit, a vector of the wrong length, malformed JSON.
// It matches ErrInvalidState.
type DecodeError struct {
	// Format is "ssz" or "json".
	Format string
	// Path names the field, such as "validators[12].pubkey" or
	// "latest_execution_payload_header.extra_data"; empty for the top
	// level.
	Path string
	// Offset is the byte offset in the input where the problem was found,
	// or -1 when it is not known.
	Offset int64
	// Reason says what is wrong.
	Reason string
	// Err is the underlying error, if any, such as io.ErrUnexpectedEOF
	// for an input that ends too early. (A reader's own failure is not a
	// DecodeError: the decoders return it as it is, wrapped.)
	Err error

	// inCall leaves the package's name out of Error, for an error that a
	// Client call wraps (whose message starts with it already).
	inCall bool
}

// Error formats the error: `beacon: ssz: validators: at byte 1234: …`.
func (e *DecodeError) Error() string {
	s := e.Format + ": "
	if !e.inCall {
		s = "beacon: " + s
	}
	if e.Path != "" {
		s += e.Path + ": "
	}
	if e.Offset >= 0 {
		s += fmt.Sprintf("at byte %d: ", e.Offset)
	}
	return s + e.Reason
}

// Unwrap returns ErrInvalidState and Err, so errors.Is(err,
// ErrInvalidState) is true for every DecodeError, and errors.Is(err,
// io.ErrUnexpectedEOF) for a truncated input.
func (e *DecodeError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrInvalidState}
	}
	return []error{ErrInvalidState, e.Err}
}
