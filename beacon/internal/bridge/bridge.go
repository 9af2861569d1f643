// Package bridge lets beacon/light reach two things of package beacon that
// are not part of its API: the hash tree root of an execution payload
// header in the layout of a given fork, and a GET through a Client's
// transport that returns the raw body (SSZ) with its headers. Package
// beacon sets the functions when it is initialised; nothing else may.
package bridge

import (
	"context"
	"net/url"
)

// PayloadHeaderRoot returns the hash tree root of h, a
// *beacon.ExecutionPayloadHeader, in the layout of fork (a beacon.Version
// from Bellatrix on).
var PayloadHeaderRoot func(h any, fork uint8) [32]byte

// Raw is one answer of Fetch.
type Raw struct {
	Body    []byte
	SSZ     bool   // the body is SSZ (else JSON), as its Content-Type said
	Version string // the Eth-Consensus-Version header
	// Mask replaces the client's access key in a text (for errors that
	// quote the body).
	Mask func(string) string
}

// Fetch sends GET path?query through c (a *beacon.Client), with the
// operation name path and the Accept header of c's encoding (WithEncoding),
// and returns the answer's body (a copy the caller owns), its encoding and
// its fork header.
var Fetch func(ctx context.Context, c any, path string, query url.Values) (Raw, error)
