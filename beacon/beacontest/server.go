package beacontest

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
)

// statePattern is the route a Server serves, as a net/http pattern.
const statePattern = "GET /beacon/{key}/eth/v2/debug/beacon/states/{state_id}"

// writeChunk is how much of a body is written between two looks at the
// request's context.
const writeChunk = 256 << 10

// Server is a beacon node on 127.0.0.1 that serves the states it holds from
// GET {URL}/beacon/{Key}/eth/v2/debug/beacon/states/{state_id}, as SSZ or
// JSON by the request's Accept header. It embeds *nodeaccesstest.Server: URL,
// Key, FailNext, Requests and Close come from there. Its methods are safe for
// concurrent use, also while it serves.
//
// The named ids map to held states as the package documentation says:
// head is the newest state, genesis the oldest, finalized and justified the
// newest state at or before the first slot of the head state's finalized and
// current justified checkpoints (else the oldest); Pin overrides any of the
// four.
//
// It also holds a chain of block headers, apart from the states, and
// serves it from GET {URL}/beacon/{Key}/eth/v1/beacon/headers/{block_id}
// and GET {URL}/beacon/{Key}/eth/v1/beacon/states/head/finality_checkpoints:
// Advance, Reorg and Finalize move it (see the package documentation). A
// sync committee signs that chain, and the light-client endpoints
// (GET {URL}/beacon/{Key}/eth/v1/beacon/light_client/...) serve it; Lie
// makes them lie.
type Server struct {
	*nodeaccesstest.Server

	// The states, two pointers away (a promoted field: s.set is
	// s.core.set): fmt reads a Server's fields when it copies or prints a
	// dereferenced Server, and opens at most one pointer below them, under
	// a verb that does not fit a pointer (%s, %q) or through an unexported
	// field that holds a Server (where it calls no Format); it prints core
	// as {0xc000...} and never reads the states' lock, maps and pins, which
	// AddState, Pin and the other methods write while a test may print the
	// server.
	*core
}

// core holds a Server's states and its chain of block headers behind one
// more pointer (see Server).
type core struct {
	set   *stateSet
	chain *chain
}

// New starts a Server on 127.0.0.1 at a free port. Without WithStates it
// holds the default chain (DefaultStates); see the options for the rest.
// Close it when done.
func New(opts ...Option) (*Server, error) {
	var cfg settings
	for _, o := range opts {
		if o.apply == nil {
			continue // the zero Option
		}
		if err := o.apply(&cfg); err != nil {
			return nil, err
		}
	}
	states := cfg.states
	if !cfg.statesSet {
		states = DefaultStates()
	}
	set := newStateSet()
	for _, st := range states {
		if _, err := set.add(st); err != nil {
			return nil, err
		}
	}
	base, err := nodeaccesstest.Start(cfg.key, sharedError)
	if err != nil {
		return nil, fmt.Errorf("beacontest: %w", err)
	}
	ch, err := newChain(set.headPreset(), cfg.execution)
	if err != nil {
		base.Close()
		return nil, fmt.Errorf("beacontest: %w", err)
	}
	s := &Server{Server: base, core: &core{set: set, chain: ch}}
	s.HandleFunc(statePattern, s.serveState)
	s.HandleFunc(headersPattern, s.serveHeader)
	s.HandleFunc(finalityPattern, s.serveFinality)
	s.HandleFunc(eventsPattern, s.serveEvents)
	s.HandleFunc(lcBootstrapPattern, s.serveBootstrap)
	s.HandleFunc(lcUpdatesPattern, s.serveUpdates)
	s.HandleFunc(lcFinalityPattern, s.serveFinalityUpdate)
	s.HandleFunc(lcOptimisticPattern, s.serveOptimisticUpdate)
	return s, nil
}

// Client returns a beacon.Client for the server: its URL and key, and the
// head state's preset (beacon.WithPreset), then opts (which may replace
// the preset).
func (s *Server) Client(opts ...nodeaccess.Option) (*beacon.Client, error) {
	all := append([]nodeaccess.Option{beacon.WithPreset(s.set.headPreset())}, opts...)
	return beacon.New(s.URL, s.Key(), all...)
}

// Close stops the server (see nodeaccesstest.Server.Close) and drops the
// states and their encodings. It may be called more than once.
func (s *Server) Close() {
	s.chain.once.Do(func() { close(s.chain.closed) })
	s.Server.Close()
	s.set.clear()
}

// AddState holds st from now on, in place of any state at its slot, and
// returns its hash tree root (the root a RootID names). The server keeps st
// and encodes it when first asked for it: do not change st afterwards. An
// invalid state (one beacon.WriteState refuses) is an error and changes
// nothing.
func (s *Server) AddState(st *beacon.State) (beacon.Root, error) { return s.set.add(st) }

// RemoveState drops the state at slot; it reports whether one was held.
// A named id pinned to that slot answers 404 until it is pinned again or
// unpinned.
func (s *Server) RemoveState(slot beacon.Slot) bool { return s.set.remove(slot) }

// Pin makes id (beacon.Head, beacon.Genesis, beacon.Finalized or
// beacon.Justified) name the state held at slot, whatever the package's
// rule would pick. Another id, or a slot with no state, is an error.
func (s *Server) Pin(id beacon.StateID, slot beacon.Slot) error { return s.set.pin(id, slot) }

// Unpin returns id to the package's rule.
func (s *Server) Unpin(id beacon.StateID) { s.set.unpin(id) }

// SetExecutionOptimistic sets the execution_optimistic flag of the JSON
// responses for the states after the finalized one, as a node whose
// execution client is still syncing sends it (finalized states are never
// optimistic).
func (s *Server) SetExecutionOptimistic(b bool) { s.set.setOptimistic(b) }

// Lookup returns what the server would serve for id now; ok is false when
// it would answer 404.
func (s *Server) Lookup(id beacon.StateID) (info Info, ok bool) { return s.set.lookup(id) }

// States returns every held state's Info, oldest first.
func (s *Server) States() []Info { return s.set.all() }

// Body returns a copy of the body the server would send for id now, in enc
// (beacon.EncodingSSZ or beacon.EncodingJSON): for comparing a saved
// download with it byte for byte. An id with no state matches
// nodeaccess.ErrNotFound.
func (s *Server) Body(id beacon.StateID, enc beacon.Encoding) ([]byte, error) {
	if enc != beacon.EncodingSSZ && enc != beacon.EncodingJSON {
		return nil, fmt.Errorf("beacontest: Body: %s is not a body encoding (want EncodingSSZ or EncodingJSON)", enc)
	}
	b, _, err := s.set.body(id, enc)
	if errors.Is(err, errNotFound) {
		return nil, fmt.Errorf("beacontest: Body: state %s: %w", id, nodeaccess.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), b...), nil
}

// serveState answers the state route: 400 for an id that does not parse,
// 406 for an Accept header that accepts neither encoding, 404 for an id that
// names no held state, else 200 with the state.
func (s *Server) serveState(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("state_id")
	id, err := beacon.ParseStateID(raw)
	if err != nil {
		writeError(w, http.StatusBadRequest, "BAD_REQUEST: invalid state ID: "+quoteCut(raw))
		return
	}
	enc, ok := negotiate(r.Header.Values("Accept"))
	if !ok {
		writeError(w, http.StatusNotAcceptable, "NOT_ACCEPTABLE: the state is served as application/octet-stream (SSZ) or application/json; the request accepts neither")
		return
	}
	body, info, err := s.set.body(id, enc)
	if errors.Is(err, errNotFound) {
		body, info, err = s.chain.stateBody(id, enc)
	}
	if errors.Is(err, errNotFound) {
		writeError(w, http.StatusNotFound, "NOT_FOUND: "+notFound(id))
		return
	}
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
	h.Set("Eth-Consensus-Version", info.Version.String())
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Vary", "Accept")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	for len(body) > 0 {
		if r.Context().Err() != nil {
			return
		}
		n := min(len(body), writeChunk)
		if _, err := w.Write(body[:n]); err != nil {
			return
		}
		body = body[n:]
	}
}

// notFound says which state is not there.
func notFound(id beacon.StateID) string {
	if r, ok := rootOf(id); ok {
		return "beacon state for state root " + r.String()
	}
	if slot, ok := slotOf(id); ok {
		return "beacon state at slot " + strconv.FormatUint(uint64(slot), 10)
	}
	return "no " + string(id) + " state is held"
}
