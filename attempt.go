package nodeaccess

import "time"

// Attempt describes one HTTP attempt of an operation. A hook set with
// WithHook receives one after every attempt, successful or not. Nothing in it
// carries the access key: URL is masked and Err is scrubbed.
type Attempt struct {
	// Chain and Op name the operation ("evm", "eth_call").
	Chain, Op string
	// Method is the HTTP method.
	Method string
	// URL is the request URL with the access key masked.
	URL string
	// Number counts attempts from 1.
	Number int
	// StatusCode is the HTTP status, 0 when no response arrived.
	StatusCode int
	// Duration is the time from sending to the end of reading the body (or
	// to the failure).
	Duration time.Duration
	// Bytes is the number of response body bytes read.
	Bytes int64
	// Err is the attempt's error, nil on success.
	Err error
	// WillRetry is true when the client will make another attempt, after
	// the delay Retry.
	WillRetry bool
	// Retry is the delay before the next attempt (0 when WillRetry is false).
	Retry time.Duration
	// Units is the attempt's cost in request units (see WithCost). It is
	// charged to the budget when the client has one (WithBudget).
	Units int
	// BudgetWait is the time the attempt waited for its units before it was
	// sent (0 without a budget). Duration does not include it.
	BudgetWait time.Duration
	// Batch lists the calls of a JSON-RPC batch attempt (Op "batch"), in
	// the order sent, each with its method and units (Units is their
	// sum); nil for an attempt that carries one call. Hooks must not
	// modify it.
	Batch []BatchCall
}

// BatchCall is one call of a JSON-RPC batch, as Attempt.Batch shows it.
type BatchCall struct {
	// Op is the call's JSON-RPC method ("eth_call").
	Op string
	// Units is what the call costs in request units.
	Units int
}
