package light

import (
	"math/bits"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/internal/bls"
	"github.com/nodeaccess/nodeaccess/beacon/internal/bridge"
	"github.com/nodeaccess/nodeaccess/beacon/internal/merkle"
)

// The checks of the consensus specs' light-client sync protocol
// (altair/light-client/sync-protocol.md and the later forks' changes to
// it), each failing with a *VerifyError that names it.

// branchRoot returns the root that leaf and branch lead to at the
// generalized index g (is_valid_normalized_merkle_branch: entries beyond
// the index's depth come first and must be zero), and whether the extra
// entries are zero and the branch is long enough.
func branchRoot(leaf beacon.Root, branch []beacon.Root, g beacon.GIndex) (beacon.Root, bool) {
	depth := depthOf(g)
	extra := len(branch) - depth
	if extra < 0 {
		return beacon.Root{}, false
	}
	for _, r := range branch[:extra] {
		if r != (beacon.Root{}) {
			return beacon.Root{}, false
		}
	}
	node := leaf
	for i, sib := range branch[extra:] {
		if uint64(g)>>i&1 == 1 {
			node = merkle.HashPair(&sib, &node)
		} else {
			node = merkle.HashPair(&node, &sib)
		}
	}
	return node, true
}

// checkBranch verifies branch under root as the check named check.
func checkBranch(check string, leaf beacon.Root, branch []beacon.Root, g beacon.GIndex, root beacon.Root) error {
	got, ok := branchRoot(leaf, branch, g)
	if !ok {
		return unverified(check, "a branch of %d roots for generalized index %d (depth %d), or one whose extra roots are not zero", len(branch), g, depthOf(g))
	}
	if got != root || !(beacon.Proof{Leaf: leaf, Branch: branch[len(branch)-depthOf(g):], GIndex: g}).Verify(root) {
		return mismatch(check, root, got, "the branch for generalized index %d leads to another root", g)
	}
	return nil
}

// allZero reports whether every root of b is zero.
func allZero(b []beacon.Root) bool {
	for _, r := range b {
		if r != (beacon.Root{}) {
			return false
		}
	}
	return true
}

// isZeroHeader reports whether h is LightClientHeader() of its form.
func isZeroHeader(h *Header) bool {
	return h.Beacon == (beacon.BeaconBlockHeader{}) && h.ExecutionBlockHash == (beacon.Root{}) && allZero(h.ExecutionBranch) &&
		(h.Execution == nil || zeroExecution(h.Execution))
}

// zeroExecution reports whether e is ExecutionPayloadHeader().
func zeroExecution(e *beacon.ExecutionPayloadHeader) bool {
	var zr beacon.Root
	return len(e.ExtraData) == 0 && e.ParentHash == zr && e.FeeRecipient == [20]byte{} && e.StateRoot == zr &&
		e.ReceiptsRoot == zr && e.LogsBloom == [256]byte{} && e.PrevRandao == zr && e.BlockNumber == 0 &&
		e.GasLimit == 0 && e.GasUsed == 0 && e.Timestamp == 0 && e.BaseFeePerGas.IsZero() && e.BlockHash == zr &&
		e.TransactionsRoot == zr && e.WithdrawalsRoot == zr && e.BlobGasUsed == 0 && e.ExcessBlobGas == 0
}

// validHeader is is_valid_light_client_header: the execution data the
// header carries is the one its body root commits to, in the form of its
// slot's fork.
func (c *Config) validHeader(h *Header, what string) error {
	f := c.slotFork(h.Beacon.Slot)
	if headerForm(f) > headerForm(h.form) {
		return unverified("header", "%s: slot %d is in %s, which a %s header cannot carry", what, h.Beacon.Slot, f, h.form)
	}
	body := h.Beacon.BodyRoot
	switch {
	case f < beacon.Capella:
		if h.ExecutionBlockHash != (beacon.Root{}) || !allZero(h.ExecutionBranch) || (h.Execution != nil && !zeroExecution(h.Execution)) {
			return unverified("header", "%s: execution data at slot %d, before capella", what, h.Beacon.Slot)
		}
		return nil
	case headerForm(h.form) == beacon.Gloas:
		var g beacon.GIndex
		switch {
		case f >= beacon.Gloas:
			g = beacon.Gloas.LightClientGIndices().ExecutionBlockHash
		case f >= beacon.Deneb:
			g = beacon.Deneb.LightClientGIndices().ExecutionBlockHash
		default:
			g = beacon.Capella.LightClientGIndices().ExecutionBlockHash
		}
		return wrapWhat(checkBranch("header", h.ExecutionBlockHash, h.ExecutionBranch, g, body), what)
	}
	e := h.Execution
	layout := beacon.Deneb
	if f < beacon.Deneb {
		if e.BlobGasUsed != 0 || e.ExcessBlobGas != 0 {
			return unverified("header", "%s: blob gas at slot %d, before deneb", what, h.Beacon.Slot)
		}
		layout = beacon.Capella
	}
	if len(e.ExtraData) > 32 {
		return unverified("header", "%s: extra_data of %d bytes", what, len(e.ExtraData))
	}
	root := beacon.Root(bridge.PayloadHeaderRoot(e, uint8(layout)))
	return wrapWhat(checkBranch("header", root, h.ExecutionBranch, beacon.Capella.LightClientGIndices().ExecutionPayload, body), what)
}

// wrapWhat prefixes a VerifyError's detail with what.
func wrapWhat(err error, what string) error {
	if ve, ok := err.(*VerifyError); ok {
		ve.Detail = what + ": " + ve.Detail
	}
	return err
}

// committee is a sync committee with its root and its decoded keys.
type committee struct {
	sc   beacon.SyncCommittee
	root beacon.Root
	keys *bls.Keys
}

// newCommittee hashes sc and decodes its keys once.
func (c *Config) newCommittee(sc beacon.SyncCommittee, what string) (*committee, error) {
	if len(sc.PublicKeys) != int(c.SyncCommitteeSize) {
		return nil, encodingError("%s: %d keys, want %d", what, len(sc.PublicKeys), c.SyncCommitteeSize)
	}
	root, err := committeeRoot(&sc)
	if err != nil {
		return nil, encodingError("%s: %v", what, err)
	}
	raw := make([][bls.PublicKeySize]byte, len(sc.PublicKeys))
	for i := range sc.PublicKeys {
		raw[i] = sc.PublicKeys[i]
	}
	return &committee{sc: sc, root: root, keys: bls.NewKeys(raw)}, nil
}

// committeeRoot is hash_tree_root(SyncCommittee) of any size beacon
// hashes (its presets' 512 and 32).
func committeeRoot(sc *beacon.SyncCommittee) (beacon.Root, error) {
	return beacon.HashTreeRoot(*sc)
}

// participants counts the set bits.
func participants(b []byte) int {
	n := 0
	for _, x := range b {
		n += bits.OnesCount8(x)
	}
	return n
}

// signingRootOf returns the root the sync committee signs for u: the
// attested header's root in the domain of the fork of signature_slot - 1.
func (c *Config) signingRootOf(u *Update) [32]byte {
	fs := u.SignatureSlot
	if fs > 0 {
		fs--
	}
	ver := c.ForkVersions[c.slotFork(fs)]
	hr, _ := beacon.HashTreeRoot(u.AttestedHeader.Beacon)
	return c.signingRoot(hr, ver)
}
