package beacontest

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/beacon"
)

// The routes of the chain of block headers.
const (
	headersPattern  = "GET /beacon/{key}/eth/v1/beacon/headers/{block_id}"
	finalityPattern = "GET /beacon/{key}/eth/v1/beacon/states/{state_id}/finality_checkpoints"
)

// chainBlock is a block of the chain: its header and root.
type chainBlock struct {
	h      beacon.BeaconBlockHeader
	root   beacon.Root
	branch uint64  // the branch Reorg made it on
	lc     lcBlock // its execution payload header and finalized checkpoint
}

// chain is the chain of block headers a Server serves, apart from its
// states. It is safe for concurrent use.
type chain struct {
	mu      sync.Mutex
	blocks  map[beacon.Root]*chainBlock // every block made, the replaced ones too
	canon   []*chainBlock               // the canonical chain, genesis first
	slot    beacon.Slot                 // the current slot: the head block's or later
	fin     beacon.Checkpoint           // the finalized checkpoint (zero before Finalize)
	finIdx  int                         // canon index of its block
	branch  uint64                      // counts the branches Reorg made
	spe     uint64                      // slots per epoch
	lcc     lcConfig                    // the light-client preset (lightclient.go)
	keys    *lcKeys                     // its keys, committees and state template
	lie     Lie                         // how the light-client endpoints lie
	lcCache map[lcCacheKey]*updateData  // the updates made (lightclient_serve.go)
	subs    map[chan event]bool         // the event stream's listeners (events.go)
	closed  chan struct{}               // closed by Server.Close: the streams end
	once    sync.Once
	// execution gives the blocks' execution payload headers (WithExecution).
	execution func(beacon.Slot) *beacon.ExecutionPayloadHeader
}

func newChain(p beacon.Preset, execution func(beacon.Slot) *beacon.ExecutionPayloadHeader) (*chain, error) {
	lcc := newLCConfig(p)
	keys, err := lcc.pool()
	if err != nil {
		return nil, err
	}
	c := &chain{blocks: make(map[beacon.Root]*chainBlock), spe: lcc.spe, lcc: lcc, keys: keys, lcCache: map[lcCacheKey]*updateData{}, closed: make(chan struct{}), execution: execution}
	c.add(0)
	return c, nil
}

// filler is a made-up root of the chain: what a header commits to of a
// body the server does not hold.
func filler(kind string, slot beacon.Slot, branch uint64) beacon.Root {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(slot))
	binary.LittleEndian.PutUint64(b[8:], branch)
	return sha256.Sum256(append([]byte(kind), b[:]...))
}

// add appends a block at slot to the canonical chain, on the current
// branch. c.mu is held.
func (c *chain) add(slot beacon.Slot) {
	h := beacon.BeaconBlockHeader{
		Slot:          slot,
		ProposerIndex: beacon.ValidatorIndex((uint64(slot)*7919 + c.branch) % uint64(len(c.keys.pks))),
	}
	var parentExec common.Hash
	if n := len(c.canon); n > 0 {
		h.ParentRoot = c.canon[n-1].root
		parentExec = c.canon[n-1].lc.exec.BlockHash
	}
	exec := execHeader(slot, c.branch, parentExec)
	if c.execution != nil {
		if e := c.execution(slot); e != nil {
			exec = *e
		}
	}
	b := &chainBlock{h: h, branch: c.branch, lc: lcBlock{exec: exec, fin: c.fin}}
	_, b.h.BodyRoot = branchOf(bodyLeavesOf(slot, c.branch, &b.lc.exec, false), bodyExecLeaf)
	b.h.StateRoot = c.keys.stateRoot(c.lcc, b.h, &b.lc)
	root, _ := beacon.HashTreeRoot(b.h) // a header always has a root
	b.root = root
	c.blocks[root] = b
	c.canon = append(c.canon, b)
}

// Advance moves the chain's current slot on by slots slots, with a block in
// each of them but the slots listed in empty, as a chain's proposers do;
// each block's parent_root is the root of the block before it. It fails,
// changing nothing, for slots below 1 or an empty slot outside the new
// slots.
func (s *Server) Advance(slots int, empty ...beacon.Slot) error {
	c := s.chain
	c.mu.Lock()
	defer c.mu.Unlock()
	if slots < 1 {
		return fmt.Errorf("beacontest: Advance: %d slots (want 1 or more)", slots)
	}
	for _, e := range empty {
		if e <= c.slot || e > c.slot+beacon.Slot(slots) {
			return fmt.Errorf("beacontest: Advance: empty slot %d is not one of slots %d to %d", e, c.slot+1, c.slot+beacon.Slot(slots))
		}
	}
	added := false
	for range slots {
		c.slot++
		if !slices.Contains(empty, c.slot) {
			c.add(c.slot)
			added = true
		}
	}
	if added {
		c.publishHead()
	}
	return nil
}

// Reorg replaces the newest depth blocks of the chain with as many new
// blocks at the same slots, of a new branch (other roots), as a
// reorganisation does: the replaced blocks are still served by root, with
// canonical false. It fails, changing nothing, for a depth below 1 or one
// that would replace the finalized block (or the genesis block).
func (s *Server) Reorg(depth int) error {
	c := s.chain
	c.mu.Lock()
	defer c.mu.Unlock()
	if depth < 1 || depth > len(c.canon)-1-c.finIdx {
		return fmt.Errorf("beacontest: Reorg: depth %d: want 1 to %d, the blocks after the finalized one", depth, len(c.canon)-1-c.finIdx)
	}
	old := slices.Clone(c.canon[len(c.canon)-depth:])
	c.canon = c.canon[:len(c.canon)-depth]
	c.branch++
	for _, b := range old {
		c.add(b.h.Slot)
	}
	top := c.canon[len(c.canon)-1]
	c.publish("chain_reorg", fmt.Sprintf(`{"slot":"%d","depth":"%d","old_head_block":"%s","new_head_block":"%s","old_head_state":"%s","new_head_state":"%s","epoch":"%d","execution_optimistic":false}`,
		top.h.Slot, depth, old[len(old)-1].root.Hex(), top.root.Hex(), old[len(old)-1].h.StateRoot.Hex(), top.h.StateRoot.Hex(), uint64(top.h.Slot)/c.spe))
	c.publishHead()
	return nil
}

// Finalize makes epoch's checkpoint the finalized one: the epoch and the
// root of the canonical block at the epoch's first slot, or of the newest
// block before it when that slot is empty (the head state's preset says
// how many slots an epoch has). It fails, changing nothing, for an epoch
// below the finalized one, or whose first slot is past the current slot.
func (s *Server) Finalize(epoch beacon.Epoch) error {
	c := s.chain
	c.mu.Lock()
	defer c.mu.Unlock()
	start := beacon.Slot(uint64(epoch) * c.spe)
	switch {
	case epoch < c.fin.Epoch:
		return fmt.Errorf("beacontest: Finalize: epoch %d is below the finalized epoch %d", epoch, c.fin.Epoch)
	case uint64(epoch) > uint64(c.slot)/c.spe:
		return fmt.Errorf("beacontest: Finalize: epoch %d starts at slot %d, past the current slot %d", epoch, start, c.slot)
	}
	i, found := slices.BinarySearchFunc(c.canon, start, func(b *chainBlock, s beacon.Slot) int { return cmp.Compare(b.h.Slot, s) })
	if !found {
		i--
	}
	c.fin, c.finIdx = beacon.Checkpoint{Epoch: epoch, Root: c.canon[i].root}, i
	c.publish("finalized_checkpoint", fmt.Sprintf(`{"block":"%s","state":"%s","epoch":"%d","execution_optimistic":false}`,
		c.canon[i].root.Hex(), c.canon[i].h.StateRoot.Hex(), epoch))
	return nil
}

// lookup returns the block id names and whether it is canonical; found is
// false when there is none. c.mu is held.
func (c *chain) lookup(id beacon.StateID) (b *chainBlock, canonical, found bool) {
	switch id {
	case beacon.Head:
		return c.canon[len(c.canon)-1], true, true
	case beacon.Genesis:
		return c.canon[0], true, true
	case beacon.Finalized:
		return c.canon[c.finIdx], true, true
	}
	if n, err := strconv.ParseUint(string(id), 10, 64); err == nil {
		i, ok := slices.BinarySearchFunc(c.canon, beacon.Slot(n), func(b *chainBlock, s beacon.Slot) int { return cmp.Compare(b.h.Slot, s) })
		if !ok {
			return nil, false, false
		}
		return c.canon[i], true, true
	}
	var r beacon.Root
	if err := r.UnmarshalText([]byte(id)); err != nil {
		return nil, false, false
	}
	b, ok := c.blocks[r]
	if !ok {
		return nil, false, false
	}
	i, ok := slices.BinarySearchFunc(c.canon, b.h.Slot, func(b *chainBlock, s beacon.Slot) int { return cmp.Compare(b.h.Slot, s) })
	return b, ok && c.canon[i] == b, true
}

// headerAnswer is the beacon API's getBlockHeader answer.
type headerAnswer struct {
	ExecutionOptimistic bool `json:"execution_optimistic"`
	Finalized           bool `json:"finalized"`
	Data                struct {
		Root      beacon.Root `json:"root"`
		Canonical bool        `json:"canonical"`
		Header    struct {
			Message   beacon.BeaconBlockHeader `json:"message"`
			Signature beacon.BLSSignature      `json:"signature"`
		} `json:"header"`
	} `json:"data"`
}

// serveHeader answers GET /eth/v1/beacon/headers/{block_id}: 400 for an id
// that does not parse (justified is not a block id), 404 for a slot without
// a block or an unknown root.
func (s *Server) serveHeader(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("block_id")
	id, err := beacon.ParseStateID(raw)
	if err != nil || id == beacon.Justified {
		writeError(w, http.StatusBadRequest, "BAD_REQUEST: invalid block ID: "+quoteCut(raw))
		return
	}
	c := s.chain
	c.mu.Lock()
	b, canonical, found := c.lookup(id)
	var a headerAnswer
	if found {
		i, _ := slices.BinarySearchFunc(c.canon, b.h.Slot, func(b *chainBlock, s beacon.Slot) int { return cmp.Compare(b.h.Slot, s) })
		a.Finalized = canonical && i <= c.finIdx
	}
	c.mu.Unlock()
	if !found {
		writeError(w, http.StatusNotFound, "NOT_FOUND: beacon block at "+quoteCut(raw))
		return
	}
	a.Data.Root, a.Data.Canonical, a.Data.Header.Message = b.root, canonical, b.h
	a.Data.Header.Signature[0] = 0xc0 // the point at infinity, a well-formed signature
	writeJSON(w, a)
}

// finalityAnswer is the beacon API's getStateFinalityCheckpoints answer.
type finalityAnswer struct {
	ExecutionOptimistic bool `json:"execution_optimistic"`
	Finalized           bool `json:"finalized"`
	Data                struct {
		PreviousJustified beacon.Checkpoint `json:"previous_justified"`
		CurrentJustified  beacon.Checkpoint `json:"current_justified"`
		Finalized         beacon.Checkpoint `json:"finalized"`
	} `json:"data"`
}

// serveFinality answers GET /eth/v1/beacon/states/head/finality_checkpoints
// with the finalized checkpoint (as the justified ones too); another state
// id is 404.
func (s *Server) serveFinality(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("state_id")
	id, err := beacon.ParseStateID(raw)
	if err != nil {
		writeError(w, http.StatusBadRequest, "BAD_REQUEST: invalid state ID: "+quoteCut(raw))
		return
	}
	if id != beacon.Head {
		writeError(w, http.StatusNotFound, "NOT_FOUND: finality checkpoints are served for the head state only")
		return
	}
	c := s.chain
	c.mu.Lock()
	fin := c.fin
	c.mu.Unlock()
	var a finalityAnswer
	a.Data.PreviousJustified, a.Data.CurrentJustified, a.Data.Finalized = fin, fin, fin
	writeJSON(w, a)
}

// writeJSON writes v as a 200 application/json answer.
func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "INTERNAL_SERVER_ERROR: "+err.Error())
		return
	}
	h := w.Header()
	h.Set("Content-Type", mediaJSON)
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}
