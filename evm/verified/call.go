package verified

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/consensus/misc/eip4844"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/verified/internal/vmstate"
)

const (
	// callGas is the gas a call without Gas runs with, and the most any
	// call gets: go-ethereum's eth_call gas cap (RPCGasCap), so that a
	// call runs as a node's eth_call runs it.
	callGas = 50_000_000
	// callTimeout is how long the local run may take (go-ethereum's
	// RPCEVMTimeout).
	callTimeout = 5 * time.Second
	// maxRounds is how many batches of proofs a call may need after the
	// access list's: the first, and more for reads the access list left
	// out, each fetched and the call run again.
	maxRounds = 4
	// maxListed bounds the access list an answer may give: accounts and
	// slots together.
	maxListed = 10_000
)

// accessListResult is eth_createAccessList's answer: only a hint of what
// the call reads, checked by running the call over proofs.
type accessListResult struct {
	AccessList types.AccessList `json:"accessList"`
}

// chains are the fork schedules a verified call runs under, by chain id:
// the chains a beacon light client follows, and evmtest's (1337).
var chains = map[uint64]*params.ChainConfig{
	1:        params.MainnetChainConfig,
	11155111: params.SepoliaChainConfig,
	560048:   params.HoodiChainConfig,
	1337:     params.AllDevChainProtocolChanges,
}

// Call runs msg at block as eth_call would, and returns what the call
// returns, computed here with go-ethereum's EVM over state proven against
// the block's state root, so that the result is what the chain computes at
// that block whatever the provider says.
//
// It asks the provider what the call touches (eth_createAccessList, in a
// batch with the block's header and eth_chainId), then fetches in one
// JSON-RPC batch the proof of every account the list names (with its
// slots) and of the sender and the callee, and their code; it verifies
// them all (as Account and Code do) and runs the call over them. A read
// the access list left out is never guessed: it is fetched with a proof
// and the call run again, up to 4 batches in all (a node that answers
// eth_createAccessList with an error leaves every read to these batches);
// a call that still reads
// what is not proven, or that reads the hash of a block other than the
// parent's (BLOCKHASH), is an error matching nodeaccess.ErrUnverified. So
// a call costs 2 round trips when the access list is whole (after what the
// block selector needs), and the request units of eth_createAccessList,
// eth_chainId (on the first call only), the header, and one eth_getProof
// and one eth_getCode per account.
//
// The call runs with the sender's proven nonce (or msg.Nonce), msg.Gas or
// 50,000,000 gas (go-ethereum's eth_call cap), a zero base fee when no fee
// is given, as go-ethereum's eth_call runs it, and the fork rules of the
// chain eth_chainId names (Ethereum mainnet, Sepolia, Hoodi, and evmtest's
// 1337; another chain is refused): the chain id is the provider's word,
// read once per Client. A revert is an *evm.RevertError (errors.As); an
// EVM failure (out of gas, an invalid opcode) an *nodeaccess.RPCError of
// code -32000 with go-ethereum's message, as a node answers it.
// msg.StateOverride and msg.BlockOverride are refused with an
// *nodeaccess.InputError (no proof can back them), nothing sent.
func (v *Client) Call(ctx context.Context, msg evm.CallMsg, block evm.Block) ([]byte, error) {
	const op = "eth_call"
	switch {
	case msg.StateOverride != nil:
		return nil, opError(op, &nodeaccess.InputError{Arg: "msg.StateOverride", Reason: "a verified call runs over the chain's proven state only: no override"})
	case msg.BlockOverride != nil:
		return nil, opError(op, &nodeaccess.InputError{Arg: "msg.BlockOverride", Reason: "a verified call runs in the proven block only: no override"})
	case msg.Create && msg.To != (common.Address{}):
		return nil, opError(op, &nodeaccess.InputError{Arg: "msg.To", Reason: "a contract creation has no To"})
	}
	a, err := v.start(ctx, op, block)
	if err != nil {
		return nil, err
	}
	// Round 1: what the call touches, the header, the chain id.
	var b evm.Batch
	var hr *evm.BatchResult[*types.Header]
	if a.header == nil {
		hr = headerByHash(&b, a.hash)
	}
	cr := (*evm.BatchResult[hexutil.Big])(nil)
	config := v.config.Load()
	if config == nil {
		cr = evm.Add[hexutil.Big](&b, "eth_chainId")
	}
	lr := evm.Add[accessListResult](&b, "eth_createAccessList", msg, evm.BlockHash{Hash: a.hash})
	if err := v.c.SendBatch(ctx, &b); err != nil {
		return nil, opError(op, err)
	}
	if hr != nil {
		if a.header, err = checkHeader(hr, a.hash); err != nil {
			return nil, opError(op, err)
		}
	}
	if cr != nil {
		id, err := cr.Result()
		if err != nil {
			return nil, opError(op, err)
		}
		cfg, ok := chains[id.ToInt().Uint64()]
		if !ok || !id.ToInt().IsUint64() {
			return nil, opError(op, &nodeaccess.InputError{Arg: "c", Reason: fmt.Sprintf("chain id %s: no fork schedule known for it (Ethereum mainnet, Sepolia and Hoodi are), so no call can be run here", id.ToInt())})
		}
		v.config.Store(cfg)
		config = cfg
	}
	list, err := lr.Result()
	var rpcErr *nodeaccess.RPCError
	if err != nil {
		if !errors.As(err, &rpcErr) {
			return nil, opError(op, err)
		}
		// The node answers eth_createAccessList with an error of its own
		// (it does not serve the method, or fails the call rather than
		// listing what it read): the proofs find what the call reads, a
		// batch a step, from the sender and the callee.
		list = accessListResult{}
	}
	qs, err := firstQueries(msg, list.AccessList)
	if err != nil {
		return nil, opError(op, err)
	}
	st := vmstate.Proven{}
	for round := 1; ; round++ {
		ps, err := v.prove(ctx, &a, qs, true)
		if err != nil {
			return nil, opError(op, err)
		}
		for i, q := range qs {
			p := ps[i]
			st.Add(q.addr, vmstate.Account{Balance: p.acc.Balance, Nonce: p.acc.Nonce, CodeHash: p.acc.CodeHash, StorageRoot: p.acc.StorageRoot, Code: p.code}, q.slots, p.values)
		}
		ret, g, err := run(ctx, config, a.header, st, msg)
		if err != nil {
			return nil, opError(op, err)
		}
		if g.BlockHash != nil {
			return nil, opError(op, unverified("the call reads the hash of block %s (BLOCKHASH), which this client does not prove (the parent's only)", g.BlockHash))
		}
		if len(g.Missing) == 0 {
			out, err := ret()
			if err != nil {
				return nil, opError(op, err)
			}
			return out, nil
		}
		if round == maxRounds {
			return nil, opError(op, unverified("after %d batches of proofs the call still reads %s the proofs do not cover: the access list left them out", round, g.Describe()))
		}
		qs = qs[:0]
		for addr, slots := range g.Missing {
			q := query{addr: addr}
			for k := range slots {
				q.slots = append(q.slots, k)
			}
			qs = append(qs, q)
		}
	}
}

// firstQueries are the accounts the first batch proves: the sender, the
// callee, and every account of the access list with its slots, each once.
func firstQueries(msg evm.CallMsg, list types.AccessList) ([]query, error) {
	n := len(list)
	for _, t := range list {
		n += len(t.StorageKeys)
	}
	if n > maxListed {
		return nil, fmt.Errorf("%w: the access list names %d accounts and slots, more than the %d a call is proven for", nodeaccess.ErrInvalidResponse, n, maxListed)
	}
	at := map[common.Address]int{}
	var qs []query
	addAcc := func(a common.Address) int {
		if i, ok := at[a]; ok {
			return i
		}
		at[a] = len(qs)
		qs = append(qs, query{addr: a})
		return len(qs) - 1
	}
	addAcc(msg.From)
	if !msg.Create {
		addAcc(msg.To)
	}
	for _, t := range list {
		i := addAcc(t.Address)
		for _, k := range t.StorageKeys {
			if !containsHash(qs[i].slots, k) {
				qs[i].slots = append(qs[i].slots, k)
			}
		}
	}
	return qs, nil
}

func containsHash(hs []common.Hash, h common.Hash) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

// run runs msg once over the proven state st in the block of header, as
// go-ethereum's eth_call does. It returns the guard (the reads outside st)
// and, to call when there were none, the call's outcome.
func run(ctx context.Context, config *params.ChainConfig, header *types.Header, st vmstate.Proven, msg evm.CallMsg) (func() ([]byte, error), *vmstate.Guard, error) {
	random := (*common.Hash)(nil)
	if header.Difficulty == nil || header.Number == nil {
		return nil, nil, unverified("the header has no difficulty or number")
	}
	if header.Difficulty.Sign() == 0 {
		random = &header.MixDigest
	}
	if err := checkForks(config, header); err != nil {
		return nil, nil, err
	}
	rules := config.Rules(header.Number, random != nil, header.Time)
	g, err := st.StateDB(rules, header.Number.Uint64())
	if err != nil {
		return nil, nil, err
	}
	parent := new(big.Int).Sub(header.Number, big.NewInt(1))
	blockCtx := vm.BlockContext{
		CanTransfer: core.CanTransfer,
		Transfer:    core.Transfer,
		GetHash: func(n uint64) common.Hash {
			if header.Number.Sign() > 0 && n == parent.Uint64() {
				return header.ParentHash
			}
			if g.BlockHash == nil {
				g.BlockHash = new(big.Int).SetUint64(n)
			}
			return common.Hash{}
		},
		Coinbase:         header.Coinbase,
		BlockNumber:      new(big.Int).Set(header.Number),
		Time:             header.Time,
		Difficulty:       new(big.Int).Set(header.Difficulty),
		GasLimit:         header.GasLimit,
		Random:           random,
		CostPerStateByte: params.CostPerStateByte,
	}
	if header.BaseFee != nil {
		blockCtx.BaseFee = new(big.Int).Set(header.BaseFee)
	}
	if header.ExcessBlobGas != nil {
		blockCtx.BlobBaseFee = blobFee(config, header)
	}
	if header.SlotNumber != nil {
		blockCtx.SlotNum = *header.SlotNumber
	}
	m, err := message(msg, header.BaseFee, g)
	if err != nil {
		return nil, nil, err
	}
	if m.GasPrice.Sign() == 0 {
		blockCtx.BaseFee = new(big.Int)
	}
	if m.BlobGasFeeCap != nil && m.BlobGasFeeCap.BitLen() == 0 {
		blockCtx.BlobBaseFee = new(big.Int)
	}
	machine := vm.NewEVM(blockCtx, g, config, vm.Config{NoBaseFee: true})
	defer machine.Release()
	machine.SetPrecompiles(vm.ActivePrecompiledContracts(rules))
	runCtx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	stop := context.AfterFunc(runCtx, machine.Cancel)
	defer stop()
	res, err := core.ApplyMessage(machine, m, core.NewGasPool(callGas))
	if machine.Cancelled() {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%w: the call ran past %v (go-ethereum's eth_call timeout)", nodeaccess.ErrInvalidInput, callTimeout)
	}
	return func() ([]byte, error) {
		switch {
		case err != nil:
			return nil, &nodeaccess.RPCError{Code: -32000, Message: fmt.Sprintf("err: %v (supplied gas %d)", err, m.GasLimit)}
		case errors.Is(res.Err, vm.ErrExecutionReverted):
			return nil, revertError(res.Revert())
		case res.Err != nil:
			return nil, &nodeaccess.RPCError{Code: -32000, Message: res.Err.Error()}
		}
		if out := res.Return(); out != nil {
			return out, nil
		}
		return []byte{}, nil // as package evm returns "0x"
	}, g, nil
}

// message is msg as go-ethereum's eth_call makes its core.Message: the
// gas msg.Gas or the cap, the fees as given (a legacy gas price, or the
// EIP-1559 caps resolved against the base fee), the nonce msg.Nonce or the
// sender's (read through g, so proven), the nonce and EOA checks skipped.
func message(msg evm.CallMsg, baseFee *big.Int, g *vmstate.Guard) (*core.Message, error) {
	u := func(name string, b *big.Int) (*uint256.Int, error) {
		if b == nil {
			return new(uint256.Int), nil
		}
		v, overflow := uint256.FromBig(b)
		if overflow || b.Sign() < 0 {
			return nil, &nodeaccess.InputError{Arg: "msg." + name, Reason: fmt.Sprintf("%s is not a 256-bit amount", b)}
		}
		return v, nil
	}
	value, err := u("Value", msg.Value)
	if err != nil {
		return nil, err
	}
	gasPrice, err := u("GasPrice", msg.GasPrice)
	if err != nil {
		return nil, err
	}
	feeCap, err := u("MaxFeePerGas", msg.MaxFeePerGas)
	if err != nil {
		return nil, err
	}
	tipCap, err := u("MaxPriorityFeePerGas", msg.MaxPriorityFeePerGas)
	if err != nil {
		return nil, err
	}
	price := gasPrice
	switch {
	case msg.GasPrice != nil || baseFee == nil:
		feeCap, tipCap = gasPrice, gasPrice
	default:
		price = new(uint256.Int)
		if feeCap.BitLen() > 0 || tipCap.BitLen() > 0 {
			price.Add(tipCap, uint256.MustFromBig(baseFee))
			if price.Cmp(feeCap) > 0 {
				price = feeCap
			}
		}
	}
	var blobCap *uint256.Int
	if msg.MaxFeePerBlobGas != nil {
		if blobCap, err = u("MaxFeePerBlobGas", msg.MaxFeePerBlobGas); err != nil {
			return nil, err
		}
	}
	gas := msg.Gas
	if gas == 0 || gas > callGas {
		gas = callGas
	}
	m := &core.Message{
		From: msg.From, Value: value, GasLimit: gas, GasPrice: price, GasFeeCap: feeCap, GasTipCap: tipCap,
		Data: msg.Data, AccessList: msg.AccessList, BlobGasFeeCap: blobCap, BlobHashes: msg.BlobHashes,
		SetCodeAuthorizations: msg.AuthorizationList,
	}
	if !msg.Create {
		to := msg.To
		m.To = &to
	}
	if msg.Nonce != nil {
		m.Nonce = *msg.Nonce
	} else {
		m.Nonce = g.GetNonce(msg.From)
	}
	return m.SkipNonceCheck().SkipEOACheck().SkipGasLimitCapCheck().SkipExecutionGasCapCheck(), nil
}

// revertError is the *evm.RevertError of revert data, with its
// Error(string) reason or Panic(uint256) code read as package evm reads
// them.
func revertError(data []byte) error {
	e := &evm.RevertError{Data: data}
	if reason, err := abi.UnpackRevert(data); err == nil {
		if len(data) >= 4 && [4]byte(data[:4]) == [4]byte{0x4e, 0x48, 0x7b, 0x71} {
			e.PanicCode = new(big.Int).SetBytes(data[4:36])
		} else {
			e.Reason = reason
		}
	}
	return e
}

// blobFee is the block's blob base fee (EIP-4844), nil when the fork
// schedule has none for the block (a header and a chain id that disagree:
// the call then runs without one, as go-ethereum would refuse it).
func blobFee(config *params.ChainConfig, header *types.Header) (fee *big.Int) {
	defer func() {
		if recover() != nil {
			fee = nil
		}
	}()
	return eip4844.CalcBlobFee(config, header)
}

// checkForks checks the fork schedule of the chain id the provider gave
// against the anchored header: each fork that adds a header field
// (London's base fee, Shanghai's withdrawals root, Cancun's parent beacon
// root, Prague's requests hash) must be active exactly when the header has
// the field, so that a chain id of another chain cannot make the call run
// under other rules unless that chain's forks agree on this block.
func checkForks(config *params.ChainConfig, h *types.Header) error {
	for _, f := range []struct {
		name   string
		active bool
		has    bool
	}{
		{"London", config.IsLondon(h.Number), h.BaseFee != nil},
		{"Shanghai", config.IsShanghai(h.Number, h.Time), h.WithdrawalsHash != nil},
		{"Cancun", config.IsCancun(h.Number, h.Time), h.ParentBeaconRoot != nil},
		{"Prague", config.IsPrague(h.Number, h.Time), h.RequestsHash != nil},
	} {
		if f.active != f.has {
			return unverified("the chain id the provider gives (%s) has %s active at block %d: %v, but the anchored header says %v", config.ChainID, f.name, h.Number, f.active, f.has)
		}
	}
	return nil
}
