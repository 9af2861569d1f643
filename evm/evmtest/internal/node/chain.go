// Package node is the chain behind evmtest.Server: go-ethereum's
// blockchain, state, EVM, transaction pool and block builder in memory,
// and the JSON-RPC services a node-access service's node answers (eth, net,
// web3, ots), without go-ethereum's node around them.
package node

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"runtime"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/consensus/beacon"
	"github.com/ethereum/go-ethereum/consensus/ethash"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/txpool/legacypool"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/gasprice"
	"github.com/ethereum/go-ethereum/miner"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/ethereum/go-ethereum/version"
)

// The settings of a go-ethereum node that the chain and its JSON-RPC server
// take over (go-ethereum's node.DefaultConfig and ethconfig.Defaults), so
// that the server answers as a node with default settings does.
const (
	// batchRequestLimit and batchResponseMaxSize are node.DefaultConfig's
	// BatchRequestLimit and BatchResponseMaxSize: at most 1000 calls in a
	// JSON-RPC batch, and 25 MB of responses.
	batchRequestLimit    = 1000
	batchResponseMaxSize = 25 * 1000 * 1000
	// httpBodyLimit is node.DefaultConfig's HTTPBodyLimit: 5 MiB.
	httpBodyLimit = 5 * 1024 * 1024
	// gasCeil is the gas limit blocks are built towards (miner.DefaultConfig).
	gasCeil = 60_000_000
	// rpcGasCap is the gas cap of eth_call and eth_estimateGas
	// (ethconfig.Defaults.RPCGasCap).
	rpcGasCap = 50_000_000
	// rpcTxFeeCap is the highest fee, in ether, eth_sendRawTransaction
	// accepts (ethconfig.Defaults.RPCTxFeeCap).
	rpcTxFeeCap = 1
	// devEpochLength is the simulated beacon's epoch: a block whose number is
	// a multiple of it is finalized as soon as it is made.
	devEpochLength = 32
)

// Chain is a go-ethereum chain without the node around it: a BlockChain on
// an in-memory database (hash scheme, archive: every block's state stays),
// go-ethereum's transaction pool and block builder (miner), its gas price
// oracle, and a JSON-RPC server holding our own eth, net, web3 and ots
// services. Nothing listens: the RPC server is served over evmtest's own
// HTTP, so the access key check is evmtest's. Blocks are sealed as
// go-ethereum's simulated beacon seals them (seal.go).
type Chain struct {
	bc     *core.BlockChain
	pool   *txpool.TxPool
	miner  *miner.Miner
	oracle *gasprice.Oracle
	rpc    *rpc.Server
	// clientVersion is web3_clientVersion's answer.
	clientVersion string

	// lastBlockTime is the time of the latest block sealed (dropped ones
	// included); the next one is later. Under the caller's lock.
	lastBlockTime uint64

	// logsLimit is the provider's cap on eth_getLogs (SetLogsLimit); nil:
	// none.
	logsLimit atomic.Pointer[LogsLimit]
}

// New builds the chain at its genesis: the system contracts of the forks
// the dev chain starts on, then alloc (which wins on conflict).
func New(alloc types.GenesisAlloc) (*Chain, error) {
	all := core.SystemContractAllocs()
	maps.Copy(all, alloc)
	genesis := &core.Genesis{
		Config:   params.AllDevChainProtocolChanges,
		GasLimit: gasCeil,
		Alloc:    all,
	}
	conf := core.DefaultConfig()
	// An archive node, as node-access services run: the state of every
	// block stays readable (eth_call, eth_getBalance, ... at any block,
	// ots_getInternalOperations of any transaction), not only the last 128
	// blocks'. With the hash scheme the in-memory database keeps the whole
	// trie of every block, so that any block's state can be read, traced
	// on, or made the head again (Revert).
	conf.ArchiveMode = true
	conf.StateScheme = rawdb.HashScheme
	conf.TxLookupLimit = 0 // index every block's transactions
	// The engine go-ethereum gives a proof-of-stake chain without clique
	// (ethconfig.CreateConsensusEngine).
	engine := beacon.New(ethash.NewFaker())
	bc, err := core.NewBlockChain(rawdb.NewMemoryDatabase(), genesis, engine, conf)
	if err != nil {
		return nil, fmt.Errorf("evmtest: blockchain: %w", err)
	}
	c := &Chain{bc: bc, lastBlockTime: bc.CurrentBlock().Time}
	// The pool as eth.New makes it, without the blob pool: blob
	// transactions are refused.
	poolConf := legacypool.DefaultConfig
	poolConf.NoLocals = true
	poolConf.Journal = ""
	legacy := legacypool.New(poolConf, bc)
	if c.pool, err = txpool.New(poolConf.PriceLimit, bc, []txpool.SubPool{legacy}); err != nil {
		bc.Stop()
		return nil, fmt.Errorf("evmtest: transaction pool: %w", err)
	}
	c.miner = miner.New(c, miner.DefaultConfig, engine)
	c.oracle = gasprice.NewOracle(oracleBackend{c}, gasprice.Config{
		// ethconfig.FullNodeGPO, the full node's oracle.
		Blocks:           20,
		Percentile:       60,
		MaxHeaderHistory: 1024,
		MaxBlockHistory:  1024,
		MaxPrice:         gasprice.DefaultMaxPrice,
		IgnorePrice:      gasprice.DefaultIgnorePrice,
	}, miner.DefaultConfig.GasPrice)
	// The genesis is head, safe and finalized, as after the simulated
	// beacon's first forkchoice update.
	head := bc.CurrentBlock()
	bc.SetSafe(head)
	bc.SetFinalized(head)
	// "Geth/evmtest/v1.17.10-stable/<os>-<arch>/<go>", as a node named
	// geth with the identity evmtest names itself.
	c.clientVersion = fmt.Sprintf("Geth/evmtest/v%d.%d.%d-%s/%s-%s/%s", version.Major, version.Minor, version.Patch, version.Meta,
		runtime.GOOS, runtime.GOARCH, runtime.Version())
	if err := c.registerRPC(); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// BlockChain and TxPool make the chain the miner's Backend.
func (c *Chain) BlockChain() *core.BlockChain { return c.bc }

// TxPool returns the chain's transaction pool (the miner's Backend).
func (c *Chain) TxPool() *txpool.TxPool { return c.pool }

// RPC returns the chain's JSON-RPC server (an http.Handler).
func (c *Chain) RPC() *rpc.Server { return c.rpc }

// config returns the chain's configuration.
func (c *Chain) config() *params.ChainConfig { return c.bc.Config() }

// chainID returns the chain id as a big.Int.
func (c *Chain) chainID() *big.Int { return c.config().ChainID }

// registerRPC builds the JSON-RPC server with go-ethereum's node limits: the
// eth, net, web3 and ots services. A provider's node serves these and keeps
// admin, debug, miner and txpool to itself.
func (c *Chain) registerRPC() error {
	c.rpc = rpc.NewServer()
	c.rpc.SetBatchLimits(batchRequestLimit, batchResponseMaxSize)
	c.rpc.SetHTTPBodyLimit(httpBodyLimit)
	apis := []rpc.API{
		{Namespace: "eth", Service: &ethAPI{c: c}},
		{Namespace: "net", Service: &netAPI{chainID: c.chainID()}},
		{Namespace: "web3", Service: &web3API{version: c.clientVersion}},
		{Namespace: "ots", Service: &otsAPI{c: c}},
	}
	for _, a := range apis {
		if err := c.rpc.RegisterName(a.Namespace, a.Service); err != nil {
			return fmt.Errorf("evmtest: registering %s: %w", a.Namespace, err)
		}
	}
	return nil
}

// Close stops the RPC server, the pool and the chain.
func (c *Chain) Close() {
	if c.rpc != nil {
		c.rpc.Stop()
	}
	if c.pool != nil {
		_ = c.pool.Close()
	}
	c.bc.Stop()
}

// headerNotFound is go-ethereum's error for a block the chain does not have.
var errHeaderNotFound = errors.New("header not found")

// finalizedHash returns the hash of the block the simulated beacon
// finalizes when number is the head: the last multiple of devEpochLength
// before it (number itself when it is one), or nil when the chain does not
// have that block.
func (c *Chain) finalizedHash(number uint64) *common.Hash {
	var fin uint64
	if number%devEpochLength == 0 {
		fin = number
	} else {
		fin = (number - 1) / devEpochLength * devEpochLength
	}
	b := c.bc.GetHeaderByNumber(fin)
	if b == nil {
		return nil
	}
	h := b.Hash()
	return &h
}
