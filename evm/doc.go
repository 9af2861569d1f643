// Package evm calls an EVM node's JSON-RPC endpoint through a node-access
// service: eth_call (with state and block overrides, and many calls in one
// through Multicall3), eth_simulateV1, ots_getInternalOperations,
// eth_getCode, eth_getProof, eth_blockNumber and eth_chainId typed, logs followed through
// the chain (Follow), and any other method through CallContext, one by one
// or many in a JSON-RPC batch.
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
// accessList, EIP-4844's maxFeePerBlobGas and blobVersionedHashes,
// EIP-7702's authorizationList, and the spec's nonce, chainId and type,
// spelt as go-ethereum's ethclient and the execution-apis spec spell them.
// Each field that is set is sent; none is dropped. The zero address is a valid To; Create makes the call a contract
// creation (no "to", Data is the init code). A message that cannot be sent
// as it is (GasPrice with EIP-1559 fees, a tip above the fee cap, a negative
// amount, a blob or authorization list on a creation, To on a creation) is
// refused with a *nodeaccess.InputError naming the member, and nothing is
// sent.
//
// The call data is sent as "data", the one spelling every node reads,
// unless the client was made with WithCallDataMembers("input") (the
// execution-apis spec's name) or WithCallDataMembers("data", "input").
//
// # State and block overrides
//
// CallMsg's StateOverride and BlockOverride fields are eth_call's third and
// fourth parameters, which go-ethereum, Erigon, reth, Nethermind and Besu
// accept: a StateOverride changes accounts for the one call (balance, nonce, code,
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
// type. Each kind encodes itself as the JSON-RPC block parameter
// (MarshalJSON), so a Block is also an argument of CallContext.
//
// # Request units
//
// With a budget (nodeaccess.WithBudget) each call waits for its request
// units: 1 for every call, except an eth_call at a block about 128 or more
// blocks behind the head (an archive request, which providers bill
// double), at "earliest" or at a block hash, which costs 2
// (OpArchiveCall). nodeaccess.WithCost changes the cost of a method by
// its name. An eth_simulateV1 costs 1 as well, whatever it holds; providers
// that price by method charge it above an eth_call (set its cost with
// nodeaccess.WithCost("eth_simulateV1", n) to count as yours does).
//
// # Reverts
//
// A call the EVM reverts fails with a *RevertError (errors.As), which matches
// ErrReverted (errors.Is) and carries the revert data, the reason of an
// Error(string) revert and the code of a Panic(uint256). Its cause is the
// node's *nodeaccess.RPCError. Every shape nodes report reverts in is read
// (go-ethereum's, reth's, anvil's, Besu's, Nethermind's, ganache's), for
// Call, Multicall, CallContext and batches alike: a node error is a revert
// when its code is 3, when its message or text data speaks of a revert in
// any case, or when its data is a well-formed Error(string) or
// Panic(uint256); the request's own errors (-32700, -32600 to -32602) never
// are. (Hardhat 3 answers a revert with a bare -32603 "Internal error" that
// says nothing of it; that stays an *RPCError.)
//
// # Multicall3
//
// Multicall runs many calls through Multicall3's aggregate3 (the contract
// at Multicall3Address() on most EVM chains) in one eth_call, so N reads cost
// one request and one request unit (the archive cost at an old block)
// instead of N, and all read the same block:
//
//	res, err := c.Multicall(ctx, []evm.Call3{
//		{Target: token, Data: balanceOfAlice, AllowFailure: true},
//		{Target: token, Data: balanceOfBob, AllowFailure: true},
//	}, evm.Latest, evm.MulticallOptions{})
//
// Each Call3Result says whether its call succeeded and holds its return
// data, or its revert data decoded as a *RevertError. A call with
// AllowFailure false that fails makes the contract revert the whole
// aggregate with "Multicall3: call failed", which does not say which call
// failed: Multicall then runs the aggregate once more with every failure
// allowed (a second eth_call, charged as one) and returns a
// *MulticallError naming the call and carrying its revert.
//
// A chain without Multicall3 answers the eth_call with no data (an address
// without code runs nothing): Multicall returns ErrMulticallNotDeployed
// (which matches nodeaccess.ErrNotFound), or, with
// MulticallOptions.Fallback, runs the calls one by one with Call.
// MulticallOptions.MaxCalls splits a large set into several aggregates, for
// nodes whose eth_call gas cap (50,000,000 by default on go-ethereum and
// Erigon) or response size one aggregate would exceed. The options are the
// last argument of Multicall; MulticallOptions{} is the defaults. The call data is
// encoded and the output decoded without go-ethereum's abi package (one
// allocation for the data, none per result); output that is not
// aggregate3's is an ErrInvalidResponse error. Multicall3 calls each target
// with CALL and no value (aggregate3Value, which sends value, is not
// offered), so msg.sender in the targets is the Multicall3 contract.
//
// # Simulations
//
// SimulateV1 runs eth_simulateV1 (the execution-apis spec's; answered by
// go-ethereum, Nethermind, reth, Erigon, Besu and anvil, and by evmtest): a
// Simulation is blocks of calls, each block with its own state and block
// overrides (a SimBlock's StateOverride and BlockOverride, the types eth_call
// takes; the calls carry none of their own), run one after the other on
// the state of a base block, each call a transaction whose effects the
// later calls see. Nothing is sent to the chain. Validation runs the
// checks a block builder makes (nonces, balances, the base fee),
// TraceTransfers adds a log for each ether transfer, ReturnFullTransactions
// lists whole transactions:
//
//	blocks, err := c.SimulateV1(ctx, evm.Simulation{Blocks: []evm.SimBlock{{
//		StateOverride: evm.StateOverride{me: {Balance: oneEther}},
//		Calls:         []evm.CallMsg{approve, swap},
//	}}}, evm.Latest)
//	res := blocks[0].Calls[1] // the swap: Success, ReturnData, GasUsed, MaxUsedGas, Logs, Err
//
// Each call's result holds its status, return data, gas (and maxUsedGas,
// the gas it needs before refunds), its logs as go-ethereum's types.Log,
// and its error: a revert is a *RevertError whatever code the node gives
// it (3, the spec's code since execution-apis PR #748, or -32000
// "execution reverted", the code before it), another failure the node's *nodeaccess.RPCError (-32015). An
// error of the whole request (a nonce, funds, the order of blocks, a
// node's limit) is the node's *nodeaccess.RPCError with the spec's code
// (-38010 to -38026); see SimulateV1.
//
// A simulation goes in a JSON-RPC batch through Add, typed as SimulateV1
// returns it: Add[[]SimulatedBlock](&b, "eth_simulateV1", sim, block)
// (CallContext, too, encodes a Simulation argument as SimulateV1 does and
// decodes into a *[]SimulatedBlock as it does). A simulation of N calls is one request
// where N eth_calls are N, but it is not N eth_calls in one: the calls
// share the block's gas and the node's gas cap for the whole request
// (50,000,000 on go-ethereum), and each sees the state the calls before it
// left. Multicall's aggregate is one eth_call and cannot run inside a
// simulation (a call to Multicall3 in a SimBlock runs, but its answer is
// not decoded); Multicall reads one block's state, SimulateV1 also writes.
//
// # Internal operations
//
// InternalOperations lists the value transfers, self-destructs and contract
// creations inside a transaction (Otterscan's ots_getInternalOperations).
// Servers differ in what they list and in how they answer an unknown
// transaction; an empty list is a valid answer. See the method for details.
// In a Batch, evm.Add[[]evm.InternalOperation](&b,
// "ots_getInternalOperations", tx) reads the same list.
//
// # Proofs
//
// Proof runs eth_getProof (EIP-1186): an account and some of its storage
// slots at a block, with their Merkle proofs. What it returns is the
// provider's word, unverified: package evm/verified checks such proofs
// against the state root of a block a light client verified, and returns
// only what they prove. Proof itself checks only that the answer is for
// the account and slots asked (nodeaccess.ErrUnverified otherwise).
//
// # Any method
//
// CallContext sends a method this package does not type, with go-ethereum's
// rpc.Client.CallContext signature, so that code written for go-ethereum's
// rpc package ports by changing the client: its arguments and result go
// through encoding/json, and it goes through the same transport as the
// typed calls (the key in the path, retries, hooks, the budget, errors with
// the key masked):
//
//	var bal hexutil.Big
//	err := c.CallContext(ctx, &bal, "eth_getBalance", holder, evm.Latest)
//
// Add puts such a call in a Batch. Each costs 1 request unit unless
// nodeaccess.WithCost names its method.
//
// # JSON-RPC batches
//
// A Batch collects eth_calls (Call) and calls of any method (Add;
// eth_simulateV1's and ots_getInternalOperations' results typed, see
// Simulations and InternalOperations), each returning its
// BatchResult; Client.SendBatch sends them as JSON-RPC batches, and each
// BatchResult then holds its call's value or error, the error the single
// call would return for the same answer (a revert is a *RevertError for
// that call only). Bad input in any call refuses the whole Batch before
// anything is sent. Answers are matched by id, whatever their order, and
// an answer is its own call's and no other's; a call answered twice or not
// at all fails with nodeaccess.ErrInvalidResponse. Batches above
// WithMaxBatchSize (100 unless set) are split into HTTP requests sent one
// after the other; a request a node refuses as too large, or whose answer
// is too large (a -32008 "Response is too big"), is sent again in smaller
// pieces (and a limit the refusal names holds for the client's later
// batches). Each request is retried whole as a single call is; each call is
// charged its own request units, and hooks see one Attempt per HTTP attempt
// whose Batch lists each call's method and units.
//
// # Following logs
//
// Follow yields every log of the canonical chain that matches a filter,
// once, in block and log-index order, and then the logs of each new block;
// each carries its finality and a FollowCursor to store and resume from:
//
//	q := evm.FollowQuery{Addresses: []common.Address{token}, Topics: [][]common.Hash{{transferTopic}}, Poll: 12 * time.Second}
//	for l, err := range c.Follow(ctx, q) {
//		if err != nil { ... } // retried faults are yielded too; the walk goes on
//		if l.Removed { ... }  // its block left the chain: undo what the log did
//		store(l.Cursor)       // resume with q.From = the stored cursor
//	}
//
// At Latest a reorganisation up to 64 blocks deep is followed (the logs of
// the blocks that left are yielded again with Removed set, newest first,
// then the new branch's); at Safe and Finalized nothing is removed.
// Catching up, eth_getLogs windows shrink on the refusals of go-ethereum,
// Erigon, reth, Besu, Nethermind and the large providers (to the range a
// refusal suggests, when it does) and grow again; at the head each poll is
// one HTTP request. See Follow for the rules and the cost. FollowBlocks
// walks the blocks themselves (no filter) with the same rules.
//
// # The go-ethereum adapter
//
// Client.ContractCaller returns the client as go-ethereum's
// bind.ContractCaller, bind.PendingContractCaller and
// bind.BlockHashContractCaller: pass it to an abigen binding's NewXxxCaller
// to run the binding's read calls through the node-access service. Its
// methods take go-ethereum's ethereum.CallMsg and *big.Int block numbers and
// map onto Call and Code, the client's one way to call and one way to get
// code. A *RevertError is a
// go-ethereum rpc.Error and rpc.DataError (ErrorCode, ErrorData). The
// client sends no transactions.
//
// Errors are those of the nodeaccess package, wrapped once in a
// *nodeaccess.OpError naming "evm" and the JSON-RPC method.
package evm
