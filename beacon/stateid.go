package beacon

import (
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// StateID names the state a call asks for, in the beacon API's {state_id}
// path parameter's own text: one of the four named states (the constants
// Head, Genesis, Finalized, Justified), a slot (SlotID) or a state root
// (RootID). ParseStateID reads the string forms users type.
//
// A StateID is a string so that the named states are constants no code can
// reassign. Every call parses the id before sending: an id that is not one of
// the forms above (StateID("latest"), or the zero StateID, which names no
// state) fails with a *nodeaccess.InputError that quotes it, and nothing is
// sent.
type StateID string

// The four named states.
const (
	// Head is the canonical head in the node's view; it changes every slot
	// and may be reorganised away.
	Head StateID = "head"
	// Genesis is the chain's genesis state.
	Genesis StateID = "genesis"
	// Finalized is the state of the latest finalized checkpoint in the
	// node's view.
	Finalized StateID = "finalized"
	// Justified is the state of the latest justified checkpoint in the
	// node's view.
	Justified StateID = "justified"
)

type stateKind uint8

const (
	stateNamed stateKind = iota
	stateSlot
	stateRoot
)

// SlotID names the canonical state at slot n (for a slot without a block,
// the state advanced through the empty slots). Nodes keep old states only
// if they archive them; a pruned slot answers "not found".
func SlotID(n Slot) StateID { return StateID(strconv.FormatUint(uint64(n), 10)) }

// RootID names the state whose hash tree root is r. Client.State checks the
// state it decodes against r (see WithoutVerify).
func RootID(r Root) StateID { return StateID("0x" + hex.EncodeToString(r[:])) }

// root returns the state root of an id made by RootID (or parsed from a
// 0x root); ok is false for any other id.
func (id StateID) root() (r Root, ok bool) {
	k, _, r, err := parseStateID(string(id))
	return r, err == nil && k == stateRoot
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
	k, n, r, err := parseStateID(s)
	switch {
	case err != nil:
		return "", err
	case k == stateSlot:
		return SlotID(n), nil
	case k == stateRoot:
		return RootID(r), nil
	}
	return StateID(s), nil
}

// parseStateID is ParseStateID's reading of s: which form it is, and the
// slot or root it holds.
func parseStateID(s string) (stateKind, Slot, Root, error) {
	var r Root
	switch s {
	case string(Head), string(Genesis), string(Finalized), string(Justified):
		return stateNamed, 0, r, nil
	}
	switch {
	case s == "":
		return 0, 0, r, &nodeaccess.InputError{Arg: "stateID", Reason: "empty state id (want head, genesis, finalized, justified, a decimal slot or a 0x state root)"}
	case len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		if len(s) != 2+2*len(r) {
			return 0, 0, r, badStateID(s, fmt.Sprintf("is not a state root: want 0x and 64 hex digits, got %d digits", len(s)-2))
		}
		if _, err := hex.Decode(r[:], []byte(s[2:])); err != nil {
			return 0, 0, Root{}, badStateID(s, "is not a state root: it has a character that is not a hex digit")
		}
		return stateRoot, 0, r, nil
	case isDecimal(s):
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return 0, 0, r, badStateID(s, "is not a slot: it does not fit in 64 bits")
		}
		return stateSlot, Slot(n), r, nil
	}
	return 0, 0, r, badStateID(s, "is not head, genesis, finalized, justified, a decimal slot or a 0x state root")
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
	return &nodeaccess.InputError{Arg: "stateID", Reason: transport.Quote(s) + " " + why}
}

func zeroStateIDError() error {
	return &nodeaccess.InputError{Arg: "stateID", Reason: "the zero StateID names no state (use Head, Genesis, Finalized, Justified, SlotID, RootID or ParseStateID)"}
}
