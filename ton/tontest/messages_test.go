package tontest_test

import (
	"context"
	"io"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// Typed messages given to the server come back as the client types them,
// in both forms of API v2: an external in-message with a body, an internal
// out-message with a comment and extra currencies (one whose id is above
// 2^31, which tonlib sends as a negative number), an external out-message.
// Bounce, Bounced, CreatedAt and the v3-only members are not in the v2
// shape and do not come back.
func TestTypedMessagesRoundTrip(t *testing.T) {
	wallet := mustAddress("0:" + strings.Repeat("a1", 32))
	to := mustAddress("0:" + strings.Repeat("b2", 32))
	in := ton.Message{Destination: &wallet, Value: big.NewInt(0), FwdFee: big.NewInt(0), IHRFee: big.NewInt(0),
		Hash: ton.Hash{9}, BodyHash: ton.Hash{1}, Body: []byte{0xb5, 0xee, 0x9c, 0x72, 1}}
	out := []ton.Message{
		{Source: &wallet, Destination: &to, Value: new(big.Int).Lsh(big.NewInt(1), 100), FwdFee: big.NewInt(266669), IHRFee: big.NewInt(0),
			ExtraCurrencies: map[uint32]*big.Int{239: big.NewInt(5), 4294967279: new(big.Int).Lsh(big.NewInt(1), 200)},
			CreatedLt:       2, BodyHash: ton.Hash{2}, HasComment: true, Comment: "hii ✓"},
		{Source: &wallet, CreatedLt: 3, BodyHash: ton.Hash{3}, Body: []byte{1, 2}},
	}
	block := tontest.Block{
		ID:           ton.BlockID{BlockRef: ton.BlockRef{Workchain: 0, Shard: ton.MasterchainShard, Seqno: 5}, RootHash: ton.Hash{0xaa}, FileHash: ton.Hash{0xbb}},
		Transactions: []ton.BlockTransaction{{Account: wallet, LT: 1, Hash: ton.Hash{7}, InMsg: &in, OutMsgs: out}},
	}
	s := start(t, tontest.WithoutDefaults())
	require.NoError(t, s.SetBlock(block))
	for _, opts := range [][]nodeaccess.Option{nil, {ton.WithJSONRPC()}} {
		if opts == nil {
			// The wire form is tonlib's: a list, the id signed.
			resp, err := http.Get(s.URL + "/api/v2/" + s.Key() + "/getBlockTransactionsExt?workchain=0&shard=-9223372036854775808&seqno=5")
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Contains(t, string(body), `"extra_currencies":[{"@type":"extraCurrency","id":239,"amount":"5"},{"@type":"extraCurrency","id":-17,"amount":"1606938044258990275541962092341162602522202993782792835301376"}]`)
		}
		page, err := client(t, s, opts...).BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: block.ID.BlockRef, RootHash: ton.Hash{0xaa}, FileHash: ton.Hash{0xbb}})
		require.NoError(t, err)
		require.Len(t, page.Transactions, 1)
		got := page.Transactions[0]
		require.NotNil(t, got.InMsg)
		require.NotNil(t, got.InMsg.Raw)
		got.InMsg.Raw = nil
		assert.Equal(t, in, *got.InMsg)
		require.Len(t, got.OutMsgs, 2)
		for i := range got.OutMsgs {
			got.OutMsgs[i].Raw = nil
		}
		assert.Equal(t, out, got.OutMsgs)
	}
	// A negative amount is refused.
	bad := block
	bad.Transactions = []ton.BlockTransaction{{Account: wallet, LT: 1, InMsg: &ton.Message{Value: big.NewInt(-1)}}}
	err := s.SetBlock(bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "InMsg: Value -1 is negative")
}
