package hypercore_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// A node whose errors echo the key, in every spelling, in each failure a
// HyperCore read meets: the precompile's error, another JSON-RPC error, an
// answer that is not the layout (the key's bytes as the result), and the
// HTTP request failing. No read's error shows the key, nor do the hooks or
// the log.
func TestCoreReadErrorsDoNotLeakTheKey(t *testing.T) {
	for _, key := range testkit.LeakKeys {
		echo := strings.Join(testkit.KeySpellings(key), " ")
		js, err := json.Marshal(echo)
		require.NoError(t, err)
		quoted := string(js[1 : len(js)-1]) // the spellings inside a JSON string
		for _, status := range []int{200, 500} {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if status != 200 {
					w.Header().Set("Content-Type", "text/plain")
					w.WriteHeader(status)
					_, _ = io.WriteString(w, "upstream "+echo+" "+r.URL.Path)
					return
				}
				var calls []struct{ ID json.RawMessage }
				body, _ := io.ReadAll(r.Body)
				require.NoError(t, json.Unmarshal(body, &calls))
				answers := make([]string, len(calls))
				for i, c := range calls {
					switch i % 3 {
					case 0:
						answers[i] = `{"jsonrpc":"2.0","id":` + string(c.ID) + `,"error":{"code":-32003,"message":"out of gas: gas exhausted during precompiled contract execution: ` + quoted + `"}}`
					case 1:
						answers[i] = `{"jsonrpc":"2.0","id":` + string(c.ID) + `,"error":{"code":-32000,"message":"` + quoted + `","data":"` + quoted + `"}}`
					default:
						answers[i] = `{"jsonrpc":"2.0","id":` + string(c.ID) + `,"result":"0x` + hex.EncodeToString([]byte(key)) + `"}`
					}
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, "["+strings.Join(answers, ",")+"]")
			}))
			var o observed
			c, err := hypercore.New(srv.URL, key, append(o.options(), nodeaccess.WithMaxAttempts(1))...)
			require.NoError(t, err)
			var b evm.Batch
			core := hypercore.Reads(&b)
			btc := hyper.Market{Key: "BTC", Kind: hyper.KeyPerp, SzDecimals: 5}
			user := common.HexToAddress("0x01")
			errs := []func() error{
				reader(core.Price(btc)), reader(core.TokenInfo(1)), reader(core.VaultEquity(user, user)),
				reader(core.Staking(user)), reader(core.Position(user, btc)), reader(core.AssetInfo(10007)),
			}
			require.NoError(t, c.SendBatch(context.Background(), &b))
			for i, read := range errs {
				err := read()
				require.Error(t, err, "read %d", i)
				if status == 200 && i%3 == 0 {
					require.ErrorIs(t, err, hypercore.ErrPrecompile)
				}
				testkit.AssertErrNoKey(t, key, err)
			}
			o.check(t, key)
			srv.Close()
		}
	}
}

// reader returns the error of r's Result.
func reader[T any](r *hypercore.Read[T]) func() error {
	return func() error {
		_, err := r.Result()
		return err
	}
}
