package evmtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest/internal/node"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
)

// Server is a local EVM node: a go-ethereum chain in memory answering
// JSON-RPC at {URL}/{Key} and {URL}/{Key}/evm. Make one with New (or NewT
// in a test) and Close it when done. Its methods are safe for concurrent
// use.
type Server struct {
	*nodeaccesstest.Server

	// The chain and the lock, two pointers away (promoted fields: s.mu is
	// s.core.state.mu), as nodeaccesstest.Server keeps its own: fmt reads
	// a Server's fields when it copies or prints a dereferenced Server, and
	// opens at most one pointer below them, under a verb that does not fit
	// a pointer (%s, %q), or through an unexported field that holds a
	// Server; it prints core as {0xc000...} and never reads the lock, the
	// closed flag or the chain's fields, which Commit, Transact and Close
	// write while a test may print the server.
	*core
}

// core holds a Server's state behind one more pointer (see Server).
type core struct{ *state }

// state is a Server's chain and what orders the changes to it.
type state struct {
	chain    *node.Chain
	ec       *ethclient.Client
	scenario Scenario

	// mu orders what changes the chain (Commit, Transact, SendTransaction,
	// AdjustTime, Revert, Reorg, MineEvery's blocks) and Close.
	mu     sync.Mutex
	closed bool // set by Close, under mu
	// stopMining stops MineEvery's goroutine; nil when none runs.
	stopMining chan struct{}
	closeOnce  sync.Once
	// lie is how the server lies (Lie); nil: it tells the truth.
	lie atomic.Pointer[Lie]
}

// ErrClosed is returned by the Server's methods that change the chain
// (Transact, SendTransaction, AdjustTime, Revert, Reorg) once Close has been
// called. Commit, which returns no error, panics instead. It also matches
// nodeaccess.ErrUnavailable (errors.Is): the server no longer serves.
var ErrClosed = fmt.Errorf("evmtest: Server closed: %w", nodeaccess.ErrUnavailable)

// Option configures New: WithKey, WithAlloc, WithoutScenario,
// WithoutMulticall3. The zero Option is refused.
type Option struct{ apply func(*settings) error }

type settings struct {
	key        string
	alloc      types.GenesisAlloc
	noScenario bool
}

// WithKey sets the access key the server accepts (default: 32 random hex
// characters). It must be one path segment of ASCII letters, digits and
// "._~-".
func WithKey(key string) Option {
	return Option{func(s *settings) error {
		if key == "" {
			return errors.New("evmtest: WithKey: empty key")
		}
		s.key = key
		return nil
	}}
}

// WithAlloc adds accounts and contracts to the genesis: code, storage,
// balances and nonces of your own (see TokenAccount for a token with
// balances of your choice). An address that is also a default one (the
// funded accounts, Token, the scenario's contracts) takes the account given
// here; the default scenario needs Holder's ether and the genesis
// contracts, so replacing those makes New fail unless WithoutScenario is
// given too. Several WithAlloc options add up, the later winning on
// conflict.
func WithAlloc(alloc types.GenesisAlloc) Option {
	return Option{func(s *settings) error {
		if s.alloc == nil {
			s.alloc = make(types.GenesisAlloc, len(alloc))
		}
		for addr, acc := range alloc {
			s.alloc[addr] = acc
		}
		return nil
	}}
}

// WithoutScenario starts the chain at its genesis, block 0, without the
// default scenario's transactions; Server.Scenario then returns the zero
// Scenario.
func WithoutScenario() Option {
	return Option{func(s *settings) error {
		s.noScenario = true
		return nil
	}}
}

// New starts a local EVM node on 127.0.0.1 at a free port. The chain holds
// the genesis contracts (Token, Multicall3 and the scenario's contracts),
// the funded Accounts and what WithAlloc adds, and, unless WithoutScenario
// is given, the default scenario's five transactions in blocks 1 to 5 (see
// Scenario).
func New(opts ...Option) (*Server, error) {
	var set settings
	for _, o := range opts {
		if o.apply == nil {
			return nil, errors.New("evmtest: zero Option")
		}
		if err := o.apply(&set); err != nil {
			return nil, err
		}
	}
	c, err := node.New(genesisAlloc(set.alloc))
	if err != nil {
		return nil, err
	}
	base, err := nodeaccesstest.Start(set.key, writeError)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("evmtest: %w", err)
	}
	s := &Server{Server: base, core: &core{&state{chain: c, ec: ethclient.NewClient(rpc.DialInProc(c.RPC()))}}}
	h := http.HandlerFunc(liar{lie: &s.lie, next: c.RPC(), s: s.state}.serve)
	base.Handle("POST /{key}", h)
	base.Handle("POST /{key}/evm", h)
	if !set.noScenario {
		if s.scenario, err = s.runScenario(context.Background()); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// Close stops the HTTP server (see nodeaccesstest.Server.Close), then the
// chain. It waits for a Commit or Transact under way. It may be called more
// than once. After it, the methods that change the chain return ErrClosed
// (Commit panics); Scenario, Snapshot, URL and Key still answer.
func (s *Server) Close() {
	s.Server.Close()
	s.mu.Lock()
	s.closed = true
	if s.stopMining != nil {
		close(s.stopMining)
		s.stopMining = nil
	}
	s.mu.Unlock()
	s.closeOnce.Do(func() {
		s.ec.Close()
		s.chain.Close()
	})
}

// String describes the server with its key masked, as the SDK's clients
// describe themselves: "evmtest.Server{http://127.0.0.1:PORT/REDACTED}".
func (s *Server) String() string {
	if s == nil || s.Server == nil {
		return "<nil>"
	}
	return "evmtest.Server{" + s.URL + "/REDACTED}"
}

// Format prints String for every verb, so that no formatting of a *Server
// (%v, %+v, %#v, %s) can reach the key (the embedded
// *nodeaccesstest.Server masks it too). Key and Endpoint return it.
func (s *Server) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(s.String())) }

// Client returns an evm.Client for this server: evm.New(s.URL, s.Key(),
// opts...). It posts to {URL}/{Key}; add evm.WithPathSuffix("evm") for
// {URL}/{Key}/evm, the path of Hyperliquid's EVM on node-access services.
func (s *Server) Client(opts ...nodeaccess.Option) (*evm.Client, error) {
	return evm.New(s.URL, s.Key(), opts...)
}

// Endpoint returns the whole endpoint URL as providers show it,
// {URL}/{Key}, for evm.NewFromURL. It holds the key: do not log it.
func (s *Server) Endpoint() string { return s.URL + "/" + s.Key() }

// EthClient returns a go-ethereum client of the chain's JSON-RPC, connected
// in-process: no HTTP, no key, no faults. Use it to send transactions, read
// receipts and deploy contracts with abigen bindings (it is a
// bind.ContractBackend); the server closes it.
func (s *Server) EthClient() *ethclient.Client { return s.ec }

// Scenario returns the default scenario's transactions and what
// ots_getInternalOperations lists for each; the zero Scenario when the
// server was started WithoutScenario.
func (s *Server) Scenario() Scenario { return s.scenario.clone() }

// writeError is the error writer the server gives nodeaccesstest.Start: a JSON-RPC 2.0
// error object with "id": null and Content-Type application/json, as
// JSON-RPC providers answer requests they refuse before reading them. The
// code is -32005 ("limit exceeded", EIP-1474) for 429 and -32000 for every
// other status; the message is msg:
//
//	{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"invalid access key"}}
func writeError(w http.ResponseWriter, _ *http.Request, status int, msg string) {
	code := -32000
	if status == http.StatusTooManyRequests {
		code = -32005
	}
	body, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
