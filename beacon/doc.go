// Package beacon reads the full beacon state of Ethereum's consensus layer
// through a node-access service: every fork from phase0 to gloas, as SSZ or
// JSON, decoded while it streams in, checked against its hash tree root, or
// saved to disk as it came; and proves what it holds with merkle proofs.
//
// The package has five parts, each in files of its own: the Client (the
// state calls and Get, any other GET of the beacon API), the SSZ codec and
// the JSON codec (ReadState and WriteState), the hash tree root
// (HashTreeRoot) and the proofs (Prover). All five work on one State type
// and its containers.
//
// # Fetching a state
//
// A Client is made from the node's base URL and the access key, and reads
// GET {base}/beacon/{key}/eth/v2/debug/beacon/states/{state_id};
// NewFromURL takes the endpoint as providers show it, in exactly one shape,
// https://host/beacon/<KEY> (any other path is refused: call New for a base
// URL with a path of its own):
//
//	c, err := beacon.New("https://node.example", key)
//	st, body, err := c.State(ctx, beacon.Finalized)
//	fmt.Println(st.Version, st.Slot, len(st.Validators), body.Encoding)
//
// A StateID is the API's {state_id} text: one of the constants Head,
// Genesis, Finalized, Justified, or SlotID(n), RootID(root), or ParseStateID
// of the string forms ("head", "7340032", "0x…"). Every call parses the id
// it is given, so a StateID written by hand that is not a state id fails
// before anything is sent.
//
// # Any other request
//
// Get sends any GET request of the beacon API through the same transport
// (the key in the path, retries, hooks, the budget) and decodes its JSON
// answer into a value of yours; the package's types decode the API's JSON
// of the consensus containers, so most answers need a small struct only:
//
//	var hdr struct {
//		Data struct {
//			Root   beacon.Root `json:"root"`
//			Header struct {
//				Message beacon.BeaconBlockHeader `json:"message"`
//			} `json:"header"`
//		} `json:"data"`
//	}
//	err := c.Get(ctx, &hdr, "/eth/v1/beacon/headers/head", nil)
//
// Its operation name, for errors, hooks and nodeaccess.WithCost, is the
// path; each attempt costs 1 request unit unless WithCost says otherwise.
// The state calls' operation is "getStateV2", the beacon API's operationId.
//
// # The State type
//
// One State struct carries the fields of every fork, with the consensus
// types (Slot, Epoch, Gwei, ValidatorIndex as uint64-based types; Root,
// BLSPubKey, ForkVersion as fixed-size byte arrays, Root being go-ethereum's
// common.Hash; common.Address and common.Hash in the execution payload
// header; uint256.Int for its base fee). Version says which fields belong to
// the state: the ones every fork has (Slot, Fork, Validators, Balances, the
// checkpoints, …) are read the same way whatever the fork, and a field of a
// later fork is empty in a state of an earlier one. WriteState and
// HashTreeRoot check a state first and refuse, naming the field, a field set
// that the fork does not have, a vector of the wrong length, a list over the
// preset's limit, a malformed bitfield and an SSZ encoding over 4 GiB, so
// nothing is dropped silently; they refuse nothing else, so a state that
// writes also hashes.
//
// Gloas (EIP-7732, enshrined proposer-builder separation) is read with the
// 46-field BeaconState of consensus-specs v1.7.0-beta.0, the layout that
// @lodestar/types 1.50.0 and go-eth2-client v0.30.1, two independent
// implementations, have too; the tests and the bench check bytes, roots
// and proofs against both. It is a progressive container (EIP-7495) whose
// hash tree root merkleizes the fields
// progressively and mixes in the active-fields bitvector, with progressive
// lists (EIP-7916) for the validator registry, balances, participation,
// inactivity scores, the pending lists and the builder lists. LatestBlockHash
// replaces the execution payload header, and the builder registry, builder
// payments and withdrawals, LatestExecutionPayloadBid,
// ExecutionPayloadAvailability, PayloadExpectedWithdrawals and PTCWindow
// follow the fulu fields.
//
// # Reading and writing
//
// ReadState decodes a state from any io.Reader while it streams, and
// WriteState writes one to any io.Writer through a bounded buffer, in SSZ or
// in the beacon API's JSON. A Body says what a body is: its Encoding, its
// Fork (which SSZ needs, since nothing in it names its fork) and its size.
// The Client's calls return one, so a body saved by DownloadState is read
// back with the Body that came with it:
//
//	f, err := os.Create("state.ssz")
//	d, err := c.DownloadState(ctx, beacon.Finalized, f)
//	// … keep d (a Body) with the file …
//	_, err = f.Seek(0, io.SeekStart)
//	st, _, err := beacon.ReadState(f, d)
//
// and any other source with a Body written out, such as
// beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "fulu"}. A *bytes.Buffer
// is decoded in place, its validators on all cores.
//
// DownloadState never seeks, truncates or rewrites the writer on its own: a
// body that breaks off after its first byte ends the call, unless
// WithRestart says how to start the writer again (truncate the file), in
// which case it is fetched again while attempts remain.
//
// # Verifying
//
// A state asked for by its root is verified: State computes the decoded
// state's hash tree root and fails with an error matching ErrIntegrity
// when it is not the root asked for, so a state that State returns for
// RootID(r) is the state whose root is r. For a root learnt elsewhere (a
// checkpoint sync provider, a block's state_root), compare it with
// HashTreeRoot yourself:
//
//	st, _, err := c.State(ctx, beacon.RootID(root)) // verified
//	got, err := beacon.HashTreeRoot(st)             // any state, any root
//
// HashTreeRoot hashes 16 blocks at a time with AVX-512 where the CPU has it
// and spreads the big lists over GOMAXPROCS goroutines; the result does not
// depend on how the work is split.
//
// # Proofs
//
// NewProver prepares merkle proofs of a state's contents (every fork)
// against its root with one hash of the state (the same hasher as
// HashTreeRoot, about the same time), and keeps each list's and vector's
// tree from one node per 16 chunks up: a few percent of the state's memory.
// Each further proof rebuilds at most 16 chunks and the small containers on
// its path. GIndexOf names any node by its path, as the specs'
// get_generalized_index does (field names, list indices, "__len__"), and
// Prove proves it; a Proof carries the leaf, the branch (bottom-up) and the
// generalized index, and Proof.Verify is the specs' is_valid_merkle_branch,
// needing nothing but the proof and the root. ToBlockRoot extends a proof
// through the latest block header's state_root up to the block root
// (Prover.BlockRoot, the root EIP-4788 serves on the execution layer):
//
//	p, err := beacon.NewProver(st)
//	g, err := p.GIndexOf("validators", i, "withdrawal_credentials")
//	pr, err := p.Prove(g)
//	pr, err = p.ToBlockRoot(pr)
//	root, err := p.BlockRoot()
//	ok := pr.Verify(root)
//
// Balances, participation flags and inactivity scores are packed several
// to a 32-byte chunk: their path names the chunk (validator i's balance is
// the i%4th little-endian uint64 of the leaf). In a gloas state the state,
// the bid and the progressive lists have progressive generalized indices
// (EIP-7916, EIP-7495), which GIndexOf computes. The state must not change
// while its Prover is in use: each method refuses, with a
// *nodeaccess.InputError, a state whose version, preset or list lengths are
// no longer those NewProver prepared.
//
// Older blocks and states are proven through the state's history:
// ProveBlockRoot and ProveStateRoot prove the root of any earlier slot
// against the state root, those of the last SLOTS_PER_HISTORICAL_ROOT slots
// (8192 on mainnet) from block_roots and state_roots, older ones from the
// period's HistoricalBatch (the block_roots and state_roots of the state at
// the end of the period, which the caller fetches) and the period's entry
// of historical_summaries (or, before Capella, historical_roots):
//
//	end, _, err := c.State(ctx, beacon.SlotID((slot/8192+1)*8192))
//	pr, err := p.ProveBlockRoot(slot, &beacon.HistoricalBatch{BlockRoots: end.BlockRoots})
//	pr, err = p.ToBlockRoot(pr) // on to the block root EIP-4788 serves
//
// Version.LightClientGIndices returns the generalized indices the
// light-client sync protocol proves (the finalized root, the sync
// committees, the execution payload or block hash of the body) for a fork.
//
// # Without holding the state
//
// OpenState reads a saved SSZ state in place, from any io.ReaderAt (the
// file DownloadState wrote, a memory map, an object store): opening reads
// the offsets of the variable-size fields only, and a StateReader's
// Validators, Balances, Len and Fields each read and decode only their own
// bytes (a validator is 121 of them), for every fork and both presets.
// ReadProver builds a Prover while the state streams in (a download, a
// file, any reader), without keeping the decoded state: only the upper
// levels of its lists' trees stay in memory, and a proof reads what it
// needs below them back from the saved file. WithProver makes
// DownloadState build it from the body it saves, in the same pass:
//
//	var p beacon.Prover
//	d, err := c.DownloadState(ctx, beacon.Finalized, f, beacon.WithProver(&p))
//	sr, err := beacon.OpenState(f, d)
//	v, err := sr.Validators(i, i+1)
//	g, err := p.GIndexOf("validators", i)
//	pr, err := p.Prove(g)
//
// # Containers
//
// The state's containers (Validator, Checkpoint, Fork, BeaconBlockHeader,
// Eth1Data, ExecutionPayloadHeader, SyncCommittee, the pending lists'
// elements, and gloas's Builder, BuilderPendingPayment,
// BuilderPendingWithdrawal, Withdrawal and ExecutionPayloadBid) hash with
// HashTreeRoot and marshal with encoding/json to the beacon API's JSON, byte
// for byte as a state's JSON has them: json.Marshal(st.FinalizedCheckpoint)
// gives {"epoch":"…","root":"0x…"}. Root, BLSPubKey, BLSSignature,
// ForkVersion and Bitlist marshal as 0x-hex text, and the byte arrays print
// as such with %v and %s (%x still prints the bare bytes); their
// UnmarshalText reads that form strictly (0x, exact length) and names a
// bad value in the error.
//
// # SSZ or JSON
//
// By default the client asks for SSZ and accepts JSON
// (Accept: application/octet-stream;q=1,application/json;q=0.9); WithEncoding
// forces one. Whatever was asked, the response's Content-Type chooses the
// decoder, so a node that answers JSON to a request for SSZ still works. The
// fork comes from the Eth-Consensus-Version header, which an SSZ body needs;
// a JSON body's own "version" must agree with it. SSZ is about a third of
// the size of JSON and decodes faster. Only JSON responses carry the
// execution_optimistic and finalized flags (Body.Flags, nil for SSZ): ask
// for JSON when you need them.
//
// States are decoded with the mainnet preset (mainnet, Sepolia, Holesky,
// Hoodi); WithPreset(MinimalPreset()) reads devnets and the spec's test
// vectors, and a Preset given to one read (c.State(ctx, id,
// beacon.MinimalPreset()), ReadState(r, b, beacon.MinimalPreset())) decodes
// that read with it. A fork this package does not decode yet (heze) fails
// with an error matching ErrUnsupportedVersion that names it; DownloadState
// still saves such a state.
//
// # Timeouts, caps, progress
//
// A mainnet state takes minutes to download, so the state calls do not use
// the nodeaccess defaults for ordinary calls: each attempt may take 15
// minutes and the body may be up to 4 GiB. nodeaccess.WithTimeout and
// nodeaccess.WithMaxResponseBytes replace both for a client; the context
// bounds a call as a whole. WithProgress reports the bytes read (every MiB
// and at the end) with the total from Content-Length, or from ReadState's
// Body or reader (-1 when unknown). Retries are those of the nodeaccess
// package (429, 502, 503, 504, connection failures, a body that breaks off),
// and a retried State decodes from the start again.
//
// # Options
//
// Options given to New (nodeaccess options, shared with every chain
// package, and beacon's own WithEncoding and WithPreset) configure the
// client once. A ReadOption belongs to one read instead, a Client call or
// ReadState: WithProgress, WithoutVerify, WithRestart, and a Preset itself.
//
// # Memory
//
// Nothing reads a state's body into one buffer first: State decodes it while
// it arrives, so a call holds the decoded state (about the SSZ size; the
// validators are most of it) and the decoder's working space, not the body
// besides it. A Content-Length is a claim: it checks the offsets, but no
// list is allocated for it before its bytes arrive; the big lists grow by
// doubling as they come (a peak of about twice the SSZ size), so a node
// that announces more than it sends costs no more than a small multiple of
// what it sent. A file or an in-memory reader given to ReadState tells its
// size, and the lists are then allocated once, exactly (DownloadState to a
// file, then ReadState, peaks at the decoded state's size). DownloadState
// holds a 256 KiB buffer whatever the size.
//
// # Errors
//
// Every error an operation returns is a *nodeaccess.OpError ("beacon:
// getStateV2: …"); a constructor's is a plain error over an
// *nodeaccess.InputError. An error response is a *nodeaccess.HTTPError
// whose Message and Code are the node's, from its {"code","message"} body
// (the text shows the code where it is not the status); it
// matches what its status matches (nodeaccess.ErrNotFound for a state that
// is not there, the error naming the state id; ErrRateLimited,
// ErrUnavailable, …), and ErrDebugDisabled as well when the node does not
// serve the /eth/v2/debug routes at all (405, 501, or a bare 404): test
// ErrDebugDisabled first. A body that is not a valid state matches both
// nodeaccess.ErrInvalidResponse and ErrInvalidState, with a *DecodeError
// that names the field and the byte; a state of a fork this package does
// not decode matches both nodeaccess.ErrInvalidResponse (an answer it
// cannot read) and ErrUnsupportedVersion. The access key never appears in an
// error, a hook or a log record.
package beacon
