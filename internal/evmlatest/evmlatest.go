// Package evmlatest lets package hyper make its EVM client refuse to read
// state at a block other than the latest, and tell its log follower the
// chain's limits: settings of package evm that only HyperEVM needs, so
// evm does not export them (the pattern of
// google.golang.org/grpc's internal package, as internal/config.Shared).
package evmlatest

import (
	"time"

	"github.com/nodeaccess/nodeaccess"
)

// Option returns the option of package evm that makes a client refuse a
// state read (eth_call, eth_getCode, eth_getBalance, eth_simulateV1, ...)
// at a block selector other than latest, before anything is sent, with a
// *nodeaccess.InputError whose reason ends with why. Package evm sets it
// in its init; it is nil until package evm is linked.
var Option func(why string) nodeaccess.Option

// Follow returns the option of package evm that tells Follow and
// FollowBlocks the chain's eth_getLogs range limit in blocks (their
// windows start there and never grow past it) and its block time (the Poll
// of a query that sets none). Package evm sets it in its init; it is nil
// until package evm is linked.
var Follow func(maxRange uint64, blockTime time.Duration) nodeaccess.Option

// Unanchored returns the option of package evm that marks a client as one
// of a chain no light client anchors (HyperEVM): package evm/verified
// refuses to make a verified client of it, with an error that ends with
// why. Package evm sets it in its init; it is nil until package evm is
// linked.
var Unanchored func(why string) nodeaccess.Option

// WhyUnanchored returns why the *evm.Client c cannot be verified (what
// Unanchored was given), "" when nothing says so (and for any other
// value). Package evm sets it in its init.
var WhyUnanchored func(c any) string
