package tontest

import (
	"fmt"
	"net/http"
)

// failure is an answer the server gives instead of a result: the HTTP
// status and the message of the error body (the form of the body is the
// API's: writeV2Failure, writeV3Failure).
type failure struct {
	status int
	msg    string
}

func (e *failure) Error() string { return e.msg }

// invalid is a bad v2 parameter, answered 422 in the form of toncenter's
// messages ("Validation error: query -> count: …").
func invalid(loc, name, why string) error {
	return &failure{status: http.StatusUnprocessableEntity, msg: "Validation error: " + loc + " -> " + name + ": " + why}
}

// unprocessable is a v3 refusal, answered 422 with the indexer's message.
func unprocessable(format string, args ...any) error {
	return &failure{status: http.StatusUnprocessableEntity, msg: fmt.Sprintf(format, args...)}
}

// conversionError is the indexer's message for a parameter its query
// parser cannot convert (fiber's QueryParser over gorilla/schema).
func conversionError(name string) error {
	return unprocessable("failed to decode: schema: error converting value for %q", name)
}

// statusOf returns the status of a failure, 500 for any other error.
func statusOf(err error) (int, string) {
	if f, ok := err.(*failure); ok {
		return f.status, f.msg
	}
	return http.StatusInternalServerError, err.Error()
}
