package hypertest

import (
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
)

// Server is a local Hyperliquid: a provider's node at URL with the access
// key Key (POST /{key}/info serves userVaultEquities and the requests set
// with SetInfo), and the official public API at Public.URL, without a key
// (POST /info serves allMids as well). Both run on 127.0.0.1 until Close.
//
// The embedded *nodeaccesstest.Server is the node: its FailNext, Requests
// and HandleFunc act on the node. Public is the public API's own server;
// queue its faults with s.Public.FailNext. The data (vault equities per
// user, mids per dex, the answers of SetInfo) is shared by both and may be
// changed at any time with the Set methods, which are safe for concurrent
// use.
type Server struct {
	*nodeaccesstest.Server

	// Public is the public API: POST {Public.URL}/info. Its Key is not
	// used (the public API takes none).
	Public *nodeaccesstest.Server

	// The data, two pointers away (a promoted field: s.data is
	// s.core.data): fmt reads a Server's fields when it copies or prints a
	// dereferenced Server, and opens at most one pointer below them, under
	// a verb that does not fit a pointer (%s, %q) or through an unexported
	// field that holds a Server (where it calls no Format); it prints core
	// as {0xc000...} and never reads the data's lock and maps, which the
	// Set methods write while a test may print the server.
	*core
}

// core holds a Server's data behind one more pointer (see Server).
type core struct{ data *store }

// Option configures New: WithKey, WithoutDefaults. The zero Option does
// nothing.
type Option struct{ apply func(*settings) error }

type settings struct {
	key        string
	noDefaults bool
}

// WithKey sets the node's access key (ASCII letters, digits and "._~-").
// Without it the key is random, 32 hex characters.
func WithKey(key string) Option {
	return Option{func(s *settings) error {
		if key == "" {
			return errors.New("hypertest: WithKey: the key is empty")
		}
		s.key = key
		return nil
	}}
}

// WithoutDefaults starts the server without its default data: no user has
// vaults, the first perp dex "" has no mids ({}), no builder dex is known,
// and the metadata is that of an exchange without markets (spotMeta with no
// pairs or tokens, meta with no perps, perpDexs [null], outcomeMeta with no
// outcomes), until the Set methods give them.
func WithoutDefaults() Option {
	return Option{func(s *settings) error {
		s.noDefaults = true
		return nil
	}}
}

// New starts a local Hyperliquid node and public API on 127.0.0.1 and
// returns them serving. Without options the node's key is random and the
// data is the default (DefaultUser's recorded vaults; the recorded mids of
// the first perp dex and the mids of BuilderDex). Close it when done.
func New(opts ...Option) (*Server, error) {
	var set settings
	for _, o := range opts {
		if o.apply == nil {
			continue // the zero Option
		}
		if err := o.apply(&set); err != nil {
			return nil, err
		}
	}
	data := newStore(!set.noDefaults)
	node, err := nodeaccesstest.Start(set.key, writeError)
	if err != nil {
		return nil, fmt.Errorf("hypertest: %w", err)
	}
	public, err := nodeaccesstest.Start("", writeError)
	if err != nil {
		node.Close()
		return nil, fmt.Errorf("hypertest: %w", err)
	}
	s := &Server{Server: node, Public: public, core: &core{data}}
	node.HandleFunc("POST /{key}/info", s.serveNode)
	// Without a method, so that a test's own HandleFunc("POST /{key}/evm",
	// …), the more specific pattern, takes the endpoint over.
	node.HandleFunc("/{key}/evm", s.serveEVM)
	public.HandleFunc("POST /info", s.servePublic)
	return s, nil
}

// Client returns a hyper.Client for this server: its node at URL with Key,
// and its public API at Public.URL (hyper.WithPublicURL), with opts after
// those (so a later hyper.WithPublicURL in opts wins).
func (s *Server) Client(opts ...nodeaccess.Option) (*hyper.Client, error) {
	all := make([]nodeaccess.Option, 0, len(opts)+1)
	all = append(all, hyper.WithPublicURL(s.Public.URL))
	all = append(all, opts...)
	return hyper.New(s.URL, s.Key(), all...)
}

// Close stops both servers and waits for their handlers. It may be called
// more than once.
func (s *Server) Close() {
	s.Server.Close()
	s.Public.Close()
}

// SetVaultEquities makes userVaultEquities for user answer v, from now on,
// on the node and the public API. Each entry is written as the node writes
// it: the vault address in lower-case hex, the equity as a decimal string
// with the scale it carries (decimal.RequireFromString("100.50") is sent as
// "100.50"), lockedUntilTimestamp in Unix milliseconds (left out for a zero
// LockedUntil). An empty or nil v makes the user one without vaults ([]).
// It fails, changing nothing, for a LockedUntil not after
// 1970-01-01T00:00:00Z or an equity whose exponent is beyond ±100 (which
// clients refuse).
func (s *Server) SetVaultEquities(user common.Address, v []hyper.VaultEquity) error {
	body, err := encodeEquities(v)
	if err != nil {
		return fmt.Errorf("hypertest: SetVaultEquities: %w", err)
	}
	s.data.setEquities(user, body)
	return nil
}

// SetMids makes allMids for dex answer mids, from now on: an object with
// the keys in byte order and each price exactly as given. dex is "" for the
// first perp dex or a builder dex's name (1 to 32 ASCII letters, digits,
// '-', '_'); setting a dex makes it known. Real keys of a builder dex have
// the form "<dex>:<COIN>"; the server does not insist. Each price must be
// digits with an optional fraction ("89926.5", "0.00003066", "1.0"). A nil
// mids makes dex unknown again (allMids answers null; for "" it answers
// {}, since the first perp dex always exists).
func (s *Server) SetMids(dex string, mids map[string]string) error {
	body, err := midsBody(dex, mids)
	if err != nil {
		return fmt.Errorf("hypertest: SetMids: %w", err)
	}
	s.data.setMids(dex, body)
	return nil
}

// midsBody checks dex and writes mids (nil for a nil map).
func midsBody(dex string, mids map[string]string) ([]byte, error) {
	if err := checkDex(dex); err != nil {
		return nil, err
	}
	if mids == nil {
		return nil, nil
	}
	return encodeMids(mids)
}

// SetPrecompile makes the HyperEVM read precompile at to (0x…0800 to
// 0x…0813) answer output, byte for byte, to an eth_call whose call data is
// input, from now on: for the reads whose data the server does not hold
// (positions, spot balances, delegations, margin summaries, which it
// answers with zeros) and for answers a test needs as they are (an empty
// output for a node that answers "0x"). output is the ABI encoding of the
// precompile's result, as go-ethereum's abi.Arguments.Pack writes it; nil
// takes the answer back. The gas the call needs is counted with output's
// length.
func (s *Server) SetPrecompile(to common.Address, input, output []byte) error {
	if !isPrecompile(to) {
		return fmt.Errorf("hypertest: SetPrecompile: %s is not a read precompile (0x…0800 to 0x…0813)", to.Hex())
	}
	s.data.setPrecompile(to, input, output)
	return nil
}
