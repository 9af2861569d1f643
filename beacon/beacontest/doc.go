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
//	res, err := c.State(ctx, beacon.Head)
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
// # Faults
//
// Server embeds *nodeaccesstest.Server, whose FailNext makes the next
// requests fail: 429 with Retry-After, any 4xx or 5xx (with the beacon error
// body), a dropped connection, a slow body or a truncated one (the full
// Content-Length, half the body, then the connection closed):
//
//	srv.FailNext(2, nodeaccesstest.RateLimited(time.Second))
//	st, _, err := c.State(ctx, beacon.Head) // succeeds on the third attempt
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
