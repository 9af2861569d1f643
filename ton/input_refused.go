package ton

import (
	"errors"
	"net/http"

	"github.com/nodeaccess/nodeaccess"
)

// refusedInput is a 422 answer by which the server refused the call's
// parameters: it matches nodeaccess.ErrInvalidInput, and errors.As still
// reaches the server's *nodeaccess.HTTPError and, when the body was a TON
// error, its *nodeaccess.RPCError.
type refusedInput struct{ err error }

// Error says that the server refused the input, then what it answered.
func (e *refusedInput) Error() string {
	return "invalid input, refused by the server: " + e.err.Error()
}

// Unwrap returns the server's error.
func (e *refusedInput) Unwrap() error { return e.err }

// Is matches nodeaccess.ErrInvalidInput.
func (e *refusedInput) Is(target error) bool { return target == nodeaccess.ErrInvalidInput }

// status returns the HTTP status of a non-2xx answer in err, 0 for any
// other error.
func status(err error) int {
	var he *nodeaccess.HTTPError
	if errors.As(err, &he) {
		return he.StatusCode
	}
	return 0
}

// serverMessage returns the message of the TON error body in err, "" when
// there is none.
func serverMessage(err error) string {
	if se, ok := err.(*serverError); ok {
		return se.rpc.Message
	}
	return ""
}

// refuse422 marks a 422 answer in err as a refusal of the input.
func refuse422(err error) error {
	if status(err) == http.StatusUnprocessableEntity {
		return &refusedInput{err}
	}
	return err
}
