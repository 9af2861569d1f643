package evmtest

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/catalyst"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/ethereum/go-ethereum/version"
)

// ChainID is the chain id of every Server's chain (go-ethereum's simulated
// backend's).
const ChainID = 1337

// servedNamespaces are the JSON-RPC namespaces the server answers; a
// provider's node serves these and keeps admin, debug, miner and txpool to
// itself.
var servedNamespaces = []string{"eth", "net", "web3", "ots"}

// chain is go-ethereum's simulated backend taken apart: the node shell, the
// Ethereum service, the simulated beacon that seals blocks on demand, and a
// JSON-RPC server of our own that holds only the served namespaces. The
// node opens no listener (no HTTP, WebSocket, IPC, auth or p2p port): the
// RPC server is served over the Server's own HTTP, so the access key check
// is the Server's.
type chain struct {
	stack  *node.Node
	eth    *eth.Ethereum
	beacon *catalyst.SimulatedBeacon
	rpc    *rpc.Server
}

// newChain assembles the chain as ethclient/simulated.NewBackend does, with
// the user's alloc over the genesis contracts and accounts.
func newChain(alloc types.GenesisAlloc) (*chain, error) {
	nodeConf := node.DefaultConfig
	nodeConf.DataDir = ""
	// web3_clientVersion: "Geth/evmtest/v1.17.10-stable/<os>-<arch>/<go>".
	nodeConf.Name = "geth"
	nodeConf.UserIdent = "evmtest"
	nodeConf.Version = fmt.Sprintf("%d.%d.%d-%s", version.Major, version.Minor, version.Patch, version.Meta)
	nodeConf.P2P = p2p.Config{NoDiscovery: true}
	// The system contracts of the forks the dev chain starts on, then ours,
	// then the user's (the user's win on conflict).
	genesisAlloc := core.SystemContractAllocs()
	maps.Copy(genesisAlloc, genesisContracts())
	for _, a := range devAccounts {
		genesisAlloc[a.Address] = types.Account{Balance: AccountBalance()}
	}
	maps.Copy(genesisAlloc, alloc)

	ethConf := ethconfig.Defaults
	ethConf.Genesis = &core.Genesis{
		Config:   params.AllDevChainProtocolChanges,
		GasLimit: ethconfig.Defaults.Miner.GasCeil,
		Alloc:    genesisAlloc,
	}
	ethConf.SyncMode = ethconfig.FullSync
	// An archive node, as node-access services run: the state of every
	// block stays readable (eth_call, eth_getBalance, ... at any block,
	// ots_getInternalOperations of any transaction), not only the last 128
	// blocks' as with go-ethereum's defaults. With the hash scheme the
	// in-memory database keeps the whole trie of every block, so that any
	// block's state can be read, traced on, or made the head again
	// (Revert).
	ethConf.NoPruning = true
	ethConf.StateScheme = rawdb.HashScheme
	ethConf.TxPool.NoLocals = true
	ethConf.LogNoHistory = true

	stack, err := node.New(&nodeConf)
	if err != nil {
		return nil, fmt.Errorf("evmtest: node: %w", err)
	}
	c := &chain{stack: stack}
	if c.eth, err = eth.New(stack, &ethConf); err != nil {
		_ = stack.Close()
		return nil, fmt.Errorf("evmtest: ethereum service: %w", err)
	}
	if err := c.registerRPC(); err != nil {
		_ = stack.Close()
		return nil, err
	}
	if err := stack.Start(); err != nil {
		c.rpc.Stop()
		_ = stack.Close()
		return nil, fmt.Errorf("evmtest: starting the node: %w", err)
	}
	if c.beacon, err = catalyst.NewSimulatedBeacon(0, common.Address{}, c.eth); err == nil {
		err = c.beacon.Fork(c.eth.BlockChain().GetCanonicalHash(0))
	}
	if err != nil {
		c.close()
		return nil, fmt.Errorf("evmtest: simulated beacon: %w", err)
	}
	return c, nil
}

// registerRPC builds the JSON-RPC server: the eth and net APIs of the
// Ethereum service, the log filters, web3 and ots.
func (c *chain) registerRPC() error {
	apis := slices.DeleteFunc(c.eth.APIs(), func(a rpc.API) bool { return a.Namespace != "eth" && a.Namespace != "net" })
	apis = append(apis,
		rpc.API{Namespace: "eth", Service: filters.NewFilterAPI(filters.NewFilterSystem(c.eth.APIBackend, filters.Config{}))},
		rpc.API{Namespace: "web3", Service: &web3API{stack: c.stack}},
		rpc.API{Namespace: "ots", Service: &otsAPI{eth: c.eth}},
	)
	conf := c.stack.Config()
	c.rpc = rpc.NewServer()
	c.rpc.SetBatchLimits(conf.BatchRequestLimit, conf.BatchResponseMaxSize)
	c.rpc.SetHTTPBodyLimit(conf.HTTPBodyLimit)
	for _, a := range apis {
		if !slices.Contains(servedNamespaces, a.Namespace) {
			return fmt.Errorf("evmtest: namespace %q is not one to serve", a.Namespace)
		}
		if err := c.rpc.RegisterName(a.Namespace, a.Service); err != nil {
			return fmt.Errorf("evmtest: registering %s: %w", a.Namespace, err)
		}
	}
	return nil
}

// close stops the beacon, the RPC server and the node.
func (c *chain) close() error {
	var err error
	if c.beacon != nil {
		err = c.beacon.Stop()
	}
	c.rpc.Stop()
	return errors.Join(err, c.stack.Close())
}

// web3API is the web3 namespace as a go-ethereum node serves it.
type web3API struct{ stack *node.Node }

// ClientVersion returns the node's version string
// ("Geth/evmtest/v1.17.10-stable/<os>-<arch>/<go version>").
func (s *web3API) ClientVersion() string { return s.stack.Server().Name }

// Sha3 returns the Keccak-256 hash of input.
func (s *web3API) Sha3(input hexutil.Bytes) hexutil.Bytes { return crypto.Keccak256(input) }
