package evm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Simulation is what eth_simulateV1 runs: blocks of calls, one after the
// other on the state of a base block, each call a transaction of its
// simulated block whose changes the calls after it see. It is the
// execution-apis spec's EthSimulatePayload.
type Simulation struct {
	// Blocks are the simulated blocks ("blockStateCalls"), at least one.
	// Nodes cap their number (go-ethereum and reth at 256, counting the
	// empty blocks a gap in the numbers makes; -38026 above it).
	Blocks []SimBlock
	// Validation runs the calls as a block builder would ("validation"):
	// nonces, balances for gas and value, the base fee (which is then the
	// parent's next base fee instead of 0); a call that fails those
	// checks fails the whole request. Without it the calls run as
	// eth_call runs them.
	Validation bool
	// TraceTransfers adds a log for every ether transfer
	// ("traceTransfers"), as an ERC-20 Transfer(from, to, value) emitted
	// by the ERC-7528 address 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE,
	// in its place among the call's logs.
	TraceTransfers bool
	// ReturnFullTransactions has each block list its transactions as
	// whole objects instead of hashes ("returnFullTransactions"); see
	// SimulatedBlock.Raw.
	ReturnFullTransactions bool
}

// SimBlock is one simulated block: its overrides, then its calls. Its
// StateOverride applies before its calls run and stays for the blocks
// after it; its BlockOverride sets the block's header fields (a number or
// time left nil is the previous block's plus one, and plus the chain's
// block time, 12 seconds on go-ethereum). Numbers must increase (a gap is
// filled with empty blocks), and so must times: a block's time must be
// after the time of every block before it.
type SimBlock struct {
	// StateOverride changes accounts before the block's calls
	// ("stateOverrides"); nil changes none.
	StateOverride StateOverride
	// BlockOverride sets fields of the block ("blockOverrides"); nil sets
	// none.
	BlockOverride *BlockOverride
	// Calls run in order, each a transaction of the block ("calls"). Each
	// is a whole call object; its data goes under the client's call data
	// members (WithCallDataMembers). A call carries no overrides of its
	// own: its StateOverride and BlockOverride must be nil (set them on
	// the block). Without Gas a call may use what is left of the block's
	// gas limit, so that the calls of a block share it.
	Calls []CallMsg
}

// SimulatedBlock is one block eth_simulateV1 made: its header's main
// fields, the results of its calls, and the whole block object as the node
// sent it.
type SimulatedBlock struct {
	// Number is the block's number.
	Number uint64
	// Hash is the simulated block's hash (the logs' BlockHash).
	Hash common.Hash
	// ParentHash is the hash of the block before it (the base block's for
	// the first).
	ParentHash common.Hash
	// Timestamp is the block's time in seconds.
	Timestamp uint64
	// GasLimit and GasUsed are the block's.
	GasLimit, GasUsed uint64
	// FeeRecipient is the block's coinbase ("miner").
	FeeRecipient common.Address
	// BaseFee is the block's base fee in wei ("baseFeePerGas"): 0 without
	// Validation unless overridden; nil when the node sent none.
	BaseFee *big.Int
	// TxHashes are the hashes of the block's transactions, one per call,
	// whether the node listed hashes or, with ReturnFullTransactions,
	// whole transactions (which Raw holds).
	TxHashes []common.Hash
	// Calls are the results of the block's calls, in order.
	Calls []SimulatedCall
	// Raw is the block object as the node sent it (header fields, the
	// transactions, the calls), except that the access key, where the
	// node echoed it, reads "REDACTED".
	Raw json.RawMessage
}

// SimulatedCall is the result of one simulated call.
type SimulatedCall struct {
	// Success is the call's status: true for 0x1, false for 0x0.
	Success bool
	// ReturnData is what the call returned: empty when it failed (the
	// revert data is in Err).
	ReturnData []byte
	// GasUsed is the gas the call used, after refunds.
	GasUsed uint64
	// MaxUsedGas is the most gas the call used at any point before
	// refunds ("maxUsedGas"): the gas limit it needs. 0 when the node did
	// not send it (nodes before the spec added it).
	MaxUsedGas uint64
	// Logs are the call's logs as go-ethereum types them, with the
	// simulated block's number, hash and time; with
	// Simulation.TraceTransfers they include the transfer logs. Empty
	// when the call failed.
	Logs []*types.Log
	// Err is nil when Success is true. A revert is a *RevertError
	// (matching ErrReverted, with the revert data and its reason or panic
	// code), whatever code the node gives it: 3 (the spec's since
	// execution-apis PR #748, and current go-ethereum, reth, Nethermind,
	// Erigon and Besu) or -32000 with "execution reverted" in any case
	// (their code before). Another failure (out of gas, an invalid opcode: the
	// spec's -32015) is a *nodeaccess.RPCError with the node's code and
	// message. Its RPC member, and the RPCError, are the error object of
	// the call's result, not of the request.
	Err error
}

// SimulateV1 runs sim with eth_simulateV1 on the state after block (nil is
// latest), and returns the blocks the node simulated: one per SimBlock,
// and an empty one for each number a gap between overridden numbers
// skips. The answer is checked against sim: its blocks in order, one per
// SimBlock with one result per call and the number the SimBlock
// overrides, and only empty blocks between them; an answer of another
// shape (a block or a call result missing or extra) is an error matching
// nodeaccess.ErrInvalidResponse, so that a call's result is never taken
// for another's. Nothing is sent to the chain: the results only say what would
// happen. It costs 1 request unit unless nodeaccess.WithCost names
// "eth_simulateV1" (a provider that prices by method may charge it more
// than an eth_call: give it that cost). In a Batch, Add sends one, typed
// alike: Add[[]SimulatedBlock](&b, "eth_simulateV1", sim, block).
//
// Each call's result holds its status, return data, gas, logs and error;
// a call that reverts or fails does not fail the request. The request
// itself fails with the node's *nodeaccess.RPCError when the simulation
// cannot run, with the spec's codes: -38010 and -38011 a nonce too low
// or too high, -38012 a fee below the base fee, -38013 gas below the
// intrinsic gas, -38014 funds short of gas and value, -38015 a call's gas
// above what is left of the block's, -38020 and -38021 block numbers and
// times out of order, -38026 a node's limit (too many blocks or calls),
// -32602 bad parameters, -32000 others (go-ethereum's "header not found"
// for a block it does not have, its request-wide gas cap exhausted).
// Nodes without the method answer -32601.
//
// sim is checked before anything is sent: no blocks, a bad call (as Call
// checks it), a call with overrides of its own, bad overrides, block
// numbers that do not increase (a block without a number is the one after
// the block before it) or times that do not increase: each is a
// *nodeaccess.InputError naming the block and call.
func (c *Client) SimulateV1(ctx context.Context, sim Simulation, block Block) ([]SimulatedBlock, error) {
	const op = OpSimulate
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(op, err)
	}
	bp := transport.GetBuf()
	defer transport.PutBuf(bp)
	params, err := simulateParams((*bp)[:0], &sim, block, c.callData)
	*bp = params
	if err == nil {
		err = c.checkLatest(notLatest(block))
	}
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	shape := shapeOf(&sim)
	out, err := rpc(ctx, c, op, params, 0, func(raw []byte) ([]SimulatedBlock, error) {
		return decodeShaped(raw, c.t.Mask, shape)
	})
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	return out, nil
}

// simulateParams checks sim and appends eth_simulateV1's params to dst:
// the payload (appendSimulation) and the block. An error is an
// *nodeaccess.InputError naming the bad block, call or member; nothing is
// to be sent.
func simulateParams(dst []byte, sim *Simulation, block Block, spell callDataSpelling) ([]byte, error) {
	dst, err := appendSimulation(append(dst, '['), sim, spell)
	if err != nil {
		return dst, err
	}
	dst, err = appendBlockJSON(append(dst, ','), block)
	if err != nil {
		return dst, err
	}
	return append(dst, ']'), nil
}

// appendSimulation checks sim and appends it to dst as the spec's
// EthSimulatePayload, with the members that are set, its calls' data under
// the members spell names.
func appendSimulation(dst []byte, sim *Simulation, spell callDataSpelling) ([]byte, error) {
	if err := sim.check(); err != nil {
		return dst, err
	}
	dst = append(dst, `{"blockStateCalls":[`...)
	for i := range sim.Blocks {
		sb := &sim.Blocks[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		start := len(dst)
		dst = append(dst, '{')
		if sb.BlockOverride != nil {
			dst = appendBlockOverride(append(dst, `,"blockOverrides":`...), sb.BlockOverride)
		}
		if sb.StateOverride != nil {
			dst = appendStateOverride(append(dst, `,"stateOverrides":`...), sb.StateOverride)
		}
		if len(sb.Calls) > 0 {
			dst = append(dst, `,"calls":[`...)
			for j := range sb.Calls {
				if j > 0 {
					dst = append(dst, ',')
				}
				var err error
				if dst, err = sb.Calls[j].appendJSON(dst, spell); err != nil {
					return dst, inBlock(i, j, err)
				}
			}
			dst = append(dst, ']')
		}
		dst = append(dropFirstComma(dst, start), '}')
	}
	dst = append(dst, ']')
	for _, f := range [...]struct {
		name string
		on   bool
	}{{"traceTransfers", sim.TraceTransfers}, {"validation", sim.Validation}, {"returnFullTransactions", sim.ReturnFullTransactions}} {
		if f.on {
			dst = append(dst, `,"`...)
			dst = append(dst, f.name...)
			dst = append(dst, `":true`...)
		}
	}
	return append(dst, '}'), nil
}

// inBlock names the block (and call, when j >= 0) of an input error.
func inBlock(i, j int, err error) error {
	var ie *nodeaccess.InputError
	if !errors.As(err, &ie) {
		return err
	}
	arg := fmt.Sprintf("blockStateCalls[%d].", i)
	if j >= 0 {
		arg += fmt.Sprintf("calls[%d].", j)
	}
	return &nodeaccess.InputError{Arg: arg + ie.Arg, Reason: ie.Reason}
}

// check validates the simulation before anything is sent.
func (sim *Simulation) check() error {
	if len(sim.Blocks) == 0 {
		return &nodeaccess.InputError{Arg: "blockStateCalls", Reason: "no blocks: a simulation runs at least one"}
	}
	var lastNumber *big.Int
	var lastTime *uint64
	for i := range sim.Blocks {
		sb := &sim.Blocks[i]
		if err := checkOverrides(sb.StateOverride, sb.BlockOverride); err != nil {
			return inBlock(i, -1, err)
		}
		for j := range sb.Calls {
			m := &sb.Calls[j]
			if m.StateOverride != nil || m.BlockOverride != nil {
				return inBlock(i, j, &nodeaccess.InputError{Arg: "overrides", Reason: "a simulated call has no overrides of its own: set them on its SimBlock, before its calls"})
			}
			if err := m.check(); err != nil {
				return inBlock(i, j, err)
			}
		}
		var number *big.Int
		var time *uint64
		if bo := sb.BlockOverride; bo != nil {
			number, time = bo.Number, bo.Time
		}
		switch {
		case number != nil:
			if lastNumber != nil && number.Cmp(lastNumber) <= 0 {
				return inBlock(i, -1, &nodeaccess.InputError{Arg: "blockOverride.number", Reason: fmt.Sprintf("%s does not follow the number %s of a block before it", number, lastNumber)})
			}
			lastNumber = number
		case lastNumber != nil:
			// A block without a number is the one after the block
			// before it.
			lastNumber = new(big.Int).Add(lastNumber, big.NewInt(1))
		}
		if time != nil {
			if lastTime != nil && *time <= *lastTime {
				return inBlock(i, -1, &nodeaccess.InputError{Arg: "blockOverride.time", Reason: fmt.Sprintf("%d is not after the time %d of a block before it", *time, *lastTime)})
			}
			lastTime = time
		}
	}
	return nil
}
