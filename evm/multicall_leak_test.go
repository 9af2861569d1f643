package evm_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// errorString is the revert data of Error(reason).
func errorString(reason string) string {
	return "08c379a0" + w("20") + w(fmt.Sprintf("%x", len(reason))) + rpad(hex.EncodeToString([]byte(reason)))
}

// A node that puts the access key in the revert reasons of a Multicall (the
// calls' own, ABI-encoded in the aggregate's output where the transport's
// scrubbing of JSON text cannot see it, and the aggregate's; a required
// call's that the answer marks failed), in a body that is not aggregate3's,
// or in its refusal of an answer too large: the key is in no error, no
// reason, no hook.
func TestMulticallKeyNeverShows(t *testing.T) {
	for _, key := range testkit.LeakKeys {
		for _, mode := range []string{"allowed", "required", "marked", "malformed", "too big"} {
			t.Run(mode, func(t *testing.T) {
				calls := 0
				srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
					var req struct{ ID json.RawMessage }
					body, _ := io.ReadAll(r.Body)
					_ = json.Unmarshal(body, &req)
					calls++
					rw.Header().Set("Content-Type", "application/json")
					echo := "denied: " + key + " " + r.URL.Path
					data := errorString(echo)
					out := w("20") + w("2") + w("40") + w("c0") +
						w("1") + w("40") + w("20") + w("2a") +
						w("0") + w("40") + w(fmt.Sprintf("%x", len(data)/2)) + rpad(data)
					switch {
					case mode == "required" && calls == 1:
						agg := errorString("Multicall3: call failed")
						fmt.Fprintf(rw, `{"jsonrpc":"2.0","id":%s,"error":{"code":3,"message":"execution reverted: Multicall3: call failed","data":"0x%s"}}`, req.ID, agg)
					case mode == "too big":
						fmt.Fprintf(rw, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32008,"message":"Response is too big for %s","data":%q}}`, req.ID, key, echo)
					case mode == "malformed":
						fmt.Fprintf(rw, `{"jsonrpc":"2.0","id":%s,"result":"0x%s%s"}`, req.ID, w("20")+w("2"), hex.EncodeToString([]byte(echo)))
					default:
						fmt.Fprintf(rw, `{"jsonrpc":"2.0","id":%s,"result":"0x%s"}`, req.ID, out)
					}
				}))
				defer srv.Close()
				var rec testkit.Recorder
				c, err := evm.New(srv.URL, key, rec.Option(), nodeaccess.WithMaxAttempts(1))
				require.NoError(t, err)
				in := []evm.Call3{{Target: token, AllowFailure: true}, {Target: mcOther, AllowFailure: mode != "required" && mode != "marked"}}
				res, err := c.Multicall(context.Background(), in, evm.Latest, evm.MulticallOptions{})
				switch mode {
				case "allowed":
					require.NoError(t, err)
					require.False(t, res[1].Success)
					assert.True(t, strings.HasPrefix(res[1].Revert.Reason, "denied: "), res[1].Revert.Reason)
					testkit.AssertNoKey(t, key, "reason", res[1].Revert.Reason)
					testkit.AssertErrNoKey(t, key, res[1].Revert)
				case "required", "marked":
					var me *evm.MulticallError
					require.ErrorAs(t, err, &me)
					assert.Equal(t, 1, me.Index)
					assert.True(t, strings.HasPrefix(me.Revert.Reason, "denied: "), me.Revert.Reason)
					testkit.AssertErrNoKey(t, key, err)
					testkit.AssertNoKey(t, key, "reason", me.Revert.Reason)
				case "too big":
					require.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge)
					var re *nodeaccess.RPCError
					require.ErrorAs(t, err, &re)
					testkit.AssertErrNoKey(t, key, err)
					testkit.AssertNoKey(t, key, "message", re.Message)
					testkit.AssertNoKey(t, key, "data", fmt.Sprint(re.Data))
				case "malformed":
					require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
					testkit.AssertErrNoKey(t, key, err)
				}
				for _, a := range rec.Attempts() {
					testkit.AssertNoKey(t, key, "attempt", fmt.Sprintf("%+v %v", a, a.Err))
				}
				testkit.AssertNoKey(t, key, "log", rec.Log())
			})
		}
	}
}
