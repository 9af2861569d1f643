package beacon

import (
	"encoding"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

var (
	_ encoding.TextMarshaler   = FollowCursor{}
	_ encoding.TextUnmarshaler = (*FollowCursor)(nil)
)

// FollowCursor is a position in the chain as Follow walks it: a block, by
// its slot and root. Every FollowedHead carries the cursor just after it:
// store it, and Follow from it after a restart to go on with the next
// block, repeating and losing none, whatever the chain did meanwhile (see
// Follow).
//
// Its text form (MarshalText, String) is "slot" for the start of a slot
// whatever block is there, or "slot/root" for the place right after the
// block of that root, which was at that slot, such as
// "10541184/0x5c50…e3a1" (the root as "0x" and 64 hex digits); it also
// marshals to JSON as that string.
type FollowCursor struct {
	// Slot is the block's slot, or with a zero Root the slot to start at
	// (its block or, for an empty slot, the next one); Slot 0 with a zero
	// Root means the newest block (at the query's finality) when Follow
	// starts ("now").
	Slot Slot
	// Root is the block's root when the cursor was made; the zero root says
	// nothing of it (start at Slot whatever is there).
	Root Root
}

// String returns the text form (see FollowCursor).
func (c FollowCursor) String() string {
	s := strconv.FormatUint(uint64(c.Slot), 10)
	if c.Root == (Root{}) {
		return s
	}
	return s + "/" + c.Root.Hex()
}

// MarshalText returns the text form.
func (c FollowCursor) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads the text form: a decimal slot (no sign, no leading
// zero), then optionally "/", "0x" and 64 hex digits of either case. Errors
// are *nodeaccess.InputError values that quote the text, and c is left as
// it was.
func (c *FollowCursor) UnmarshalText(b []byte) error {
	s := string(b)
	bad := func(why string) error {
		return &nodeaccess.InputError{Arg: "cursor", Reason: transport.Quote(s) + ": " + why}
	}
	slot, root, two := strings.Cut(s, "/")
	if slot == "" || !isDecimal(slot) || len(slot) > 1 && slot[0] == '0' {
		return bad("want slot or slot/root: the slot is not a decimal number")
	}
	n, err := strconv.ParseUint(slot, 10, 64)
	if err != nil {
		return bad("the slot does not fit in 64 bits")
	}
	out := FollowCursor{Slot: Slot(n)}
	if two {
		if len(root) != 66 || root[0] != '0' || root[1] != 'x' {
			return bad("the root is not 0x followed by 64 hex digits")
		}
		if err := parseHexInto("root", []byte(root), out.Root[:]); err != nil {
			return bad("the root is not 0x followed by 64 hex digits")
		}
		if out.Root == (Root{}) {
			return bad("the zero root names no block: write the slot alone")
		}
	}
	*c = out
	return nil
}
