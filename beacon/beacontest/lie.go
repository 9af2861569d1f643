package beacontest

// Lie is how the light-client endpoints lie, for testing a light client's
// checks offline (such as package beacon/light's): set the fields of the
// lies wanted and give it to Server.Lie, as evmtest.Lie is given to its
// server. The zero Lie tells the truth. Every lie is one a light client that
// follows the consensus specs' validate_light_client_update (and checks
// that a bootstrap is the block it asked for) refuses. Each changes every
// light-client answer it applies to, and nothing else: the headers, states
// and events stay true.
type Lie struct {
	// Signature: the sync committee signs another message (the signing
	// root with one bit changed): a well-formed signature that does not
	// verify.
	Signature bool
	// ShortSignature: the sync aggregate's signature is 95 bytes (in SSZ
	// the whole container is one byte short).
	ShortSignature bool
	// Participants: no member takes part (every participation bit clear)
	// and the signature is the point at infinity, which
	// eth_fast_aggregate_verify accepts and a light client must not
	// (MIN_SYNC_COMMITTEE_PARTICIPANTS is 1).
	Participants bool
	// ForkVersion: the committee signs with the domain of another fork
	// version (DENEB_FORK_VERSION instead of ELECTRA_FORK_VERSION).
	ForkVersion bool
	// FinalityBranch: the finality branch is that of another state (the
	// attested block's state at the next slot), so it proves the
	// finalized root against another root than the attested header's
	// state_root.
	FinalityBranch bool
	// CommitteeBranch: the next (and, in a bootstrap, the current) sync
	// committee branch is that of another state, in the same way.
	CommitteeBranch bool
	// Bootstrap: a bootstrap is the one of another block (the asked
	// block's parent, or its child for the genesis block), true in itself,
	// but not of the asked root.
	Bootstrap bool
	// ExecutionBranch: every light-client header's execution branch is
	// that of another block body (one other field), so it does not prove
	// the execution payload header against the header's body_root.
	ExecutionBranch bool
}

// Lie makes the light-client endpoints lie as l says from now on, until
// Lie is called again (Lie(beacontest.Lie{}) tells the truth again).
func (s *Server) Lie(l Lie) {
	c := s.chain
	c.mu.Lock()
	c.lie = l
	c.mu.Unlock()
}
