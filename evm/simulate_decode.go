package evm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nodeaccess/nodeaccess"
)

// simBlockWire is a block of eth_simulateV1's result as it comes: the
// header's members this package types, the transactions and the calls.
// Quantities are read as text, so that leading zeros do not fail them.
type simBlockWire struct {
	Number        *string           `json:"number"`
	Hash          *common.Hash      `json:"hash"`
	ParentHash    common.Hash       `json:"parentHash"`
	Timestamp     *string           `json:"timestamp"`
	GasLimit      *string           `json:"gasLimit"`
	GasUsed       *string           `json:"gasUsed"`
	Miner         common.Address    `json:"miner"`
	BaseFeePerGas *string           `json:"baseFeePerGas"`
	Transactions  []json.RawMessage `json:"transactions"`
	Calls         *[]simCallWire    `json:"calls"`
}

// simCallWire is a call result as it comes.
type simCallWire struct {
	Status     *string      `json:"status"`
	ReturnData *string      `json:"returnData"`
	GasUsed    *string      `json:"gasUsed"`
	MaxUsedGas *string      `json:"maxUsedGas"`
	Logs       []*types.Log `json:"logs"`
	Error      *struct {
		Code    *int   `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data"`
	} `json:"error"`
}

// decodeSimulation decodes eth_simulateV1's result: an array of blocks,
// each with its calls. A member the spec requires that is missing or
// malformed fails the whole result (the caller makes it an
// ErrInvalidResponse error showing the body); members it does not type stay
// in each block's Raw. mask masks the access key in the nodes' messages.
func decodeSimulation(raw []byte, mask func(string) string) ([]SimulatedBlock, error) {
	var blocks []json.RawMessage
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, fmt.Errorf("want an array of blocks: %w", err)
	}
	if blocks == nil {
		return nil, errors.New("want an array of blocks, got null")
	}
	out := make([]SimulatedBlock, len(blocks))
	for i, rb := range blocks {
		if err := decodeSimBlock(&out[i], rb, mask); err != nil {
			return nil, fmt.Errorf("block %d: %w", i, err)
		}
	}
	return out, nil
}

// decodeSimBlock decodes one block of the result into b.
func decodeSimBlock(b *SimulatedBlock, raw json.RawMessage, mask func(string) string) error {
	var w simBlockWire
	if err := json.Unmarshal(raw, &w); err != nil {
		return err
	}
	if w.Hash == nil || w.Calls == nil {
		return errors.New("no hash or no calls")
	}
	b.Hash, b.ParentHash, b.FeeRecipient = *w.Hash, w.ParentHash, w.Miner
	b.Raw = bytes.Clone(raw)
	for _, q := range [...]struct {
		name     string
		v        *string
		dst      *uint64
		optional bool
	}{{"number", w.Number, &b.Number, false}, {"timestamp", w.Timestamp, &b.Timestamp, false},
		{"gasLimit", w.GasLimit, &b.GasLimit, false}, {"gasUsed", w.GasUsed, &b.GasUsed, false}} {
		if err := decodeUint(q.name, q.v, q.dst, q.optional); err != nil {
			return err
		}
	}
	if w.BaseFeePerGas != nil {
		v, err := parseQuantity(*w.BaseFeePerGas)
		if err != nil {
			return fmt.Errorf("baseFeePerGas: %w", err)
		}
		b.BaseFee = v
	}
	b.TxHashes = make([]common.Hash, len(w.Transactions))
	for i, tx := range w.Transactions {
		if err := json.Unmarshal(tx, &b.TxHashes[i]); err == nil {
			continue
		}
		var obj struct {
			Hash *common.Hash `json:"hash"`
		}
		if err := json.Unmarshal(tx, &obj); err != nil || obj.Hash == nil {
			return fmt.Errorf("transaction %d is neither a hash nor an object with one", i)
		}
		b.TxHashes[i] = *obj.Hash
	}
	b.Calls = make([]SimulatedCall, len(*w.Calls))
	for i := range *w.Calls {
		if err := decodeSimCall(&b.Calls[i], &(*w.Calls)[i], mask); err != nil {
			return fmt.Errorf("call %d: %w", i, err)
		}
	}
	return nil
}

// decodeUint reads the hex quantity v, named name, into dst; nil is an
// error unless optional.
func decodeUint(name string, v *string, dst *uint64, optional bool) error {
	if v == nil {
		if optional {
			return nil
		}
		return fmt.Errorf("no %s", name)
	}
	n, err := parseQuantity(*v)
	if err != nil || !n.IsUint64() {
		return fmt.Errorf("%s %q is not a 64-bit hex quantity", name, *v)
	}
	*dst = n.Uint64()
	return nil
}

// decodeSimCall decodes one call result into c.
func decodeSimCall(c *SimulatedCall, w *simCallWire, mask func(string) string) error {
	if w.Status == nil {
		return errors.New("no status")
	}
	switch *w.Status {
	case "0x1":
		c.Success = true
	case "0x0":
	default:
		return fmt.Errorf("status %q is neither 0x0 nor 0x1", *w.Status)
	}
	if w.ReturnData == nil {
		return errors.New("no returnData")
	}
	data, err := decodeHex(*w.ReturnData)
	if err != nil {
		return fmt.Errorf("returnData: %w", err)
	}
	c.ReturnData = data
	if err := decodeUint("gasUsed", w.GasUsed, &c.GasUsed, false); err != nil {
		return err
	}
	if err := decodeUint("maxUsedGas", w.MaxUsedGas, &c.MaxUsedGas, true); err != nil {
		return err
	}
	c.Logs = w.Logs
	switch {
	case c.Success && w.Error != nil:
		return errors.New("status 0x1 with an error")
	case c.Success:
		return nil
	case w.Error == nil || w.Error.Code == nil:
		return errors.New("status 0x0 without an error code")
	}
	rpcErr := &nodeaccess.RPCError{Code: *w.Error.Code, Message: mask(w.Error.Message), Data: w.Error.Data}
	c.Err = callError(rpcErr, mask)
	return nil
}

// callError classifies a simulated call's error object: a revert (see
// asRevert: code 3, or a message that speaks of a revert, such as
// -32000 "execution reverted", in any case) is a *RevertError; anything
// else stays the *nodeaccess.RPCError. One exception: a code 3 whose
// message does not speak of a revert and that carries no data is a halt
// (out of gas, an invalid opcode), as reth gave halts code 3 before it took
// the spec's -32015.
func callError(re *nodeaccess.RPCError, mask func(string) string) error {
	if re.Code == 3 && re.Data == nil && !mentionsRevert(re.Message) {
		return re
	}
	return asRevert(re, mask)
}
