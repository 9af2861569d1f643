// Package beacon reads the full beacon state of Ethereum's consensus layer
// through a node-access service: every fork from phase0 to gloas, as SSZ or
// JSON, decoded while it streams in, checked against its hash tree root, or
// saved to disk as it came.
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
//	res, err := c.State(ctx, beacon.Finalized)
//	fmt.Println(res.Version, res.State.Slot, len(res.State.Validators))
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
//	err := c.Get(ctx, "/eth/v1/beacon/headers/head", nil, &hdr)
//
// Its operation name, for errors, hooks and nodeaccess.WithCost, is the
// path; each attempt costs 1 request unit unless WithCost says otherwise.
//
// # The State type
//
// One State struct carries the fields of every fork, with the consensus
// types (Slot, Epoch, Gwei, ValidatorIndex as uint64-based types; Root,
// BLSPubKey, ForkVersion as fixed-size byte arrays; common.Address and
// common.Hash in the execution payload header; uint256.Int for its base
// fee). Version says which fields belong to the state: the ones every fork
// has (Slot, Fork, Validators, Balances, the checkpoints, …) are read the
// same way whatever the fork, and a field of a later fork is empty in a
// state of an earlier one. Validate, which the encoders and HashTreeRoot
// call first, refuses a field set that the fork does not have, a vector of
// the wrong length, a list over the preset's limit, a malformed bitfield
// and an SSZ encoding over 4 GiB, so nothing is dropped silently when a
// state is encoded; they refuse nothing else, so a state that passes
// Validate encodes and hashes.
//
// The codecs work without a client too: DecodeSSZ and DecodeJSON read any
// io.Reader while it streams (UnmarshalSSZ a byte slice), EncodeSSZ,
// EncodeJSON and EncodeJSONResponse write to any io.Writer through a
// bounded buffer, and HashTreeRoot computes the SSZ hash_tree_root, hashing
// 16 blocks at a time with AVX-512 where the CPU has it and spreading the
// big lists over GOMAXPROCS goroutines. Decoding a mainnet-size state
// (2.15 million validators) takes about 0.06 s from SSZ in memory and about
// 0.7 s from a JSON stream on two cores; hashing it about 0.4-0.5 s (see the
// repository's bench/README.md for the measurements).
//
// # Verifying
//
// A state asked for by its root is verified: State computes the decoded
// state's hash tree root and fails with an error matching ErrIntegrity
// when it is not the root asked for, so a state that State returns for
// RootID(r) is the state whose root is r. For a root learnt elsewhere (a
// checkpoint sync provider, a block's state_root), compare it with
// State.HashTreeRoot yourself:
//
//	res, err := c.State(ctx, beacon.RootID(root)) // verified
//	got, err := res.State.HashTreeRoot()          // any state, any root
//
// # Proofs
//
// NewProver prepares merkle proofs of a state's contents (every fork) against its root
// with one hash of the state (the same hasher as HashTreeRoot, about the
// same time) and keeps each list's and vector's tree from one node per 16
// chunks up: ~14 MB beside a mainnet state of ~317 MB. Each further proof
// takes well under a millisecond (25 to 315 µs measured on a mainnet-size
// state on a busy 2-core machine; see bench/README.md). A Proof carries the leaf, the branch
// (bottom-up) and the generalized index (GIndex); Proof.Verify is the
// specs' is_valid_merkle_branch (IsValidMerkleBranch) and needs nothing
// but the proof and the root. Named helpers prove what restaking, bridges
// and light clients prove: ProveValidator, ProveValidatorField (by
// ValidatorField constant or ParseValidatorField), ProveBalance (the chunk
// of four balances and the position in it), ProveField (any top-level
// field by its specs' name), ProveLatestBlockHeader, and Prove for any
// generalized index, which GIndexOf computes from a path as the specs'
// get_generalized_index does (GIndexOf("pending_deposits", 0, "amount")).
// In a gloas state the state, the bid and the progressive lists have
// progressive gindices (EIP-7916, EIP-7495): the chunks 0 | 1-4 | 5-20 | …
// sit in subtrees of 1, 4, 16, … leaves chained to the right, below the
// node's left child (validator 0 is 1432, validator 3 is 11466; the
// helpers and GIndexOf compute them). ToBlockRoot extends a proof through the latest block
// header's state_root up to the block root (State.LatestBlockRoot, the
// root EIP-4788 serves on the execution layer). The state must not change
// while its Prover is in use: each method refuses, with a
// *nodeaccess.InputError, a state whose version, preset or list lengths
// are no longer those NewProver prepared.
//
//	p, err := beacon.NewProver(st)
//	pr, err := p.ProveValidatorField(i, beacon.ValidatorWithdrawalCredentials)
//	pr, err = p.ToBlockRoot(pr)
//	ok := pr.Verify(blockRoot)
//
// # Components
//
// The state's containers (Validator, Checkpoint, Fork, BeaconBlockHeader,
// Eth1Data, ExecutionPayloadHeader, SyncCommittee, the pending lists'
// elements, and gloas's Builder, BuilderPendingPayment,
// BuilderPendingWithdrawal, Withdrawal and ExecutionPayloadBid, whose root
// is progressive as the specs make it) have HashTreeRoot, and marshal with encoding/json to the
// beacon API's JSON, byte for byte as a state's JSON has them:
// json.Marshal(st.FinalizedCheckpoint) gives {"epoch":"…","root":"0x…"}.
// Root, BLSPubKey, BLSSignature, ForkVersion and Bitlist marshal as 0x-hex
// text and print as such with %v and %s (%x still prints the bare bytes);
// ParseRoot, ParseBLSPubKey, ParseBLSSignature and ParseForkVersion read
// that form strictly (0x, exact length) and name a bad value in the error.
//
// # SSZ or JSON
//
// By default the client asks for SSZ and accepts JSON
// (Accept: application/octet-stream;q=1,application/json;q=0.9); WithEncoding
// forces one. Whatever was asked, the response's Content-Type chooses the
// decoder, so a node that answers JSON to a request for SSZ still works. The
// fork comes from the Eth-Consensus-Version header, which an SSZ body needs
// (nothing else names its fork); a JSON body's own "version" must agree with
// it. SSZ is about a third of the size (~300 MB for mainnet in 2026, against
// ~900 MB of JSON) and decodes faster. Only JSON responses carry the
// execution_optimistic and finalized flags (StateResponse.Flags, nil for
// SSZ): ask for JSON when you need them.
//
// States are decoded with the mainnet preset (mainnet, Sepolia, Holesky,
// Hoodi); WithPreset(MinimalPreset()) reads devnets and the spec's test
// vectors, and a Preset given to one read (c.State(ctx, id,
// beacon.MinimalPreset()), DecodeSSZ(r, v, beacon.MinimalPreset())) decodes
// that read with it. A fork this package does not decode yet (heze) fails with an
// error matching ErrUnsupportedVersion that names it; DownloadState still
// saves such a state.
//
// # Gloas
//
// Gloas (EIP-7732, enshrined proposer-builder separation; on Sepolia since
// epoch 353024, 2026-10-06) is read as the consensus-specs release
// GloasSpec defines its BeaconState. The state is a progressive container
// (EIP-7495): its hash tree root merkleizes the fields progressively and
// mixes in the active-fields bitvector. The validator registry, balances,
// participation, inactivity scores, the pending lists and the new builder
// lists are progressive lists (EIP-7916), hashed in subtrees of 1, 4, 16,
// 64, … leaves; that rule applies to any progressive list, whatever the
// fork. LatestBlockHash replaces the execution payload header (which a
// gloas state does not have), and Builders, NextWithdrawalBuilderIndex,
// ExecutionPayloadAvailability, BuilderPendingPayments,
// BuilderPendingWithdrawals, LatestExecutionPayloadBid,
// PayloadExpectedWithdrawals and PTCWindow follow the fulu fields. The
// layout was checked against Lodestar (@lodestar/types 1.50.0) on random
// states of both presets, SSZ, JSON and root.
//
// # Saving and reading back
//
// DownloadState writes the body to an io.Writer as it arrives, undecoded,
// and reports its fork and encoding; ReadState (or DecodeSSZ and DecodeJSON)
// decodes the file later, from any io.Reader:
//
//	f, err := os.Create("state.ssz")
//	d, err := c.DownloadState(ctx, beacon.Finalized, f)
//	// … keep d.Fork and d.Encoding with the file …
//	_, err = f.Seek(0, io.SeekStart)
//	v, err := d.Version() // d.Fork, typed
//	st, _, err := beacon.ReadState(f, d.Encoding, v)
//
// DownloadState never seeks, truncates or rewrites the writer on its own: a
// body that breaks off after its first byte ends the call, unless
// WithRestart says how to start the writer again (truncate the file), in
// which case it is fetched again while attempts remain; see DownloadState.
//
// # Timeouts, caps, progress
//
// A mainnet state takes minutes to download, so the state calls do not use
// the nodeaccess defaults for ordinary calls: each attempt may take
// DefaultStateTimeout (15 minutes) and the body may be up to
// DefaultMaxStateBytes (4 GiB). nodeaccess.WithTimeout and
// nodeaccess.WithMaxResponseBytes replace both for a client; the context
// bounds a call as a whole. WithProgress reports the bytes read (every MiB
// and at the end) with the total from Content-Length (-1 when unknown).
// WithProgress reports a decoder's reads in the same way, with the total
// from its SizeHint (or from the reader, for DecodeSSZ).
// Retries are those of the nodeaccess package (429, 502, 503, 504,
// connection failures, a body that breaks off), and a retried State decodes
// from the start again.
//
// # Options
//
// The package has two kinds of option, and no more. Options given to New
// (nodeaccess options, shared with every chain package, and beacon's own
// WithEncoding and WithPreset, the network's preset) configure the client
// once: its HTTP stack, retries and timeouts, the encoding it asks for. A
// ReadOption belongs to one read instead, a Client call (State,
// DownloadState) or a decoder (DecodeSSZ, UnmarshalSSZ, DecodeJSON,
// ReadState), which has no client to configure: WithProgress, WithoutVerify,
// SizeHint, AssumeVersion, and a Preset itself. Per-read settings differ
// from read to read (a progress bar for this download, the size of this
// file, the fork of this bare JSON), so they are not client options; and one
// kind serves calls and decoders alike, so that the same WithProgress or
// Preset works on both.
//
// # Memory
//
// Nothing reads the body into one buffer first: State decodes it while it
// arrives, so a call holds the decoded state (about the SSZ size, ~300 MB for
// mainnet; the validators are most of it) and the decoder's working space
// (see DecodeSSZ and DecodeJSON), not the body besides it; the Content-Length
// is passed to the decoder as a SizeHint so that it sizes the big lists
// once (a list is given at most 1 GiB before its bytes arrive, so a node
// that announces more and stalls costs no more). DownloadState holds a
// 256 KiB buffer whatever the size.
//
// # Errors
//
// Every error an operation returns is a *nodeaccess.OpError ("beacon:
// getStateV2: …"); a constructor's is a plain error over an
// *nodeaccess.InputError. An error response is a *nodeaccess.HTTPError
// whose Message is the node's message from its {"code","message"} body; it
// matches what its status matches (nodeaccess.ErrNotFound for a state that
// is not there, the error naming the state id; ErrRateLimited,
// ErrUnavailable, …), and ErrDebugDisabled as well when the node does not
// serve the /eth/v2/debug routes at all (405, 501, or a bare 404): test
// ErrDebugDisabled first. A body
// that is not a valid state matches both nodeaccess.ErrInvalidResponse and
// ErrInvalidState, with a *DecodeError that names the field and the byte;
// a state of a fork this package does not decode matches both
// nodeaccess.ErrInvalidResponse (an answer it cannot read) and
// ErrUnsupportedVersion.
// The access key never appears in an error, a hook or a log record.
package beacon
