package evm

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
)

// Block selects the chain state a call reads: one of the five tags, a block
// number, or a block hash (EIP-1898). The zero Block is Latest.
type Block struct {
	kind      blockKind
	tag       string
	number    uint64
	hash      common.Hash
	canonical bool
}

type blockKind uint8

const (
	kindTag blockKind = iota
	kindNumber
	kindHash
)

// The five block tags.
var (
	// Latest is the most recent block in the node's view (reorgs expected).
	Latest = Block{kind: kindTag, tag: "latest"}
	// Safe is the most recent block justified by the beacon chain.
	Safe = Block{kind: kindTag, tag: "safe"}
	// Finalized is the most recent block accepted by more than 2/3 of validators.
	Finalized = Block{kind: kindTag, tag: "finalized"}
	// Earliest is genesis, or the earliest block the node still has.
	Earliest = Block{kind: kindTag, tag: "earliest"}
	// Pending is the state including transactions not yet in a block.
	Pending = Block{kind: kindTag, tag: "pending"}
)

// BlockNumber selects block n.
func BlockNumber(n uint64) Block { return Block{kind: kindNumber, number: n} }

// BlockHash selects the block with hash h (EIP-1898). With requireCanonical
// the node fails the call when that block is not on its canonical chain.
func BlockHash(h common.Hash, requireCanonical bool) Block {
	return Block{kind: kindHash, hash: h, canonical: requireCanonical}
}

// BlockFromBig converts go-ethereum's *big.Int block convention: nil is
// Latest, a non-negative number selects that block, and the negative numbers
// of go-ethereum's rpc package select tags (-1 pending, -2 latest, -3
// finalized, -4 safe, -5 earliest). Any other value is an error.
func BlockFromBig(n *big.Int) (Block, error) {
	switch {
	case n == nil:
		return Latest, nil
	case n.Sign() >= 0 && n.IsUint64():
		return BlockNumber(n.Uint64()), nil
	case n.Sign() >= 0:
		return Block{}, &nodeaccess.InputError{Arg: "block", Reason: fmt.Sprintf("block number %s does not fit in 64 bits", n)}
	case !n.IsInt64():
		return Block{}, &nodeaccess.InputError{Arg: "block", Reason: fmt.Sprintf("negative block number %s", n)}
	}
	switch n.Int64() {
	case -1:
		return Pending, nil
	case -2:
		return Latest, nil
	case -3:
		return Finalized, nil
	case -4:
		return Safe, nil
	case -5:
		return Earliest, nil
	}
	return Block{}, &nodeaccess.InputError{Arg: "block", Reason: fmt.Sprintf("negative block number %s", n)}
}

// ParseBlock reads a block selector as users write it: a tag ("latest",
// "safe", "finalized", "earliest", "pending"), a decimal number ("1234"), a
// hex quantity ("0x4d2"), or a 32-byte block hash ("0x" and 64 hex digits).
func ParseBlock(s string) (Block, error) {
	switch s {
	case "latest", "":
		return Latest, nil
	case "safe":
		return Safe, nil
	case "finalized":
		return Finalized, nil
	case "earliest":
		return Earliest, nil
	case "pending":
		return Pending, nil
	}
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		digits := s[2:]
		if len(digits) == 64 {
			h, err := ParseHash(s)
			if err != nil {
				return Block{}, &nodeaccess.InputError{Arg: "block", Reason: fmt.Sprintf("%q is not a block hash: %v", s, err)}
			}
			return BlockHash(h, false), nil
		}
		n, err := strconv.ParseUint(digits, 16, 64)
		if err != nil || digits == "" {
			return Block{}, &nodeaccess.InputError{Arg: "block", Reason: fmt.Sprintf("%q is not a hex block number or a 32-byte block hash", s)}
		}
		return BlockNumber(n), nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		reason := fmt.Sprintf("%q is not a block tag, number or hash", s)
		if strings.HasPrefix(s, "-") {
			reason = fmt.Sprintf("negative block number %q", s)
		}
		return Block{}, &nodeaccess.InputError{Arg: "block", Reason: reason}
	}
	return BlockNumber(n), nil
}

// ParseHash reads a 32-byte hash written as "0x" and 64 hex digits (either
// case). Unlike common.HexToHash it rejects anything else instead of padding
// or truncating.
func ParseHash(s string) (common.Hash, error) {
	var h common.Hash
	if len(s) != 66 || (s[:2] != "0x" && s[:2] != "0X") {
		return h, &nodeaccess.InputError{Arg: "hash", Reason: fmt.Sprintf("%q is not 0x followed by 64 hex digits", s)}
	}
	if _, err := hex.Decode(h[:], []byte(s[2:])); err != nil {
		return common.Hash{}, &nodeaccess.InputError{Arg: "hash", Reason: fmt.Sprintf("%q is not hex: %v", s, err)}
	}
	return h, nil
}

// IsTag reports whether b is one of the five tags.
func (b Block) IsTag() bool { return b.kind == kindTag }

// Number returns the block number and true when b selects a number.
func (b Block) Number() (uint64, bool) { return b.number, b.kind == kindNumber }

// Hash returns the hash, whether the canonical chain is required, and true
// when b selects a hash.
func (b Block) Hash() (common.Hash, bool, bool) { return b.hash, b.canonical, b.kind == kindHash }

// String returns the tag, the number in decimal, or the hash.
func (b Block) String() string {
	switch b.kind {
	case kindNumber:
		return strconv.FormatUint(b.number, 10)
	case kindHash:
		if b.canonical {
			return b.hash.Hex() + " (canonical)"
		}
		return b.hash.Hex()
	}
	if b.tag == "" {
		return "latest"
	}
	return b.tag
}

// appendJSON appends the selector as the JSON-RPC param: "latest", "0x1b4",
// or {"blockHash":"0x…","requireCanonical":true}.
func (b Block) appendJSON(dst []byte) []byte {
	switch b.kind {
	case kindNumber:
		dst = append(dst, `"0x`...)
		dst = strconv.AppendUint(dst, b.number, 16)
		return append(dst, '"')
	case kindHash:
		dst = append(dst, `{"blockHash":"0x`...)
		dst = hex.AppendEncode(dst, b.hash[:])
		if b.canonical {
			return append(dst, `","requireCanonical":true}`...)
		}
		return append(dst, `","requireCanonical":false}`...)
	}
	tag := b.tag
	if tag == "" {
		tag = "latest"
	}
	dst = append(dst, '"')
	dst = append(dst, tag...)
	return append(dst, '"')
}

// MarshalJSON encodes the selector as a JSON-RPC block parameter.
func (b Block) MarshalJSON() ([]byte, error) { return b.appendJSON(nil), nil }
