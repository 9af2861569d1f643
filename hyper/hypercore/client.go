package hypercore

import (
	"fmt"
	"time"

	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/config"
	"github.com/nodeaccess/nodeaccess/internal/evmlatest"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

type historyKey struct{}

// WithHistory tells the HyperEVM client that the provider's endpoint serves
// the state of past blocks: it then sends a state read (eth_call,
// eth_getCode, eth_getBalance, eth_getStorageAt, eth_getTransactionCount,
// eth_estimateGas, eth_simulateV1, ...) at any block selector. Without it
// the client sends them at the latest block only, because Hyperliquid's own
// RPC, the hl-node behind it and the providers that run it serve the latest
// state alone, and answer a past block, a future one, and pending, safe and
// finalized from the latest state without an error: a balance asked for at
// yesterday's block comes back as the current one. Give it for an archive
// node: nanoreth (github.com/hl-archive-node/nanoreth), which several
// providers offer as an archival RPC. Past HyperCore precompile reads on an
// archive node are replays of what was recorded, not reads of past
// HyperCore state.
func WithHistory() evm.Option {
	return transport.Option("evm", "hypercore.WithHistory", func(c *config.Config) error {
		c.SetExt(historyKey{}, true)
		return nil
	})
}

// HyperEVM's limits, which the client's Follow and FollowBlocks start
// from: its RPC serves eth_getLogs over at most 50 blocks (Hyperliquid's
// HyperEVM JSON-RPC documentation), and its small blocks come every
// second (the dual-block architecture: small blocks each second, a large
// one each minute).
const (
	maxLogsRange   = 50
	smallBlockTime = time.Second
)

// unanchored is why package evm/verified refuses a HyperEVM client.
const unanchored = "HyperEVM has no light client: no beacon chain signs its blocks, so no state root of it can be trusted " +
	"without trusting the provider"

// latestOnly is why the client refuses a state read at another block than
// the latest.
const latestOnly = "HyperEVM's RPC serves the latest state only and answers any other block selector " +
	"(a past or future number, a hash, pending, safe, finalized, earliest) from the latest state without an error; " +
	"if your provider serves history (an archive node such as nanoreth), make the client with hypercore.WithHistory()"

// New returns the client for Hyperliquid's EVM, HyperEVM, of the node at
// baseURL with the access key key: an *evm.Client posting JSON-RPC to
// {baseURL}/{key}/evm, where node-access services serve it beside /info
// (hyper.New). It takes every evm option (evm.WithMaxBatchSize for the
// batch size your provider accepts, …) and the options every client takes;
// its path is always {key}/evm. Its errors name the "evm" package; the
// reads of Reads name "hyper".
//
// Its Follow and FollowBlocks know HyperEVM's limits: their eth_getLogs
// windows are at most 50 blocks, and a query that sets no Poll polls every
// second. Package evm/verified refuses it: no light client anchors
// HyperEVM, so no state root of it can be trusted without the provider.
//
// It reads state at the latest block only: a state read at another block
// selector is an error over a *nodeaccess.InputError saying why, and
// nothing is sent, unless WithHistory is given. eth_simulateV1 is not among
// the methods Hyperliquid's own RPC lists (nanoreth answers it): a node
// without it answers -32601, a *nodeaccess.RPCError.
//
// Sizes on HyperEVM: Hyperliquid's public RPC (rpc.hyperliquid.xyz/evm)
// allows 100 requests per minute per IP (whether a JSON-RPC batch counts
// as one is not documented), its eth_call gas cap is 30,000,000 (a
// Multicall aggregate of more gas fails: set evm.MulticallOptions.MaxCalls),
// and an answer over 1 MiB fails with -32008 "Response is too big"
// (nodeaccess.ErrResponseTooLarge, which batches and Multicall split on).
// Providers set their own limits.
func New(baseURL, key string, opts ...evm.Option) (*evm.Client, error) {
	all := append(append([]evm.Option{}, opts...), evm.WithPathSuffix("evm"))
	probe := config.Config{}
	if fs, err := transport.Options("evm", opts); err == nil {
		for _, f := range fs {
			_ = f(&probe)
		}
	}
	if _, history := probe.Ext(historyKey{}); !history {
		all = append(all, evmlatest.Option(latestOnly))
	}
	all = append(all, evmlatest.Follow(maxLogsRange, smallBlockTime), evmlatest.Unanchored(unanchored))
	c, err := evm.New(baseURL, key, all...)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// NewFromURL takes the node's whole endpoint URL as providers show it, with
// the access key in the path ("https://host/<KEY>", ".../<KEY>/evm" or
// ".../<KEY>/info", as hyper.NewFromURL takes them), and returns
// New(base, key, opts...). Anything else is refused with an error that
// quotes no part of the URL.
func NewFromURL(endpoint string, opts ...evm.Option) (*evm.Client, error) {
	ep, err := transport.ParseEndpoint("hypercore.NewFromURL", endpoint, "{key}", "{key}/info", "{key}/evm")
	if err != nil {
		return nil, fmt.Errorf("evm: %w", err)
	}
	return New(ep.Base, ep.Key, opts...)
}
