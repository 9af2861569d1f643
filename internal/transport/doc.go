// Package transport is the one place in the SDK that speaks HTTP: it builds
// URLs with the access key, sends JSON, JSON-RPC 2.0 and plain GET requests,
// negotiates content, retries what may be retried, caps bodies, turns failures
// into the SDK's typed errors, keeps the key out of every error, log line and
// hook (masking it where server or user text enters an error: maskerr.go
// lists the entry points), and reports attempts. Chain packages build typed requests on top of it
// and decode the bodies it hands back; it knows no chain's types.
//
// A chain package makes one Client per user client (New), builds URLs from
// templates with Client.Target ("{key}/evm", "api/v2/{key}/{method}"), and
// sends with Client.Do (a buffered body), Client.Stream (a live body, for the
// beacon state) or Client.CallRPC (a JSON-RPC call). It wraps every error it
// returns with Client.Wrap, once, naming the operation.
package transport
