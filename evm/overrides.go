package evm

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
)

// StateOverride replaces parts of accounts' state for one call (the field
// of CallMsg): eth_call's third parameter, which go-ethereum, Erigon, reth,
// Nethermind and Besu accept. Each account's changes apply on top of the
// state at the call's block and are thrown away after the call.
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

// BlockOverride replaces fields of the block a call runs in (the field of
// CallMsg): eth_call's fourth parameter, spelt as go-ethereum's
// BlockOverrides. A nil field is left as it is.
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

// checkOverrides validates the overrides before anything is sent.
func checkOverrides(so StateOverride, bo *BlockOverride) error {
	for addr, a := range so {
		arg := func(member string) string { return "stateOverride[" + addr.Hex() + "]." + member }
		if a.State != nil && a.StateDiff != nil {
			return &nodeaccess.InputError{Arg: arg("state"), Reason: "state and stateDiff both set: state replaces the whole storage, stateDiff some slots; give one"}
		}
		if a.Balance != nil && a.Balance.Sign() < 0 {
			return &nodeaccess.InputError{Arg: arg("balance"), Reason: fmt.Sprintf("negative amount %s", a.Balance)}
		}
	}
	if bo != nil {
		for _, f := range [...]struct {
			arg string
			v   *big.Int
		}{{"number", bo.Number}, {"baseFeePerGas", bo.BaseFee}, {"blobBaseFee", bo.BlobBaseFee}} {
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

// appendOverrides appends ,{state},{block} or ,{state} or nothing, with
// the accounts in address order: eth_call's third and fourth parameters.
// The overrides must have passed checkOverrides.
func appendOverrides(dst []byte, so StateOverride, b *BlockOverride) []byte {
	if so == nil && b == nil {
		return dst
	}
	dst = appendStateOverride(append(dst, ','), so)
	if b == nil {
		return dst
	}
	return appendBlockOverride(append(dst, ','), b)
}

// appendStateOverride appends so as a JSON object, {} when nil, with the
// accounts in address order.
func appendStateOverride(dst []byte, so StateOverride) []byte {
	dst = append(dst, '{')
	addrs := make([]common.Address, 0, len(so))
	for a := range so {
		addrs = append(addrs, a)
	}
	slices.SortFunc(addrs, func(a, b common.Address) int { return bytes.Compare(a[:], b[:]) })
	for i, addr := range addrs {
		if i > 0 {
			dst = append(dst, ',')
		}
		a := so[addr]
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
	return append(dst, '}')
}

// appendBlockOverride appends b as a JSON object with the fields that are
// set.
func appendBlockOverride(dst []byte, b *BlockOverride) []byte {
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
