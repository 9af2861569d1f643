package ton_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
)

// cutKeys are the keys of the cut tests: the leak test's keys and a long
// plain one.
var cutKeys = append([]string{"SeCrEtKeY0123456789abcdefABCDEF"}, testkit.LeakKeys...)

// assertNoKeyPiece fails when s holds the start of key, 4 bytes or more of
// it (what a cut through the key would leave), or the key in any spelling.
func assertNoKeyPiece(t *testing.T, key, what, s string) {
	t.Helper()
	for j := 4; j <= len(key); j++ {
		if strings.Contains(s, key[:j]) {
			t.Errorf("%s leaks %d bytes of the key (%q): %s", what, j, key[:j], s)
			return
		}
	}
	testkit.AssertNoKey(t, key, what, s)
}

// switchServer answers every request with the status and body last set.
type switchServer struct {
	mu     sync.Mutex
	status int
	body   string
}

func (s *switchServer) set(status int, body string) {
	s.mu.Lock()
	s.status, s.body = status, body
	s.mu.Unlock()
}

func (s *switchServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	s.mu.Lock()
	status, body := s.status, s.body
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Bug 1: a server message is cut to 512 bytes for errors; a key that
// straddles byte 512 must be masked whole before the cut, not left half
// visible after it. Every split of the key at the cap, in every error form
// that carries a server message.
func TestKeyStraddlingTheMessageCap(t *testing.T) {
	const limit = 512
	srv := &switchServer{}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	for _, key := range cutKeys {
		clients := map[string]*ton.Client{}
		for name, opts := range map[string][]nodeaccess.Option{"REST": nil, "RPC": {ton.WithJSONRPC()}} {
			c, err := ton.New(hs.URL, key, append(opts, nodeaccess.WithMaxAttempts(1))...)
			require.NoError(t, err)
			clients[name] = c
		}
		// The key with its first character escaped as \u00XX: no spelling
		// the transport masks in the raw body, the key itself once decoded.
		partly := fmt.Sprintf(`\u%04x`, key[0]) + key[1:]
		for k := 1; k < len(key); k++ { // k bytes of the key before the cap
			msg := strings.Repeat("x", limit-k) + key + " and more"
			forms := []struct {
				name   string
				status int
				body   string
				ops    []string
			}{
				{"v2 ok:false in a 200", 200, `{"ok":false,"error":` + jsonString(msg) + `,"code":500}`, []string{"getBlockTransactionsExt", "getMasterchainInfo"}},
				{"v2 error, 500", 500, `{"ok":false,"error":` + jsonString(msg) + `,"code":500}`, []string{"getBlockTransactionsExt", "getMasterchainInfo"}},
				{"v2 rate limit in result, 429", 429, `{"ok":false,"result":` + jsonString(msg) + `,"code":429}`, []string{"getBlockTransactionsExt", "getMasterchainInfo"}},
				{"v2 error, key partly escaped, 500", 500, `{"ok":false,"error":"` + strings.Repeat("x", limit-k) + partly + `","code":500}`, []string{"getBlockTransactionsExt", "getMasterchainInfo"}},
				{"JSON-RPC error object in a 200", 200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":` + jsonString(msg) + `}}`, []string{"getBlockTransactionsExt", "getMasterchainInfo"}},
				{"v3 error, 422", 422, `{"error":` + jsonString(msg) + `}`, []string{"accountStates", "pendingTransactions", "masterchainBlockShards"}},
				{"v3 error, 404", 404, `{"error":` + jsonString(msg) + `}`, []string{"pendingTransactions", "masterchainBlockShards"}},
				{"v3 error in a 200", 200, `{"error":` + jsonString(msg) + `}`, []string{"accountStates", "pendingTransactions", "masterchainBlockShards"}},
			}
			for _, f := range forms {
				srv.set(f.status, f.body)
				for _, o := range ops {
					if !contains(f.ops, o.name) {
						continue
					}
					for form, c := range clients {
						if form == "RPC" && o.name != "getBlockTransactionsExt" && o.name != "getMasterchainInfo" {
							continue
						}
						what := fmt.Sprintf("%s/%s/%s/k=%d", f.name, o.name, form, k)
						err := o.call(c)
						require.Error(t, err, what)
						assertNoKeyPiece(t, key, what, err.Error())
						assertNoKeyPiece(t, key, what+" %+v", fmt.Sprintf("%+v", err))
						_, msg := serverMessage(t, err)
						assertNoKeyPiece(t, key, what+" server message", msg)
						require.LessOrEqual(t, len(msg), limit+len("…"), what)
						require.True(t, strings.HasPrefix(msg, "xxxx"), what)
					}
				}
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Bug 1, decoders: a server value a decoder rejects is quoted whole (and
// the whole key in it masked) or reported by its length, never cut: a key
// inside a long numeric string, hash, address or address-book key leaks
// no piece, wherever it sits.
func TestKeyInRejectedServerValues(t *testing.T) {
	srv := &switchServer{}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	const hash = "AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src="
	forms := []struct {
		name string
		fill string
		body func(v string) string
		op   string
	}{
		{"balance", "1", func(v string) string {
			return `{"accounts":[{"address":"` + acctLower + `","balance":` + jsonString(v) + `}]}`
		}, "accountStates"},
		{"last_transaction_lt", "9", func(v string) string {
			return `{"accounts":[{"address":"` + acctLower + `","balance":"1","last_transaction_lt":` + jsonString(v) + `}]}`
		}, "accountStates"},
		{"account_state_hash", "!", func(v string) string {
			return `{"accounts":[{"address":"` + acctLower + `","balance":"1","account_state_hash":` + jsonString(v) + `}]}`
		}, "accountStates"},
		{"pending hash", "!", func(v string) string {
			return `{"transactions":[{"account":"` + acctLower + `","hash":` + jsonString(v) + `,"lt":"1"}]}`
		}, "pendingTransactions"},
		{"pending lt", "2", func(v string) string {
			return `{"transactions":[{"account":"` + acctLower + `","hash":"` + hash + `","lt":` + jsonString(v) + `}]}`
		}, "pendingTransactions"},
		{"pending account", "0", func(v string) string {
			return `{"transactions":[{"account":` + jsonString(v) + `,"hash":"` + hash + `","lt":"1"}]}`
		}, "pendingTransactions"},
		{"block lt", "3", func(v string) string {
			return `{"ok":true,"result":{"id":{"workchain":-1,"shard":"-9223372036854775808","seqno":1},"transactions":[` +
				`{"account":"` + acctLower + `","transaction_id":{"lt":` + jsonString(v) + `,"hash":"` + hash + `"}}]}}`
		}, "getBlockTransactionsExt"},
		{"block fee", "4", func(v string) string {
			return `{"ok":true,"result":{"id":{"workchain":-1,"shard":"-9223372036854775808","seqno":1},"transactions":[` +
				`{"account":"` + acctLower + `","transaction_id":{"lt":"1","hash":"` + hash + `"},"fee":` + jsonString(v) + `}]}}`
		}, "getBlockTransactionsExt"},
	}
	for _, key := range cutKeys {
		c, err := ton.New(hs.URL, key, nodeaccess.WithMaxAttempts(1))
		require.NoError(t, err)
		for _, f := range forms {
			var call func(*ton.Client) error
			for _, o := range ops {
				if o.name == f.op {
					call = o.call
				}
			}
			// The key starts at every byte up to past the longest old cut
			// (100 bytes), so that some start straddles each cut.
			for start := 0; start <= 110; start++ {
				v := strings.Repeat(f.fill, start) + key + f.fill
				srv.set(200, f.body(v))
				err := call(c)
				what := fmt.Sprintf("%s/start=%d", f.name, start)
				require.Error(t, err, what)
				require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, what)
				assertNoKeyPiece(t, key, what, err.Error())
			}
		}
	}
}
