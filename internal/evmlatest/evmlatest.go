// Package evmlatest lets package hyper make its EVM client refuse to read
// state at a block other than the latest: a setting of package evm that
// only HyperEVM needs, so evm does not export it (the pattern of
// google.golang.org/grpc's internal package, as internal/config.Shared).
package evmlatest

import "github.com/nodeaccess/nodeaccess"

// Option returns the option of package evm that makes a client refuse a
// state read (eth_call, eth_getCode, eth_getBalance, eth_simulateV1, ...)
// at a block selector other than latest, before anything is sent, with a
// *nodeaccess.InputError whose reason ends with why. Package evm sets it
// in its init; it is nil until package evm is linked.
var Option func(why string) nodeaccess.Option
