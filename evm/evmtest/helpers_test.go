package evmtest_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
)

// testKey is the key of the servers the tests start.
const testKey = "evmtest-K3y_0"

var (
	sharedOnce sync.Once
	sharedSrv  *evmtest.Server
	sharedErr  error
)

// TestMain closes the shared server after all tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if sharedSrv != nil {
		sharedSrv.Close()
	}
	os.Exit(code)
}

// shared returns a server with the default scenario that tests only read
// from: no faults, no transactions.
func shared(t *testing.T) *evmtest.Server {
	t.Helper()
	sharedOnce.Do(func() { sharedSrv, sharedErr = evmtest.New(evmtest.WithKey(testKey)) })
	require.NoError(t, sharedErr)
	return sharedSrv
}

// fresh returns a server of the test's own, closed when the test ends.
func fresh(t *testing.T, opts ...evmtest.Option) *evmtest.Server {
	t.Helper()
	s, err := evmtest.New(append([]evmtest.Option{evmtest.WithKey(testKey)}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

// client returns an evm.Client for s that does not retry, unless opts say
// otherwise.
func client(t *testing.T, s *evmtest.Server, opts ...nodeaccess.Option) *evm.Client {
	t.Helper()
	c, err := s.Client(append([]nodeaccess.Option{nodeaccess.WithMaxAttempts(1)}, opts...)...)
	require.NoError(t, err)
	return c
}

// post sends body to path on s as application/json and returns the status,
// the Content-Type and the body of the answer.
func post(t *testing.T, s *evmtest.Server, path, body string) (int, string, string) {
	t.Helper()
	return postType(t, s, path, "application/json", body)
}

// postType is post with the request's Content-Type ctype; "" sends none.
func postType(t *testing.T, s *evmtest.Server, path, ctype, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL+path, bytes.NewReader([]byte(body)))
	require.NoError(t, err)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// rpcBody is a JSON-RPC request with id 1.
func rpcBody(method, params string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, method, params)
}

// opView is an internal operation with its value as a decimal string, so
// that two big.Int zeros compare equal whatever their inner form.
type opView struct {
	Type     evm.OperationType
	From, To string
	Value    string
}

func view(ops []evm.InternalOperation) []opView {
	if ops == nil {
		return nil
	}
	out := make([]opView, len(ops))
	for i, op := range ops {
		v := "<nil>"
		if op.Value != nil {
			v = op.Value.String()
		}
		out[i] = opView{op.Type, op.From.Hex(), op.To.Hex(), v}
	}
	return out
}
