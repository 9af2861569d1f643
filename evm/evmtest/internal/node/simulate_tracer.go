package node

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
)

// transferAddress is the ERC-7528 address that stands for ether in token
// events: the emitter of a simulation's transfer logs.
var transferAddress = common.HexToAddress("0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE")

// transferTopic is the topic of ERC-20's Transfer(address,address,uint256).
var transferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))

// simTracer collects a simulated call's logs as the EVM emits them, frame
// by frame, so that the logs of a frame that reverts are dropped with it;
// with transfers on it also logs every ether transfer (a CALL, CREATE or
// SELFDESTRUCT that moves value; not DELEGATECALL or CALLCODE, which move
// none) as an ERC-20 Transfer from transferAddress. Log indexes run across
// the whole block.
type simTracer struct {
	transfers bool
	number    uint64
	time      uint64
	txHash    common.Hash
	txIndex   uint
	// frames holds the logs of each open call frame, the outermost first.
	frames [][]*types.Log
	// next is the index the next log gets in the block.
	next uint
	// done holds the finished call's logs once its outermost frame ended.
	done []*types.Log
}

func newSimTracer(transfers bool, number, time uint64) *simTracer {
	return &simTracer{transfers: transfers, number: number, time: time}
}

// hooks returns the tracer's hooks for the EVM and the state.
func (t *simTracer) hooks() *tracing.Hooks {
	return &tracing.Hooks{OnEnter: t.enter, OnExit: t.exit, OnLog: t.log}
}

// reset starts the next call of the block.
func (t *simTracer) reset(txHash common.Hash, txIndex uint) {
	t.txHash, t.txIndex, t.frames, t.done = txHash, txIndex, nil, nil
}

// callLogs returns the logs of the call that last ran.
func (t *simTracer) callLogs() []*types.Log { return t.done }

func (t *simTracer) enter(_ int, typ byte, from, to common.Address, _ []byte, _ uint64, value *big.Int) {
	t.frames = append(t.frames, nil)
	op := vm.OpCode(typ)
	if t.transfers && op != vm.DELEGATECALL && op != vm.CALLCODE && value != nil && value.Sign() > 0 {
		t.add(transferAddress, []common.Hash{transferTopic, common.BytesToHash(from[:]), common.BytesToHash(to[:])}, common.BigToHash(value).Bytes())
	}
}

func (t *simTracer) exit(depth int, _ []byte, _ uint64, _ error, reverted bool) {
	n := len(t.frames)
	if n == 0 {
		return
	}
	frame := t.frames[n-1]
	t.frames = t.frames[:n-1]
	if reverted {
		// The frame's logs are the last ones: their indexes are free.
		t.next -= uint(len(frame))
		frame = nil
	}
	if depth == 0 || n == 1 {
		t.done = frame
		return
	}
	t.frames[n-2] = append(t.frames[n-2], frame...)
}

func (t *simTracer) log(l *types.Log) { t.add(l.Address, l.Topics, l.Data) }

// add records a log in the innermost open frame.
func (t *simTracer) add(addr common.Address, topics []common.Hash, data []byte) {
	if len(t.frames) == 0 {
		return
	}
	l := &types.Log{
		Address: addr, Topics: topics, Data: data,
		BlockNumber: t.number, BlockTimestamp: t.time, TxHash: t.txHash, TxIndex: t.txIndex, Index: t.next,
	}
	t.next++
	t.frames[len(t.frames)-1] = append(t.frames[len(t.frames)-1], l)
}
