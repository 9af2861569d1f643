package tontest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

const testKey = "t3st-KEY_~."

// The paths of the four operations for testKey.
const (
	pathBlock   = "/api/v2/" + testKey + "/getBlockTransactionsExt"
	pathRPC     = "/api/v2/" + testKey + "/jsonRPC"
	pathStates  = "/" + testKey + "/api/v3/accountStates"
	pathPending = "/" + testKey + "/api/v3/pendingTransactions"
)

// The default block's query, as ton.Client sends it.
const blockQuery = "count=40&seqno=39984096&shard=-9223372036854775808&workchain=-1"

// The accounts of the default data.
const (
	elector = "-1:3333333333333333333333333333333333333333333333333333333333333333"
	config  = "-1:5555555555555555555555555555555555555555555555555555555555555555"
	relayer = "0:898AD13C059F2A3A69576A010C41AF239B487BC555EABEB9A5894DEB11299330"
)

// start starts a server with testKey and closes it when the test ends.
func start(t *testing.T, opts ...tontest.Option) *tontest.Server {
	t.Helper()
	s, err := tontest.New(append([]tontest.Option{tontest.WithKey(testKey)}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

// client returns a ton.Client for s with short backoffs.
func client(t *testing.T, s *tontest.Server, opts ...nodeaccess.Option) *ton.Client {
	t.Helper()
	c, err := s.Client(append([]nodeaccess.Option{nodeaccess.WithBackoff(time.Millisecond, 5*time.Millisecond)}, opts...)...)
	require.NoError(t, err)
	return c
}

// reply is a raw HTTP answer.
type reply struct {
	status int
	header http.Header
	body   string
}

func get(t *testing.T, s *tontest.Server, pathAndQuery string) reply {
	t.Helper()
	return do(t, http.MethodGet, s.URL+pathAndQuery, "")
}

func post(t *testing.T, s *tontest.Server, path, body string) reply {
	t.Helper()
	return do(t, http.MethodPost, s.URL+path, body)
}

func do(t *testing.T, method, url, body string) reply {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return reply{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// recorded reads a recorded body of the package's data.
func recorded(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("data/" + name)
	require.NoError(t, err)
	return b
}

// compactJSON is v without insignificant white space.
func compactJSON(t *testing.T, v []byte) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, json.Compact(&b, v))
	return b.String()
}

// recordedBlockTxs returns the recorded block's transaction entries,
// compacted, in the recorded order.
func recordedBlockTxs(t *testing.T) []string {
	t.Helper()
	var body struct {
		Result struct {
			Transactions []json.RawMessage `json:"transactions"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal(recorded(t, "v2_getBlockTransactionsExt_blockpi_mc39984096.json"), &body))
	out := make([]string, len(body.Result.Transactions))
	for i, tx := range body.Result.Transactions {
		out[i] = compactJSON(t, tx)
	}
	return out
}

// recordedID is the recorded block's id member.
const recordedID = `{"@type":"ton.blockIdExt","workchain":-1,"shard":"-9223372036854775808","seqno":39984096,"root_hash":"b26/Pw8BYz6VY7RyYB/w2Nf8pKBebsg+H4rT1pH5ZEM=","file_hash":"lLylrj7eZn0TSNxpg4yovJJ4x/ILgeeJ3byS6MFVTJw="}`

// blockResult is the result object the server writes for the default block.
func blockResult(count int, incomplete bool, txs ...string) string {
	inc := "false"
	if incomplete {
		inc = "true"
	}
	return `{"@type":"blocks.transactionsExt","id":` + recordedID + `,"req_count":` + strconv.Itoa(count) +
		`,"incomplete":` + inc + `,"transactions":[` + strings.Join(txs, ",") + `]}`
}

// mustAddress parses a constant address of a test.
func mustAddress(s string) ton.Address {
	a, err := ton.ParseAddress(s)
	if err != nil {
		panic(err)
	}
	return a
}
