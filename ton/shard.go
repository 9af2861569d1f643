package ton

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// ShardID is a shard identifier: a signed 64-bit number whose bits are the
// shard prefix followed by a single 1 bit. API v2 writes it as a signed
// decimal ("-9223372036854775808"), API v3 and explorers as 16 hex digits
// of its two's-complement bits ("8000000000000000"); both name the same
// shard. Sending the hex digits where v2 expects a decimal names a different
// shard, so the SDK always converts. String writes the hex form;
// strconv.FormatInt(int64(s), 10) writes the v2 form, for a v2 request
// made with Client.Call.
type ShardID int64

// MasterchainShard is the one shard of the masterchain (and of an unsplit
// workchain): hex 8000000000000000, decimal -9223372036854775808.
const MasterchainShard ShardID = math.MinInt64

// ParseShardID reads a shard id in either of its forms: the v3 and
// explorer form, 16 hex digits in either case ("8000000000000000") or 1 to
// 16 hex digits after "0x" or "0X"; and the v2 form, a signed decimal in the
// int64 range ("-9223372036854775808", no "+"). Anything else, and the zero
// shard (which no shard has), is an *nodeaccess.InputError.
//
// The forms overlap in one place: a string of exactly 16 decimal digits is
// both. ParseShardID reads it as hex, the v3 form of the common shards
// ("8000000000000000", the masterchain's, and the shards of a workchain
// split a few times); in the v2 form such shards are 19-digit decimals, and
// only a shard split ten times or more has a 16-digit decimal. Where the
// form of a string is known, say so: prefix "0x" to a hex string, or read a
// decimal with strconv.ParseInt(s, 10, 64) and convert it, ShardID(n).
func ParseShardID(s string) (ShardID, error) {
	digits, hexPrefix := cutHexPrefix(s)
	if hexPrefix || len(s) == 16 && isHex(s) {
		return parseShardHex(s, digits)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || s[0] == '+' {
		return shardErr(s, shardForm)
	}
	if n == 0 {
		return shardErr(s, "is zero, which is not a shard id")
	}
	return ShardID(n), nil
}

// shardForm says what ParseShardID expected.
const shardForm = "is not a shard id (16 hex digits, hex digits after 0x, or a signed decimal in the int64 range)"

func cutHexPrefix(s string) (string, bool) {
	if d, ok := strings.CutPrefix(s, "0x"); ok {
		return d, true
	}
	return strings.CutPrefix(s, "0X")
}

func parseShardHex(s, digits string) (ShardID, error) {
	if len(digits) == 0 || len(digits) > 16 || !isHex(digits) {
		return shardErr(s, shardForm)
	}
	u, _ := strconv.ParseUint(digits, 16, 64)
	if u == 0 {
		return shardErr(s, "is zero, which is not a shard id")
	}
	return ShardID(int64(u)), nil
}

func shardErr(s, why string) (ShardID, error) {
	return 0, &nodeaccess.InputError{Arg: "shard", Reason: transport.Quote(s) + " " + why}
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// String returns the v3 form, as explorers show shards: 16 upper-case hex
// digits ("8000000000000000").
func (s ShardID) String() string { return fmt.Sprintf("%016X", uint64(s)) }

// MarshalText returns the hex form (String).
func (s ShardID) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads either form (ParseShardID).
func (s *ShardID) UnmarshalText(b []byte) error {
	v, err := ParseShardID(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// BlockRef names a block by workchain, shard and sequence number, as the
// v2 query parameters and the v3 block_ref do.
type BlockRef struct {
	// Workchain is -1 for the masterchain, 0 for the basechain.
	Workchain int32
	// Shard is the shard; MasterchainShard for masterchain blocks.
	Shard ShardID
	// Seqno is the block's sequence number in its shard.
	Seqno uint32
}

// MasterchainBlock returns the reference of masterchain block seqno.
func MasterchainBlock(seqno uint32) BlockRef {
	return BlockRef{Workchain: -1, Shard: MasterchainShard, Seqno: seqno}
}

// String returns the form TON tools print: "(-1,8000000000000000,39984096)".
func (b BlockRef) String() string {
	return "(" + strconv.Itoa(int(b.Workchain)) + "," + b.Shard.String() + "," + strconv.FormatUint(uint64(b.Seqno), 10) + ")"
}

// ParseBlockRef reads "(workchain,shard,seqno)", the form String writes,
// with the shard in either form ParseShardID reads; the parentheses are
// optional. Errors are *nodeaccess.InputError values.
func ParseBlockRef(s string) (BlockRef, error) {
	inner := strings.TrimSuffix(strings.TrimPrefix(s, "("), ")")
	parts := strings.Split(inner, ",")
	bad := func(why string) (BlockRef, error) {
		return BlockRef{}, &nodeaccess.InputError{Arg: "block", Reason: transport.Quote(s) + ": " + why}
	}
	if len(parts) != 3 {
		return bad("want (workchain,shard,seqno)")
	}
	wc, err := strconv.ParseInt(parts[0], 10, 32)
	if err != nil || parts[0][0] == '+' {
		return bad("workchain is not a 32-bit integer")
	}
	shard, err := ParseShardID(parts[1])
	if err != nil {
		return bad(err.(*nodeaccess.InputError).Reason)
	}
	seqno, err := strconv.ParseUint(parts[2], 10, 32)
	if err != nil || parts[2][0] == '+' {
		return bad("seqno is not a 32-bit unsigned integer")
	}
	return BlockRef{Workchain: int32(wc), Shard: shard, Seqno: uint32(seqno)}, nil
}

// BlockID is a block's full identifier: its reference and the hashes that
// pin its content.
type BlockID struct {
	// BlockRef is the block's workchain, shard and seqno.
	BlockRef
	// RootHash is the hash of the block's root cell.
	RootHash Hash
	// FileHash is the hash of the block's serialised file.
	FileHash Hash
}

// String returns "(wc,shard,seqno):root_hash:file_hash" with base64 hashes.
func (b BlockID) String() string {
	return b.BlockRef.String() + ":" + b.RootHash.String() + ":" + b.FileHash.String()
}
