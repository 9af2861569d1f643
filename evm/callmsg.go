package evm

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nodeaccess/nodeaccess"
)

// CallMsg is what eth_call runs: its call object, with every member the
// execution API's call object takes, and, optionally, the state and block
// overrides of its third and fourth parameters. Each field that is set is
// sent; a field that is unset (zero, nil or empty) is left out. A message
// that cannot be sent as it is, such as GasPrice together with
// MaxFeePerGas, is refused with a *nodeaccess.InputError naming the field,
// and nothing is sent. No field is ever dropped.
//
// The members of the call object are spelt as go-ethereum's ethclient and
// the execution-apis spec spell them: from, to, gas, gasPrice,
// maxFeePerGas, maxPriorityFeePerGas, value, data (or input, see
// WithCallDataMembers), accessList, maxFeePerBlobGas, blobVersionedHashes,
// authorizationList, nonce, chainId, type.
type CallMsg struct {
	// From is the sender; the zero address is left out (nodes then use the
	// zero address, so the effect is the same).
	From common.Address
	// To is the account called. The zero address is a valid target and is
	// sent. With Create it must be the zero address and is not sent.
	To common.Address
	// Create makes the call a contract creation: no "to" is sent, and Data
	// is the init code; the call returns the code the constructor returns.
	// go-ethereum's CallMsg says this with a nil To.
	Create bool
	// Gas caps the gas of the call; 0 is left out (the node's cap applies).
	Gas uint64
	// GasPrice in wei (a legacy or EIP-2930 fee); nil is left out. Must not
	// be negative, nor be set together with MaxFeePerGas or
	// MaxPriorityFeePerGas.
	GasPrice *big.Int
	// MaxFeePerGas is EIP-1559's fee cap in wei (go-ethereum's GasFeeCap);
	// nil is left out. Must not be negative.
	MaxFeePerGas *big.Int
	// MaxPriorityFeePerGas is EIP-1559's tip cap in wei (go-ethereum's
	// GasTipCap); nil is left out. Must not be negative nor, when
	// MaxFeePerGas is set, above it.
	MaxPriorityFeePerGas *big.Int
	// Value sent with the call in wei; nil is left out. Must not be negative.
	Value *big.Int
	// Data is the call data (selector and ABI-encoded arguments), or the
	// init code with Create; empty is left out. It is sent as "data", the
	// member every node reads, unless the client was made with
	// WithCallDataMembers (see the package documentation).
	Data []byte
	// AccessList is EIP-2930's list of accounts and storage slots warmed
	// before the call; nil is left out, an empty non-nil list is sent as [].
	AccessList types.AccessList
	// MaxFeePerBlobGas is EIP-4844's blob fee cap in wei (go-ethereum's
	// BlobGasFeeCap); nil is left out. Must not be negative.
	MaxFeePerBlobGas *big.Int
	// BlobHashes are EIP-4844's versioned hashes of the blobs, sent as
	// blobVersionedHashes; nil is left out. A blob call cannot be a
	// contract creation.
	BlobHashes []common.Hash
	// AuthorizationList is EIP-7702's list of signed code delegations; nil
	// is left out. A call with one cannot be a contract creation.
	AuthorizationList []types.SetCodeAuthorization
	// Nonce is the sender's nonce the call runs with, sent as "nonce"; nil
	// is left out (the node takes the account's). eth_call does not check
	// it; eth_simulateV1 with Simulation.Validation refuses a nonce that
	// is not the account's.
	Nonce *uint64
	// ChainID is the chain the call is meant for, sent as "chainId"; nil
	// is left out. go-ethereum refuses a call whose chain id is not the
	// node's. Must not be negative.
	ChainID *big.Int
	// Type is the EIP-2718 transaction type the call is run as (0 legacy,
	// 1 access list, 2 EIP-1559, 3 blob, 4 EIP-7702), sent as "type"; nil
	// is left out. go-ethereum and Erigon ignore it and take the type from
	// the fee members; reth, anvil, Nethermind and Hardhat read it. At most
	// 0x7f (EIP-2718's range).
	Type *uint8

	// StateOverride changes accounts for this call only (balance, nonce,
	// code, storage), sent as eth_call's third parameter; nil sends none.
	// A bad override (State and StateDiff on one account, a negative
	// amount) is refused with a *nodeaccess.InputError naming it.
	StateOverride StateOverride
	// BlockOverride replaces fields of the block the call runs in, sent as
	// eth_call's fourth parameter (with an empty {} as the third when
	// StateOverride is nil); nil sends none.
	BlockOverride *BlockOverride
}

// checkNonNegative refuses a negative amount, naming the member.
func checkNonNegative(arg string, v *big.Int) error {
	if v != nil && v.Sign() < 0 {
		return &nodeaccess.InputError{Arg: arg, Reason: fmt.Sprintf("negative amount %s", v)}
	}
	return nil
}

// check validates the message before anything is sent.
func (m *CallMsg) check() error {
	if m.Create && m.To != (common.Address{}) {
		return &nodeaccess.InputError{Arg: "to", Reason: fmt.Sprintf("a contract creation (Create) has no target, but To is %s", m.To.Hex())}
	}
	for _, f := range [...]struct {
		arg string
		v   *big.Int
	}{{"gasPrice", m.GasPrice}, {"maxFeePerGas", m.MaxFeePerGas}, {"maxPriorityFeePerGas", m.MaxPriorityFeePerGas}, {"value", m.Value}, {"maxFeePerBlobGas", m.MaxFeePerBlobGas}, {"chainId", m.ChainID}} {
		if err := checkNonNegative(f.arg, f.v); err != nil {
			return err
		}
	}
	if m.GasPrice != nil && (m.MaxFeePerGas != nil || m.MaxPriorityFeePerGas != nil) {
		return &nodeaccess.InputError{Arg: "gasPrice", Reason: "set together with maxFeePerGas or maxPriorityFeePerGas: give a legacy gas price or EIP-1559 fees, not both"}
	}
	if m.MaxFeePerGas != nil && m.MaxPriorityFeePerGas != nil && m.MaxPriorityFeePerGas.Cmp(m.MaxFeePerGas) > 0 {
		return &nodeaccess.InputError{Arg: "maxPriorityFeePerGas", Reason: fmt.Sprintf("%s is above maxFeePerGas %s", m.MaxPriorityFeePerGas, m.MaxFeePerGas)}
	}
	if m.Type != nil && *m.Type > 0x7f {
		return &nodeaccess.InputError{Arg: "type", Reason: fmt.Sprintf("0x%x is not an EIP-2718 transaction type (0x0 to 0x7f)", *m.Type)}
	}
	if m.Create && m.BlobHashes != nil {
		return &nodeaccess.InputError{Arg: "blobVersionedHashes", Reason: "a blob call cannot be a contract creation (Create)"}
	}
	if m.Create && m.AuthorizationList != nil {
		return &nodeaccess.InputError{Arg: "authorizationList", Reason: "a call with an authorization list cannot be a contract creation (Create)"}
	}
	if m.StateOverride != nil || m.BlockOverride != nil {
		return checkOverrides(m.StateOverride, m.BlockOverride)
	}
	return nil
}

// appendBig appends ,"name":"0x…" for a set amount.
func appendBig(dst []byte, name string, v *big.Int) []byte {
	if v == nil {
		return dst
	}
	dst = append(dst, `,"`...)
	dst = append(dst, name...)
	dst = append(dst, `":"0x`...)
	dst = v.Append(dst, 16)
	return append(dst, '"')
}

// appendJSON appends the call object with the members that are set, in the
// execution-API spelling (gasPrice, not gasprice), the call data under the
// member names spell says; the overrides are not part of it. The message
// must have passed check.
func (m *CallMsg) appendJSON(dst []byte, spell callDataSpelling) ([]byte, error) {
	// Every member is appended with a leading comma; the first one's is
	// taken out at the end.
	start := len(dst)
	dst = append(dst, '{')
	if m.From != (common.Address{}) {
		dst = append(dst, `,"from":"0x`...)
		dst = hex.AppendEncode(dst, m.From[:])
		dst = append(dst, '"')
	}
	if !m.Create {
		dst = append(dst, `,"to":"0x`...)
		dst = hex.AppendEncode(dst, m.To[:])
		dst = append(dst, '"')
	}
	if m.Gas != 0 {
		dst = append(dst, `,"gas":"0x`...)
		dst = appendHexUint(dst, m.Gas)
		dst = append(dst, '"')
	}
	dst = appendBig(dst, "gasPrice", m.GasPrice)
	dst = appendBig(dst, "maxFeePerGas", m.MaxFeePerGas)
	dst = appendBig(dst, "maxPriorityFeePerGas", m.MaxPriorityFeePerGas)
	dst = appendBig(dst, "value", m.Value)
	if len(m.Data) > 0 {
		if spell != spellInput {
			dst = append(dst, `,"data":"0x`...)
			dst = hex.AppendEncode(dst, m.Data)
			dst = append(dst, '"')
		}
		if spell != spellData {
			dst = append(dst, `,"input":"0x`...)
			dst = hex.AppendEncode(dst, m.Data)
			dst = append(dst, '"')
		}
	}
	if m.AccessList != nil {
		dst = append(dst, `,"accessList":[`...)
		for i, t := range m.AccessList {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"address":"0x`...)
			dst = hex.AppendEncode(dst, t.Address[:])
			dst = append(dst, `","storageKeys":[`...)
			for j, k := range t.StorageKeys {
				if j > 0 {
					dst = append(dst, ',')
				}
				dst = append(dst, `"0x`...)
				dst = hex.AppendEncode(dst, k[:])
				dst = append(dst, '"')
			}
			dst = append(dst, "]}"...)
		}
		dst = append(dst, ']')
	}
	dst = appendBig(dst, "maxFeePerBlobGas", m.MaxFeePerBlobGas)
	if m.BlobHashes != nil {
		dst = append(dst, `,"blobVersionedHashes":[`...)
		for i, h := range m.BlobHashes {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `"0x`...)
			dst = hex.AppendEncode(dst, h[:])
			dst = append(dst, '"')
		}
		dst = append(dst, ']')
	}
	if m.AuthorizationList != nil {
		// go-ethereum's own JSON form of an authorization: chainId, address,
		// nonce, yParity, r, s in hex.
		b, err := json.Marshal(m.AuthorizationList)
		if err != nil {
			return dst, &nodeaccess.InputError{Arg: "authorizationList", Reason: err.Error()}
		}
		dst = append(dst, `,"authorizationList":`...)
		dst = append(dst, b...)
	}
	if m.Nonce != nil {
		dst = append(dst, `,"nonce":"0x`...)
		dst = appendHexUint(dst, *m.Nonce)
		dst = append(dst, '"')
	}
	dst = appendBig(dst, "chainId", m.ChainID)
	if m.Type != nil {
		dst = append(dst, `,"type":"0x`...)
		dst = appendHexUint(dst, uint64(*m.Type))
		dst = append(dst, '"')
	}
	return append(dropFirstComma(dst, start), '}'), nil
}
