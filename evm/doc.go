// Package evm calls an EVM node's JSON-RPC endpoint through a node-access
// service: eth_call (with state and block overrides),
// ots_getInternalOperations and eth_getCode.
//
// A Client is made from the node's base URL and the access key, and posts to
// {base}/{key} (or {base}/{key}/{suffix} with WithPathSuffix, such as
// Hyperliquid's EVM at {base}/{key}/evm):
//
//	c, err := evm.New("https://node.example", key)
//	out, err := c.Call(ctx, evm.CallMsg{To: token, Data: calldata}, evm.Latest)
//
// NewFromURL takes the whole endpoint as providers show it, in exactly two
// shapes: https://host/<KEY> and https://host/<KEY>/evm. It refuses any
// other path (a segment before the key, such as "/v2/<KEY>", or after it,
// such as "/<KEY>/info"), so that no segment is taken for the key by a
// guess and shown unmasked; call New for a base URL with a path.
//
// # The call object
//
// CallMsg holds every member of eth_call's call object: from, to, gas,
// gasPrice or EIP-1559's maxFeePerGas and maxPriorityFeePerGas, value, data,
// accessList, EIP-4844's maxFeePerBlobGas and blobVersionedHashes, and
// EIP-7702's authorizationList, spelt as go-ethereum's ethclient and the
// execution-apis spec spell them. Each field that is set is sent; none is
// dropped. The zero address is a valid To; Create makes the call a contract
// creation (no "to", Data is the init code). A message that cannot be sent
// as it is (GasPrice with EIP-1559 fees, a tip above the fee cap, a negative
// amount, a blob or authorization list on a creation, To on a creation) is
// refused with a *nodeaccess.InputError naming the member, and nothing is
// sent.
//
// The call data is sent as "data", not "input". The execution-apis spec
// names it input and go-ethereum's ethclient sends input since v1.12, but
// go-ethereum, Erigon, reth, Nethermind and Besu all read data too, while
// Hardhat and several forks read only data; sending both would make a node
// that checks them against each other do work for nothing. "data" is the
// one spelling every node takes.
//
// # State and block overrides
//
// CallWithOverrides runs eth_call with its third and fourth parameters,
// which go-ethereum, Erigon, reth, Nethermind and Besu accept: a
// StateOverride changes accounts for the one call (balance, nonce, code,
// and the storage, replaced whole with State or slot by slot with
// StateDiff, with gethclient.OverrideAccount's semantics), and a
// BlockOverride replaces the block's number, time, gas limit, fee recipient,
// prevRandao, base fee and blob base fee. Accounts and slots are sent in
// order, so the request bytes are the same every time. go-ethereum runs a
// call that sets no gas price at a base fee of 0, so BASEFEE reads an
// overridden base fee only in a call with a price.
//
// # Block selectors
//
// A Block is one of three kinds of value: a Tag, one of the constants
// Latest, Safe, Finalized, Earliest and Pending; a BlockNumber(n); or a
// BlockHash{Hash: h, RequireCanonical: true} (EIP-1898). The tags are
// constants, so c.Call(ctx, msg, evm.Latest) reads the same everywhere and
// no code can reassign what it means; a type switch on those three types
// inspects a Block. A nil Block is Latest. A Tag other than the five is
// refused (an *nodeaccess.InputError naming it) before anything is sent, and
// no selector costs a call an allocation. ParseBlock reads the forms users
// type. An eth_call at a block about 128 or more blocks behind
// the tip is an archive request, which providers bill double.
//
// # Reverts
//
// A call the EVM reverts fails with a *RevertError (errors.As), which matches
// ErrReverted (errors.Is) and carries the revert data, the reason of an
// Error(string) revert and the code of a Panic(uint256). Its cause is the
// node's *nodeaccess.RPCError. Nodes report reverts in several shapes, and
// all of these are read: go-ethereum's, reth's and anvil's code 3 with the
// data as hex; Besu's code -32000 "Execution reverted"; Nethermind's code 3
// or -32000, and its older -32015 "VM execution error." with the data
// "Reverted 0x…" or "revert: <reason>"; ganache's "VM Exception while
// processing transaction: revert…" with the data in an object. (Hardhat 3
// answers a revert with a bare -32603 "Internal error" that says nothing
// of it; that stays an *RPCError.) A node error is a revert when its code is 3, when its message or
// text data speaks of a revert in any case, or when its data is a
// well-formed Error(string) or Panic(uint256); the request's own errors
// (-32700, -32600 to -32602) never are.
//
// # Internal operations
//
// InternalOperations lists the value transfers, self-destructs and contract
// creations inside a transaction (Otterscan's ots_getInternalOperations).
// Servers differ in what they list and in how they answer an unknown
// transaction; an empty list is a valid answer. See the method for details.
//
// # go-ethereum bindings
//
// *Client has CodeAt and CallContract (and the pending and block-hash
// variants), so it satisfies go-ethereum's bind.ContractCaller: pass it to an
// abigen binding's NewXxxCaller to run the binding's read calls through the
// node-access service. It sends no transactions.
//
// Errors are those of the nodeaccess package, wrapped once in a
// *nodeaccess.OpError naming "evm" and the JSON-RPC method.
package evm
