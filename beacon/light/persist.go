package light

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// storeMagic starts a saved store.
const storeMagic = "nodeaccess light-client store v1\n"

// savedHeader is a Header in a saved store.
type savedHeader struct {
	Form      beacon.Version                 `json:"form"`
	Beacon    beacon.BeaconBlockHeader       `json:"beacon"`
	Execution *beacon.ExecutionPayloadHeader `json:"execution,omitempty"`
	BlockHash common.Hash                    `json:"execution_block_hash"`
	Branch    []beacon.Root                  `json:"execution_branch"`
}

// saved is the store as MarshalBinary writes it.
type saved struct {
	Chain      string                `json:"chain"`
	GVR        beacon.Root           `json:"genesis_validators_root"`
	Trusted    beacon.Root           `json:"trusted_block_root"`
	Finalized  savedHeader           `json:"finalized_header"`
	Optimistic savedHeader           `json:"optimistic_header"`
	Current    beacon.SyncCommittee  `json:"current_sync_committee"`
	Next       *beacon.SyncCommittee `json:"next_sync_committee"`
	PrevMax    int                   `json:"previous_max_active_participants"`
	CurMax     int                   `json:"current_max_active_participants"`
}

func toSaved(h Header) savedHeader {
	return savedHeader{Form: h.form, Beacon: h.Beacon, Execution: h.Execution, BlockHash: h.ExecutionBlockHash, Branch: h.ExecutionBranch}
}

func fromSaved(h savedHeader) Header {
	return Header{form: h.Form, Beacon: h.Beacon, Execution: h.Execution, ExecutionBlockHash: h.BlockHash, ExecutionBranch: h.Branch}
}

// MarshalBinary saves the client's store (its verified finalized and
// optimistic headers, its sync committees, its chain) so that a client
// made again with UnmarshalBinary goes on from there without bootstrapping
// again. Before the first Sync there is nothing to save: an error. The
// store's best update (the one a forced update would take) is not saved:
// a restored client asks its node for the period's best update again.
//
// The saved bytes carry a SHA-256 checksum and the chain they belong to;
// UnmarshalBinary refuses them changed. They are no signature: keep them
// where the trusted block root would be kept.
func (lc *Client) MarshalBinary() ([]byte, error) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if lc.s == nil {
		return nil, errInput("client", "nothing to save before the first Sync")
	}
	sv := saved{Chain: lc.cfg.Name, GVR: lc.cfg.GenesisValidatorsRoot, Trusted: lc.trusted,
		Finalized: toSaved(lc.s.finalized), Optimistic: toSaved(lc.s.optimistic), Current: lc.s.current.sc,
		PrevMax: lc.s.prevMax, CurMax: lc.s.curMax}
	if lc.s.next != nil {
		sv.Next = &lc.s.next.sc
	}
	body, err := json.Marshal(sv)
	if err != nil {
		return nil, err
	}
	out := append([]byte(storeMagic), body...)
	sum := sha256.Sum256(out)
	return append(append(out, '\n'), hex.EncodeToString(sum[:])...), nil
}

// UnmarshalBinary takes up a store MarshalBinary saved, replacing the
// client's. Bytes that were changed, that are not a saved store, or that
// belong to another chain (name or genesis validators root) or another
// trusted block root fail with a *VerifyError of check "saved store", and
// the client is left as it was.
func (lc *Client) UnmarshalBinary(b []byte) error {
	fail := func(format string, args ...any) error { return unverified("saved store", format, args...) }
	i := bytes.LastIndexByte(b, '\n')
	if !bytes.HasPrefix(b, []byte(storeMagic)) || i < len(storeMagic) || len(b)-i-1 != 64 {
		return fail("not a saved light-client store")
	}
	sum := sha256.Sum256(b[:i])
	if hex.EncodeToString(sum[:]) != string(b[i+1:]) {
		return fail("the checksum does not match: the store was changed")
	}
	var sv saved
	dec := json.NewDecoder(bytes.NewReader(b[len(storeMagic):i]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sv); err != nil {
		return fail("%v", err)
	}
	cfg := &lc.cfg
	switch {
	case sv.Chain != cfg.Name || sv.GVR != cfg.GenesisValidatorsRoot:
		return fail("saved for chain %q (genesis validators root %s), not %q", cut(sv.Chain), sv.GVR, cut(cfg.Name))
	case sv.Trusted != lc.trusted:
		return fail("saved from trusted block root %s, not %s", sv.Trusted, lc.trusted)
	}
	s := &store{finalized: fromSaved(sv.Finalized), optimistic: fromSaved(sv.Optimistic), prevMax: sv.PrevMax, curMax: sv.CurMax}
	for _, h := range []*Header{&s.finalized, &s.optimistic} {
		if h.form < beacon.Altair || h.form > beacon.Gloas || len(h.ExecutionBranch) != executionDepth(h.form) {
			return fail("a header of form %d with %d execution branch roots", h.form, len(h.ExecutionBranch))
		}
		if err := cfg.validHeader(h, "saved header"); err != nil {
			return fail("%v", err)
		}
	}
	if s.optimistic.Beacon.Slot < s.finalized.Beacon.Slot {
		return fail("optimistic slot %d before finalized slot %d", s.optimistic.Beacon.Slot, s.finalized.Beacon.Slot)
	}
	var err error
	if s.current, err = cfg.newCommittee(sv.Current, "current_sync_committee"); err != nil {
		return fail("%v", err)
	}
	if sv.Next != nil {
		if s.next, err = cfg.newCommittee(*sv.Next, "next_sync_committee"); err != nil {
			return fail("%v", err)
		}
	}
	lc.mu.Lock()
	lc.s = s
	lc.mu.Unlock()
	return nil
}
