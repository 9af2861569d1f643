// Package beacontest is a local beacon node for tests, in the way of
// net/http/httptest: a Server on 127.0.0.1 that serves beacon states the way
// a node-access provider's consensus node does, and NewState, which makes
// states of any fork and preset.
//
// # The server
//
//	srv, err := beacontest.New() // the default chain, a random key
//	defer srv.Close()            // (in a test, srv := beacontest.NewT(t) does both)
//	c, err := srv.Client()       // a *beacon.Client for srv.URL and srv.Key()
//	st, _, err := c.State(ctx, beacon.Head, beacon.StateOptions{})
//
// A Server answers one route,
//
//	GET {URL}/beacon/{Key}/eth/v2/debug/beacon/states/{state_id}
//
// (HEAD too), with the states it holds. state_id is any form of the beacon
// API: head, genesis, finalized, justified, a decimal slot, or a state root
// as 0x and 64 hex digits (the state's hash tree root). The body is SSZ or
// JSON as the Accept header prefers: application/octet-stream gives SSZ;
// application/json, a wildcard or no Accept header gives JSON; q-values
// count (the most specific range that matches a type gives its quality;
// q=0 refuses it), so that the beacon client's default
// "application/octet-stream;q=1,application/json;q=0.9" gets SSZ. At equal
// quality a type named by its own range beats one reached by a wildcard,
// then the one named first wins, and JSON wins between wildcards. A 200
// carries Content-Type (application/octet-stream or application/json), Eth-Consensus-Version (the state's fork),
// Content-Length and "Vary: Accept"; a JSON body is the beacon API's
// response {"version","execution_optimistic","finalized","data"}. Each state
// is encoded once per encoding, when first asked for, and the bytes are kept.
//
// Errors carry the beacon API's error body, as application/json:
// {"code":404,"message":"NOT_FOUND: beacon state at slot 5","stacktraces":[]}.
//
//   - 400 for a state id that does not parse ("latest", "-1", a short root);
//   - 403 for a wrong key in the path (never echoed);
//   - 404 for a slot or root the server does not hold, and for a path it does
//     not serve ("NOT_FOUND: route not found", which the beacon client reports
//     as beacon.ErrDebugDisabled, as it does a real node's unknown route);
//   - 405 with Allow for another method on the state route;
//   - 406 for an Accept header that accepts neither encoding.
//
// # Which state a name gives
//
// The server holds a set of states, at most one per slot. Slots and roots
// name the state held there. The four names follow the chain's head:
//
//   - head is the state with the highest slot;
//   - genesis is the state with the lowest slot;
//   - finalized is the newest state at or before the first slot of the head
//     state's finalized checkpoint epoch, and justified the same for its
//     current justified checkpoint; when there is none, the oldest state.
//
// Server.Pin makes a name give the state at a slot of your choice. A JSON response says finalized: true for the finalized state and
// every state before it, and execution_optimistic: false unless
// SetExecutionOptimistic(true), which marks the states after the finalized
// one. (SSZ bodies carry neither flag, as on a real node.)
//
// # The default chain
//
// Without WithStates, a Server holds DefaultStates: four mainnet-preset
// states of one chain with 16384 validators each, a phase0 genesis at slot
// 0 and three fulu states at the slots a node reports as finalized,
// justified and head, which the names above pick. They refer to each other
// as a chain's states do: the head's checkpoints are the finalized and
// justified states' blocks, and its block_roots and state_roots hold their
// roots (see DefaultStates). The head state is about
// 5 MB of SSZ and 12.8 MB of JSON, so a progress bar moves. Server.Lookup
// and Server.States give the slots, roots and forks; Server.Body the exact
// bytes a request would get. WithStates() with no state starts with none
// at all.
//
// # Your data
//
//	st := beacontest.NewState(beacon.Deneb, beacon.MinimalPreset(), 64, 1)
//	srv, err := beacontest.New(beacontest.WithStates(st), beacontest.WithKey("test-key"))
//	c, err := srv.Client() // decodes with the head state's preset (minimal)
//
// AddState, RemoveState, Pin, Unpin and SetExecutionOptimistic change the
// data while the server runs; every method is safe for concurrent use.
//
// # The chain of block headers
//
// A Server also holds a chain of block headers, apart from its states: at
// first the genesis block alone, at slot 0. It serves them as a node does,
//
//	GET {URL}/beacon/{Key}/eth/v1/beacon/headers/{block_id}
//	GET {URL}/beacon/{Key}/eth/v1/beacon/states/head/finality_checkpoints
//	GET {URL}/beacon/{Key}/eth/v1/events?topics=head,chain_reorg,finalized_checkpoint
//
// block_id being head, genesis, finalized, a slot (404 for a slot without
// a block) or a block root as 0x and 64 hex digits (every block made, those
// a reorganisation replaced too, with canonical false). Each header's
// parent_root is the root of the block before it and each root is the
// header's hash tree root; the finalized checkpoint is the previous and
// current justified one too, epoch 0 and the zero root until Finalize.
// The event stream (server-sent events) sends, to each client listening,
// a head event when Advance or Reorg makes a new head, a chain_reorg event
// when Reorg replaces blocks and a finalized_checkpoint event at Finalize,
// of the topics it asked for (another topic, or none, is a 400). Tests
// move the chain while a client reads it:
//
//	err := srv.Advance(40, 3, 7) // slots 1 to 40 pass, with a block in each but 3 and 7
//	err = srv.Reorg(2)           // the newest 2 blocks are replaced by 2 others
//	err = srv.Finalize(1)        // epoch 1's checkpoint (slot 32 on mainnet) is finalized
//
// # The light-client endpoints
//
// The chain of block headers is also a light-client chain: a sync
// committee of deterministic keys signs it, and the server answers
//
//	GET {URL}/beacon/{Key}/eth/v1/beacon/light_client/bootstrap/{block_root}
//	GET {URL}/beacon/{Key}/eth/v1/beacon/light_client/updates?start_period={p}&count={n}
//	GET {URL}/beacon/{Key}/eth/v1/beacon/light_client/finality_update
//	GET {URL}/beacon/{Key}/eth/v1/beacon/light_client/optimistic_update
//
// as JSON ({"version":"electra","data":{...}}; updates is an array of
// those) or SSZ (Accept: application/octet-stream), with
// Eth-Consensus-Version: electra. In SSZ, updates is a sequence of chunks:
// the chunk's length as 8 little-endian bytes (the 4-byte fork digest and
// the update together), the fork digest, the update. A bootstrap is served
// for any block the server made (404 for another root, 400 for a root
// that does not parse); period p's update is attested by the newest
// canonical block of the period whose child is in the period too and
// signed at that child's slot; updates lists them from the first period
// asked that has one, without a gap, at most count and 128 (404 when no
// period asked has one; 400 for a missing or malformed start_period or
// count). finality_update and optimistic_update are the head block's
// signature of its parent: 404 while the chain has one block, and
// finality_update also until Finalize.
//
// A light client follows the server with this configuration:
//
//   - Every epoch is electra: fork version 0x05000000 (ELECTRA_FORK_VERSION
//     of mainnet; a state's fork.previous_version is 0x04000000), the
//     electra gindices (finalized root 169, sync committees 86 and 87,
//     execution payload 25 in the body).
//   - genesis_validators_root is sha256("beacontest genesis validators
//     root"), 0xad214bfd6971b70b25a18308751fa09df1d71271fdc88b4139ffd92ce58d2e36;
//     the fork digest is 0x2882c45f.
//   - The preset follows the head state at New: with the minimal preset's
//     32 sync committee members, SYNC_COMMITTEE_SIZE is 32 and
//     EPOCHS_PER_SYNC_COMMITTEE_PERIOD 8 (64 slots a period, so a year of
//     periods is cheap to make: srv.Advance(320*64)); otherwise (the
//     default chain) the mainnet values, 512 and 256. SLOTS_PER_EPOCH is the
//     head state's.
//   - Member j of period p's committee is validator (p mod 4)*size + j,
//     whose secret key is the interop key of the consensus clients' test
//     networks: sha256 of the index as 32 little-endian bytes, read as a
//     little-endian integer, modulo the group order.
//   - Every member but member (signature_slot mod size) takes part; the
//     signature is over compute_signing_root(attested header,
//     compute_domain(DOMAIN_SYNC_COMMITTEE, 0x05000000,
//     genesis_validators_root)).
//
// Each header's state_root is the hash tree root of an electra state of
// that preset holding the block's slot, header, the finalized checkpoint
// the chain had when the block was made, the current and next sync
// committees and an execution payload header; its body_root is that of a
// body whose execution payload has that header. Every branch is a Merkle
// branch of those (beacon.Prover makes the state's), and the state route
// serves that state by its root (/eth/v2/debug/beacon/states/{state_root}),
// so that what a light client verifies can be proven from. Lie makes the
// endpoints lie in the ways a light client must refuse (see Lie).
//
// # Faults
//
// Server embeds *nodeaccesstest.Server, whose FailNext makes the next
// requests fail: 429 with Retry-After, any 4xx or 5xx (with the beacon error
// body), a dropped connection, a slow body or a truncated one (the full
// Content-Length, half the body, then the connection closed):
//
//	srv.FailNext(2, nodeaccesstest.RateLimited(time.Second))
//	st, _, err := c.State(ctx, beacon.Head, beacon.StateOptions{}) // succeeds on the third attempt
//
// # Making states
//
// NewState makes a deterministic state of any fork and preset with every
// list non-empty, at any validator count up to the mainnet size; a gloas
// state also has builders, a bid with blob commitments, every gloas vector
// at the preset's length, and some uint64 values above 2^53:
//
//	st := beacontest.NewState(beacon.Fulu, beacon.MainnetPreset(), 1000, 1)
//	root, err := beacon.HashTreeRoot(st)
//	gl := beacontest.NewState(beacon.Gloas, beacon.MainnetPreset(), 1000, 1)
package beacontest
