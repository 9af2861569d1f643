// Package tontest runs a local TON node-access endpoint for tests and
// examples, the way net/http/httptest runs an HTTP server: New starts it on
// 127.0.0.1 at a free port, Client returns a ton.Client pointed at it, and
// Close stops it.
//
//	srv, err := tontest.New()
//	if err != nil { … }
//	defer srv.Close()
//	c, err := srv.Client() // or srv.Client(ton.WithJSONRPC())
//	for tx, err := range c.AllBlockTransactions(ctx, ton.BlockTransactionsQuery{Block: tontest.DefaultBlock().ID.BlockRef, Count: 2}) { … }
//
// In a test, NewT(t) does the same in one line: it closes the server when
// the test ends and stops the test if the server cannot start.
//
// # What it serves
//
// The calls of the ton package, on the paths providers use (the key is a
// path segment, in a different place for each API version):
//
//	GET  {URL}/api/v2/{Key}/getBlockTransactionsExt   workchain, shard (signed decimal), seqno, count (default 40), after_lt, after_hash
//	GET  {URL}/api/v2/{Key}/getBlockTransactions      the same parameters: the transactions' ids
//	POST {URL}/api/v2/{Key}/jsonRPC                   {"method":"getBlockTransactionsExt" or "getBlockTransactions","params":{…},"id":…}
//	GET  {URL}/{Key}/api/v3/accountStates             account_address and address (repeatable), include_boc, limit, offset, sort (WithIndexer: address, code_hash, include_boc)
//	GET  {URL}/{Key}/api/v3/pendingTransactions       account (repeatable, required), limit, offset (WithIndexer: account, trace_id)
//
// ton.Client.Call reaches these endpoints too ("v2/getBlockTransactions",
// "v3/accountStates", …); any other gets 404, and a JSON-RPC request for
// another method toncenter's 422 {"ok":false,"error":"Unknown method",…}.
//
// API v2 answers are toncenter's: {"ok":true,"result":{"@type":"blocks.transactionsExt",
// "id":{…},"req_count":N,"incomplete":…,"transactions":[…]}}, each
// transaction a "raw.transaction" shaped like the recorded one (address,
// utime, data, transaction_id, fee, storage_fee, other_fee, in_msg,
// out_msgs, account). getBlockTransactions answers toncenter's
// "blocks.transactions" with the same paging, each transaction's id a
// {"@type":"blocks.shortTxId","mode":135,"account":"<raw>","lt":"…",
// "hash":"…"} (the recorded answer for the default block, data/SOURCES.md).
// The JSON-RPC form answers the same bodies with "jsonrpc":"2.0" and the
// request's id as sent (left out when the request has none).
//
// Pages of a block follow the lite server that toncenter calls: the
// transactions are in the block's order (by account id, then logical
// time); after_hash is the account id of the last transaction seen and
// after_lt its logical time, and the next page starts after that
// transaction. after_hash is read in every form toncenter's servers read:
// 64 hex digits (either case), 44 characters of base64 or base64url, 43 of
// unpadded base64url, or an account address, raw or user-friendly (ton.Client
// sends standard base64). As on the lite server, incomplete is true whenever
// a page holds count transactions: a block of exactly count transactions
// left says incomplete, and the next page is empty and complete.
//
// API v3 answers are by default those of a server that pages (limit,
// offset, sort), with its member names: accountStates
// {"account_states":[{account, hash, balance, account_status, last_trans_lt
// (a number), last_trans_hash, frozen_hash, code_hash, data_hash, and
// code_boc and data_boc with include_boc=true}],"address_book":{…}}, sorted
// by last_trans_lt (newest first unless sort=asc), then offset and limit;
// without account_address or address it lists the states of every account.
// include_boc defaults to false, as on such a server (the indexer's default
// is true; ton.Client always sends it). pendingTransactions
// {"transactions":[v3 transactions: account, hash, lt (a string), now,
// mc_block_seqno, trace_id, …],"address_book":{…}}, with the indexer's 422
// {"error":"at least 1 account address required"} without account and its
// 404 {"error":"emulated traces not found"} when none of the accounts has
// anything pending (ton.Client reads that 404 as an empty page). address_book
// is keyed by the raw address in upper case, as the indexer writes it.
//
// A pending transaction's Emulated (when true), Finality and
// TraceExternalHash are served as emulated, finality and
// trace_external_hash; the default one is emulated, finality "pending".
//
// WithIndexer serves both v3 calls as the open-source v3 indexer
// (toncenter's ton-index-go) does instead, for testing code against it:
// accountStates takes address (repeated) and code_hash, ignores limit,
// offset, sort and account_address, answers the latest state of each
// account it knows under the indexer's member names with its "metadata"
// (that of the address book entries set with TokenInfo), at
// most 1000 states, in a new random order every time, include_boc true
// unless sent, and 422 without address; pendingTransactions ignores limit
// and offset, lists only emulated transactions in a new random order every
// time, answers {"transactions":null,"address_book":{}} when the accounts'
// transactions are all already in blocks (none emulated), and 404 or 422 as
// above. See WithIndexer.
//
// WithMaxLimit(n) makes both v3 calls serve at most n items a page,
// whatever limit asks for, without a word: the behaviour of a server that
// caps limit silently, for testing code
// that walks pages. ton's walkers read on until an empty page, so they
// return everything from such a server.
//
// # A growing chain
//
// WithChain makes the server a small chain that grows, for testing code
// that follows the chain (ton.Client.Follow, or one's own): a masterchain
// and a basechain of two shards, a masterchain block every interval (or at
// each Advance), each committing zero, one or two blocks of every shard,
// Split and Merge of a shard on demand, under the masterchain's
// shard-configuration rules, with jetton transfers (TEP-74
// internal_transfer and transfer_notification bodies, with comments) among
// the transactions. It adds getMasterchainInfo, shards (getShards) and
// getBlockHeader, in the REST and JSON-RPC forms, answering consistently
// with the blocks' transactions:
//
//	srv := tontest.NewT(t, tontest.WithChain(0))
//	srv.Advance(3)
//	srv.Split(0x4000000000000000) // its next block is its last; the children start in the block after
//	srv.Advance(2)
//	for tx, err := range c.Follow(ctx, ton.FollowQuery{From: ton.FollowCursor{Seqno: 1}}) { … }
//
// # Errors
//
// A wrong key gets 403, an unknown path 404 and a wrong method 405 (from
// the shared nodeaccesstest.Server; the message of a 404 or 405 is the
// status's phrase, "Not Found" or "Method Not Allowed", as toncenter's
// Python server writes it). Error bodies are those of the API the
// path belongs to: v2 {"ok":false,"error":"…","code":N} with
// HTTP status N, and toncenter's {"ok":false,"result":"Ratelimit exceed",
// "code":429} for 429; v3 {"error":"…"}. Bad v2 parameters get 422
// ("Validation error: query -> count: …"; toncenter's FastAPI front answers
// 422 with a message of that form; the wording after the parameter name is
// this server's), and a block the server does not have gets toncenter's 500
// for a lite server without it:
//
//	{"ok":false,"error":"LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno=39984097: seqno not in db","code":500}
//
// (the message of toncenter/ton-http-api issue 136, with this request's
// block). A shard sent in hex ("8000000000000000") is read as a decimal,
// as toncenter reads it, and so names a block the server does not have.
// The same 500 answers a block the lite server does not have yet when
// WithLag makes it lag behind the newest blocks (for a block named by its
// hashes, with the lite server's own message, "LITE_SERVER_NOTREADY: block
// (…) is not in db (…)"). A getBlockTransactionsExt page that holds a
// transaction of Block.Unreadable gets tonlib's 500 of
// toncenter/ton-http-api issue 183:
//
//	{"ok":false,"error":"Error occured while creating tonlib_api::raw_transaction: Failed to unpack balance (2)","code":500}
//
// and pages that stop before it are served; getBlockTransactions lists it.
// In the JSON-RPC form these 500s come without jsonrpc and id, as both of
// toncenter's servers answer tonlib's errors.
// Bad v3 parameters get the indexer's 422 messages ("limit is not allowed:
// 1001 > 1000"; a limit below 1 counts as 1, as on the indexer).
//
// # Data and defaults
//
// Blocks (Block: a ton.BlockID and its ton.BlockTransaction values),
// account states (ton.AccountState, several historical states per account)
// and pending transactions (ton.PendingTransaction) are the ton package's
// own types: what a test sets is what its client reads back. Set them with
// the Set methods (SetBlock, SetAccountStates, SetPendingTransactions,
// SetAddressBookEntry), before the first request or at any time after:
// they are safe for concurrent use. WithoutDefaults starts the server
// without its default data.
//
// Without WithoutDefaults the server knows, from two recorded bodies
// (data/SOURCES.md):
//
//   - DefaultBlock(), masterchain block 39984096, recorded from toncenter:
//     served with its real id and its three real transactions (accounts
//     -1:3333… and -1:5555…, fees 0: tick-tock transactions of system
//     contracts pay none), which DefaultBlock returns.
//   - DefaultAccount(), the account of a recorded testnet v3 transaction.
//     Its two account states are derived from that transaction: the state
//     before it (account_state_before, with prev_trans_lt and
//     prev_trans_hash as its last transaction) and the state after it
//     (account_state_after, with the transaction's own lt and hash); their
//     code_boc and data_boc are null (not recorded). Its one pending
//     transaction is the recorded transaction itself, served as the
//     indexer serves a pending one (pending: included in a block, not
//     yet fully confirmed); the recording was taken from
//     /api/v3/transactions, so listing it as pending is this server's
//     choice, not a recording of pendingTransactions.
//
// The default block is mainnet data and the default account testnet data;
// the address book writes user-friendly forms without the testnet flag.
//
// # Faults
//
// The embedded nodeaccesstest.Server queues faults for the next requests,
// on any path:
//
//	srv.FailNext(2, nodeaccesstest.RateLimited(time.Second)) // 429 with Retry-After: 1, v2 or v3 body by path
//	srv.FailNext(1, nodeaccesstest.ServerError(500))
//	srv.FailNext(1, nodeaccesstest.SlowBody(time.Second))
//	srv.FailNext(1, nodeaccesstest.TruncatedBody())
//	srv.FailNext(1, nodeaccesstest.DropConnection())
package tontest
