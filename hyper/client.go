package hyper

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/config"
	"github.com/nodeaccess/nodeaccess/internal/evmlatest"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// TestnetAPIURL is the official public API of Hyperliquid's testnet, which
// serves every /info request type, those that node-access services do not
// (such as allMids) included, and takes no key: WithPublicURL(TestnetAPIURL),
// with a testnet node's base URL. Mainnet's, https://api.hyperliquid.xyz, is
// the default.
const TestnetAPIURL = "https://api.hyperliquid-testnet.xyz"

// mainnetAPIURL is the public API of mainnet, the default.
const mainnetAPIURL = "https://api.hyperliquid.xyz"

// chain names this package in errors, hooks and options.
const chain = "hyper"

// Client calls Hyperliquid's /info endpoint in two places: the node of a
// node-access service at {base}/{key}/info (Info, UserVaultEquities), and
// the official public API at {public}/info, which never receives the key
// (PublicInfo, AllMids). EVM returns a client for the chain's EVM at
// {base}/{key}/evm. A Client is safe for concurrent use; make one per
// endpoint and share it.
type Client struct {
	node       *transport.Client
	nodeInfo   transport.Target
	public     *transport.Client
	publicInfo transport.Target
	evm        *evm.Client
	markets    *marketsCache
}

type publicURLKey struct{}

type evmHistoryKey struct{}

// Option configures a Client when New makes it: a setting every client
// takes (the With… functions of package nodeaccess), or one of this
// package's With… functions, which another package's New refuses. It is
// nodeaccess.Option, so one slice of options serves clients of several
// chains.
type Option = nodeaccess.Option

// option makes an option of this package, called hyper.name in errors.
func option(name string, f config.Func) Option {
	return transport.Option(chain, chain+"."+name, f)
}

type evmOptionsKey struct{}

// WithPublicURL sends the public API's requests (AllMids, PublicInfo) to
// rawURL instead of mainnet's, https://api.hyperliquid.xyz: TestnetAPIURL for testnet (pass a
// testnet node's base URL to New as well), or any absolute http or https
// URL without query, fragment or user info, such as a proxy in front of the
// public API. The public API never receives the node's access key; a URL
// that holds the key anywhere is refused.
func WithPublicURL(rawURL string) Option {
	const name = "WithPublicURL"
	return option("WithPublicURL", func(c *config.Config) error {
		// The messages quote no more than the scheme and the host, so that
		// a key put into the URL by mistake is not repeated in an error.
		u, err := url.Parse(rawURL)
		switch {
		case err != nil || rawURL == "":
			return fmt.Errorf("%s: the public API URL does not parse", name)
		case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
			return fmt.Errorf("%s: the public API URL must be absolute http or https with a host (scheme %q)", name, u.Scheme)
		case u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
			return fmt.Errorf("%s: the public API URL for host %q has user info, a query or a fragment", name, u.Host)
		}
		c.SetExt(publicURLKey{}, strings.TrimRight(rawURL, "/"))
		return nil
	})
}

// WithEVM hands opts to the EVM client (EVM()) alone, after the
// nodeaccess options given to New, which the EVM client shares: options
// of package evm, such as evm.WithMaxBatchSize for the batch size your
// provider's HyperEVM endpoint accepts, or nodeaccess options meant for
// the EVM alone (a budget of its own, say). The EVM client's path is
// always {key}/evm: an evm.WithPathSuffix among opts is overridden.
//
// Sizes on HyperEVM: Hyperliquid's public RPC (rpc.hyperliquid.xyz/evm)
// allows 100 requests per minute per IP (whether a JSON-RPC batch counts
// as one is not documented), its eth_call gas cap is
// 30,000,000 (a Multicall aggregate of more gas fails: set
// evm.MulticallOptions.MaxCalls), and an answer over 1 MiB fails with
// -32008 "Response is too big" (nodeaccess.ErrResponseTooLarge, which
// batches and Multicall split on). Providers set their own limits.
func WithEVM(opts ...Option) Option {
	opts = slices.Clone(opts)
	return option("WithEVM", func(c *config.Config) error {
		prev, _ := c.Ext(evmOptionsKey{})
		list, _ := prev.([]Option)
		c.SetExt(evmOptionsKey{}, append(slices.Clone(list), opts...))
		return nil
	})
}

// WithEVMHistory tells the EVM client (EVM()) that the provider's HyperEVM
// endpoint serves the state of past blocks: it then sends a state read
// (eth_call, eth_getCode, eth_getBalance, eth_getStorageAt,
// eth_getTransactionCount, eth_estimateGas, eth_simulateV1, ...) at any
// block selector. Without it the EVM client sends them at the latest block
// only, because Hyperliquid's own RPC, the hl-node behind it and the
// providers that run it serve the latest state alone, and answer a past
// block, a future one, and pending, safe and finalized from the latest
// state without an error: a balance asked for at yesterday's block comes
// back as the current one. Give it for an archive node: nanoreth
// (github.com/hl-archive-node/nanoreth), which several providers offer as
// an archival RPC (the providers are listed in hyper/testdata/SOURCES.md). Past HyperCore precompile reads on an
// archive node are replays of what was recorded, not reads of past
// HyperCore state.
func WithEVMHistory() Option {
	return option("WithEVMHistory", func(c *config.Config) error {
		c.SetExt(evmHistoryKey{}, true)
		return nil
	})
}

// latestOnly is why the EVM client refuses a state read at another block
// than the latest.
const latestOnly = "HyperEVM's RPC serves the latest state only and answers any other block selector " +
	"(a past or future number, a hash, pending, safe, finalized, earliest) from the latest state without an error; " +
	"if your provider serves history (an archive node such as nanoreth), make the client with hyper.WithEVMHistory()"

// New returns a client for the Hyperliquid node at baseURL with the access
// key key. Options from the nodeaccess package (retries, timeouts, HTTP
// client, hooks, logger, budget) apply to all three endpoints: the node's
// /info, the public API and the EVM client (the public API has a budget of
// its own: WithPublicBudget). WithPublicURL chooses the public API; WithEVM
// gives options to the EVM client alone, WithEVMHistory lets it read past
// blocks.
func New(baseURL, key string, opts ...Option) (*Client, error) {
	fs, err := transport.Options(chain, opts)
	if err != nil {
		return nil, err
	}
	// The options every client takes go to the EVM client too.
	var shared []Option
	for _, o := range opts {
		if owner, _, _, _ := config.Open(o); owner == "" {
			shared = append(shared, o)
		}
	}
	node, err := transport.New(transport.Settings{FromURL: "hyper.NewFromURL", Ops: ops, Chain: chain, BaseURL: baseURL, Key: key, Options: fs})
	if err != nil {
		return nil, err
	}
	publicURL := mainnetAPIURL
	if v, ok := node.Config().Ext(publicURLKey{}); ok {
		publicURL = v.(string)
	}
	// The node's transport knows every spelling of the key (escaped in any
	// form, letters in either case): a public API URL must not carry it to
	// a third party.
	if node.Mask(publicURL) != publicURL {
		return nil, fmt.Errorf("%s: %w", chain, &nodeaccess.InputError{Arg: "option",
			Reason: "the public API URL holds the access key; the public API takes no key"})
	}
	// The public API gets a keyless transport of its own, which never sends
	// the key and masks it in everything it reports.
	// It has a budget of its own, the public API's weight budget.
	public, err := transport.New(transport.Settings{FromURL: "hyper.NewFromURL", Ops: ops, Chain: chain, BaseURL: publicURL, Key: key, Keyless: true, Options: publicOptions(node.Config(), fs)})
	if err != nil {
		return nil, err
	}
	nodeInfo, err := node.Target("{key}/info")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", chain, err)
	}
	publicInfo, err := public.Target("info")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", chain, err)
	}
	// The EVM client shares the nodeaccess options, then takes those
	// WithEVM gave it; its path is always {key}/evm, and it reads the
	// latest state only unless WithEVMHistory was given.
	evmOnly, _ := node.Config().Ext(evmOptionsKey{})
	evmList, _ := evmOnly.([]Option)
	evmOpts := append(append(shared, evmList...), evm.WithPathSuffix("evm"),
		evmlatest.CostsChecked(slices.Collect(maps.Keys(node.Config().Costs))))
	if _, history := node.Config().Ext(evmHistoryKey{}); !history {
		evmOpts = append(evmOpts, evmlatest.Option(latestOnly))
	}
	ec, err := evm.New(baseURL, key, evmOpts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", chain, err)
	}
	return &Client{node: node, nodeInfo: nodeInfo, public: public, publicInfo: publicInfo, evm: ec, markets: newMarketsCache()}, nil
}

// NewFromURL takes the node's whole endpoint URL as providers show it, with
// the access key in the path, and returns New(base, key, opts...). It takes
// exactly three shapes, the key alone and the two endpoints below it:
//
//	https://host/<KEY>
//	https://host/<KEY>/info
//	https://host/<KEY>/evm
//
// with http or https, a host name (ASCII letters, digits, '-', '.') or IP
// address, any port, and one trailing slash or none. Each gives the same
// client (/info at {base}/{key}/info, EVM at {base}/{key}/evm). Anything else
// is refused, so that no segment is ever mistaken for the key and shown
// unmasked: another segment before or after the key ("/hl/<KEY>",
// "/<KEY>/rpc", "/<KEY>/INFO"), an empty or dot segment, a query, a fragment
// or user info, a key segment that is one of the path names evm, info and
// beacon (the key is missing), that holds an escaped '/' or a '\', or that is
// not %-escaped exactly as it is sent (url.PathEscape). For a base URL with a
// path of its own, call New. The refusal is an error over a
// *nodeaccess.InputError whose message quotes no part of the URL.
func NewFromURL(endpoint string, opts ...Option) (*Client, error) {
	ep, err := transport.ParseEndpoint("hyper.NewFromURL", endpoint, "{key}", "{key}/info", "{key}/evm")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", chain, err)
	}
	return New(ep.Base, ep.Key, opts...)
}

// EVM returns the client for the chain's EVM at {base}/{key}/evm, made by
// New with the same key and shared options: eth_call, eth_getCode,
// eth_simulateV1, ots_getInternalOperations and any other method on
// HyperEVM. eth_simulateV1 is not among the methods Hyperliquid's own RPC
// lists, nanoreth answers it: a node without it answers -32601 (a
// *nodeaccess.RPCError), so it is sent, not refused. Its errors name the "evm" package. It
// reads state at the latest block only: a state read at another block
// selector is an error over a *nodeaccess.InputError saying why, and
// nothing is sent, unless the Client was made with WithEVMHistory.
func (c *Client) EVM() *evm.Client { return c.evm }

// String describes the client's two /info endpoints, the node's with the
// key masked and the public API's.
func (c *Client) String() string {
	if c == nil {
		return "<nil>"
	}
	return "hyper.Client{node " + c.nodeInfo.Masked() + ", public " + c.publicInfo.Masked() + "}"
}

// Format prints String for every verb, so that no formatting of a client
// (%v, %+v, %#v) can reach the key.
func (c *Client) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(c.String())) }
