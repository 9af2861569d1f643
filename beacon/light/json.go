package light

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// The JSON decoding of the light-client containers as the beacon API
// writes them: every member of the fork's type present, no other member,
// numbers as decimal strings, roots and keys as 0x-prefixed hex of their
// exact size, a committee of exactly SYNC_COMMITTEE_SIZE keys, branches of
// exactly their form's depth.

// object decodes raw as a JSON object with exactly the members names, each
// once.
func object(raw []byte, what string, names ...string) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, encodingError("%s: not a JSON object", what)
	}
	m := make(map[string]json.RawMessage, len(names))
	for dec.More() {
		tok, err := dec.Token()
		k, ok := tok.(string)
		if err != nil || !ok {
			return nil, encodingError("%s: not a JSON object", what)
		}
		if !slices.Contains(names, k) {
			return nil, encodingError("%s: unknown member %q", what, cut(k))
		}
		if _, dup := m[k]; dup {
			return nil, encodingError("%s: %q given twice", what, k)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, encodingError("%s.%s: %v", what, k, err)
		}
		m[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, encodingError("%s: not a JSON object", what)
	}
	if dec.More() {
		return nil, encodingError("%s: data after the object", what)
	}
	for _, n := range names {
		if _, ok := m[n]; !ok {
			return nil, encodingError("%s: no %q", what, n)
		}
	}
	return m, nil
}

// cut shortens a quoted value of the input for an error.
func cut(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// value decodes raw into out (a type whose JSON decoding checks its form).
func value(raw json.RawMessage, what string, out any) error {
	if err := json.Unmarshal(raw, out); err != nil {
		return encodingError("%s: %v", what, err)
	}
	return nil
}

// uint64JSON decodes a decimal string.
func uint64JSON(raw json.RawMessage, what string) (uint64, error) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return 0, encodingError("%s: not a string", what)
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || (len(s) > 1 && s[0] == '0') {
		return 0, encodingError("%s: %q is not a decimal uint64", what, cut(s))
	}
	return n, nil
}

// branchJSON decodes an array of exactly depth roots.
func branchJSON(raw json.RawMessage, what string, depth int) ([]beacon.Root, error) {
	var b []beacon.Root
	if err := value(raw, what, &b); err != nil {
		return nil, err
	}
	if len(b) != depth {
		return nil, encodingError("%s: %d roots, want %d", what, len(b), depth)
	}
	if depth == 0 {
		return nil, nil
	}
	return b, nil
}

// blockHeaderJSON decodes a BeaconBlockHeader.
func blockHeaderJSON(raw json.RawMessage, what string) (beacon.BeaconBlockHeader, error) {
	var h beacon.BeaconBlockHeader
	m, err := object(raw, what, "slot", "proposer_index", "parent_root", "state_root", "body_root")
	if err != nil {
		return h, err
	}
	s, err := uint64JSON(m["slot"], what+".slot")
	if err != nil {
		return h, err
	}
	p, err := uint64JSON(m["proposer_index"], what+".proposer_index")
	if err != nil {
		return h, err
	}
	h.Slot, h.ProposerIndex = beacon.Slot(s), beacon.ValidatorIndex(p)
	for _, f := range []struct {
		n string
		r *beacon.Root
	}{{"parent_root", &h.ParentRoot}, {"state_root", &h.StateRoot}, {"body_root", &h.BodyRoot}} {
		if err := value(m[f.n], what+"."+f.n, f.r); err != nil {
			return h, err
		}
	}
	return h, nil
}

// executionNames are the members of Capella's execution payload header;
// Deneb's adds the blob gas fields.
var executionNames = []string{"parent_hash", "fee_recipient", "state_root", "receipts_root", "logs_bloom", "prev_randao",
	"block_number", "gas_limit", "gas_used", "timestamp", "extra_data", "base_fee_per_gas", "block_hash",
	"transactions_root", "withdrawals_root"}

// headerJSON decodes a LightClientHeader of form v.
func headerJSON(raw json.RawMessage, v beacon.Version, what string) (Header, error) {
	h := Header{form: v}
	var names []string
	switch f := headerForm(v); {
	case f == beacon.Gloas:
		names = []string{"beacon", "execution_block_hash", "execution_branch"}
	case f >= beacon.Capella:
		names = []string{"beacon", "execution", "execution_branch"}
	default:
		names = []string{"beacon"}
	}
	m, err := object(raw, what, names...)
	if err != nil {
		return h, err
	}
	if h.Beacon, err = blockHeaderJSON(m["beacon"], what+".beacon"); err != nil {
		return h, err
	}
	if len(names) == 1 {
		return h, nil
	}
	if h.ExecutionBranch, err = branchJSON(m["execution_branch"], what+".execution_branch", executionDepth(v)); err != nil {
		return h, err
	}
	if headerForm(v) == beacon.Gloas {
		return h, value(m["execution_block_hash"], what+".execution_block_hash", &h.ExecutionBlockHash)
	}
	en := executionNames
	if v >= beacon.Deneb {
		en = append(en[:len(en):len(en)], "blob_gas_used", "excess_blob_gas")
	}
	if _, err := object(m["execution"], what+".execution", en...); err != nil {
		return h, err
	}
	h.Execution = new(beacon.ExecutionPayloadHeader)
	if err := value(m["execution"], what+".execution", h.Execution); err != nil {
		return h, err
	}
	h.ExecutionBlockHash = h.Execution.BlockHash
	return h, nil
}

// committeeJSON decodes a SyncCommittee of cfg's size.
func (c *Config) committeeJSON(raw json.RawMessage, what string) (beacon.SyncCommittee, error) {
	var sc beacon.SyncCommittee
	m, err := object(raw, what, "pubkeys", "aggregate_pubkey")
	if err != nil {
		return sc, err
	}
	if n := bytes.Count(m["pubkeys"], []byte{','}) + 1; n > int(c.SyncCommitteeSize) {
		return sc, encodingError("%s.pubkeys: more than %d keys", what, c.SyncCommitteeSize)
	}
	if err := value(m["pubkeys"], what+".pubkeys", &sc.PublicKeys); err != nil {
		return sc, err
	}
	if len(sc.PublicKeys) != int(c.SyncCommitteeSize) {
		return sc, encodingError("%s.pubkeys: %d keys, want %d", what, len(sc.PublicKeys), c.SyncCommitteeSize)
	}
	return sc, value(m["aggregate_pubkey"], what+".aggregate_pubkey", &sc.AggregatePublicKey)
}

// envelope splits a versioned answer {"version": fork, "data": {...}},
// checking the version against header (the Eth-Consensus-Version, "" when
// absent).
func envelope(raw []byte, header, what string) (beacon.Version, json.RawMessage, error) {
	var env struct {
		Version *string         `json:"version"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return 0, nil, encodingError("%s: not a JSON object with version and data", what)
	}
	if env.Version == nil || env.Data == nil {
		return 0, nil, encodingError("%s: no version or no data", what)
	}
	v, err := beacon.ParseVersion(*env.Version)
	if err != nil {
		return 0, nil, encodingError("%s: version %q is not a fork this package decodes", what, cut(*env.Version))
	}
	if header != "" && !strings.EqualFold(strings.TrimSpace(header), v.String()) {
		return 0, nil, encodingError("%s: the Eth-Consensus-Version header says %q, the body %s", what, cut(header), v)
	}
	return v, env.Data, lightFork(v)
}

// decodeBootstrapJSON decodes the bootstrap endpoint's JSON answer.
func (c *Config) decodeBootstrapJSON(raw []byte, header string) (*Bootstrap, error) {
	v, data, err := envelope(raw, header, "bootstrap")
	if err != nil {
		return nil, err
	}
	m, err := object(data, "bootstrap", "header", "current_sync_committee", "current_sync_committee_branch")
	if err != nil {
		return nil, err
	}
	b := &Bootstrap{Version: v}
	if b.Header, err = headerJSON(m["header"], v, "bootstrap.header"); err != nil {
		return nil, err
	}
	if b.CurrentSyncCommittee, err = c.committeeJSON(m["current_sync_committee"], "bootstrap.current_sync_committee"); err != nil {
		return nil, err
	}
	if b.CurrentSyncCommitteeBranch, err = branchJSON(m["current_sync_committee_branch"], "bootstrap.current_sync_committee_branch", currentBranchDepth(v)); err != nil {
		return nil, err
	}
	return b, nil
}

// decodeUpdateJSON decodes one versioned update container k.
func (c *Config) decodeUpdateJSON(raw []byte, header string, k kind) (*Update, error) {
	what := k.name()
	v, data, err := envelope(raw, header, what)
	if err != nil {
		return nil, err
	}
	names := []string{"attested_header", "sync_aggregate", "signature_slot"}
	switch k {
	case kindUpdate:
		names = append(names, "next_sync_committee", "next_sync_committee_branch", "finalized_header", "finality_branch")
	case kindFinality:
		names = append(names, "finalized_header", "finality_branch")
	}
	m, err := object(data, what, names...)
	if err != nil {
		return nil, err
	}
	u := &Update{Version: v, FinalizedHeader: zeroHeader(v), FinalityBranch: make([]beacon.Root, finalityDepth(v)),
		NextSyncCommitteeBranch: make([]beacon.Root, nextBranchDepth(v))}
	if u.AttestedHeader, err = headerJSON(m["attested_header"], v, what+".attested_header"); err != nil {
		return nil, err
	}
	if k == kindUpdate {
		nc, err := c.committeeJSON(m["next_sync_committee"], what+".next_sync_committee")
		if err != nil {
			return nil, err
		}
		u.NextSyncCommittee = &nc
		if u.NextSyncCommitteeBranch, err = branchJSON(m["next_sync_committee_branch"], what+".next_sync_committee_branch", nextBranchDepth(v)); err != nil {
			return nil, err
		}
	}
	if k != kindOptimistic {
		if u.FinalizedHeader, err = headerJSON(m["finalized_header"], v, what+".finalized_header"); err != nil {
			return nil, err
		}
		if u.FinalityBranch, err = branchJSON(m["finality_branch"], what+".finality_branch", finalityDepth(v)); err != nil {
			return nil, err
		}
	}
	agg, err := object(m["sync_aggregate"], what+".sync_aggregate", "sync_committee_bits", "sync_committee_signature")
	if err != nil {
		return nil, err
	}
	bits, err := hexJSON(agg["sync_committee_bits"], what+".sync_aggregate.sync_committee_bits")
	if err != nil {
		return nil, err
	}
	if len(bits) != int(c.SyncCommitteeSize)/8 {
		return nil, encodingError("%s.sync_aggregate.sync_committee_bits: %d bytes, want %d", what, len(bits), c.SyncCommitteeSize/8)
	}
	u.SyncCommitteeBits = bits
	if err := value(agg["sync_committee_signature"], what+".sync_aggregate.sync_committee_signature", &u.SyncCommitteeSignature); err != nil {
		return nil, err
	}
	s, err := uint64JSON(m["signature_slot"], what+".signature_slot")
	u.SignatureSlot = beacon.Slot(s)
	return u, err
}

// decodeUpdatesJSON decodes the updates endpoint's JSON answer: an array of
// versioned updates, at most max of them.
func (c *Config) decodeUpdatesJSON(raw []byte, max int) ([]*Update, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, encodingError("updates: not a JSON array")
	}
	if len(items) > max {
		return nil, encodingError("updates: %d of them, more than the %d asked for", len(items), max)
	}
	out := make([]*Update, 0, len(items))
	for _, it := range items {
		u, err := c.decodeUpdateJSON(it, "", kindUpdate)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}

// hexJSON decodes a string of "0x" and an even number of hex digits.
func hexJSON(raw json.RawMessage, what string) ([]byte, error) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil, encodingError("%s: not a string", what)
	}
	if !strings.HasPrefix(s, "0x") || len(s)%2 != 0 {
		return nil, encodingError("%s: not 0x-prefixed hex of whole bytes", what)
	}
	out := make([]byte, (len(s)-2)/2)
	for i := range out {
		n, err := strconv.ParseUint(s[2+2*i:4+2*i], 16, 8)
		if err != nil {
			return nil, encodingError("%s: invalid hex digit in %q", what, cut(s))
		}
		out[i] = byte(n)
	}
	return out, nil
}
