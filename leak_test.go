package nodeaccess_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var leakKeys = []string{"sEcReT-k3y", "sEcReT%k3y:@+?#é"}

// assertNoKey fails when s contains key in any spelling, or a piece of it.
func assertNoKey(t *testing.T, key, what, s string) {
	t.Helper()
	for _, f := range []string{key, url.PathEscape(key), url.QueryEscape(key), "secret"} {
		if strings.Contains(strings.ToLower(s), strings.ToLower(f)) {
			t.Errorf("%s leaks the key (%q): %s", what, f, s)
		}
	}
}

func TestEvmClientFormatting(t *testing.T) {
	t.Parallel()
	for _, key := range leakKeys {
		c, err := evm.New("https://node.example/v1/", key)
		require.NoError(t, err)
		s := fmt.Sprintf("%v %+v %#v %s %q %x %d", c, c, c, c, c, c, c)
		assertNoKey(t, key, "evm client", s)
		assert.Equal(t, "evm.Client{https://node.example/v1/REDACTED}", c.String())
		assertNoKey(t, key, "evm client value", fmt.Sprintf("%v %+v %#v", *c, *c, *c))

		c, err = evm.New("https://node.example", key, evm.WithPathSuffix("evm"))
		require.NoError(t, err)
		assert.Equal(t, "evm.Client{https://node.example/REDACTED/evm}", fmt.Sprint(c))
	}
	var nilClient *evm.Client
	assert.Equal(t, "<nil>", fmt.Sprint(nilClient))
}

// TestEvmErrorsKeepTheirKind goes through a chain package, whose errors are
// wrapped in *OpError: the key stays out and errors.Is still finds the
// sentinels and the network causes.
func TestEvmErrorsKeepTheirKind(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := "http://" + l.Addr().String()
	require.NoError(t, l.Close())

	for _, key := range leakKeys {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(503)
			io.WriteString(w, "no backend for "+r.URL.String())
		}))
		t.Cleanup(srv.Close)
		to := common.HexToAddress("0x00000000000000000000000000000000000000aa")
		for _, tc := range []struct {
			name string
			base string
			is   []error
		}{
			{"refused", closed, []error{nodeaccess.ErrUnavailable, syscall.ECONNREFUSED}},
			{"503", srv.URL, []error{nodeaccess.ErrUnavailable}},
		} {
			var attempts []nodeaccess.Attempt
			c, err := evm.New(tc.base, key, nodeaccess.WithBackoff(time.Millisecond, time.Millisecond),
				nodeaccess.WithHook(func(a nodeaccess.Attempt) { attempts = append(attempts, a) }))
			require.NoError(t, err)
			_, err = c.Call(context.Background(), evm.CallMsg{To: to}, evm.Latest)
			require.Error(t, err, tc.name)
			var oe *nodeaccess.OpError
			require.ErrorAs(t, err, &oe, tc.name)
			assert.Equal(t, "evm", oe.Chain)
			assert.Equal(t, "eth_call", oe.Op)
			for _, want := range tc.is {
				assert.ErrorIs(t, err, want, "%s: %v", tc.name, err)
			}
			assert.Len(t, attempts, 3, tc.name)
			assertNoKey(t, key, tc.name, fmt.Sprintf("%v %+v %#v %s", err, err, err, err))
			for e := error(oe); e != nil; e = errors.Unwrap(e) {
				assertNoKey(t, key, fmt.Sprintf("%s chain %T", tc.name, e), e.Error()+fmt.Sprintf(" %#v", e))
			}
			var ue *url.Error
			if errors.As(err, &ue) {
				assertNoKey(t, key, "url.Error", ue.URL)
			}
			var he *nodeaccess.HTTPError
			if errors.As(err, &he) {
				assertNoKey(t, key, "HTTPError", string(he.Body)+he.URL)
			}
			for _, a := range attempts {
				assertNoKey(t, key, "attempt", fmt.Sprintf("%+v %s", a, a.Err))
			}
		}
	}
}
