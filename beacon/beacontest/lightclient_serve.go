package beacontest

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// The light-client routes.
const (
	lcBootstrapPattern  = "GET /beacon/{key}/eth/v1/beacon/light_client/bootstrap/{block_root}"
	lcUpdatesPattern    = "GET /beacon/{key}/eth/v1/beacon/light_client/updates"
	lcFinalityPattern   = "GET /beacon/{key}/eth/v1/beacon/light_client/finality_update"
	lcOptimisticPattern = "GET /beacon/{key}/eth/v1/beacon/light_client/optimistic_update"
	// maxLCUpdates is MAX_REQUEST_LIGHT_CLIENT_UPDATES.
	maxLCUpdates = 128
)

// lcPick is what one answer is made from, taken under the chain's lock:
// the blocks never change once made.
type lcPick struct {
	attested, signer, finalized *chainBlock
}

// lcHeader returns b's light-client header: the block header, its
// execution payload header and the branch of it in the body.
func (c *chain) lcHeader(b *chainBlock, lie Lie) lcHeaderData {
	if b == nil { // the genesis finalized header of the specs: all zero
		return lcHeaderData{ExecutionBranch: make([]beacon.Root, 4)}
	}
	br, _ := branchOf(bodyLeavesOf(b.h.Slot, b.branch, &b.lc.exec, lie.ExecutionBranch), bodyExecLeaf)
	return lcHeaderData{Beacon: b.h, Execution: b.lc.exec, ExecutionBranch: br}
}

// prove returns the proofs of gindices in b's state (in the state of the
// next slot instead when other is set: a branch for another root).
func (c *chain) prove(b *chainBlock, other bool, gs ...beacon.GIndex) ([][]beacon.Root, error) {
	st := c.keys.state(c.lcc, b.h, &b.lc)
	pr, err := beacon.NewProver(st)
	if err != nil {
		return nil, err
	}
	if pr.StateRoot() != b.h.StateRoot {
		return nil, fmt.Errorf("the state of block %s hashes to %s, its header says %s", b.root, pr.StateRoot(), b.h.StateRoot)
	}
	if other {
		st.Slot++
		if pr, err = beacon.NewProver(st); err != nil {
			return nil, err
		}
	}
	out := make([][]beacon.Root, len(gs))
	for i, g := range gs {
		p, err := pr.Prove(g)
		if err != nil {
			return nil, err
		}
		out[i] = p.Branch
	}
	return out, nil
}

func (c *chain) bootstrap(b *chainBlock, lie Lie) (*bootstrapData, error) {
	g := lcVersion.LightClientGIndices()
	br, err := c.prove(b, lie.CommitteeBranch, g.CurrentSyncCommittee)
	if err != nil {
		return nil, err
	}
	return &bootstrapData{Header: c.lcHeader(b, lie), CurrentSyncCommittee: c.keys.comm[c.lcc.period(b.h.Slot)%4].sc,
		CurrentSyncCommitteeBranch: br[0]}, nil
}

// lcCacheKey names an update: its blocks and its lies.
type lcCacheKey struct {
	attested, signer beacon.Root
	lie              Lie
}

// maxLCCache bounds the updates kept (about 30 kB each on mainnet).
const maxLCCache = 1024

// update returns the update p picks, made once and kept (the blocks never
// change): a client catching up asks for the same periods again.
func (c *chain) update(p lcPick, lie Lie) (*updateData, error) {
	key := lcCacheKey{p.attested.root, p.signer.root, lie}
	c.mu.Lock()
	u, ok := c.lcCache[key]
	c.mu.Unlock()
	if ok {
		return u, nil
	}
	u, err := c.makeUpdate(p, lie)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.lcCache) >= maxLCCache {
		clear(c.lcCache)
	}
	c.lcCache[key] = u
	c.mu.Unlock()
	return u, nil
}

func (c *chain) makeUpdate(p lcPick, lie Lie) (*updateData, error) {
	g := lcVersion.LightClientGIndices()
	br, err := c.prove(p.attested, false, g.FinalizedRoot, g.NextSyncCommittee)
	if err != nil {
		return nil, err
	}
	fin, next := br[0], br[1]
	if lie.FinalityBranch || lie.CommitteeBranch {
		other, err := c.prove(p.attested, true, g.FinalizedRoot, g.NextSyncCommittee)
		if err != nil {
			return nil, err
		}
		if lie.FinalityBranch {
			fin = other[0]
		}
		if lie.CommitteeBranch {
			next = other[1]
		}
	}
	agg, err := c.keys.sign(c.lcc, p.attested.h, p.signer.h.Slot, lie)
	if err != nil {
		return nil, err
	}
	return &updateData{
		AttestedHeader:          c.lcHeader(p.attested, lie),
		NextSyncCommittee:       c.keys.comm[(c.lcc.period(p.attested.h.Slot)+1)%4].sc,
		NextSyncCommitteeBranch: next,
		FinalizedHeader:         c.lcHeader(p.finalized, lie),
		FinalityBranch:          fin,
		SyncAggregate:           newSyncAggregate(agg),
		SignatureSlot:           p.signer.h.Slot,
	}, nil
}

// latest picks the newest update: the head block signs its parent. ok is
// false when the chain has one block.
func (c *chain) latest() (lcPick, bool) {
	n := len(c.canon)
	if n < 2 {
		return lcPick{}, false
	}
	return c.pick(n - 2), true
}

// pick is the update whose attested block is canon[i] and whose signer
// is canon[i+1].
func (c *chain) pick(i int) lcPick {
	a := c.canon[i]
	p := lcPick{attested: a, signer: c.canon[i+1]}
	if a.lc.fin.Root != (beacon.Root{}) {
		p.finalized = c.blocks[a.lc.fin.Root]
	}
	return p
}

// periodPick picks period p's update: the newest canonical block of the
// period whose child is in the period too (so one committee signs it and
// its next_sync_committee is the next period's).
func (c *chain) periodPick(p uint64) (lcPick, bool) {
	per := c.lcc.spe * c.lcc.epochsPerPeriod
	if p >= uint64(c.canon[len(c.canon)-1].h.Slot)/per+1 {
		return lcPick{}, false
	}
	end := beacon.Slot((p + 1) * per)
	i, _ := slices.BinarySearchFunc(c.canon, end, func(b *chainBlock, s beacon.Slot) int { return cmp.Compare(b.h.Slot, s) })
	if i < 2 || c.lcc.period(c.canon[i-2].h.Slot) != p {
		return lcPick{}, false
	}
	return c.pick(i - 2), true
}

// lcWrite writes one light-client answer as the request prefers: JSON
// {"version","data"} or SSZ, with Eth-Consensus-Version.
func lcWrite(w http.ResponseWriter, r *http.Request, data any, ssz func() ([]byte, error)) {
	enc, ok := negotiate(r.Header.Values("Accept"))
	if !ok {
		writeError(w, http.StatusNotAcceptable, "NOT_ACCEPTABLE: accepted media type not supported")
		return
	}
	var body []byte
	var err error
	if enc == beacon.EncodingSSZ {
		body, err = ssz()
	} else {
		body, err = json.Marshal(struct {
			Version string `json:"version"`
			Data    any    `json:"data"`
		}{lcVersion.String(), data})
	}
	writeLC(w, r, enc, body, err)
}

func writeLC(w http.ResponseWriter, r *http.Request, enc beacon.Encoding, body []byte, err error) {
	if err != nil {
		writeError(w, http.StatusInternalServerError, "INTERNAL_SERVER_ERROR: "+err.Error())
		return
	}
	h := w.Header()
	if enc == beacon.EncodingSSZ {
		h.Set("Content-Type", mediaSSZ)
	} else {
		h.Set("Content-Type", mediaJSON)
	}
	h.Set("Eth-Consensus-Version", lcVersion.String())
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Vary", "Accept")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// serveBootstrap answers GET .../light_client/bootstrap/{block_root}: 400
// for a root that does not parse, 404 for a block the server never made.
func (s *Server) serveBootstrap(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("block_root")
	var root beacon.Root
	if len(raw) != 66 || root.UnmarshalText([]byte(raw)) != nil {
		writeError(w, http.StatusBadRequest, "BAD_REQUEST: invalid block root value: "+quoteCut(raw))
		return
	}
	c := s.chain
	c.mu.Lock()
	b, ok := c.blocks[root]
	lie := c.lie
	if ok && lie.Bootstrap {
		if p, has := c.blocks[b.h.ParentRoot]; has && b.h.Slot > 0 {
			b = p
		} else if len(c.canon) > 1 {
			b = c.canon[1]
		}
	}
	c.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, "NOT_FOUND: LC bootstrap unavailable for block root "+root.String())
		return
	}
	d, err := c.bootstrap(b, lie)
	if err != nil {
		writeLC(w, r, beacon.EncodingJSON, nil, err)
		return
	}
	lcWrite(w, r, d, d.ssz)
}

// serveUpdates answers GET .../light_client/updates?start_period&count:
// the updates of the periods from start_period on (at most count and
// 128), from the first period that has one to the last of a run without a
// gap; 400 for a missing or malformed parameter, 404 when no period asked
// has an update. SSZ is a sequence of chunks: the chunk's length (8 bytes,
// little-endian, counting the 4-byte fork digest and the update), the fork
// digest, the update.
func (s *Server) serveUpdates(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	start, err1 := strconv.ParseUint(q.Get("start_period"), 10, 64)
	count, err2 := strconv.ParseUint(q.Get("count"), 10, 64)
	if err1 != nil || err2 != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("BAD_REQUEST: start_period %s and count %s must be decimal uint64 values", quoteCut(q.Get("start_period")), quoteCut(q.Get("count"))))
		return
	}
	enc, ok := negotiate(r.Header.Values("Accept"))
	if !ok {
		writeError(w, http.StatusNotAcceptable, "NOT_ACCEPTABLE: accepted media type not supported")
		return
	}
	c := s.chain
	c.mu.Lock()
	lie := c.lie
	var picks []lcPick
	for p := start; p-start < min(count, maxLCUpdates) && p >= start; p++ {
		pk, ok := c.periodPick(p)
		if !ok {
			if len(picks) > 0 {
				break
			}
			continue
		}
		picks = append(picks, pk)
	}
	c.mu.Unlock()
	if len(picks) == 0 {
		writeError(w, http.StatusNotFound, fmt.Sprintf("NOT_FOUND: no light client update for sync committee periods %d to %d", start, start+max(min(count, maxLCUpdates), 1)-1))
		return
	}
	var body []byte
	var list []json.RawMessage
	digest := forkDigest()
	for _, pk := range picks {
		d, err := c.update(pk, lie)
		if err != nil {
			writeLC(w, r, enc, nil, err)
			return
		}
		if enc == beacon.EncodingSSZ {
			b, err := d.ssz()
			if err != nil {
				writeLC(w, r, enc, nil, err)
				return
			}
			body = binary.LittleEndian.AppendUint64(body, uint64(4+len(b)))
			body = append(body, digest[:]...)
			body = append(body, b...)
			continue
		}
		b, err := json.Marshal(struct {
			Version string      `json:"version"`
			Data    *updateData `json:"data"`
		}{lcVersion.String(), d})
		if err != nil {
			writeLC(w, r, enc, nil, err)
			return
		}
		list = append(list, b)
	}
	var err error
	if enc == beacon.EncodingJSON {
		body, err = json.Marshal(list)
	}
	writeLC(w, r, enc, body, err)
}

// serveFinalityUpdate answers GET .../light_client/finality_update: the
// head block's signature of its parent, with the parent state's finalized
// header; 404 until the chain has two blocks and a finalized checkpoint.
func (s *Server) serveFinalityUpdate(w http.ResponseWriter, r *http.Request) {
	c := s.chain
	c.mu.Lock()
	pk, ok := c.latest()
	lie := c.lie
	c.mu.Unlock()
	if !ok || pk.finalized == nil {
		writeError(w, http.StatusNotFound, "NOT_FOUND: LC finality update unavailable")
		return
	}
	u, err := c.update(pk, lie)
	if err != nil {
		writeLC(w, r, beacon.EncodingJSON, nil, err)
		return
	}
	d := &finalityUpdateData{AttestedHeader: u.AttestedHeader, FinalizedHeader: u.FinalizedHeader,
		FinalityBranch: u.FinalityBranch, SyncAggregate: u.SyncAggregate, SignatureSlot: u.SignatureSlot}
	lcWrite(w, r, d, d.ssz)
}

// serveOptimisticUpdate answers GET .../light_client/optimistic_update:
// the head block's signature of its parent; 404 until the chain has two
// blocks.
func (s *Server) serveOptimisticUpdate(w http.ResponseWriter, r *http.Request) {
	c := s.chain
	c.mu.Lock()
	pk, ok := c.latest()
	lie := c.lie
	c.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, "NOT_FOUND: LC optimistic update unavailable")
		return
	}
	agg, err := c.keys.sign(c.lcc, pk.attested.h, pk.signer.h.Slot, lie)
	if err != nil {
		writeLC(w, r, beacon.EncodingJSON, nil, err)
		return
	}
	d := &optimisticUpdateData{AttestedHeader: c.lcHeader(pk.attested, lie),
		SyncAggregate: newSyncAggregate(agg), SignatureSlot: pk.signer.h.Slot}
	lcWrite(w, r, d, d.ssz)
}
