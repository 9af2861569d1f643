package beacon

import (
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// StateID names the state a call asks for, as the beacon API's {state_id}
// path parameter does: one of the four names (Head, Genesis, Finalized,
// Justified), a slot (SlotID) or a state root (RootID). ParseStateID reads
// the string forms.
//
// The zero StateID names no state: a call with it fails with a
// *nodeaccess.InputError and sends nothing.
type StateID struct {
	kind stateKind
	slot Slot
	root Root
}

type stateKind uint8

const (
	stateNone stateKind = iota
	stateHead
	stateGenesis
	stateFinalized
	stateJustified
	stateSlot
	stateRoot
)

var stateNames = [...]string{stateHead: "head", stateGenesis: "genesis", stateFinalized: "finalized", stateJustified: "justified"}

// The four named states.
var (
	// Head is the canonical head in the node's view; it changes every slot
	// and may be reorganised away.
	Head = StateID{kind: stateHead}
	// Genesis is the chain's genesis state.
	Genesis = StateID{kind: stateGenesis}
	// Finalized is the state of the latest finalized checkpoint in the
	// node's view.
	Finalized = StateID{kind: stateFinalized}
	// Justified is the state of the latest justified checkpoint in the
	// node's view.
	Justified = StateID{kind: stateJustified}
)

// SlotID names the canonical state at slot n (for a slot without a block,
// the state advanced through the empty slots). Nodes keep old states only
// if they archive them; a pruned slot answers "not found".
func SlotID(n Slot) StateID { return StateID{kind: stateSlot, slot: n} }

// RootID names the state whose hash tree root is r. Client.State checks the
// state it decodes against r (see WithoutVerify).
func RootID(r Root) StateID { return StateID{kind: stateRoot, root: r} }

// String returns the id's wire form: "head", "genesis", "finalized",
// "justified", a decimal slot, or "0x" and 64 lower-case hex digits. The
// zero StateID gives "".
func (id StateID) String() string {
	switch id.kind {
	case stateSlot:
		return strconv.FormatUint(uint64(id.slot), 10)
	case stateRoot:
		return "0x" + hex.EncodeToString(id.root[:])
	case stateNone:
		return ""
	}
	return stateNames[id.kind]
}

// IsZero reports whether id is the zero StateID, which names no state.
func (id StateID) IsZero() bool { return id.kind == stateNone }

// Slot returns the slot of an id made by SlotID (or parsed from a decimal
// slot); ok is false for any other id.
func (id StateID) Slot() (s Slot, ok bool) { return id.slot, id.kind == stateSlot }

// Root returns the state root of an id made by RootID (or parsed from a 0x
// root); ok is false for any other id.
func (id StateID) Root() (r Root, ok bool) { return id.root, id.kind == stateRoot }

// MarshalText returns the wire form (String); the zero StateID is an error.
func (id StateID) MarshalText() ([]byte, error) {
	if id.kind == stateNone {
		return nil, zeroStateIDError()
	}
	return []byte(id.String()), nil
}

// UnmarshalText parses a state id with ParseStateID.
func (id *StateID) UnmarshalText(b []byte) error {
	p, err := ParseStateID(string(b))
	if err != nil {
		return err
	}
	*id = p
	return nil
}

// maxQuoted is how much of a rejected value an error quotes.
const maxQuoted = 80

// ParseStateID reads a state id in the beacon API's string forms: "head",
// "genesis", "finalized", "justified" (lower case, as the API spells them), a
// decimal slot ("7340032"; leading zeros allowed, no sign), or a state root
// as "0x" and 64 hex digits (either case). Anything else returns a
// *nodeaccess.InputError (errors.Is nodeaccess.ErrInvalidInput) that quotes
// the value.
func ParseStateID(s string) (StateID, error) {
	for k, name := range stateNames {
		if name != "" && s == name {
			return StateID{kind: stateKind(k)}, nil
		}
	}
	switch {
	case s == "":
		return StateID{}, &nodeaccess.InputError{Arg: "stateID", Reason: "empty state id (want head, genesis, finalized, justified, a decimal slot or a 0x state root)"}
	case len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		var r Root
		if len(s) != 2+2*len(r) {
			return StateID{}, badStateID(s, fmt.Sprintf("is not a state root: want 0x and 64 hex digits, got %d digits", len(s)-2))
		}
		if _, err := hex.Decode(r[:], []byte(s[2:])); err != nil {
			return StateID{}, badStateID(s, "is not a state root: it has a character that is not a hex digit")
		}
		return RootID(r), nil
	case isDecimal(s):
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return StateID{}, badStateID(s, "is not a slot: it does not fit in 64 bits")
		}
		return SlotID(Slot(n)), nil
	}
	return StateID{}, badStateID(s, "is not head, genesis, finalized, justified, a decimal slot or a 0x state root")
}

func isDecimal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func badStateID(s, why string) error {
	return &nodeaccess.InputError{Arg: "stateID", Reason: strconv.Quote(transport.Cut(s, maxQuoted)) + " " + why}
}

func zeroStateIDError() error {
	return &nodeaccess.InputError{Arg: "stateID", Reason: "the zero StateID names no state (use Head, Genesis, Finalized, Justified, SlotID, RootID or ParseStateID)"}
}
