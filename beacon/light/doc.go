// Package light is a light client of Ethereum's beacon chain over the
// beacon API: it starts from a block root the caller trusts and from there
// believes only what the chain's sync committees sign, as the consensus
// specs' light-client sync protocol says, for every fork from Altair to
// Gloas. What it verifies, the finalized and optimistic block headers and
// the execution block each commits to, is the anchor verified reads stand
// on: a beacon state checked against a verified state root (CheckState),
// and execution-layer reads checked against a verified block hash
// (ExecutionBlocks). Header verifies the header of a slot the caller names
// (or of the newest block before it, when the slot is empty) by parent
// roots from the finalized or optimistic header, for CheckState too.
//
// # Starting and following
//
// A Client reads through a beacon.Client (the same key, retries, hooks,
// budget and encoding) and needs the chain's configuration (Chain for
// mainnet, Sepolia and Hoodi; a Config filled in for any other network)
// and the root of a recent finalized block from a source the caller
// trusts, such as their own node or a checkpoint-sync provider:
//
//	bc, err := beacon.New("https://eth-beacon.node.example", key)
//	cfg, err := light.Chain("mainnet")
//	lc, err := light.New(bc, cfg, trustedRoot)
//	err = lc.Sync(ctx)               // bootstrap, updates, finality and optimistic updates
//	fin, ok := lc.Finalized()        // verified: fin.Beacon, fin.ExecutionBlockHash, fin.Execution
//	head, final, err := lc.ExecutionBlocks(ctx)
//	h, err := lc.Header(ctx, slot)   // verified by parent roots, at most 8192 slots back
//
// Sync bootstraps from the trusted root the first time (GET
// /eth/v1/beacon/light_client/bootstrap/{root}; the header must hash to
// the root, and its sync committee must be proven against its state
// root), then asks for the best update of each sync committee period it
// has not verified (updates?start_period&count, at most 128 periods per
// request, so a year of periods takes 3 requests), then for the latest
// finality and optimistic updates. Each update is checked as
// validate_light_client_update says: enough participants, slot order,
// sync committee periods, the finality and next sync committee branches,
// the headers' execution branches, and the BLS aggregate signature of the
// participants over the attested header's signing root in the domain
// DOMAIN_SYNC_COMMITTEE of the fork of the signature's slot and the
// chain's genesis validators root. It is then applied as
// process_light_client_update says, the store keeping its
// best_valid_update (ranked as is_better_update says). When the chain's
// clock is more than UPDATE_TIMEOUT (a sync committee period) past the
// finalized header, Sync forces that best update, as
// process_light_client_store_force_update says: its attested header is
// taken as finalized and the client moves on into the next period, so a
// chain that stops finalizing does not leave it stuck. A forced header
// was signed by the sync committee, not finalized; and only an update
// that verified is ever forced.
//
// MarshalBinary saves the verified store and UnmarshalBinary takes it up
// again, so that a restart does not bootstrap again. The saved store does
// not carry the best update: a restored client asks its node for it again.
//
// # Errors
//
// Every lie of a provider is an error matching nodeaccess.ErrUnverified
// (and nodeaccess.ErrInvalidResponse): a *VerifyError that names the
// check, and the roots it compared when it compares roots. Nothing of
// data that does not verify is kept. Transport failures are the
// beacon.Client's errors, unchanged.
//
// # What is not covered
//
// A node answering 404 for a range of periods holding no update yet is
// nothing newer. The clock matters: a client whose clock runs ahead of
// its node's chain by more than a period takes the chain for stalled and
// forces updates. A sync committee signs with a majority of
// its 512 members assumed honest: that is the light-client protocol's
// trust, weaker than a full node's. The trusted root is the caller's
// choice, and the saved store carries a checksum, not a signature: keep
// both where the trust lies.
//
// # What it is built on
//
// The BLS12-381 arithmetic is gnark-crypto's (pure Go with assembly, the
// library go-ethereum uses for its BLS precompiles, already among this
// module's dependencies), with the specs' key and signature checks; the
// SSZ roots and branches are package beacon's. go-ethereum's own light
// client (beacon/types, beacon/light) is not used: importing it links
// go-eth2-client and go-ethereum's trie and core types into every program
// of this package, its committee type holds mainnet's 512 keys only (no
// minimal preset, no local chain), and its committee chain lives in a
// go-ethereum database under its own sync loop. The checks here follow
// the specs' text and are held to Lodestar's: its types give the same
// bytes and roots for every fork, its light client the same verdicts on
// honest and lying updates (Altair to Fulu; Lodestar has no Gloas light
// client yet), and the BLS results are @chainsafe/blst's and
// @noble/curves'.
package light
