package evm

import "github.com/nodeaccess/nodeaccess/internal/transport"

// The names of the client's typed operations, as nodeaccess.Attempt.Op
// shows them and nodeaccess.WithCost takes them. Every call costs 1
// request unit unless WithCost names it; an archive eth_call costs 2
// (OpArchiveCall). A call made with CallContext or Add is named by its
// method.
const (
	// OpCall is eth_call (Call, Multicall), when it is not archive.
	OpCall = "eth_call"
	// OpArchiveCall is an archive eth_call: one at a block 128 or more
	// blocks behind the head, at "earliest", or at a block hash, which
	// providers bill double. The client places a block number against the
	// head it learns with eth_blockNumber (charged like any call) at most
	// every few seconds, and only when it has a budget
	// (nodeaccess.WithBudget); without one, a block number counts as
	// archive, so that the count is never too low.
	OpArchiveCall = "eth_call/archive"
	// OpCode is eth_getCode (Code).
	OpCode = "eth_getCode"
	// OpInternalOperations is ots_getInternalOperations
	// (InternalOperations).
	OpInternalOperations = "ots_getInternalOperations"
	// OpBlockNumber is eth_blockNumber (BlockNumber).
	OpBlockNumber = "eth_blockNumber"
	// OpChainID is eth_chainId (ChainID).
	OpChainID = "eth_chainId"
	// OpSimulate is eth_simulateV1 (SimulateV1).
	OpSimulate = "eth_simulateV1"
)

// ops is what an evm client can send, for the check of nodeaccess.WithCost.
var ops = &transport.Ops{
	Typed:       []string{OpCall, OpArchiveCall, OpCode, OpInternalOperations, OpBlockNumber, OpChainID, OpSimulate},
	Generic:     transport.RPCMethodName,
	GenericRule: `any JSON-RPC method (namespace_method, such as "eth_getBalance") for CallContext and Add`,
}
