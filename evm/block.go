package evm

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Block selects the chain state a call reads. It is one of three kinds, each
// a comparable value: a Tag (the constants Latest, Safe, Finalized, Earliest,
// Pending), a BlockNumber, or a BlockHash (EIP-1898). A nil Block is Latest.
// No other type implements Block; a type switch on those three inspects one.
// fmt prints a Block as the tag, the number in decimal, or the hash.
//
// The tags are constants, so no code can change what evm.Latest means, and
// passing one costs no allocation.
type Block interface {
	isBlock()
}

// Tag is a named block: one of the constants below, spelt as the node
// spells it. Any other Tag is refused with an *nodeaccess.InputError naming
// it, and nothing is sent.
type Tag string

// The five block tags.
const (
	// Latest is the most recent block in the node's view (reorgs expected).
	Latest Tag = "latest"
	// Safe is the most recent block justified by the beacon chain.
	Safe Tag = "safe"
	// Finalized is the most recent block accepted by more than 2/3 of validators.
	Finalized Tag = "finalized"
	// Earliest is genesis, or the earliest block the node still has.
	Earliest Tag = "earliest"
	// Pending is the state including transactions not yet in a block.
	Pending Tag = "pending"
)

// known reports whether t is one of the five tags.
func (t Tag) known() bool {
	switch t {
	case Latest, Safe, Finalized, Earliest, Pending:
		return true
	}
	return false
}

func (Tag) isBlock() {}

// BlockNumber selects the block with that number.
type BlockNumber uint64

// String returns the number in decimal.
func (n BlockNumber) String() string { return strconv.FormatUint(uint64(n), 10) }

func (BlockNumber) isBlock() {}

// BlockHash selects the block with hash Hash (EIP-1898). With
// RequireCanonical the node fails the call when that block is not on its
// canonical chain.
type BlockHash struct {
	Hash             common.Hash
	RequireCanonical bool
}

// String returns the hash in hex, followed by " (canonical)" when the
// canonical chain is required.
func (h BlockHash) String() string {
	if h.RequireCanonical {
		return h.Hash.Hex() + " (canonical)"
	}
	return h.Hash.Hex()
}

func (BlockHash) isBlock() {}

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
			h, err := parseHash(s)
			if err != nil {
				return nil, &nodeaccess.InputError{Arg: "block", Reason: fmt.Sprintf("%s is not a block hash: %v", transport.Quote(s), err)}
			}
			return BlockHash{Hash: h}, nil
		}
		n, err := strconv.ParseUint(digits, 16, 64)
		if err != nil || digits == "" {
			return nil, &nodeaccess.InputError{Arg: "block", Reason: transport.Quote(s) + " is not a hex block number or a 32-byte block hash"}
		}
		return BlockNumber(n), nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		reason := transport.Quote(s) + " is not a block tag, number or hash"
		if strings.HasPrefix(s, "-") {
			reason = "negative block number " + transport.Quote(s)
		}
		return nil, &nodeaccess.InputError{Arg: "block", Reason: reason}
	}
	return BlockNumber(n), nil
}

// parseHash reads a 32-byte hash written as "0x" and 64 hex digits (either
// case), and rejects anything else instead of padding or truncating, as
// common.HexToHash would.
func parseHash(s string) (common.Hash, error) {
	var h common.Hash
	if len(s) != 66 || (s[:2] != "0x" && s[:2] != "0X") {
		return h, &nodeaccess.InputError{Arg: "hash", Reason: transport.Quote(s) + " is not 0x followed by 64 hex digits"}
	}
	if _, err := hex.Decode(h[:], []byte(s[2:])); err != nil {
		return common.Hash{}, &nodeaccess.InputError{Arg: "hash", Reason: fmt.Sprintf("%s is not hex: %v", transport.Quote(s), err)}
	}
	return h, nil
}

// appendBlockJSON appends b as the JSON-RPC block parameter: "latest",
// "0x1b4", or {"blockHash":"0x…","requireCanonical":true}. An unknown Tag is
// an *nodeaccess.InputError naming it. It inspects b by a type switch alone,
// so that b does not escape and a BlockNumber or BlockHash costs a call no
// allocation.
func appendBlockJSON(dst []byte, b Block) ([]byte, error) {
	switch b := b.(type) {
	case nil:
		return append(dst, `"latest"`...), nil
	case Tag:
		if !b.known() {
			return dst, &nodeaccess.InputError{Arg: "block", Reason: "tag " + transport.Quote(string(b)) + " is not latest, safe, finalized, earliest or pending"} // a copy: b stays on the caller's stack
		}
		dst = append(dst, '"')
		dst = append(dst, b...)
		return append(dst, '"'), nil
	case BlockNumber:
		dst = append(dst, `"0x`...)
		dst = strconv.AppendUint(dst, uint64(b), 16)
		return append(dst, '"'), nil
	case BlockHash:
		dst = append(dst, `{"blockHash":"0x`...)
		dst = hex.AppendEncode(dst, b.Hash[:])
		if b.RequireCanonical {
			return append(dst, `","requireCanonical":true}`...), nil
		}
		return append(dst, `","requireCanonical":false}`...), nil
	}
	// A type of the caller's own that embeds a Tag: not a selector this
	// package knows. (Named without %T, which would move every b to the heap.)
	return dst, &nodeaccess.InputError{Arg: "block", Reason: "not a Tag, BlockNumber or BlockHash of the evm package"}
}

// MarshalJSON encodes t as a JSON-RPC block parameter ("latest"); an unknown
// tag is an error.
func (t Tag) MarshalJSON() ([]byte, error) { return appendBlockJSON(nil, t) }

// MarshalJSON encodes n as a JSON-RPC block parameter, a hex quantity ("0x1b4").
func (n BlockNumber) MarshalJSON() ([]byte, error) { return appendBlockJSON(nil, n) }

// MarshalJSON encodes h as an EIP-1898 block parameter,
// {"blockHash":"0x…","requireCanonical":false}.
func (h BlockHash) MarshalJSON() ([]byte, error) { return appendBlockJSON(nil, h) }
