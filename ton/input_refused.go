package ton

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/nodeaccess/nodeaccess"
)

// refused marks a server's answer err as a refusal of the call's
// parameters: the error matches nodeaccess.ErrInvalidInput, and errors.As
// still reaches the server's *nodeaccess.HTTPError (or *nodeaccess.RPCError,
// for the same error in a 2xx body). Its text is "invalid input, refused by
// the server: " and the server's error.
func refused(err error) error {
	return fmt.Errorf("%w, refused by the server: %w", nodeaccess.ErrInvalidInput, err)
}

// serverFault returns the status and the message of the server's error in
// err, in either envelope: a non-2xx answer (*nodeaccess.HTTPError: its
// status) or a TON error in a 2xx body (*nodeaccess.RPCError: its code,
// which TON's servers set to the status the error stands for). ok is false
// for any other error. The checks of a status and a message below read it,
// so that an error is classified the same whichever envelope carries it.
func serverFault(err error) (status int, msg string, ok bool) {
	var he *nodeaccess.HTTPError
	if errors.As(err, &he) {
		return he.StatusCode, he.Message, true
	}
	var re *nodeaccess.RPCError
	if errors.As(err, &re) {
		return re.Code, re.Message, true
	}
	return 0, "", false
}

// refuse422 marks a 422 answer in err as a refusal of the input.
func refuse422(err error) error {
	if status, _, ok := serverFault(err); ok && status == http.StatusUnprocessableEntity {
		return refused(err)
	}
	return err
}
