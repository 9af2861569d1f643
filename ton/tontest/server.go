package tontest

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/nodeaccess/nodeaccess/ton"
)

// Server is a local TON node-access endpoint on 127.0.0.1: API v2 at
// {URL}/api/v2/{Key}/… and API v3 at {URL}/{Key}/api/v3/…, as providers
// lay them out. It runs until Close.
//
// The embedded *nodeaccesstest.Server gives URL, Key, FailNext, Requests
// and Close. The data (blocks, account states, pending transactions,
// address book entries) may be changed at any time with the Set methods,
// which are safe for concurrent use; a request sees the data as it was
// when the request arrived at its handler.
type Server struct {
	*nodeaccesstest.Server

	// The data, the chain and the settings, behind a pointer (promoted
	// fields: s.data is s.core.data), so that the data and the chain are
	// two pointers away: fmt reads a Server's fields when it copies or
	// prints a dereferenced Server, and opens at most one pointer below
	// them, under a verb that does not fit a pointer (%s, %q) or through an
	// unexported field that holds a Server (where it calls no Format); it
	// prints core's fields, which New sets and nothing changes, and never
	// reads the locks, maps and blocks that the Set methods, Advance and
	// WithChain's clock write while a test may print the server.
	*core
}

// core is a Server's data, chain and settings (see Server).
type core struct {
	data     *store
	maxLimit int           // WithMaxLimit; 0: no cap below the indexer's 1000
	lag      time.Duration // WithLag; 0: every block is there at once
	indexer  bool          // WithIndexer
	chain    *chain        // WithChain; nil: no chain
}

// Option configures New: WithKey, WithoutDefaults, WithIndexer, WithLag,
// WithMaxLimit, WithChain.
type Option struct{ apply func(*settings) error }

type settings struct {
	key        string
	noDefaults bool
	maxLimit   int
	lag        time.Duration
	indexer    bool
	chain      bool
	chainEvery time.Duration
}

// WithKey sets the access key (ASCII letters, digits and "._~-"). Without
// it the key is random, 32 hex characters.
func WithKey(key string) Option {
	return Option{func(s *settings) error {
		if key == "" {
			return errors.New("tontest: WithKey: the key is empty")
		}
		s.key = key
		return nil
	}}
}

// WithoutDefaults starts the server without its default data: no block,
// no account state, nothing pending. Data options given with it still
// apply.
func WithoutDefaults() Option {
	return Option{func(s *settings) error {
		s.noDefaults = true
		return nil
	}}
}

// WithMaxLimit makes the v3 calls (accountStates, pendingTransactions)
// serve at most n items a page whatever limit asks for, silently: the
// answer is a page of n items, with no error and no sign that it was cut,
// as a server may do. A limit
// the indexer refuses (above 1000) is still refused with its 422. n must be
// at least 1.
func WithMaxLimit(n int) Option {
	return Option{func(s *settings) error {
		if n < 1 {
			return fmt.Errorf("tontest: WithMaxLimit: %d is not a page size: want at least 1", n)
		}
		s.maxLimit = n
		return nil
	}}
}

// New starts a local TON endpoint on 127.0.0.1 and returns it serving.
// Without options the key is random and the data is the default: the
// recorded masterchain block DefaultBlock(), and DefaultAccount with two
// account states and one pending transaction (see the package
// documentation). Close it when done.
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
	data := newStore()
	if !set.noDefaults {
		if err := data.loadDefaults(); err != nil {
			return nil, err
		}
	}
	srv, err := nodeaccesstest.Start(set.key, writeError)
	if err != nil {
		return nil, fmt.Errorf("tontest: %w", err)
	}
	s := &Server{Server: srv, core: &core{data: data, maxLimit: set.maxLimit, lag: set.lag, indexer: set.indexer}}
	srv.HandleFunc("GET /api/v2/{key}/getBlockTransactionsExt", s.serveBlockREST)
	srv.HandleFunc("GET /api/v2/{key}/getBlockTransactions", s.serveIDsREST)
	srv.HandleFunc("POST /api/v2/{key}/jsonRPC", s.serveBlockRPC)
	srv.HandleFunc("GET /{key}/api/v3/accountStates", s.serveAccountStates)
	srv.HandleFunc("GET /{key}/api/v3/pendingTransactions", s.servePending)
	if set.chain {
		s.chain = newChain()
		for _, m := range []string{methodInfo, methodShards, methodGetShards, methodHeader} {
			srv.HandleFunc("GET /api/v2/{key}/"+m, s.serveChainREST(m))
		}
		s.advance()
		if set.chainEvery > 0 {
			s.startClock(set.chainEvery)
		}
	}
	return s, nil
}

// Client returns a ton.Client for this server (ton.New with URL and Key),
// with opts: pass ton.WithJSONRPC() for the JSON-RPC form of API v2, and
// any nodeaccess option (retries, hooks, timeouts).
func (s *Server) Client(opts ...nodeaccess.Option) (*ton.Client, error) {
	return ton.New(s.URL, s.Key(), opts...)
}

// SetBlock serves b from now on, replacing the block with the same
// reference (workchain, shard, seqno) if there was one. The transactions
// are served in the block's order, by account id and then logical time,
// whatever their order in b. It fails, changing nothing, for a zero shard,
// a transaction whose account is on another workchain than the block, a
// zero logical time, two transactions with the same account and logical
// time, a negative fee or amount, a Transaction member that is neither
// empty nor a JSON object, or an Unreadable index out of range or listed
// twice. The block is there at once, or, with WithLag, once the lag has
// passed from now.
func (s *Server) SetBlock(b Block) error { return s.data.setBlock(b) }

// RemoveBlock stops serving the block ref; getBlockTransactionsExt then
// answers it as a lite server answers a block it does not have.
func (s *Server) RemoveBlock(ref ton.BlockRef) { s.data.removeBlock(ref) }

// SetAccountStates makes accountStates list states for account from now
// on (its historical states, in any order: the server sorts them by
// last_trans_lt). No states removes the account. It fails, changing
// nothing, for a state whose Account is not account, a negative balance,
// or a Raw that is neither empty nor a JSON object.
func (s *Server) SetAccountStates(account ton.Address, states ...ton.AccountState) error {
	return s.data.setStates(account, states)
}

// SetPendingTransactions makes pendingTransactions list txs for account
// from now on, in the order given. No transactions means nothing pending
// (the indexer's 404 "emulated traces not found"). It fails, changing
// nothing, for a transaction whose Account is not account, a zero logical
// time, two transactions with the same hash, negative fees, or a Raw that
// is neither empty nor a JSON object.
func (s *Server) SetPendingTransactions(account ton.Address, txs ...ton.PendingTransaction) error {
	return s.data.setPending(account, txs)
}

// SetAddressBookEntry sets what v3 answers say about account: its
// address_book entry (UserFriendly, Domain, Interfaces), and, with
// WithIndexer, when TokenInfo is not nil, its accountStates metadata
// ({"is_indexed":IsIndexed,"token_info":[…]}, each token's typed members,
// then the other members of its Raw). Without an entry the server writes
// the account's user-friendly form, bounceable unless its newest state is
// uninit or nonexist, with no domain, no interfaces and no metadata; an
// entry whose UserFriendly is "" gets that default form. It fails,
// changing nothing, for a TokenInfo whose Raw is neither empty nor a JSON
// object.
func (s *Server) SetAddressBookEntry(account ton.Address, e ton.AddressBookEntry) error {
	return s.data.setBook(account, e)
}

// writeError writes an error answer as the real servers do, in the form
// of the API the request's path belongs to (the error writer the server
// gives nodeaccesstest.Start):
//
//   - API v2 (paths under /api/v2/): {"ok":false,"error":"<msg>","code":<status>},
//     and for 429 toncenter's rate-limit body {"ok":false,"result":"Ratelimit exceed","code":429};
//   - API v3 and any other path: {"error":"<msg>"}.
//
// The HTTP status is status, the Content-Type application/json.
func writeError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(errorBody(r, status, msg))
}

func errorBody(r *http.Request, status int, msg string) []byte {
	if status == http.StatusNotFound || status == http.StatusMethodNotAllowed {
		// An unknown path or a wrong method: toncenter's Python server
		// answers the status's phrase (Starlette's HTTPException).
		msg = http.StatusText(status)
	}
	if !isV2(r) {
		return appendV3Error(nil, msg)
	}
	if status == http.StatusTooManyRequests {
		return []byte(`{"ok":false,"result":"Ratelimit exceed","code":429}`)
	}
	return appendV2Error(nil, status, msg)
}

func isV2(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/api/v2/") }

func appendV2Error(b []byte, status int, msg string) []byte {
	b = append(b, `{"ok":false,"error":`...)
	b = appendString(b, msg)
	b = append(b, `,"code":`...)
	b = appendInt(b, int64(status))
	return append(b, '}')
}

func appendV3Error(b []byte, msg string) []byte {
	b = append(b, `{"error":`...)
	b = appendString(b, msg)
	return append(b, '}')
}

// writeJSON writes a 200 JSON answer.
func writeJSON(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}
