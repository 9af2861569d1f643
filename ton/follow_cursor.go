package ton

import (
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// FollowCursor is a position in the chain as Follow walks it: a round (the
// transactions a masterchain block commits), a block of the round by its
// index in the round's order, and the last transaction yielded in that
// block. Every transaction Follow yields carries the cursor just after it:
// store it, and Follow from it after a restart to go on with the next
// transaction, repeating and losing none. The order of a round's blocks is
// fixed by the chain (see Follow), so an index stays valid.
//
// Its text form (MarshalText, String) is "seqno", "seqno/block" or
// "seqno/block/account/lt" with the account in raw form, such as
// "51148696/3/0:5b6a…75/61234000003"; it also marshals to JSON as that
// string.
type FollowCursor struct {
	// Seqno is the masterchain block of the round; 0 means the newest
	// masterchain block when Follow starts ("now"), with Block 0 and no
	// After (Follow refuses a cursor of seqno 0 that names a place in a
	// round it cannot know).
	Seqno uint32
	// Block is the index, in the round's order, of the block to go on in:
	// 0 is the round's first block.
	Block int
	// After is the last transaction yielded in that block; nil: go on from
	// its first transaction.
	After *BlockCursor
}

// String returns the text form (see FollowCursor).
func (c FollowCursor) String() string {
	s := strconv.FormatUint(uint64(c.Seqno), 10)
	if c.Block == 0 && c.After == nil {
		return s
	}
	s += "/" + strconv.Itoa(c.Block)
	if c.After != nil {
		s += "/" + c.After.Account.Raw() + "/" + strconv.FormatUint(c.After.LT, 10)
	}
	return s
}

// MarshalText returns the text form.
func (c FollowCursor) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads the text form. Errors are *nodeaccess.InputError
// values.
func (c *FollowCursor) UnmarshalText(b []byte) error {
	s := string(b)
	bad := func(why string) error {
		return &nodeaccess.InputError{Arg: "cursor", Reason: transport.Quote(s) + ": " + why}
	}
	parts := strings.Split(s, "/")
	if len(parts) != 1 && len(parts) != 2 && len(parts) != 4 {
		return bad("want seqno, seqno/block or seqno/block/account/lt")
	}
	var out FollowCursor
	seqno, err := strconv.ParseUint(parts[0], 10, 32)
	if err != nil || parts[0][0] == '+' {
		return bad("seqno is not a 32-bit unsigned integer")
	}
	out.Seqno = uint32(seqno)
	if len(parts) > 1 {
		block, err := strconv.ParseUint(parts[1], 10, 31)
		if err != nil || parts[1][0] == '+' {
			return bad("block is not a non-negative integer")
		}
		out.Block = int(block)
	}
	if out.Seqno == 0 && len(parts) > 1 {
		return bad("seqno 0 is the newest block when Follow starts: it has no block or transaction to go on from")
	}
	if len(parts) == 4 {
		a, err := ParseAddress(parts[2])
		if err != nil {
			return bad("account: " + err.(*nodeaccess.InputError).Reason)
		}
		lt, err := strconv.ParseUint(parts[3], 10, 64)
		if err != nil || parts[3][0] == '+' {
			return bad("lt is not a 64-bit unsigned integer")
		}
		out.After = &BlockCursor{Account: a, LT: lt}
	}
	*c = out
	return nil
}
