// Package evmtest runs a local EVM node for tests and examples: a real chain
// (go-ethereum's blockchain, state, EVM, transaction pool and block builder,
// in memory) that answers JSON-RPC on 127.0.0.1 the way a node-access
// service does, so that code written against the evm package runs with no
// network and no key, as net/http/httptest does for HTTP. It links
// go-ethereum's chain packages but not its node (no p2p, no databases on
// disk, no metrics, no engine API), so that a program or test that imports
// it compiles little more than one that imports ethclient does
// (docs/build-times.md in the repository has the measured times).
//
//	srv, err := evmtest.New()
//	if err != nil { ... }
//	defer srv.Close()
//	c, err := srv.Client() // an *evm.Client for srv.URL and srv.Key()
//	out, err := c.Call(ctx, evm.CallMsg{To: evmtest.Token(), Data: calldata}, evm.Latest)
//
// In a test, NewT does the same and closes the server when the test ends:
//
//	srv := evmtest.NewT(t)
//
// A *Server prints as "evmtest.Server{http://127.0.0.1:PORT/REDACTED}"
// with every fmt verb; its Key and Endpoint hold the key.
//
// # What is served
//
// POST {URL}/{Key} and POST {URL}/{Key}/evm (the path of Hyperliquid's EVM on
// node-access services; reach it with evm.WithPathSuffix("evm")) both serve
// JSON-RPC 2.0, single calls and batches, through go-ethereum's rpc.Server
// with a geth node's default limits (1000 calls and 25 MB of responses per
// batch, 5 MiB per request body). The methods served, each with go-ethereum's
// parameters, result shapes and errors:
//
//   - eth_call (with go-ethereum's state and block overrides as its third
//     and fourth parameters; a revert answers code 3 with the revert data),
//     eth_estimateGas, eth_getCode, eth_getBalance, eth_getStorageAt,
//     eth_getTransactionCount ("pending" counts the pool), eth_getProof
//     (EIP-1186: the proofs come from the block's own state and storage
//     tries, so they verify against its header's stateRoot),
//     eth_createAccessList (go-ethereum's access list tracer, run until the
//     list no longer grows; the sender, the callee and the precompiles left
//     out, as go-ethereum leaves them out);
//   - eth_simulateV1, with go-ethereum's semantics (see below);
//   - eth_chainId, eth_blockNumber, eth_syncing, eth_accounts (none),
//     eth_gasPrice, eth_maxPriorityFeePerGas, eth_feeHistory,
//     eth_blobBaseFee;
//   - eth_getBlockByNumber, eth_getBlockByHash, eth_getHeaderByNumber,
//     eth_getHeaderByHash, eth_getBlockTransactionCountByNumber,
//     eth_getBlockTransactionCountByHash, eth_getTransactionByHash,
//     eth_getTransactionReceipt, eth_getLogs;
//   - eth_sendRawTransaction (into go-ethereum's transaction pool, with its
//     checks and errors; blob transactions are refused);
//   - net_version, net_listening, net_peerCount, web3_clientVersion,
//     web3_sha3, and Otterscan's ots_getInternalOperations.
//
// That is what the evm package, ethclient and abigen bindings call. Every
// other method answers -32601 ("the method ... does not exist/is not
// available"): the admin, debug, miner, txpool and personal namespaces,
// which providers keep to themselves, and the rest of geth's eth namespace
// (filters and subscriptions,
// eth_getBlockReceipts, eth_sendTransaction and the signing methods, the
// uncle and raw-transaction methods).
//
// eth_simulateV1 runs its blocks of calls on go-ethereum's EVM as
// go-ethereum v1.17.10 does, so that simulations are tested offline: each
// call a transaction of its block, the state carried from call to call and
// block to block, nothing kept; a block without a number or time is the
// previous one's plus one and plus 12 seconds, a gap in the numbers is
// filled with empty blocks; the base fee is 0 without validation; the gas
// limit and coinbase are the previous block's; a call without gas may use
// what is left of its block's; traceTransfers logs each ether transfer as
// an ERC-20 Transfer from the ERC-7528 address
// 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE; each call's result has its
// maxUsedGas (the gas before refunds), and a revert's error is code 3 with
// the revert data, another failure's -32015. Whole-request errors carry
// the spec's codes and go-ethereum's messages (-38010 to -38026, -32602,
// -32603), as do its limits: 256 blocks, 5,000 calls a block, 10,000 in
// all, and one gas budget of 50,000,000 (the eth_call gas cap) for all the
// calls of a request. The answers are checked against the execution-apis
// spec's recordings of go-ethereum (testdata/simulate).
//
// Every request goes through the shared
// nodeaccesstest.Server: a key segment that is not exactly Key (one that
// extends it or is a prefix of it included) gets 403, another path 404,
// another method 405, and the faults of nodeaccesstest (see
// nodeaccesstest.Server.FailNext) apply. The chain itself opens no port.
//
// Those refusals, and the faults' answers, carry a JSON-RPC error body with
// "id": null, the code -32005 ("limit exceeded", EIP-1474) for a 429 and
// -32000 for every other status:
//
//	HTTP/1.1 403 Forbidden
//	Content-Type: application/json
//
//	{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"invalid access key"}}
//
// # ots_getInternalOperations
//
// The server re-executes the mined transaction on the state before it with a
// go-ethereum tracer and lists, in execution order, value transfers by CALL
// (type 0), SELFDESTRUCT (1: from the destroyed contract to the
// beneficiary), CREATE (2) and CREATE2 (3), as Erigon, the reference
// implementation of the ots namespace, does: the top-level call is left out
// (a plain ether transfer lists nothing), a CALL is listed only when it
// carries value, creations and self-destructs are listed whatever their
// value ("0x0" included), and entries of frames that later revert stay. A
// hash that is not a transaction's fails as on Erigon: -32000
// "transaction 0x<hash> not found".
//
// # The chain
//
// Chain id 1337 (ChainID), with every fork of go-ethereum's dev chain (Cancun,
// Prague, Osaka, ...) active from genesis. The node is an archive node, as
// node-access services run: the state of every block stays readable
// (eth_call and eth_getBalance at "earliest" or any number), and every
// transaction can be traced, however many blocks later. The genesis holds:
//
//   - Accounts(): four funded accounts (10,000 ether each) with their
//     keys, derived from fixed strings so the addresses never change;
//     Accounts()[0] is Holder.
//   - Token: the ERC-20 "Local USD" (TokenName, TokenSymbol "LUSD",
//     TokenDecimals 6). Holder holds 1234.567891 LUSD (HolderBalance()),
//     Accounts()[1] 500 and Accounts()[2] 0.000001. TokenAccount makes more
//     instances with balances of your choice.
//   - Multicall3 at its canonical address (evm.Multicall3Address()) with the
//     runtime bytecode deployed there on mainnet, so that
//     evm.Client.Multicall runs as on a real chain; WithoutMulticall3 leaves
//     it out.
//   - The contracts the default scenario calls: one that forwards the value
//     it receives with a CALL, and a factory of child contracts (CREATE and
//     CREATE2) that their owner can destroy (SELFDESTRUCT).
//
// Unless WithoutScenario is given, New then mines the default scenario, one
// transaction per block in blocks 1 to 5 (see Scenario): a forwarded
// transfer, a CREATE, a CREATE2, a SELFDESTRUCT and an ERC-20 transfer, so
// that every operation type appears. Their hashes are the same on every
// run; Server.Scenario returns them with the operations each one lists.
// The amounts this package returns (HolderBalance, the operations' values)
// are new big.Ints on every call, so that no test can change another's.
//
// Blocks are made only by Server.Commit, Server.Transact,
// Server.AdjustTime, Server.Reorg, and by Server.MineEvery's clock once it
// is started; the chain does not mine on its own otherwise. They are built as
// go-ethereum's simulated beacon builds them (its miner fills the block from
// the pool; every block is "safe" at once, and a block whose number is a
// multiple of 32 is "finalized"). Block hashes depend on the time of mining.
//
// # Time and snapshots
//
// Server.AdjustTime mines an empty block some time after the head, for code
// that depends on block time; the chain's time never goes back.
// Server.Snapshot and Server.Revert take the chain back to an earlier point
// (its head, safe and finalized blocks, its state, an empty pool), so that
// tests can share one Server and each start from the same chain:
//
//	snap := srv.Snapshot()
//	t.Cleanup(func() { require.NoError(t, srv.Revert(snap)) })
//
// A reverted chain is a reorganised one: the dropped blocks stay readable by
// hash, and their numbers are mined again with other hashes. Not offered:
// taking the clock back (the chain keeps the time of the latest block it
// sealed, as go-ethereum's simulated beacon does), and keeping the pool's transactions across a
// Revert (it empties the pool, as go-ethereum's Rollback does).
//
// # Reorganisations and provider limits
//
// For code that follows the chain (evm.Client.Follow, a deposit scanner),
// Server.MineEvery mines a block every interval, Server.Reorg(depth)
// replaces the newest depth blocks with another branch (their
// transactions move into its first block, so their logs leave the chain
// and come back with other block hashes), and Server.LimitLogs makes
// eth_getLogs refuse too wide a range or too many logs, with the code and
// message of the provider a test chooses, and the range that would pass:
//
//	srv.MineEvery(250 * time.Millisecond)
//	srv.LimitLogs(evmtest.LogsLimit{MaxResults: 10000, Code: -32005,
//		Message: "query returned more than {max} results. Try with this block range [{from}, {to}]."})
//	err := srv.Reorg(3)
//
// # Lies
//
// For code that must not believe its provider (package evm/verified),
// Server.Lie makes the server lie in the ways a proof catches: a balance,
// a storage value or code altered, a node left out of or added to an
// account proof, proofs for the block before the one asked for, an access
// list that leaves out a slot the call reads, the header of another block.
// The chain itself is unchanged, and Lie(evmtest.Lie{}) tells the truth
// again:
//
//	srv.Lie(evmtest.Lie{Balance: true})
//	_, err := v.Balance(ctx, holder, evm.Latest) // errors.Is(err, nodeaccess.ErrUnverified)
//
// # After Close
//
// Close stops the HTTP server, the chain and MineEvery's clock. After it,
// Transact, SendTransaction, AdjustTime, Revert and Reorg return ErrClosed (which matches
// nodeaccess.ErrUnavailable), and Commit, which has no error result,
// panics; Scenario and Snapshot still answer.
//
// # In your tests
//
// Give the chain your own accounts and contracts with WithAlloc, send
// transactions with Server.Transact (or an abigen binding on EthClient,
// signing with go-ethereum's bind.NewKeyedTransactorWithChainID(key,
// big.NewInt(ChainID)), then Commit), and point the code under test at URL
// and Key, or at Server.Client:
//
//	srv := evmtest.NewT(t, evmtest.WithAlloc(types.GenesisAlloc{mine: {Code: code}}))
//	srv.FailNext(2, nodeaccesstest.RateLimited(time.Second))
//	got, err := myCodeUnderTest(srv.URL, srv.Key()) // retries twice, then succeeds
//
// # The contracts
//
// The Solidity sources (contracts/LocalToken.sol, contracts/Scenario.sol)
// are compiled with solc 0.8.37 (the npm package solc@0.8.37,
// 0.8.37+commit.f401782d; evmVersion prague, optimizer 200 runs,
// metadata.bytecodeHash none) into the ABIs and bytecode in contracts/,
// which the package embeds. To regenerate them, from this directory:
//
//	d=$(mktemp -d) && (cd "$d" && npm init -y >/dev/null && npm install solc@0.8.37)
//	NODE_PATH="$d/node_modules" node contracts/compile.js contracts
package evmtest
