package nodeaccess_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEvmClientFormatting(t *testing.T) {
	t.Parallel()
	for _, key := range testkit.LeakKeys {
		c, err := evm.New("https://node.example/v1/", key)
		require.NoError(t, err)
		s := fmt.Sprintf("%v %+v %#v %s %q %x %d", c, c, c, c, c, c, c)
		testkit.AssertNoKey(t, key, "evm client", s)
		assert.Equal(t, "evm.Client{https://node.example/v1/REDACTED}", fmt.Sprint(c))
		testkit.AssertNoKey(t, key, "evm client value", fmt.Sprintf("%v %+v %#v", *c, *c, *c))

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

	for _, key := range testkit.LeakKeys {
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
			var rec testkit.Recorder
			c, err := evm.New(tc.base, key, rec.Option(), nodeaccess.WithBackoff(time.Millisecond, time.Millisecond))
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
			attempts := rec.Attempts()
			assert.Len(t, attempts, 3, tc.name)
			testkit.AssertErrNoKey(t, key, err)
			for _, a := range attempts {
				testkit.AssertNoKey(t, key, "attempt", fmt.Sprintf("%+v %s", a, a.Err))
			}
			testkit.AssertNoKey(t, key, "log", rec.Log())
		}
	}
}
