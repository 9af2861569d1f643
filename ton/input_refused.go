package ton

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/nodeaccess/nodeaccess"
)

// refused marks a server's answer err as a refusal of the call's
// parameters: the error matches nodeaccess.ErrInvalidInput, and errors.As
// still reaches the server's *nodeaccess.HTTPError. Its text is "invalid
// input, refused by the server: " and the server's error.
func refused(err error) error {
	return fmt.Errorf("%w, refused by the server: %w", nodeaccess.ErrInvalidInput, err)
}

// httpError returns the non-2xx answer in err, nil for any other error.
func httpError(err error) *nodeaccess.HTTPError {
	var he *nodeaccess.HTTPError
	if errors.As(err, &he) {
		return he
	}
	return nil
}

// refuse422 marks a 422 answer in err as a refusal of the input.
func refuse422(err error) error {
	if he := httpError(err); he != nil && he.StatusCode == http.StatusUnprocessableEntity {
		return refused(err)
	}
	return err
}
