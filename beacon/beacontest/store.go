package beacontest

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// Info describes a state a Server holds, as the server would serve it now.
type Info struct {
	// Slot is the state's slot.
	Slot beacon.Slot
	// Root is the state's hash tree root (the state root a RootID names).
	Root beacon.Root
	// Version is the state's fork, sent as Eth-Consensus-Version.
	Version beacon.Version
	// Preset is the state's preset (MainnetPreset when the state left it
	// zero).
	Preset beacon.Preset
	// Validators is the number of validators.
	Validators int
	// Flags are the execution_optimistic and finalized flags a JSON
	// response for this state carries now (see Server).
	Flags beacon.Flags
}

// errNotFound is a state id that names no held state.
var errNotFound = errors.New("state not found")

// entry is one held state with its encodings, made on first use.
type entry struct {
	st   *beacon.State
	root beacon.Root

	mu   sync.Mutex // guards the encodings below
	ssz  []byte
	json map[beacon.Flags][]byte
}

// stateSet is the states a Server holds, at most one per slot, and how the
// named ids map to them. It is safe for concurrent use.
type stateSet struct {
	mu         sync.RWMutex
	bySlot     map[beacon.Slot]*entry
	byRoot     map[beacon.Root]*entry
	pins       map[beacon.StateID]beacon.Slot
	optimistic bool
}

func newStateSet() *stateSet {
	return &stateSet{
		bySlot: make(map[beacon.Slot]*entry),
		byRoot: make(map[beacon.Root]*entry),
		pins:   make(map[beacon.StateID]beacon.Slot),
	}
}

// add checks st (Validate, through its hash tree root, and the 4 bits of
// the justification bitvector) and holds it, in place of any state at its
// slot.
func (s *stateSet) add(st *beacon.State) (beacon.Root, error) {
	if st == nil {
		return beacon.Root{}, errors.New("beacontest: nil state")
	}
	if st.JustificationBits > 0x0f {
		return beacon.Root{}, fmt.Errorf("beacontest: state at slot %d: justification bits 0x%02x set bits beyond the 4 of the bitvector", st.Slot, uint8(st.JustificationBits))
	}
	root, err := beacon.HashTreeRoot(st)
	if err != nil {
		return beacon.Root{}, fmt.Errorf("beacontest: state at slot %d: %w", st.Slot, err)
	}
	e := &entry{st: st, root: root}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.bySlot[st.Slot]; old != nil {
		delete(s.byRoot, old.root)
	}
	s.bySlot[st.Slot] = e
	s.byRoot[root] = e
	return root, nil
}

// remove drops the state at slot; it reports whether there was one.
func (s *stateSet) remove(slot beacon.Slot) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.bySlot[slot]
	if e == nil {
		return false
	}
	delete(s.bySlot, slot)
	delete(s.byRoot, e.root)
	return true
}

// clear drops every state (and so every encoding).
func (s *stateSet) clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.bySlot)
	clear(s.byRoot)
}

// namedIDs are the ids Pin takes.
var namedIDs = []beacon.StateID{beacon.Head, beacon.Genesis, beacon.Finalized, beacon.Justified}

func (s *stateSet) pin(id beacon.StateID, slot beacon.Slot) error {
	if !slices.Contains(namedIDs, id) {
		return fmt.Errorf("beacontest: Pin: %q is not head, genesis, finalized or justified", id)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bySlot[slot] == nil {
		return fmt.Errorf("beacontest: Pin: %s: no state is held at slot %d", id, slot)
	}
	s.pins[id] = slot
	return nil
}

func (s *stateSet) unpin(id beacon.StateID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pins, id)
}

func (s *stateSet) setOptimistic(b bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.optimistic = b
}

// resolve returns the entry id names and the flags of a response for it.
// It is called with s.mu held for reading.
func (s *stateSet) resolve(id beacon.StateID) (*entry, beacon.Flags, error) {
	var e *entry
	if r, ok := rootOf(id); ok {
		e = s.byRoot[r]
	} else if slot, ok := slotOf(id); ok {
		e = s.bySlot[slot]
	} else {
		e = s.named(id)
	}
	if e == nil {
		return nil, beacon.Flags{}, errNotFound
	}
	return e, s.flags(e), nil
}

// named resolves head, genesis, finalized and justified: a pinned slot, or
// else the rule the package documentation gives. It is called with s.mu held.
func (s *stateSet) named(id beacon.StateID) *entry {
	if slot, ok := s.pins[id]; ok {
		return s.bySlot[slot]
	}
	var oldest, newest *entry
	for _, e := range s.bySlot {
		if oldest == nil || e.st.Slot < oldest.st.Slot {
			oldest = e
		}
		if newest == nil || e.st.Slot > newest.st.Slot {
			newest = e
		}
	}
	switch id {
	case beacon.Head:
		return newest
	case beacon.Genesis:
		return oldest
	}
	head := s.named(beacon.Head)
	if head == nil {
		return nil
	}
	cp := head.st.FinalizedCheckpoint
	if id == beacon.Justified {
		cp = head.st.CurrentJustifiedCheckpoint
	}
	limit := beacon.Slot(uint64(cp.Epoch) * slotsPerEpoch(head.st))
	var best *entry
	for _, e := range s.bySlot {
		if e.st.Slot <= limit && (best == nil || e.st.Slot > best.st.Slot) {
			best = e
		}
	}
	if best == nil {
		return oldest
	}
	return best
}

// flags are the JSON flags of e: finalized when e is at or before the
// finalized state, execution_optimistic when set and e is not finalized.
func (s *stateSet) flags(e *entry) beacon.Flags {
	var f beacon.Flags
	if fin := s.named(beacon.Finalized); fin != nil && e.st.Slot <= fin.st.Slot {
		f.Finalized = true
	}
	f.ExecutionOptimistic = s.optimistic && !f.Finalized
	return f
}

// lookup returns the Info of the state id names.
func (s *stateSet) lookup(id beacon.StateID) (Info, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	e, f, err := s.resolve(id)
	if err != nil {
		return Info{}, false
	}
	return infoOf(e, f), true
}

// all returns the Info of every held state, oldest first.
func (s *stateSet) all() []Info {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Info, 0, len(s.bySlot))
	for _, e := range s.bySlot {
		out = append(out, infoOf(e, s.flags(e)))
	}
	slices.SortFunc(out, func(a, b Info) int { return cmp.Compare(a.Slot, b.Slot) })
	return out
}

// headPreset is the head state's preset (MainnetPreset with no state).
func (s *stateSet) headPreset() beacon.Preset {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if h := s.named(beacon.Head); h != nil {
		return presetOf(h.st)
	}
	return beacon.MainnetPreset()
}

// body returns the state id names encoded as enc (EncodingSSZ or
// EncodingJSON), from the cache or encoded now and kept. The slice is
// shared: callers must not change it.
func (s *stateSet) body(id beacon.StateID, enc beacon.Encoding) ([]byte, Info, error) {
	s.mu.RLock()
	e, f, err := s.resolve(id)
	s.mu.RUnlock()
	if err != nil {
		return nil, Info{}, err
	}
	b, err := e.encoded(enc, f)
	return b, infoOf(e, f), err
}

// encoded returns e's encoding, made once per encoding (and, for JSON, per
// flag set) and kept.
func (e *entry) encoded(enc beacon.Encoding, f beacon.Flags) ([]byte, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if enc == beacon.EncodingSSZ {
		if e.ssz == nil {
			var b bytes.Buffer
			if err := beacon.WriteState(&b, e.st, beacon.EncodingSSZ, nil); err != nil {
				return nil, fmt.Errorf("beacontest: encoding the state at slot %d as SSZ: %w", e.st.Slot, err)
			}
			e.ssz = b.Bytes()
		}
		return e.ssz, nil
	}
	if b, ok := e.json[f]; ok {
		return b, nil
	}
	var buf bytes.Buffer
	if err := beacon.WriteState(&buf, e.st, beacon.EncodingJSON, &f); err != nil {
		return nil, fmt.Errorf("beacontest: encoding the state at slot %d as JSON: %w", e.st.Slot, err)
	}
	if e.json == nil {
		e.json = make(map[beacon.Flags][]byte, 1)
	}
	e.json[f] = buf.Bytes()
	return e.json[f], nil
}

func infoOf(e *entry, f beacon.Flags) Info {
	return Info{Slot: e.st.Slot, Root: e.root, Version: e.st.Version, Preset: presetOf(e.st), Validators: len(e.st.Validators), Flags: f}
}

func presetOf(st *beacon.State) beacon.Preset {
	if st.Preset == (beacon.Preset{}) {
		return beacon.MainnetPreset()
	}
	return st.Preset
}

func slotsPerEpoch(st *beacon.State) uint64 { return presetOf(st).SlotsPerEpoch }

// rootOf returns the state root an id names, when it names one (a
// canonical id, as ParseStateID gives: "0x" and 64 hex digits).
func rootOf(id beacon.StateID) (beacon.Root, bool) {
	var r beacon.Root
	s := string(id)
	if len(s) != 66 || s[:2] != "0x" || r.UnmarshalText([]byte(s)) != nil {
		return beacon.Root{}, false
	}
	return r, true
}

// slotOf returns the slot an id names, when it names one (a decimal slot).
func slotOf(id beacon.StateID) (beacon.Slot, bool) {
	n, err := strconv.ParseUint(string(id), 10, 64)
	return beacon.Slot(n), err == nil
}
