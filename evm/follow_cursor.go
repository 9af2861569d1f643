package evm

import (
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// FollowCursor is a position in the chain as Follow walks it: a block,
// the hash that block had, and how far into its logs Follow went. Every
// log Follow yields carries the cursor just after it: store it, and Follow
// from it after a restart to go on with the next log, repeating and losing
// none, whatever the chain did meanwhile (see Follow).
//
// Its text form (MarshalText, String) is "number" for the start of a block
// whatever its hash, or "number/hash/index" for the place in block number,
// which had the hash, before its log of index index (its logs below index
// are done), such as "21000000/0x5c50…e3a1/17"; it also marshals to JSON
// as that string.
type FollowCursor struct {
	// Number is the block; 0 means the newest block (at the query's
	// finality) when Follow starts ("now"): the genesis block holds no
	// logs.
	Number uint64
	// Hash is the hash block Number had when the cursor was made; the zero
	// hash says nothing of it (start at that block whatever it is).
	Hash common.Hash
	// Index is the log index to go on from in that block: its logs of a
	// lower index are done. It is 0 when Hash is zero.
	Index uint
}

// String returns the text form (see FollowCursor).
func (c FollowCursor) String() string {
	s := strconv.FormatUint(c.Number, 10)
	if c.Hash == (common.Hash{}) && c.Index == 0 {
		return s
	}
	return s + "/" + c.Hash.Hex() + "/" + strconv.FormatUint(uint64(c.Index), 10)
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
	if len(parts) != 1 && len(parts) != 3 {
		return bad("want number or number/hash/index")
	}
	var out FollowCursor
	n, err := strconv.ParseUint(parts[0], 10, 64)
	if err != nil || parts[0][0] == '+' || len(parts[0]) > 1 && parts[0][0] == '0' {
		return bad("number is not a decimal 64-bit unsigned integer")
	}
	out.Number = n
	if len(parts) == 3 {
		h, err := parseHash(parts[1])
		if err != nil || parts[1][1] == 'X' {
			return bad("hash is not 0x followed by 64 hex digits")
		}
		i, err := strconv.ParseUint(parts[2], 10, 32)
		if err != nil || parts[2][0] == '+' || len(parts[2]) > 1 && parts[2][0] == '0' {
			return bad("index is not a decimal 32-bit unsigned integer")
		}
		if h == (common.Hash{}) {
			return bad("the zero hash names no block: write the number alone")
		}
		if n == 0 {
			return bad("block 0 is the newest block when Follow starts: it has no hash or index to go on from")
		}
		out.Hash, out.Index = h, uint(i)
	}
	*c = out
	return nil
}
