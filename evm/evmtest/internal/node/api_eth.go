package node

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	gmath "github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/consensus/misc/eip4844"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/gasestimator"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// ethAPI is the eth namespace the server answers: what SDK users, ethclient
// and abigen bindings call, each method with go-ethereum's parameters,
// results and errors (its internal/ethapi). Registered with rpc.Server,
// each exported method is served as eth_<name with a lower-case first
// letter>.
type ethAPI struct{ c *Chain }

// ChainId is eth_chainId.
func (api *ethAPI) ChainId() *hexutil.Big { return (*hexutil.Big)(api.c.chainID()) }

// BlockNumber is eth_blockNumber: the head's number.
func (api *ethAPI) BlockNumber() hexutil.Uint64 {
	return hexutil.Uint64(api.c.bc.CurrentBlock().Number.Uint64())
}

// Syncing is eth_syncing: false, the chain never syncs.
func (api *ethAPI) Syncing() bool { return false }

// Accounts is eth_accounts: none, the node holds no keys.
func (api *ethAPI) Accounts() []common.Address { return []common.Address{} }

// GasPrice is eth_gasPrice: the oracle's tip plus the head's base fee.
func (api *ethAPI) GasPrice(ctx context.Context) (*hexutil.Big, error) {
	tip, err := api.c.oracle.SuggestTipCap(ctx)
	if err != nil {
		return nil, err
	}
	if head := api.c.bc.CurrentHeader(); head.BaseFee != nil {
		tip.Add(tip, head.BaseFee)
	}
	return (*hexutil.Big)(tip), nil
}

// MaxPriorityFeePerGas is eth_maxPriorityFeePerGas: the oracle's tip.
func (api *ethAPI) MaxPriorityFeePerGas(ctx context.Context) (*hexutil.Big, error) {
	tip, err := api.c.oracle.SuggestTipCap(ctx)
	if err != nil {
		return nil, err
	}
	return (*hexutil.Big)(tip), nil
}

// feeHistoryResult is eth_feeHistory's result.
type feeHistoryResult struct {
	OldestBlock      *hexutil.Big     `json:"oldestBlock"`
	Reward           [][]*hexutil.Big `json:"reward,omitempty"`
	BaseFee          []*hexutil.Big   `json:"baseFeePerGas,omitempty"`
	GasUsedRatio     []float64        `json:"gasUsedRatio"`
	BlobBaseFee      []*hexutil.Big   `json:"baseFeePerBlobGas,omitempty"`
	BlobGasUsedRatio []float64        `json:"blobGasUsedRatio,omitempty"`
}

// FeeHistory is eth_feeHistory, from go-ethereum's gas price oracle.
func (api *ethAPI) FeeHistory(ctx context.Context, blockCount gmath.HexOrDecimal64, lastBlock rpc.BlockNumber, rewardPercentiles []float64) (*feeHistoryResult, error) {
	oldest, reward, baseFee, gasUsed, blobBaseFee, blobGasUsed, err := api.c.oracle.FeeHistory(ctx, uint64(blockCount), lastBlock, rewardPercentiles)
	if err != nil {
		return nil, err
	}
	big := func(v []*big.Int) []*hexutil.Big {
		if v == nil {
			return nil
		}
		out := make([]*hexutil.Big, len(v))
		for i, x := range v {
			out[i] = (*hexutil.Big)(x)
		}
		return out
	}
	res := &feeHistoryResult{OldestBlock: (*hexutil.Big)(oldest), GasUsedRatio: gasUsed, BaseFee: big(baseFee),
		BlobBaseFee: big(blobBaseFee), BlobGasUsedRatio: blobGasUsed}
	if reward != nil {
		res.Reward = make([][]*hexutil.Big, len(reward))
		for i, r := range reward {
			res.Reward[i] = big(r)
		}
	}
	return res, nil
}

// BlobBaseFee is eth_blobBaseFee: the blob base fee at the head.
func (api *ethAPI) BlobBaseFee() *hexutil.Big {
	head := api.c.bc.CurrentHeader()
	if head.ExcessBlobGas == nil {
		return nil
	}
	return (*hexutil.Big)(eip4844.CalcBlobFee(api.c.config(), head))
}

// orLatest is the block a method reads when its block parameter is left
// out: the latest.
func orLatest(b *rpc.BlockNumberOrHash) rpc.BlockNumberOrHash {
	if b != nil {
		return *b
	}
	return rpc.BlockNumberOrHashWithNumber(rpc.LatestBlockNumber)
}

// GetBalance is eth_getBalance.
func (api *ethAPI) GetBalance(address common.Address, block *rpc.BlockNumberOrHash) (*hexutil.Big, error) {
	st, _, err := api.c.stateAndHeader(orLatest(block))
	if err != nil {
		return nil, err
	}
	return (*hexutil.Big)(st.GetBalance(address).ToBig()), st.Error()
}

// GetCode is eth_getCode.
func (api *ethAPI) GetCode(address common.Address, block *rpc.BlockNumberOrHash) (hexutil.Bytes, error) {
	st, _, err := api.c.stateAndHeader(orLatest(block))
	if err != nil {
		return nil, err
	}
	return st.GetCode(address), st.Error()
}

// invalidParamsError is a JSON-RPC -32602 error.
type invalidParamsError struct{ msg string }

// Error returns the message.
func (e *invalidParamsError) Error() string { return e.msg }

// ErrorCode returns -32602, invalid params.
func (e *invalidParamsError) ErrorCode() int { return -32602 }

// GetStorageAt is eth_getStorageAt. The slot is hex of at most 32 bytes,
// with or without 0x, left-padded.
func (api *ethAPI) GetStorageAt(address common.Address, hexKey string, block *rpc.BlockNumberOrHash) (hexutil.Bytes, error) {
	st, _, err := api.c.stateAndHeader(orLatest(block))
	if err != nil {
		return nil, err
	}
	key, _, err := storageKey(hexKey)
	if err != nil {
		return nil, err
	}
	v := st.GetState(address, key)
	return v[:], st.Error()
}

// GetTransactionCount is eth_getTransactionCount; at "pending" it counts the
// pool's transactions too.
func (api *ethAPI) GetTransactionCount(address common.Address, block *rpc.BlockNumberOrHash) (*hexutil.Uint64, error) {
	bnh := orLatest(block)
	if n, ok := bnh.Number(); ok && n == rpc.PendingBlockNumber {
		nonce := api.c.pool.PoolNonce(address)
		return (*hexutil.Uint64)(&nonce), nil
	}
	st, _, err := api.c.stateAndHeader(bnh)
	if err != nil {
		return nil, err
	}
	nonce := st.GetNonce(address)
	return (*hexutil.Uint64)(&nonce), st.Error()
}

// GetHeaderByNumber is eth_getHeaderByNumber: null for "pending", for a
// block the chain does not have, and for "safe" or "finalized" when unset.
func (api *ethAPI) GetHeaderByNumber(n rpc.BlockNumber) (map[string]any, error) {
	if n == rpc.PendingBlockNumber {
		return nil, nil
	}
	h, err := api.c.headerByNumber(n)
	if err != nil {
		if n == rpc.SafeBlockNumber || n == rpc.FinalizedBlockNumber {
			return nil, nil
		}
		return nil, err
	}
	if h == nil {
		return nil, nil
	}
	return headerJSON(h), nil
}

// GetHeaderByHash is eth_getHeaderByHash.
func (api *ethAPI) GetHeaderByHash(hash common.Hash) map[string]any {
	if h := api.c.bc.GetHeaderByHash(hash); h != nil {
		return headerJSON(h)
	}
	return nil
}

// GetBlockByNumber is eth_getBlockByNumber; the pending block has no hash,
// nonce or miner.
func (api *ethAPI) GetBlockByNumber(n rpc.BlockNumber, full bool) (map[string]any, error) {
	b, err := api.c.blockByNumber(n)
	if b == nil || err != nil {
		return nil, err
	}
	m := blockJSON(b, full, api.c.config())
	if n == rpc.PendingBlockNumber {
		for _, f := range []string{"hash", "nonce", "miner"} {
			m[f] = nil
		}
	}
	return m, nil
}

// GetBlockByHash is eth_getBlockByHash: any block the chain has, canonical
// or not.
func (api *ethAPI) GetBlockByHash(hash common.Hash, full bool) map[string]any {
	if b := api.c.bc.GetBlockByHash(hash); b != nil {
		return blockJSON(b, full, api.c.config())
	}
	return nil
}

// GetBlockTransactionCountByNumber is eth_getBlockTransactionCountByNumber.
func (api *ethAPI) GetBlockTransactionCountByNumber(n rpc.BlockNumber) (*hexutil.Uint, error) {
	b, err := api.c.blockByNumber(n)
	if b == nil || err != nil {
		return nil, err
	}
	count := hexutil.Uint(len(b.Transactions()))
	return &count, nil
}

// GetBlockTransactionCountByHash is eth_getBlockTransactionCountByHash.
func (api *ethAPI) GetBlockTransactionCountByHash(hash common.Hash) *hexutil.Uint {
	b := api.c.bc.GetBlockByHash(hash)
	if b == nil {
		return nil
	}
	count := hexutil.Uint(len(b.Transactions()))
	return &count
}

// txIndexingError is go-ethereum's answer while it indexes transactions.
type txIndexingError struct{}

// Error returns the message.
func (txIndexingError) Error() string { return "transaction indexing is in progress" }

// ErrorCode returns -32000.
func (txIndexingError) ErrorCode() int { return -32000 }

// ErrorData returns the message again, as go-ethereum does.
func (txIndexingError) ErrorData() any { return "transaction indexing is in progress" }

// GetTransactionByHash is eth_getTransactionByHash: a mined transaction of
// the canonical chain, or one waiting in the pool, or null.
func (api *ethAPI) GetTransactionByHash(hash common.Hash) (*rpcTransaction, error) {
	lookup, tx := api.c.bc.GetCanonicalTransaction(hash)
	if lookup == nil {
		if tx := api.c.pool.Get(hash); tx != nil {
			return pendingTxJSON(tx, api.c.bc.CurrentHeader(), api.c.config()), nil
		}
		if !api.c.bc.TxIndexDone() {
			return nil, txIndexingError{}
		}
		return nil, nil
	}
	h := api.c.bc.GetHeaderByHash(lookup.BlockHash)
	if h == nil {
		return nil, nil
	}
	return txJSON(tx, lookup.BlockHash, lookup.BlockIndex, h.Time, lookup.Index, h.BaseFee, api.c.config()), nil
}

// GetTransactionReceipt is eth_getTransactionReceipt: the receipt of a
// transaction of the canonical chain, or null.
func (api *ethAPI) GetTransactionReceipt(hash common.Hash) (map[string]any, error) {
	lookup, tx := api.c.bc.GetCanonicalTransaction(hash)
	if lookup == nil {
		if !api.c.bc.TxIndexDone() {
			return nil, txIndexingError{}
		}
		return nil, nil
	}
	r, err := api.c.bc.GetCanonicalReceipt(tx, lookup.BlockHash, lookup.BlockIndex, lookup.Index)
	if err != nil {
		return nil, err
	}
	signer := types.LatestSigner(api.c.config())
	return receiptJSON(r, lookup.BlockHash, lookup.BlockIndex, signer, tx, int(lookup.Index)), nil
}

// SendRawTransaction is eth_sendRawTransaction: the signed transaction goes
// to the pool, which checks it as go-ethereum's does (nonce, funds, fees,
// replacement), after the node's own checks (a fee of at most 1 ether,
// EIP-155 replay protection). Blob transactions are refused: the pool has
// no blob pool.
func (api *ethAPI) SendRawTransaction(input hexutil.Bytes) (common.Hash, error) {
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(input); err != nil {
		return common.Hash{}, err
	}
	fee := new(big.Float).Quo(new(big.Float).SetInt(new(big.Int).Mul(tx.GasPrice(), new(big.Int).SetUint64(tx.Gas()))), big.NewFloat(params.Ether))
	if f, _ := fee.Float64(); f > rpcTxFeeCap {
		return common.Hash{}, fmt.Errorf("tx fee (%.2f ether) exceeds the configured cap (%.2f ether)", f, float64(rpcTxFeeCap))
	}
	if !tx.Protected() {
		return common.Hash{}, errors.New("only replay-protected (EIP-155) transactions allowed over RPC")
	}
	if err := api.c.pool.Add([]*types.Transaction{tx}, false)[0]; err != nil {
		return common.Hash{}, err
	}
	return tx.Hash(), nil
}

// Call is eth_call: args run on the state of the block selected (latest
// when left out), with go-ethereum's state and block overrides. A revert
// answers code 3 with the revert data; another failure of the call (out of
// gas, an invalid opcode) -32000 with its message.
func (api *ethAPI) Call(ctx context.Context, args callArgs, block *rpc.BlockNumberOrHash, so *stateOverride, bo *blockOverride) (hexutil.Bytes, error) {
	if err := args.checkBlobFeeCap(); err != nil {
		return nil, err
	}
	st, header, err := api.c.stateAndHeader(orLatest(block))
	if err != nil {
		return nil, err
	}
	var overrides stateOverride
	if so != nil {
		overrides = *so
	}
	res, err := api.c.doCall(ctx, args, st, header, overrides, bo)
	if err != nil {
		return nil, err
	}
	if errors.Is(res.Err, vm.ErrExecutionReverted) {
		return nil, newRevertError(res.Revert())
	}
	return res.Return(), res.Err
}

// EstimateGas is eth_estimateGas, with go-ethereum's estimator: the lowest
// gas limit under which args succeed; a revert answers as eth_call's.
func (api *ethAPI) EstimateGas(ctx context.Context, args callArgs, block *rpc.BlockNumberOrHash, so *stateOverride, bo *blockOverride) (hexutil.Uint64, error) {
	if err := args.checkBlobFeeCap(); err != nil {
		return 0, err
	}
	st, header, err := api.c.stateAndHeader(orLatest(block))
	if err != nil {
		return 0, err
	}
	blockCtx := core.NewEVMBlockContext(header, api.c.bc, nil)
	if bo != nil {
		if err := bo.apply(&blockCtx); err != nil {
			return 0, err
		}
		header = bo.header(header)
	}
	precompiles := vm.ActivePrecompiledContracts(api.c.config().Rules(blockCtx.BlockNumber, blockCtx.Random != nil, blockCtx.Time))
	if so != nil {
		if err := so.apply(st, precompiles); err != nil {
			return 0, err
		}
	}
	opts := &gasestimator.Options{Config: api.c.config(), Chain: api.c.bc, Header: header, State: st, ErrorRatio: 0.015}
	if bo != nil && bo.BlobBaseFee != nil {
		opts.BlobBaseFee = bo.BlobBaseFee.ToInt()
	}
	if args.Gas == nil {
		args.Gas = new(hexutil.Uint64)
	}
	if err := args.defaults(rpcGasCap, header.BaseFee, api.c.chainID()); err != nil {
		return 0, err
	}
	gas, revert, err := gasestimator.Estimate(ctx, args.message(header.BaseFee, true), opts, rpcGasCap)
	if err != nil {
		if errors.Is(err, vm.ErrExecutionReverted) {
			return 0, newRevertError(revert)
		}
		return 0, err
	}
	return hexutil.Uint64(gas), nil
}

// netAPI is the net namespace as a go-ethereum node without peers serves
// it.
type netAPI struct{ chainID *big.Int }

// Version is net_version: the network id, the chain id.
func (n netAPI) Version() string { return n.chainID.String() }

// Listening is net_listening: true, as go-ethereum answers.
func (netAPI) Listening() bool { return true }

// PeerCount is net_peerCount: no peers.
func (netAPI) PeerCount() hexutil.Uint { return 0 }

// web3API is the web3 namespace.
type web3API struct{ version string }

// ClientVersion returns the node's version string
// ("Geth/evmtest/v1.17.10-stable/<os>-<arch>/<go version>").
func (s *web3API) ClientVersion() string { return s.version }

// Sha3 returns the Keccak-256 hash of input.
func (s *web3API) Sha3(input hexutil.Bytes) hexutil.Bytes { return crypto.Keccak256(input) }
