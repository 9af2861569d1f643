// Package evmtest runs a local EVM node for tests and examples: a real chain
// (go-ethereum's simulated backend) that answers JSON-RPC on 127.0.0.1 the
// way a node-access service does, so that code written against the evm
// package runs with no network and no key, as net/http/httptest does for
// HTTP.
//
//	srv, err := evmtest.New()
//	if err != nil { ... }
//	defer srv.Close()
//	c, err := srv.Client() // an *evm.Client for srv.URL and srv.Key
//	out, err := c.Call(ctx, evm.CallMsg{To: evmtest.Token, Data: calldata}, evm.Latest)
//
// # What is served
//
// POST {URL}/{Key} and POST {URL}/{Key}/evm (the path of Hyperliquid's EVM on
// node-access services; reach it with evm.WithPathSuffix("evm")) both serve
// the whole JSON-RPC API of the chain: the eth namespace (eth_call,
// eth_getCode, eth_getBalance, eth_sendRawTransaction, eth_getLogs, ...),
// net, web3, and Otterscan's ots_getInternalOperations. Nothing else: the
// admin, debug, miner and txpool namespaces, which providers keep to
// themselves, answer -32601. Every request goes through the shared
// nodeaccesstest.Server: a key segment that is not exactly Key (one that
// extends it or is a prefix of it included) gets 403, another path 404,
// another method 405, and the faults of nodeaccesstest (see
// nodeaccesstest.Server.FailNext) apply. The node itself opens no port.
//
// Those refusals, and the faults' answers, carry a JSON-RPC error body with
// "id": null (see WriteError):
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
// Prague, Osaka, ...) active from genesis. The genesis holds:
//
//   - Accounts(): AccountCount funded accounts (AccountBalance wei each) with
//     their keys, derived from fixed strings so the addresses never change;
//     Accounts()[0] is Holder.
//   - Token: the ERC-20 "Local USD" (TokenName, TokenSymbol "LUSD",
//     TokenDecimals 6). Holder holds 1234.567891 LUSD (HolderBalance),
//     Accounts()[1] 500 and Accounts()[2] 0.000001. TokenAccount makes more
//     instances with balances of your choice.
//   - Forwarder, which passes on the value it receives with a CALL, and
//     Factory, which makes Child contracts with CREATE and CREATE2; a Child's
//     owner can destroy it (SELFDESTRUCT).
//
// Unless WithoutScenario is given, New then mines the default scenario, one
// transaction per block in blocks 1 to 5 (see Scenario): a forwarded
// transfer, a CREATE, a CREATE2, a SELFDESTRUCT and an ERC-20 transfer, so
// that every operation type appears. Their hashes are the same on every
// run; Server.Scenario returns them with the operations each one lists.
// Blocks are made only by Server.Commit and Server.Transact; the chain does
// not mine on its own. Block hashes depend on the time of mining.
//
// # In your tests
//
// Give the chain your own accounts and contracts with WithAlloc, send
// transactions with Server.Transact (or EthClient, TransactOpts and
// Commit), and point the code under test at URL and Key, or at
// Server.Client:
//
//	srv, err := evmtest.New(evmtest.WithAlloc(types.GenesisAlloc{mine: {Code: code}}))
//	...
//	srv.FailNext(2, nodeaccesstest.RateLimited(time.Second))
//	got, err := myCodeUnderTest(srv.URL, srv.Key) // retries twice, then succeeds
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
