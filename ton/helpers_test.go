package ton_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
)

const (
	testBase = "https://ton.node.example"
	testKey  = "t3st-KEY"
)

// gockClient returns a client whose requests gock answers (see
// testkit.GockHTTPClient: unmatched requests and unused mocks fail the test).
func gockClient(t *testing.T, opts ...nodeaccess.Option) *ton.Client {
	t.Helper()
	opts = append([]nodeaccess.Option{nodeaccess.WithHTTPClient(testkit.GockHTTPClient(t))}, opts...)
	c, err := ton.New(testBase, testKey, opts...)
	require.NoError(t, err)
	return c
}

// getHeaders are the headers of every GET the SDK sends.
var getHeaders = map[string]string{"Accept": "application/json", "User-Agent": "nodeaccess-go/" + nodeaccess.Version}

// mockGET expects one GET with exactly path and rawQuery and answers it.
func mockGET(t *testing.T, path, rawQuery string, status int, body string) {
	gock.New(testBase).Get(".*").AddMatcher(testkit.ExactGET(t, path, rawQuery, getHeaders)).
		Reply(status).SetHeader("Content-Type", "application/json").BodyString(body)
}

// mockPOST expects one POST with exactly body to path and answers it.
func mockPOST(t *testing.T, path, body string, status int, response string) {
	gock.New(testBase).Post(".*").AddMatcher(testkit.ExactPOST(t, path, body)).
		Reply(status).SetHeader("Content-Type", "application/json").BodyString(response)
}

func testdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return b
}

const (
	blockFixture   = "v2_getBlockTransactionsExt_blockpi_mc39984096.json"
	v3TxFixture    = "v3_transactions_axelar_amplifier.json"
	vectorsFixture = "address_vectors.txt"
)

// Paths of the four operations for testKey.
const (
	pathBlock   = "/api/v2/" + testKey + "/getBlockTransactionsExt"
	pathRPC     = "/api/v2/" + testKey + "/jsonRPC"
	pathStates  = "/" + testKey + "/api/v3/accountStates"
	pathPending = "/" + testKey + "/api/v3/pendingTransactions"
)

// serverMessage returns the server's message that err carries, with the
// code it came with: a non-2xx answer is a *nodeaccess.HTTPError alone
// (its status and Message), an error body in a 2xx answer a
// *nodeaccess.RPCError alone (its Code and Message). It fails the test for
// an error that reaches both or neither.
func serverMessage(t testing.TB, err error) (code int, msg string) {
	t.Helper()
	var he *nodeaccess.HTTPError
	var re *nodeaccess.RPCError
	isHTTP, isRPC := errors.As(err, &he), errors.As(err, &re)
	require.True(t, isHTTP != isRPC, "want an HTTPError or an RPCError, not both or neither: %v", err)
	if isHTTP {
		return he.StatusCode, he.Message
	}
	return re.Code, re.Message
}

// mustAddress parses a constant address of a test.
func mustAddress(s string) ton.Address {
	a, err := ton.ParseAddress(s)
	if err != nil {
		panic(err)
	}
	return a
}
