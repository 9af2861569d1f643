package hyper

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/config"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// The official public API of Hyperliquid, which serves the /info request
// types that node-access services do not (such as allMids). It takes no key.
const (
	// MainnetAPIURL is the public API of mainnet, the default.
	MainnetAPIURL = "https://api.hyperliquid.xyz"
	// TestnetAPIURL is the public API of testnet (see WithTestnet).
	TestnetAPIURL = "https://api.hyperliquid-testnet.xyz"
)

// chain names this package in errors, hooks and options.
const chain = "hyper"

// Client calls Hyperliquid's /info endpoint in two places: the node of a
// node-access service at {base}/{key}/info (UserVaultEquities), and the
// official public API at {public}/info, which never receives the key
// (AllMids). EVM returns a client for the chain's EVM at {base}/{key}/evm.
// A Client is safe for concurrent use; make one per endpoint and share it.
type Client struct {
	node       *transport.Client
	nodeInfo   transport.Target
	public     *transport.Client
	publicInfo transport.Target
	publicURL  string
	evm        *evm.Client
}

type publicURLKey struct{}

// WithPublicURL sends the requests only the public API serves (AllMids) to
// rawURL instead of MainnetAPIURL: an absolute http or https URL without
// query, fragment or user info, such as a proxy in front of the public API.
// The public API never receives the node's access key; a URL that holds the
// key anywhere is refused.
func WithPublicURL(rawURL string) nodeaccess.Option {
	return publicURLOption("WithPublicURL", rawURL)
}

// WithTestnet sends the requests only the public API serves to testnet's
// public API (TestnetAPIURL). It does not change the node's URL: pass a
// testnet node's base URL to New as well.
func WithTestnet() nodeaccess.Option {
	return publicURLOption("WithTestnet", TestnetAPIURL)
}

func publicURLOption(name, rawURL string) nodeaccess.Option {
	return func(c *config.Config) error {
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
		c.SetExt(chain, name, publicURLKey{}, strings.TrimRight(rawURL, "/"))
		return nil
	}
}

// New returns a client for the Hyperliquid node at baseURL with the access
// key key. Options from the nodeaccess package (retries, timeouts, HTTP
// client, hooks, logger) apply to all three endpoints: the node's /info, the
// public API and the EVM client. WithPublicURL and WithTestnet choose the
// public API. evm.WithMaxBatchSize applies to the EVM client alone (EVM()):
// set it to the batch size your provider's HyperEVM endpoint accepts. Other
// options of other chain packages are refused, evm.WithPathSuffix too (the
// EVM client's path is always {key}/evm).
func New(baseURL, key string, opts ...nodeaccess.Option) (*Client, error) {
	opts, evmOnly := splitEVMOptions(opts)
	node, err := transport.New(transport.Settings{Chain: chain, BaseURL: baseURL, Key: key, Options: opts})
	if err != nil {
		return nil, err
	}
	publicURL := MainnetAPIURL
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
	public, err := transport.New(transport.Settings{Chain: chain, BaseURL: publicURL, Key: key, Keyless: true, Options: publicOptions(node.Config(), opts)})
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
	// The EVM client shares the user's options but not this package's own
	// (evm.New refuses options of another chain), and takes the ones meant
	// for it alone.
	evmOpts := append(append(sharedOptions(opts), evmOnly...), evm.WithPathSuffix("evm"))
	ec, err := evm.New(baseURL, key, evmOpts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", chain, err)
	}
	return &Client{node: node, nodeInfo: nodeInfo, public: public, publicInfo: publicInfo, publicURL: publicURL, evm: ec}, nil
}

// splitEVMOptions takes the options meant for the EVM client alone
// (evm.WithMaxBatchSize) out of opts. An option that fails on a scratch
// configuration stays in opts, so that New reports its error.
func splitEVMOptions(opts []nodeaccess.Option) (rest, evmOnly []nodeaccess.Option) {
	rest = make([]nodeaccess.Option, 0, len(opts))
	for _, o := range opts {
		if o != nil {
			var scratch config.Config
			if err := o(&scratch); err == nil && scratch.OnlyExt("evm", "WithMaxBatchSize") {
				evmOnly = append(evmOnly, o)
				continue
			}
		}
		rest = append(rest, o)
	}
	return rest, evmOnly
}

// sharedOptions returns opts without the options of this package. Each
// option is tried on a scratch configuration: one that stores a setting of
// a chain other than evm is one of ours (New has already refused options of
// other packages).
func sharedOptions(opts []nodeaccess.Option) []nodeaccess.Option {
	out := make([]nodeaccess.Option, 0, len(opts)+1)
	for _, o := range opts {
		if o == nil {
			continue
		}
		var scratch config.Config
		if err := o(&scratch); err == nil && scratch.ForeignExt("evm") != "" {
			continue
		}
		out = append(out, o)
	}
	return out
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
func NewFromURL(endpoint string, opts ...nodeaccess.Option) (*Client, error) {
	ep, err := transport.ParseEndpoint("hyper.NewFromURL", endpoint, "{key}", "{key}/info", "{key}/evm")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", chain, err)
	}
	return New(ep.Base, ep.Key, opts...)
}

// EVM returns the client for the chain's EVM at {base}/{key}/evm, made by
// New with the same key and shared options: eth_call, eth_getCode and
// ots_getInternalOperations on HyperEVM. Its errors name the "evm" package.
func (c *Client) EVM() *evm.Client { return c.evm }

// PublicURL returns the base URL of the public API the client calls for
// AllMids (MainnetAPIURL unless WithPublicURL or WithTestnet chose another).
func (c *Client) PublicURL() string { return c.publicURL }

// String describes the client's two /info endpoints; the key is masked.
func (c *Client) String() string {
	if c == nil {
		return "<nil>"
	}
	return "hyper.Client{node " + c.nodeInfo.Masked() + ", public " + c.publicInfo.Masked() + "}"
}

// Format prints String for every verb, so that no formatting of a client
// (%v, %+v, %#v) can reach the key.
func (c *Client) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(c.String())) }
