package evmtest_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// JSON-RPC batches are answered as a geth node with default settings
// answers them: each call its own result or error, in order, and at most
// 1000 calls per batch (node.DefaultConfig's BatchRequestLimit).
func TestBatchLimits(t *testing.T) {
	t.Parallel()
	s := shared(t)
	batch := func(n int) string {
		calls := make([]string, n)
		for i := range calls {
			calls[i] = strings.Replace(rpcBody("eth_chainId", `[]`), `"id":1`, `"id":`+strconv.Itoa(i+1), 1)
		}
		return "[" + strings.Join(calls, ",") + "]"
	}
	_, _, body := post(t, s, "/"+testKey, `[`+rpcBody("eth_chainId", `[]`)+`,`+rpcBody("eth_nope", `[]`)+`]`)
	assert.Equal(t, `[{"jsonrpc":"2.0","id":1,"result":"0x539"},{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"the method eth_nope does not exist/is not available"}}]`, body)

	status, _, body := post(t, s, "/"+testKey, batch(1000))
	assert.Equal(t, 200, status)
	var answers []map[string]any
	require.NoError(t, json.Unmarshal([]byte(body), &answers))
	require.Len(t, answers, 1000)
	for i, a := range answers {
		assert.Equal(t, "0x539", a["result"])
		assert.Equal(t, float64(i+1), a["id"])
	}

	_, _, body = post(t, s, "/"+testKey, batch(1001))
	// One error for the whole batch, with the first call's id.
	assert.Equal(t, `[{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"batch too large"}}]`, body)
}
