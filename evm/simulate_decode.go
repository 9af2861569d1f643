package evm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
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

// simShape is what the answer to a Simulation must look like: per SimBlock,
// its overridden number (nil when the node numbers it) and its number of
// calls. It is taken when the call is made, so that a Simulation changed
// after Add is still matched against what was sent.
type simShape []simBlockShape

type simBlockShape struct {
	number *big.Int
	calls  int
}

// shapeOf returns the shape of sim's answer.
func shapeOf(sim *Simulation) simShape {
	s := make(simShape, len(sim.Blocks))
	for i := range sim.Blocks {
		sb := &sim.Blocks[i]
		s[i].calls = len(sb.Calls)
		if sb.BlockOverride != nil && sb.BlockOverride.Number != nil {
			s[i].number = new(big.Int).Set(sb.BlockOverride.Number)
		}
	}
	return s
}

// match checks that blocks answer the simulation of shape s: one block per
// SimBlock, in order, with one call result per call, an overridden number
// where the SimBlock set one, and before it only blocks without calls of
// lower numbers (the empty blocks a node fills a gap with). A nil s
// matches any blocks.
func (s simShape) match(blocks []SimulatedBlock) error {
	if s == nil {
		return nil
	}
	k := 0
	for i, sb := range s {
		if sb.number != nil {
			for k < len(blocks) && new(big.Int).SetUint64(blocks[k].Number).Cmp(sb.number) < 0 {
				if n := len(blocks[k].Calls); n != 0 {
					return fmt.Errorf("block %d (number %d) has %d call results, but it is before the number %s of blockStateCalls[%d], where only empty blocks fill a gap", k, blocks[k].Number, n, sb.number, i)
				}
				k++
			}
		}
		if k == len(blocks) {
			return fmt.Errorf("%d blocks, and none for blockStateCalls[%d] of %d", len(blocks), i, len(s))
		}
		b := &blocks[k]
		if sb.number != nil && new(big.Int).SetUint64(b.Number).Cmp(sb.number) != 0 {
			return fmt.Errorf("block %d has the number %d, want %s (blockStateCalls[%d])", k, b.Number, sb.number, i)
		}
		if len(b.Calls) != sb.calls {
			return fmt.Errorf("block %d (blockStateCalls[%d]) has %d call results for %d calls", k, i, len(b.Calls), sb.calls)
		}
		k++
	}
	if k < len(blocks) {
		return fmt.Errorf("%d blocks: %d more than the %d of blockStateCalls and the gaps between their numbers", len(blocks), len(blocks)-k, len(s))
	}
	return nil
}

// decodeShaped decodes eth_simulateV1's result (decodeSimulation) and
// checks it against the shape of the simulation sent.
func decodeShaped(raw []byte, mask func(string) string, s simShape) ([]SimulatedBlock, error) {
	blocks, err := decodeSimulation(raw, mask)
	if err == nil {
		err = s.match(blocks)
	}
	if err != nil {
		return nil, err
	}
	return blocks, nil
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
	// Raw keeps the node's bytes, with the key masked wherever the node
	// echoed it (a call's error message or data, a revert string): a
	// SimulatedBlock is printed and logged like any value.
	b.Raw = json.RawMessage(mask(string(raw)))
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
	for i, l := range w.Logs {
		if l == nil {
			return fmt.Errorf("log %d is null", i)
		}
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
	rpcErr := &nodeaccess.RPCError{Code: *w.Error.Code, Message: mask(w.Error.Message), Data: transport.MaskValue(w.Error.Data, mask)}
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
