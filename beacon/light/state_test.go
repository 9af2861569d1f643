package light

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// verifiedStateHeader bootstraps a client from a block whose post-state
// is st (its current committee proven from st by a Prover) and returns the
// verified header.
func verifiedStateHeader(t *testing.T, st *beacon.State) Header {
	cfg := testConfig()
	p, err := beacon.NewProver(st)
	require.NoError(t, err)
	g := cfg.slotFork(st.Slot).LightClientGIndices().CurrentSyncCommittee
	pr, err := p.Prove(g)
	require.NoError(t, err)
	c := newTestChain(t, false)
	h := c.header(st.Slot, 0, nil)
	h.Beacon.StateRoot = p.StateRoot()
	b := &Bootstrap{Version: cfg.slotFork(st.Slot), Header: h, CurrentSyncCommittee: st.CurrentSyncCommittee, CurrentSyncCommitteeBranch: pr.Branch}
	root := htr(t, h.Beacon)
	s, err := cfg.bootstrap(root, b)
	require.NoError(t, err)
	lc := &Client{cfg: cfg, trusted: root, s: s}
	fin, ok := lc.Finalized()
	require.True(t, ok)
	return fin
}

// A state, a Prover made from it, or one read from its saved SSZ is taken
// only when it hashes to the verified header's state root; another state
// is refused naming both roots, and a header the client did not verify
// is refused before anything is hashed.
func TestCheckState(t *testing.T) {
	st := beacontest.NewState(beacon.Deneb, beacon.MinimalPreset(), 5, 7)
	st.Slot = 3*64 + 9 // deneb in the test chain's schedule
	h := verifiedStateHeader(t, st)

	require.NoError(t, CheckState(st, h))
	p, err := beacon.NewProver(st)
	require.NoError(t, err)
	require.NoError(t, CheckState(p, h))
	var buf bytes.Buffer
	require.NoError(t, beacon.WriteState(&buf, st, beacon.EncodingSSZ, nil))
	saved := buf.Bytes()
	rp, err := beacon.ReadProver(bytes.NewReader(saved), beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "deneb"}, bytes.NewReader(saved), beacon.ReadOptions{Preset: beacon.MinimalPreset()})
	require.NoError(t, err)
	require.NoError(t, CheckState(rp, h))

	other := beacontest.NewState(beacon.Deneb, beacon.MinimalPreset(), 5, 8)
	other.Slot = st.Slot
	otherRoot, err := beacon.HashTreeRoot(other)
	require.NoError(t, err)
	op, err := beacon.NewProver(other)
	require.NoError(t, err)
	for _, err := range []error{CheckState(other, h), CheckState(op, h)} {
		assertCheck(t, err, "state root")
		var ve *VerifyError
		require.True(t, errors.As(err, &ve))
		assert.Equal(t, h.Beacon.StateRoot, ve.Want)
		assert.Equal(t, otherRoot, ve.Got)
		assert.Contains(t, err.Error(), h.Beacon.StateRoot.Hex())
		assert.Contains(t, err.Error(), otherRoot.Hex())
	}

	handMade := h
	handMade.verified = false
	err = CheckState(st, handMade)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.NotErrorIs(t, err, nodeaccess.ErrUnverified)
	assert.ErrorIs(t, CheckState((*beacon.State)(nil), h), nodeaccess.ErrInvalidInput)
	assert.ErrorIs(t, CheckState((*beacon.Prover)(nil), h), nodeaccess.ErrInvalidInput)
}
