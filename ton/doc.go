// Package ton calls a TON node-access endpoint: the transactions of a block
// (API v2 getBlockTransactionsExt, in its REST or its JSON-RPC form), account
// states and pending transactions (API v3 accountStates and
// pendingTransactions), with exact types for addresses, shards, hashes,
// logical times and balances; and, with Call, any other endpoint of API v2
// or v3, through the same key handling, retries, hooks and budget.
//
// A Client is made from the node's base URL and the access key. The two API
// versions put the key in different places, and the client follows them:
//
//	GET  {base}/api/v2/{key}/getBlockTransactionsExt   BlockTransactions
//	GET  {base}/api/v2/{key}/getBlockTransactions      AllBlockTransactions, past a transaction the server cannot read
//	POST {base}/api/v2/{key}/jsonRPC                   the same two, with WithJSONRPC
//	GET  {base}/{key}/api/v3/accountStates             AccountStates
//	GET  {base}/{key}/api/v3/pendingTransactions       PendingTransactions
//	GET  {base}/api/v2/{key}/getMasterchainInfo, shards, getBlockHeader   Follow (with the two above)
//	     {base}/api/v2/{key}/<method>                  Call(ctx, "v2/<method>", params, &out)
//	     {base}/{key}/api/v3/<path>                    Call(ctx, "v3/<path>", params, &out)
//
//	c, err := ton.New("https://ton.node.example", key)
//	page, err := c.BlockTransactions(ctx, ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(39984096)})
//	var info struct{ Last struct{ Seqno uint32 } }
//	err = c.Call(ctx, &info, "v2/getMasterchainInfo", nil)
//
// # What the SDK sends and what it reads
//
// Servers differ. toncenter's API v2 answers {"ok":true,"result":…} in its
// REST form and adds "jsonrpc" and "id" in its JSON-RPC form. For API v3,
// some servers page (limit, offset, sort) and name an account state's
// members account, hash, account_status, last_trans_lt and
// last_trans_hash, in an "account_states" array; the open-source v3
// indexer (toncenter/ton-indexer) does not page, names them address,
// account_state_hash, status, last_transaction_lt and
// last_transaction_hash, in an "accounts" array, and adds the tokens'
// metadata. The SDK sends what both kinds read: shards as signed decimals
// to v2, one account as both account_address and address to
// accountStates, include_boc always. Several accounts go in one request as
// address (accountStates) or account (pendingTransactions) repeated, at
// most 1000 a request, one request unit each; more are split into several
// requests. It reads every shape: v2 bodies wrapped in
// {"ok":true,"result":…}, bare, or in a JSON-RPC envelope whose id is not
// checked; transaction hash and lt at the top of an entry or in its
// transaction_id; either set of account state members; numbers sent as
// strings; finality as a string or as an integer; the indexer's metadata
// (token information, scam and NSFW flags) in the address book's entries. An
// address book entry whose key is not a standard address is kept apart
// (UnknownAddresses) and never fails a page.
//
// # Types
//
// Address is a comparable account (workchain and 32-byte id): == and map
// keys compare accounts whatever form they were parsed from. ParseAddress
// reads the raw form ("0:5b6a…", either case) and the user-friendly form
// (base64url or standard base64, checksum verified); FriendlyAddress keeps the
// bounceable and testnet flags and formats either alphabet. ShardID reads and
// writes the v2 decimal and the v3 hex forms (ParseShardID reads both, and
// a string of 16 digits, which is both, as hex); BlockRef and BlockID name
// blocks. Logical times are uint64, balances and fees exact *big.Int
// nanotons, times time.Time, hashes Hash. AccountStatus keeps values the SDK
// does not know. A transaction's messages are Message values (InMsg,
// OutMsgs): a nil Source is an external in-message, a nil Destination an
// external out-message; the text comment is reported when the server
// decoded it (v2 msg.dataText, v3 text_comment); extra currencies are exact
// amounts keyed by currency id, from v2's list (ids signed) and v3's map
// alike; ParseBounce reads a bounced message's body in the old format and
// in protocol version 12's (TEP 503). Both v2 shapes (tonlib's raw.transaction as the Python and the C++
// servers send it) and the v3 indexer's decode to the same values. Parts
// left untyped (the detailed transaction, the full v3 entries, each
// message) stay available as json.RawMessage.
//
// # What an item the SDK cannot fully read costs
//
// A member that identifies an item or carries its value (an address, a
// hash, a logical time, a seqno, a message's value, a balance, a total
// fee) that cannot be read makes the whole answer an error matching
// nodeaccess.ErrInvalidResponse, naming the item by its position and hash.
// Any other member that cannot be read (an opcode, extra currencies, a
// comment, a time, a code hash, …) costs neither the item nor the page:
// its field is left as when not sent, its value stays in the item's raw
// JSON, and the item names it in Unread (a transaction's Unread includes
// its messages' as "in_msg.…" and "out_msgs[i].…"). Finality and account
// status are kept as sent, whatever their shape.
//
// # Following the chain
//
// Follow walks every transaction each masterchain block commits, its own
// and those of every shard block it commits (also the shard blocks that
// were never a shard's top), exactly once, in a documented order, across
// shard splits and merges, then waits for the next blocks; each
// transaction carries a FollowCursor to store and resume from after a
// restart. It reads API v2 (getMasterchainInfo, shards, getBlockTransactionsExt,
// and getBlockHeader where a shard splits or merges), which every
// node-access service that sells TON serves, with no indexer behind it;
// what it yields is finalized. Its cost is 2 + S requests per masterchain
// block for S new shard blocks, plus the head polls (see Follow for sizing
// a plan). Lagging lite servers ("not in db"), 5xx and 429s make it ask
// for the same block again later, never skip it.
//
// ParseJettonTransfer reads a TEP-74 jetton transfer from a message's
// body (transfer, internal_transfer, transfer_notification): amount
// exact, sender, destination, response destination, forward amount and
// comment, so that a deposit scanner is a loop over Follow. The package
// reads bags of cells with its own reader, with no third-party import.
//
// # Pages
//
// AccountStates and PendingTransactions return one page (limit and offset,
// limit at most 1000); AllAccountStates and AllPendingTransactions walk
// every page as an iter.Seq2, on servers that page and on the v3 indexer,
// which does not. A walk stops at an empty page, at the first error (yielded once), or at a page that holds an item
// an earlier page yielded, as a server that ignores offset answers: when the
// page before held fewer items than the limit (or more), that page was the
// whole answer and the walk ends without an error; when it held exactly the
// limit, more may hide behind it, and the walk ends with ErrRepeatedPage. No
// walk yields an item twice, and every request after a walk's first yields
// an item not yielded before or ends the walk. AllAccountStates with
// Accounts knows a state by its account alone, as the indexer answers one
// state per account: an account whose state changes between two requests
// is yielded once, with its first state, and a group of n accounts costs at
// most n+1 requests however often states change (see AllAccountStates for
// servers that list historical states). A page shorter than the limit
// does not end a walk, since a server may cap limit silently; the request
// that proves the end costs one more than stopping at a short page.
// PendingTransactions sorts its page (by account, lt, hash): the indexer's
// order changes from one request to the next.
//
// A block that does not fit one getBlockTransactionsExt page comes back
// Incomplete: its Next cursor asks for the rest, and AllBlockTransactions
// walks the whole block, also past a transaction the server cannot read
// (ErrUnreadableTransaction), which it isolates by narrowing its page and
// yields as its id with the error, going on with the rest of the block; the
// JSON-RPC form asks for at most 256 transactions a call (see WithJSONRPC).
// Each range over a walk's sequence is a walk of its own, so a sequence may
// be ranged again, or by several goroutines at once.
//
// # Errors
//
// Every error an operation returns is one *nodeaccess.OpError ("ton:
// accountStates: …"); a constructor's is a plain error over an
// *nodeaccess.InputError. Bad arguments (a negative count, limit or
// offset, a limit over 1000, a count over 10000, seqno 0, a root hash
// without the file hash, an account that is empty or does not parse, a
// zero shard, an unknown sort order) are *nodeaccess.InputError values and
// nothing is sent.
//
// A non-2xx answer is a *nodeaccess.HTTPError (status, Retry-After, the
// start of the body) whose Message and Code are the server's message and
// code when the body is one of TON's error forms (the text shows the code
// where it is not the status): v2's {"ok":false,"error":"…","code":N}, its
// rate-limit body {"ok":false,"result":"Ratelimit exceed","code":429}, v3's
// {"error":"…"}, or a JSON-RPC error object. A TON error inside a 2xx body
// (the JSON-RPC form may answer so, and gateways do) is a
// *nodeaccess.RPCError with the body's code (0 when it has none) and
// message. Its code is an HTTP status, and the fault is treated as that
// status in every call and walker: retried when the status would be (429,
// a 5xx, and the 422s below that are retried), and matching the same
// sentinel (429 nodeaccess.ErrRateLimited, 401 and 403
// nodeaccess.ErrUnauthorized, 404 nodeaccess.ErrNotFound, a 5xx such as
// 503, 504 or toncenter's 542 nodeaccess.ErrUnavailable), and read as the
// status is below (a 404 "emulated traces not found" is an empty page, a
// 422 refusal matches nodeaccess.ErrInvalidInput), whether the body is
// v2's {"ok":false,…} or a JSON-RPC error object. So Follow asks again for
// a block whose fault came in a 200, as for one that came as the status.
//
// 429 and every 5xx are retried within the client's attempts, but for
// tonlib's failure to convert a transaction (500 "Error occured while
// creating tonlib_api::raw_transaction: Failed to unpack …"), which the same
// request repeats: that error matches ErrUnreadableTransaction at once. A
// lite server that does not have the block yet (500 "LITE_SERVER_NOTREADY:
// … not in db", or "specified mc block is older than block's masterchain
// ref"; lite servers lag behind the newest blocks) is retried, and when the
// attempts run out the error matches ErrNotYetAvailable. Both match
// nodeaccess.ErrUnavailable too. The indexer's 404 "emulated traces not
// found" from pendingTransactions, and its 200 with "transactions": null,
// are an empty page, not an error; any other 404 (a gateway's
// {"error":"Not Found"}) is an error matching nodeaccess.ErrNotFound. A 422
// by which the server refuses the parameters (every 422 of
// pendingTransactions; on accountStates, the indexer's messages for a
// missing or unreadable parameter) matches nodeaccess.ErrInvalidInput as
// well as reaching the HTTPError. The indexer also answers 422 on
// accountStates when its database query fails or times out: such a 422 is
// retried like a 5xx. Call, which cannot tell the two apart on an endpoint
// it does not know, leaves a 422 as the server's HTTPError.
//
// The access key never appears in an error, including in server messages
// that echo it: they are masked whole before they are capped at 512 bytes,
// and a rejected server value is quoted whole or described by its length,
// never cut.
package ton
