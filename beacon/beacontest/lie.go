package beacontest

// Lie is a way the light-client endpoints lie, for testing a light
// client's checks offline: a set of the Lie constants, combined with |.
// The zero Lie tells the truth. Every lie is one a light client that
// follows the consensus specs' validate_light_client_update (and checks
// that a bootstrap is the block it asked for) refuses; what each changes is
// said at its constant.
type Lie uint16

// The lies. Each changes every light-client answer it applies to, and
// nothing else: the headers, states and events stay true.
const (
	// LieSignature: the sync committee signs another message (the signing
	// root with one bit changed): a well-formed signature that does not
	// verify.
	LieSignature Lie = 1 << iota
	// LieShortSignature: the sync aggregate's signature is 95 bytes (in
	// SSZ the whole container is one byte short).
	LieShortSignature
	// LieParticipants: no member takes part (every participation bit
	// clear) and the signature is the point at infinity, which
	// eth_fast_aggregate_verify accepts and a light client must not
	// (MIN_SYNC_COMMITTEE_PARTICIPANTS is 1).
	LieParticipants
	// LieForkVersion: the committee signs with the domain of another fork
	// version (DENEB_FORK_VERSION instead of ELECTRA_FORK_VERSION).
	LieForkVersion
	// LieFinalityBranch: the finality branch is that of another state (the
	// attested block's state at the next slot), so it proves the
	// finalized root against another root than the attested header's
	// state_root.
	LieFinalityBranch
	// LieCommitteeBranch: the next (and, in a bootstrap, the current) sync
	// committee branch is that of another state, in the same way.
	LieCommitteeBranch
	// LieBootstrap: a bootstrap is the one of another block (the asked
	// block's parent, or its child for the genesis block), true in
	// itself, but not of the asked root.
	LieBootstrap
	// LieExecutionBranch: every light-client header's execution branch is
	// that of another block body (one other field), so it does not prove
	// the execution payload header against the header's body_root.
	LieExecutionBranch
)

// SetLie makes the light-client endpoints lie as l says from now on (the
// zero Lie makes them tell the truth again).
func (s *Server) SetLie(l Lie) {
	c := s.chain
	c.mu.Lock()
	c.lie = l
	c.mu.Unlock()
}
