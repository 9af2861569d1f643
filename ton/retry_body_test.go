package ton_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTransientErrorIn200IsRetried: a gateway's rate limit or lite-server
// failure sent as a TON error inside an HTTP 200 is retried like the same
// status; other error bodies in a 200 are not.
func TestTransientErrorIn200IsRetried(t *testing.T) {
	const okBody = `{"accounts":[],"address_book":{}}`
	const acct = "0:5B6A643CF4E32FF0391C476456FED5BDB17EF10A55CBB7C2980C76D4AAD07875"
	for _, tc := range []struct {
		name     string
		first    string
		attempts int64
		wantErr  bool
		code     int
	}{
		{"429 then success", `{"ok":false,"result":"Ratelimit exceed","code":429}`, 2, false, 0},
		{"500 then success", `{"ok":false,"error":"LITE_SERVER_NOTREADY","code":500}`, 2, false, 0},
		{"always 429", `{"ok":false,"result":"Ratelimit exceed","code":429}`, 3, true, 429},
		{"400 is not retried", `{"ok":false,"error":"bad address","code":400}`, 1, true, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "application/json")
				if n.Add(1) == 1 || tc.name == "always 429" {
					_, _ = io.WriteString(w, tc.first)
					return
				}
				_, _ = io.WriteString(w, okBody)
			}))
			defer srv.Close()
			c, err := ton.New(srv.URL, "k3y-secret", nodeaccess.WithBackoff(time.Millisecond, time.Millisecond))
			require.NoError(t, err)
			page, err := c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{acct}})
			assert.Equal(t, tc.attempts, n.Load(), "requests sent")
			if !tc.wantErr {
				require.NoError(t, err)
				assert.Empty(t, page.States)
				return
			}
			require.Error(t, err)
			var re *nodeaccess.RPCError
			require.True(t, errors.As(err, &re), "%v", err)
			assert.Equal(t, tc.code, re.Code)
			assert.Equal(t, tc.code == 429, errors.Is(err, nodeaccess.ErrRateLimited))
			assert.NotContains(t, err.Error(), "k3y-secret")
		})
	}
}
