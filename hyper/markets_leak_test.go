package hyper_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// The metadata requests go to the public API without the key, and their
// failures, whose bodies echo the key in every spelling, show it nowhere:
// not in the error, the hook payloads or the log.
func TestMarketsFailuresDoNotLeakTheKey(t *testing.T) {
	for _, key := range testkit.LeakKeys {
		echo := strings.Join(testkit.KeySpellings(key), " ")
		for _, tc := range []struct {
			name, fail string
			status     int
			ctype      string
			body       string
			want       error
		}{
			{"422 on spotMeta", "spotMeta", 422, "text/plain", "Failed to deserialize the JSON body into the target type " + echo, hyper.ErrUnsupportedRequest},
			{"not metadata on outcomeMeta", "outcomeMeta", 200, "application/json", `{"outcomes":"` + strings.ReplaceAll(echo, `"`, `'`) + `"}`, nodeaccess.ErrInvalidResponse},
			{"HTML on meta", "meta", 200, "text/html", "<html>" + echo + "</html>", nodeaccess.ErrInvalidResponse},
			{"403 on perpDexs", "perpDexs", 403, "application/json", `{"error":"` + strings.ReplaceAll(echo, `"`, `'`) + `"}`, nodeaccess.ErrUnauthorized},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var (
					mu     sync.Mutex
					bodies []string
				)
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					b, _ := io.ReadAll(r.Body)
					mu.Lock()
					bodies = append(bodies, r.URL.String()+" "+string(b)+" "+fmt.Sprint(r.Header))
					mu.Unlock()
					if strings.Contains(string(b), `"`+tc.fail+`"`) {
						w.Header().Set("Content-Type", tc.ctype)
						w.WriteHeader(tc.status)
						_, _ = io.WriteString(w, tc.body)
						return
					}
					w.Header().Set("Content-Type", "application/json")
					_, _ = io.WriteString(w, map[bool]string{true: `[null]`, false: `{"universe":[],"tokens":[],"outcomes":[]}`}[strings.Contains(string(b), "perpDexs")])
				}))
				defer srv.Close()
				var o observed
				c, err := hyper.New(srv.URL, key, append(o.options(), hyper.WithPublicURL(srv.URL), hyper.WithPublicBudget(nil), nodeaccess.WithMaxAttempts(1))...)
				require.NoError(t, err)
				_, err = c.Markets(context.Background())
				require.ErrorIs(t, err, tc.want)
				testkit.AssertErrNoKey(t, key, err)
				o.check(t, key)
				mu.Lock()
				defer mu.Unlock()
				assert.NotEmpty(t, bodies)
				for _, b := range bodies {
					testkit.AssertNoKey(t, key, "a metadata request", b)
				}
			})
		}
	}
}
