package hyper

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
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
// (PublicInfo, AllMids). The chain's EVM, HyperEVM, at {base}/{key}/evm,
// and the HyperCore reads through it are package hypercore's, so that a
// program of /info alone links none of the EVM. A Client is safe for
// concurrent use; make one per endpoint and share it.
type Client struct {
	node       *transport.Client
	nodeInfo   transport.Target
	public     *transport.Client
	publicInfo transport.Target
	markets    *marketsCache
}

type publicURLKey struct{}

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

// New returns a client for the Hyperliquid node at baseURL with the access
// key key. Options from the nodeaccess package (retries, timeouts, HTTP
// client, hooks, logger, budget) apply to both endpoints: the node's
// /info and the public API (which has a budget of its own:
// WithPublicBudget). WithPublicURL chooses the public API. For HyperEVM,
// make its client with hypercore.New from the same base URL and key.
func New(baseURL, key string, opts ...Option) (*Client, error) {
	fs, err := transport.Options(chain, opts)
	if err != nil {
		return nil, err
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
	return &Client{node: node, nodeInfo: nodeInfo, public: public, publicInfo: publicInfo, markets: newMarketsCache()}, nil
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
// client (/info at {base}/{key}/info; hypercore.NewFromURL takes the same
// URLs for HyperEVM). Anything else
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
