// Package verified reads an EVM chain's state through an *evm.Client and
// believes none of it that a proof can check: every balance, nonce, code
// hash, storage root, storage slot, code and eth_call result it returns is
// proven against the state root of a block whose hash its Anchor (a light
// client) verified.
//
//	v, err := verified.New(c, anchor) // c an *evm.Client, anchor e.g. a beacon light client
//	bal, err := v.Balance(ctx, holder, evm.Latest)
//	out, err := v.Call(ctx, evm.CallMsg{To: token, Data: calldata}, evm.Finalized)
//	if errors.Is(err, nodeaccess.ErrUnverified) { ... } // the provider lied
//
// # Blocks
//
// The Anchor gives the hashes of its head and of its finalized execution
// block. evm.Latest (and nil) reads the head, evm.Finalized the finalized
// block, an evm.BlockHash either of them. A block number, or another hash,
// is read when it is one of the 256 blocks below the head: the head's
// header is fetched, then the headers between the block and the head in
// one evm.Batch (sent in requests of evm.WithMaxBatchSize calls: 3 for 256
// headers at the default 100), each checked to hash to the parent hash of
// the one above it. evm.Pending, evm.Safe, evm.Earliest, a number
// past the head or more than 256 blocks below it are refused with an
// *nodeaccess.InputError naming the selector. The block's header is
// fetched by hash (eth_getBlockByHash) and must hash, keccak256 of its RLP
// as go-ethereum's types.Header.Hash computes it, to the anchored hash:
// its stateRoot is the root every proof of the read is checked against.
//
// # Reads
//
// Account, Balance, StorageAt and Code send the header, eth_getProof (and
// eth_getCode) in one JSON-RPC batch and check the proofs with
// go-ethereum's trie.VerifyProof; every node of a proof must be on the
// path, in its order, none missing, none left over, and a proof of more
// than 65 nodes or with a node over 1 KiB is refused before any hashing.
// An account or slot the state does not hold is proven absent, and is
// zero. Code must hash to the proven code hash.
//
// Call runs eth_call locally, on go-ethereum's EVM, over state fetched
// with proofs, as a16z's Helios does: eth_createAccessList says what the
// call touches, one batch brings the proofs and code of those accounts,
// and a read the list left out is fetched with a proof and the call run
// again, never guessed. A call whose access list is whole costs 2 round
// trips.
//
// # Errors
//
// Every lie is an error matching nodeaccess.ErrUnverified (and so
// nodeaccess.ErrInvalidResponse), an *nodeaccess.OpError that says what
// was wrong: a header that does not hash to the anchored hash, a proof for
// another root or account, a node missing, changed, extra or out of order,
// a value the proof contradicts, code that does not hash to the code hash,
// a call that still reads unproven state after 4 batches. Never a wrong
// value, never a panic. A provider that fails to answer fails as through
// the *evm.Client (retries, typed errors).
//
// # What it does not cover
//
// The anchor itself (a light client trusts its checkpoint and the sync
// committee). The fork schedule a Call runs under is that of the chain
// eth_chainId names, the provider's word, read once per Client: it is
// checked against the anchored header (London, Shanghai, Cancun and
// Prague must be active exactly when the header has their fields), but a
// chain id of another chain whose forks agree on those can still change
// what CHAINID returns and the rules of the forks that add no header field.
// Transactions, receipts and logs. HyperEVM, which no light client
// follows: a client made by hypercore.New is refused by New.
package verified
