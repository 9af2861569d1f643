package nodeaccess_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// inJSON is the key in every spelling a JSON string can carry it (as it is,
// %-escaped both ways, every character outside ASCII \u-escaped), and the
// request's path, which holds it, as a server echoes it: the inside of a
// JSON string.
func inJSON(key string, r *http.Request) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b[1 : len(b)-1]) }
	return strings.Join([]string{q(key), url.PathEscape(key), url.QueryEscape(key), testkit.ASCIIJSON(key),
		q(r.URL.Path), q(r.URL.EscapedPath())}, " ")
}

// jsonSpelling is the i-th of the spellings inJSON joins, alone: what a
// server puts in one value of its answer, short enough for a decoder to
// quote it whole.
func jsonSpelling(key string, r *http.Request, i int) string {
	return strings.Split(inJSON(key, r), " ")[i]
}

// inText is the key in every spelling of testkit.KeySpellings and the
// request's path, for text that is not JSON.
func inText(key string, r *http.Request) string {
	return strings.Join(append(testkit.KeySpellings(key), r.URL.Path, r.URL.EscapedPath()), " | ")
}

// rpcID is the id of a JSON-RPC request (the first of a batch), "1" when
// there is none, so that an answer gets past the id check to its values.
func rpcID(r *http.Request) string {
	var one struct{ ID json.RawMessage }
	var batch []struct{ ID json.RawMessage }
	b, _ := io.ReadAll(r.Body)
	if json.Unmarshal(b, &one) == nil && len(one.ID) > 0 {
		return string(one.ID)
	}
	if json.Unmarshal(b, &batch) == nil && len(batch) > 0 && len(batch[0].ID) > 0 {
		return string(batch[0].ID)
	}
	return "1"
}

// hostileAnswers are the ways a server can put the key into what a client
// reads besides the values of its answers (valueAnswers): its error
// bodies in every chain's shape, the status line, headers, a redirect, a
// body that breaks off.
var hostileAnswers = map[string]func(t *testing.T, key string, w http.ResponseWriter, r *http.Request){
	"JSON-RPC error": func(_ *testing.T, key string, w http.ResponseWriter, r *http.Request) {
		k := inJSON(key, r)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"%s","data":{"%s":["%s"]}}}`, rpcID(r), k, k, k)
	},
	"JSON-RPC revert": func(_ *testing.T, key string, w http.ResponseWriter, r *http.Request) {
		k := inJSON(key, r)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":3,"message":"execution reverted: %s","data":"%s"}}`, rpcID(r), k, k)
	},
	"TON v2 error in a 200": func(_ *testing.T, key string, w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"ok":false,"error":"%s","code":500}`, inJSON(key, r))
	},
	"TON v3 error, 422": func(_ *testing.T, key string, w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(422)
		fmt.Fprintf(w, `{"error":"%s"}`, inJSON(key, r))
	},
	"Hyperliquid 422": func(_ *testing.T, key string, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(422)
		io.WriteString(w, "Failed to deserialize the JSON body into the target type: "+inText(key, r))
	},
	"beacon version": func(_ *testing.T, key string, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Eth-Consensus-Version", url.PathEscape(key)) // KeySpellings(key)[1], which a key of one spelling lacks
		fmt.Fprintf(w, `{"version":"%s","data":{}}`, inJSON(key, r))
	},
	"beacon error, 404": func(_ *testing.T, key string, w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(404)
		fmt.Fprintf(w, `{"code":404,"message":"%s","stacktraces":["%s"]}`, inJSON(key, r), inJSON(key, r))
	},
	"503 every time": func(_ *testing.T, key string, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(503)
		fmt.Fprintf(w, `{"error":"%s","message":"%s"}`, inJSON(key, r), inJSON(key, r))
	},
	"429 every time": func(_ *testing.T, key string, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(429)
		fmt.Fprintf(w, `{"ok":false,"result":"Ratelimit exceed for %s","code":429}`, inJSON(key, r))
	},
	"HTML page": func(_ *testing.T, key string, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html>"+inText(key, r)+"</html>")
	},
	"status line and headers": func(t *testing.T, key string, w http.ResponseWriter, r *http.Request) {
		conn, rw := testkit.Hijack(t, w, r)
		defer conn.Close()
		fmt.Fprintf(rw, "HTTP/1.1 418 %s\r\nContent-Type: text/%s\r\nLocation: /x/%s\r\nEth-Consensus-Version: %s\r\nContent-Length: 2\r\n\r\nno",
			key, url.PathEscape(key), url.PathEscape(key), url.PathEscape(key))
		_ = rw.Flush()
	},
	"redirect elsewhere": func(_ *testing.T, key string, w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://elsewhere.example"+r.URL.EscapedPath()+"/"+url.PathEscape(key)+"?k="+url.QueryEscape(key), http.StatusFound)
	},
	"body broken off": func(t *testing.T, key string, w http.ResponseWriter, r *http.Request) {
		body := `{"jsonrpc":"2.0","id":` + rpcID(r) + `,"result":"` + inJSON(key, r)
		conn, rw := testkit.Hijack(t, w, r)
		defer conn.Close()
		fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nEth-Consensus-Version: fulu\r\nContent-Length: %d\r\n\r\n%s", len(body)+100, body)
		_ = rw.Flush()
	},
}

// valueAnswers are 2xx answers in the shape of every chain's answers with
// v, one spelling of the key, in every value: each decoder refuses it, and
// quotes it if it quotes anything.
var valueAnswers = map[string]func(v string, w http.ResponseWriter, r *http.Request){
	"JSON-RPC result": func(k string, w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":"%s"}`, rpcID(r), k)
	},
	"TON v2 values": func(k string, w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"ok":true,"result":{"@type":"%s","id":{"@type":"ton.blockIdExt","workchain":-1,"shard":"%s","seqno":1,"root_hash":"%s","file_hash":"%s"},"req_count":40,"incomplete":false,"transactions":[{"@type":"%s","account":"%s","lt":"%s","hash":"%s"}]}}`, k, k, k, k, k, k, k, k)
	},
	"TON v3 values": func(k string, w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"accounts":[{"address":"%s","account_state_hash":"%s","balance":"%s","status":"%s","code_hash":"%s","last_transaction_lt":"%s"}],"transactions":[{"account":"%s","hash":"%s","lt":"%s"}],"address_book":{"%s":{"user_friendly":"%s"}},"metadata":{}}`, k, k, k, k, k, k, k, k, k, k, k)
	},
	"Hyperliquid values": func(k string, w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `[{"vaultAddress":"%s","equity":"%s"},{"vaultAddress":"0x07fd993f0fa3a185f7207adccd29f7a87404689d","equity":"%s"}]`, k, k, k)
	},
	"beacon JSON state": func(k string, w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"version":"phase0","execution_optimistic":false,"finalized":false,"data":{"genesis_time":"%s","genesis_validators_root":"%s"}}`, k, k)
	},
	"beacon JSON state, hex field": func(k string, w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"version":"phase0","execution_optimistic":false,"finalized":false,"data":{"genesis_time":"1","genesis_validators_root":"%s"}}`, k)
	},
	"beacon JSON state, its version": func(k string, w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"version":"%s","execution_optimistic":false,"finalized":false,"data":{}}`, k)
	},
	"JSON-RPC result, hex": func(k string, w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":"0x%s"}`, rpcID(r), k)
	},
}

// TestEveryErrorPath is the class of issue 22's masking where the text
// enters: every keyed operation of every chain, against every hostile
// answer, with every leak key, plus a network failure and a user's
// RoundTripper that quotes the URL. The error, every error it wraps, the
// hook payloads and the log show no key; the error is one *OpError; and
// no typed error was replaced to hide the key (only fmt's and the chain
// packages' unexported wrappers may be), so errors.As finds every type the
// package documents.
func TestEveryErrorPath(t *testing.T) {
	t.Parallel()
	closed, _ := testkit.Serve(t, func(http.ResponseWriter, *http.Request, int) {})
	closed.Close()
	for _, key := range testkit.LeakKeys {
		bases := map[string]func(t *testing.T) (string, nodeaccess.Option){
			"connection refused": func(*testing.T) (string, nodeaccess.Option) { return closed.URL, testkit.Bundle() },
			"RoundTripper quoting the URL": func(*testing.T) (string, nodeaccess.Option) {
				return "https://node.example", nodeaccess.WithRoundTripper(urlQuoter{})
			},
		}
		for name, answer := range hostileAnswers {
			bases[name] = func(t *testing.T) (string, nodeaccess.Option) {
				srv, _ := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
					w.Header().Set("Content-Type", "application/json")
					answer(t, key, w, r)
				})
				return srv.URL, testkit.Bundle()
			}
		}
		for name, answer := range valueAnswers {
			for i := range strings.Count(inJSON(key, &http.Request{URL: &url.URL{}}), " ") + 1 {
				bases[fmt.Sprintf("%s, spelling %d", name, i)] = func(t *testing.T) (string, nodeaccess.Option) {
					srv, _ := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
						w.Header().Set("Content-Type", "application/json")
						answer(jsonSpelling(key, r, i), w, r)
					})
					return srv.URL, testkit.Bundle()
				}
			}
		}
		for server, base := range bases {
			for op, call := range keyedCalls {
				t.Run(server+"/"+op+"/"+url.PathEscape(key[:7]), func(t *testing.T) {
					t.Parallel()
					u, opt := base(t)
					var rec testkit.Recorder
					ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
					defer cancel()
					err := call(ctx, u, key, testkit.Bundle(opt, rec.Option(), nodeaccess.WithBackoff(time.Millisecond, time.Millisecond)))
					for _, a := range rec.Attempts() {
						testkit.AssertNoKey(t, key, "hook", fmt.Sprintf("%+v %v", a, a.Err))
					}
					testkit.AssertNoKey(t, key, "log", rec.Log())
					if err == nil {
						return // a download of a body it does not read
					}
					testkit.AssertErrNoKey(t, key, err)
					var oe *nodeaccess.OpError
					require.ErrorAs(t, err, &oe)
					for _, typ := range transport.StandIns(err) {
						name := typ[strings.LastIndexByte(typ, '.')+1:]
						assert.False(t, name[0] >= 'A' && name[0] <= 'Z', "%s holding the key was replaced: errors.As no longer finds it: %v", typ, err)
					}
				})
			}
		}
	}
}

// urlQuoter is a careless RoundTripper: its error quotes the request URL,
// which holds the key.
type urlQuoter struct{}

func (urlQuoter) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("no route to %s (%s)", r.URL, r.URL.Path)
}
