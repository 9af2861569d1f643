package ton_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The recorded block's hashes (its "id" member).
const (
	fixtureRoot = "b26/Pw8BYz6VY7RyYB/w2Nf8pKBebsg+H4rT1pH5ZEM="
	fixtureFile = "lLylrj7eZn0TSNxpg4yovJJ4x/ILgeeJ3byS6MFVTJw="
)

func hashedQuery(t *testing.T) ton.BlockTransactionsQuery {
	q := mcBlockQuery()
	q.RootHash, q.FileHash = hashOf(t, fixtureRoot), hashOf(t, fixtureFile)
	return q
}

// root_hash and file_hash go on the wire in standard base64, escaped in a
// query string, as strings in JSON-RPC params.
func TestBlockHashesWire(t *testing.T) {
	ctx := context.Background()
	fixture := string(testdata(t, blockFixture))

	c := gockClient(t)
	mockGET(t, pathBlock, "count=40&file_hash="+url.QueryEscape(fixtureFile)+"&root_hash="+url.QueryEscape(fixtureRoot)+"&seqno=39984096&shard=-9223372036854775808&workchain=-1", 200, fixture)
	got, err := c.BlockTransactions(ctx, hashedQuery(t))
	require.NoError(t, err)
	assert.Equal(t, hashOf(t, fixtureRoot), got.Block.RootHash)

	r := gockClient(t, ton.WithJSONRPC())
	mockPOST(t, pathRPC, `{"jsonrpc":"2.0","id":1,"method":"getBlockTransactionsExt","params":{"workchain":-1,"shard":"-9223372036854775808","seqno":39984096,"count":40,"root_hash":"`+fixtureRoot+`","file_hash":"`+fixtureFile+`"}}`, 200, fixture)
	_, err = r.BlockTransactions(ctx, hashedQuery(t))
	require.NoError(t, err)
}

// An answer naming a block with other hashes than the ones asked for is
// refused, for either hash.
func TestBlockHashesMismatch(t *testing.T) {
	ctx := context.Background()
	fixture := string(testdata(t, blockFixture))
	other := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	for name, body := range map[string]string{
		"root": strings.Replace(fixture, fixtureRoot, other, 1),
		"file": strings.Replace(fixture, fixtureFile, other, 1),
	} {
		t.Run(name, func(t *testing.T) {
			c := gockClient(t)
			mockGET(t, pathBlock, "count=40&file_hash="+url.QueryEscape(fixtureFile)+"&root_hash="+url.QueryEscape(fixtureRoot)+"&seqno=39984096&shard=-9223372036854775808&workchain=-1", 200, body)
			_, err := c.BlockTransactions(ctx, hashedQuery(t))
			require.Error(t, err)
			assert.True(t, errors.Is(err, nodeaccess.ErrInvalidResponse), err.Error())
			assert.Contains(t, err.Error(), "answer is for root_hash")
		})
	}
	// Without hashes in the query, any block hashes are accepted.
	c := gockClient(t)
	mockGET(t, pathBlock, mcQuery, 200, strings.Replace(fixture, fixtureRoot, other, 1))
	_, err := c.BlockTransactions(ctx, mcBlockQuery())
	require.NoError(t, err)
}

// AllBlockTransactions sends the hashes the first page named on every later
// page.
func TestAllBlockTransactionsSendsHashes(t *testing.T) {
	fixture := string(testdata(t, blockFixture))
	first := strings.Replace(fixture, `"incomplete": false`, `"incomplete": true`, 1)
	i := strings.Index(fixture, `"transactions": [`)
	require.Positive(t, i)
	last := fixture[:i] + `"transactions": []}}`
	after := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0x55}, 32))
	c := gockClient(t)
	mockGET(t, pathBlock, mcQuery, 200, first)
	mockGET(t, pathBlock, "after_hash="+url.QueryEscape(after)+"&after_lt=48756940000003&count=40&file_hash="+url.QueryEscape(fixtureFile)+
		"&root_hash="+url.QueryEscape(fixtureRoot)+"&seqno=39984096&shard=-9223372036854775808&workchain=-1", 200, last)
	n := 0
	for _, err := range c.AllBlockTransactions(context.Background(), mcBlockQuery()) {
		require.NoError(t, err)
		n++
	}
	assert.Equal(t, 3, n)
}
