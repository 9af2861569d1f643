package evm

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
)

// StateOverride replaces parts of accounts' state for one call: eth_call's
// third parameter, which go-ethereum, Erigon, reth, Nethermind and Besu
// accept. Each account's changes apply on top of the state at the call's
// block and are thrown away after the call.
type StateOverride map[common.Address]OverrideAccount

// OverrideAccount is what a StateOverride changes in one account, with the
// semantics of go-ethereum's gethclient.OverrideAccount; a nil field is left
// as it is. State and StateDiff must not both be set.
type OverrideAccount struct {
	// Balance in wei, sent as "balance". Must not be negative.
	Balance *big.Int
	// Nonce, sent as "nonce" (a nonce of 0 is sent, unlike gethclient's).
	Nonce *uint64
	// Code replaces the account's code, sent as "code"; an empty non-nil
	// slice removes the code.
	Code []byte
	// State replaces the whole storage, sent as "state": slots not in it
	// read as zero; an empty non-nil map wipes the storage.
	State map[common.Hash]common.Hash
	// StateDiff sets the slots in it and leaves the others, sent as
	// "stateDiff".
	StateDiff map[common.Hash]common.Hash
}

// BlockOverride replaces fields of the block a call runs in: eth_call's
// fourth parameter, spelt as go-ethereum's BlockOverrides. A nil field is
// left as it is.
type BlockOverride struct {
	// Number is what NUMBER returns ("number"). Must not be negative.
	Number *big.Int
	// Time is what TIMESTAMP returns ("time").
	Time *uint64
	// GasLimit is what GASLIMIT returns ("gasLimit").
	GasLimit *uint64
	// FeeRecipient is what COINBASE returns ("feeRecipient").
	FeeRecipient *common.Address
	// PrevRandao is what PREVRANDAO returns ("prevRandao").
	PrevRandao *common.Hash
	// BaseFee is what BASEFEE returns ("baseFeePerGas"). Must not be
	// negative.
	BaseFee *big.Int
	// BlobBaseFee is what BLOBBASEFEE returns ("blobBaseFee"). Must not be
	// negative.
	BlobBaseFee *big.Int
}

// Overrides are the optional third and fourth parameters of eth_call. The
// zero Overrides sends neither, as Call does.
type Overrides struct {
	// State changes accounts for the call; nil sends none.
	State StateOverride
	// Block changes the block the call runs in; nil sends none (and, when
	// State is nil too, no state override either: an empty {} is sent in
	// its place only when Block is set).
	Block *BlockOverride
}

// CallWithOverrides runs eth_call as Call does, with state and block
// overrides: the node executes msg at block with the accounts in ov.State
// changed and the block fields in ov.Block replaced, then throws the
// changes away. A bad override (State and StateDiff on one account, a
// negative amount) is an *nodeaccess.InputError naming it, and nothing is
// sent.
func (c *Client) CallWithOverrides(ctx context.Context, msg CallMsg, block Block, ov Overrides) ([]byte, error) {
	return c.call(ctx, msg, block, &ov)
}

// check validates the overrides before anything is sent.
func (ov *Overrides) check() error {
	for addr, a := range ov.State {
		arg := func(member string) string { return "stateOverride[" + addr.Hex() + "]." + member }
		if a.State != nil && a.StateDiff != nil {
			return &nodeaccess.InputError{Arg: arg("state"), Reason: "state and stateDiff both set: state replaces the whole storage, stateDiff some slots; give one"}
		}
		if a.Balance != nil && a.Balance.Sign() < 0 {
			return &nodeaccess.InputError{Arg: arg("balance"), Reason: fmt.Sprintf("negative amount %s", a.Balance)}
		}
	}
	if b := ov.Block; b != nil {
		for _, f := range [...]struct {
			arg string
			v   *big.Int
		}{{"number", b.Number}, {"baseFeePerGas", b.BaseFee}, {"blobBaseFee", b.BlobBaseFee}} {
			if err := checkNonNegative("blockOverride."+f.arg, f.v); err != nil {
				return err
			}
		}
	}
	return nil
}

// appendSlots appends ,"name":{slot:value,…} with the slots in order.
func appendSlots(dst []byte, name string, m map[common.Hash]common.Hash) []byte {
	if m == nil {
		return dst
	}
	keys := make([]common.Hash, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b common.Hash) int { return bytes.Compare(a[:], b[:]) })
	dst = append(dst, `,"`...)
	dst = append(dst, name...)
	dst = append(dst, `":{`...)
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		v := m[k]
		dst = append(dst, `"0x`...)
		dst = hex.AppendEncode(dst, k[:])
		dst = append(dst, `":"0x`...)
		dst = hex.AppendEncode(dst, v[:])
		dst = append(dst, '"')
	}
	return append(dst, '}')
}

// dropFirstComma removes the leading comma of the first member of an object
// opened at start.
func dropFirstComma(dst []byte, start int) []byte {
	if len(dst) > start+1 && dst[start+1] == ',' {
		dst = append(dst[:start+1], dst[start+2:]...)
	}
	return dst
}

// appendJSON appends ,{state},{block} or ,{state} or nothing, with the
// accounts in address order. ov must have passed check.
func (ov *Overrides) appendJSON(dst []byte) []byte {
	if ov.State == nil && ov.Block == nil {
		return dst
	}
	dst = append(dst, ",{"...)
	addrs := make([]common.Address, 0, len(ov.State))
	for a := range ov.State {
		addrs = append(addrs, a)
	}
	slices.SortFunc(addrs, func(a, b common.Address) int { return bytes.Compare(a[:], b[:]) })
	for i, addr := range addrs {
		if i > 0 {
			dst = append(dst, ',')
		}
		a := ov.State[addr]
		dst = append(dst, `"0x`...)
		dst = hex.AppendEncode(dst, addr[:])
		dst = append(dst, `":`...)
		start := len(dst)
		dst = append(dst, '{')
		dst = appendBig(dst, "balance", a.Balance)
		if a.Nonce != nil {
			dst = append(dst, `,"nonce":"0x`...)
			dst = appendHexUint(dst, *a.Nonce)
			dst = append(dst, '"')
		}
		if a.Code != nil {
			dst = append(dst, `,"code":"0x`...)
			dst = hex.AppendEncode(dst, a.Code)
			dst = append(dst, '"')
		}
		dst = appendSlots(dst, "state", a.State)
		dst = appendSlots(dst, "stateDiff", a.StateDiff)
		dst = append(dropFirstComma(dst, start), '}')
	}
	dst = append(dst, '}')
	b := ov.Block
	if b == nil {
		return dst
	}
	dst = append(dst, ',')
	start := len(dst)
	dst = append(dst, '{')
	dst = appendBig(dst, "number", b.Number)
	if b.Time != nil {
		dst = append(dst, `,"time":"0x`...)
		dst = appendHexUint(dst, *b.Time)
		dst = append(dst, '"')
	}
	if b.GasLimit != nil {
		dst = append(dst, `,"gasLimit":"0x`...)
		dst = appendHexUint(dst, *b.GasLimit)
		dst = append(dst, '"')
	}
	if b.FeeRecipient != nil {
		dst = append(dst, `,"feeRecipient":"0x`...)
		dst = hex.AppendEncode(dst, b.FeeRecipient[:])
		dst = append(dst, '"')
	}
	if b.PrevRandao != nil {
		dst = append(dst, `,"prevRandao":"0x`...)
		dst = hex.AppendEncode(dst, b.PrevRandao[:])
		dst = append(dst, '"')
	}
	dst = appendBig(dst, "baseFeePerGas", b.BaseFee)
	dst = appendBig(dst, "blobBaseFee", b.BlobBaseFee)
	return append(dropFirstComma(dst, start), '}')
}
