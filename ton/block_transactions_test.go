package ton_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	mcQuery = "count=40&seqno=39984096&shard=-9223372036854775808&workchain=-1"
	// An account id whose standard base64 has '/', '+' and '='.
	slashPlusID = "b26/Pw8BYz6VY7RyYB/w2Nf8pKBebsg+H4rT1pH5ZEM="
)

func mcBlockQuery() ton.BlockTransactionsQuery {
	return ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(39984096)}
}

func TestBlockTransactionsRESTWire(t *testing.T) {
	id, err := base64.StdEncoding.DecodeString(slashPlusID)
	require.NoError(t, err)
	after := &ton.BlockCursor{Account: ton.Address{Workchain: -1, ID: [32]byte(id)}, LT: 48756940000002}
	cases := []struct {
		name  string
		q     ton.BlockTransactionsQuery
		query string
	}{
		{"count defaults to 40", mcBlockQuery(), mcQuery},
		{"count and a basechain shard", ton.BlockTransactionsQuery{Block: ton.BlockRef{Workchain: 0, Shard: ton.ShardID(6917529027641081856), Seqno: 1}, Count: 256},
			"count=256&seqno=1&shard=6917529027641081856&workchain=0"},
		{"negative shard as signed decimal", ton.BlockTransactionsQuery{Block: ton.BlockRef{Workchain: 0, Shard: ton.ShardID(-2305843009213693952), Seqno: 4294967295}, Count: 1},
			"count=1&seqno=4294967295&shard=-2305843009213693952&workchain=0"},
		{"after cursor, base64 escaped", ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(39984096), After: after},
			"after_hash=b26%2FPw8BYz6VY7RyYB%2Fw2Nf8pKBebsg%2BH4rT1pH5ZEM%3D&after_lt=48756940000002&" + mcQuery},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := gockClient(t)
			mockGET(t, pathBlock, tc.query, 200, string(testdata(t, blockFixture)))
			got, err := c.BlockTransactions(context.Background(), tc.q)
			require.NoError(t, err)
			assert.Len(t, got.Transactions, 3)
		})
	}
}

func TestBlockTransactionsJSONRPCWire(t *testing.T) {
	c := gockClient(t, ton.WithJSONRPC())
	assert.Equal(t, "ton.Client{https://ton.node.example, key REDACTED, v2 JSON-RPC}", c.String())
	fixture := string(testdata(t, blockFixture))
	// The real answer is the v2 {"ok":true,"result":…} body; ids may come
	// back as strings or not at all.
	mockPOST(t, pathRPC, `{"jsonrpc":"2.0","id":1,"method":"getBlockTransactionsExt","params":{"workchain":-1,"shard":"-9223372036854775808","seqno":39984096,"count":40}}`,
		200, strings.Replace(fixture, `"ok": true,`, `"ok": true, "id": "1", "jsonrpc": "2.0",`, 1))
	id, _ := base64.StdEncoding.DecodeString(slashPlusID)
	mockPOST(t, pathRPC, `{"jsonrpc":"2.0","id":2,"method":"getBlockTransactionsExt","params":{"workchain":0,"shard":"6917529027641081856","seqno":7,"count":5,"after_lt":48756940000002,"after_hash":"`+slashPlusID+`"}}`,
		200, fixture)
	ctx := context.Background()
	a, err := c.BlockTransactions(ctx, mcBlockQuery())
	require.NoError(t, err)
	b, err := c.BlockTransactions(ctx, ton.BlockTransactionsQuery{
		Block: ton.BlockRef{Workchain: 0, Shard: 6917529027641081856, Seqno: 7}, Count: 5,
		After: &ton.BlockCursor{Account: ton.Address{ID: [32]byte(id)}, LT: 48756940000002},
	})
	require.NoError(t, err)
	assert.Equal(t, a, b)
	checkFixtureBlock(t, a)
}

// checkFixtureBlock compares a decoded page with the recorded body, read
// here independently as generic JSON.
func checkFixtureBlock(t *testing.T, got *ton.BlockTransactionsPage) {
	t.Helper()
	var file struct {
		Result struct {
			ID struct {
				Workchain          int
				Shard              string
				Seqno              uint32
				RootHash, FileHash string `json:"-"`
			}
			ReqCount     int               `json:"req_count"`
			Transactions []json.RawMessage `json:"transactions"`
		}
	}
	raw := testdata(t, blockFixture)
	require.NoError(t, json.Unmarshal(raw, &file))
	assert.Equal(t, int32(-1), got.Block.Workchain)
	assert.Equal(t, ton.MasterchainShard, got.Block.Shard)
	assert.Equal(t, file.Result.ID.Shard, strconv.FormatInt(int64(got.Block.Shard), 10))
	assert.Equal(t, uint32(39984096), got.Block.Seqno)
	assert.Equal(t, "b26/Pw8BYz6VY7RyYB/w2Nf8pKBebsg+H4rT1pH5ZEM=", got.Block.RootHash.String())
	assert.Equal(t, "lLylrj7eZn0TSNxpg4yovJJ4x/ILgeeJ3byS6MFVTJw=", got.Block.FileHash.String())
	assert.Equal(t, 40, got.RequestedCount)
	assert.False(t, got.Incomplete)
	_, more := got.Next()
	assert.False(t, more)
	require.Len(t, got.Transactions, len(file.Result.Transactions))
	require.Len(t, got.Transactions, 3)
	for i, rawTx := range file.Result.Transactions {
		var tx struct {
			Account       string
			Utime         int64
			Data          string
			Fee           string
			StorageFee    string                    `json:"storage_fee"`
			OtherFee      string                    `json:"other_fee"`
			TransactionID struct{ LT, Hash string } `json:"transaction_id"`
		}
		require.NoError(t, json.Unmarshal(rawTx, &tx))
		g := got.Transactions[i]
		assert.Equal(t, strings.ToLower(tx.Account), g.Account.Raw(), i)
		assert.Equal(t, tx.TransactionID.Hash, g.Hash.String(), i)
		assert.Equal(t, tx.TransactionID.LT, strconv.FormatUint(g.LT, 10), i)
		assert.Equal(t, time.Unix(tx.Utime, 0).UTC(), g.Time, i)
		assert.Equal(t, tx.Fee, g.Fee.String(), i)
		assert.Equal(t, tx.StorageFee, g.StorageFee.String(), i)
		assert.Equal(t, tx.OtherFee, g.OtherFee.String(), i)
		assert.Equal(t, tx.Data, base64.StdEncoding.EncodeToString(g.Data), i)
		assert.JSONEq(t, string(rawTx), string(g.Transaction), i)
	}
	// The exact values, written out.
	want := []struct {
		account, hash string
		lt            uint64
	}{
		{"-1:" + strings.Repeat("33", 32), "RzoRGcEyx5Ia5tEKUWlCpFbg8B0scpuXSyNXf9a4Nsk=", 48756940000001},
		{"-1:" + strings.Repeat("33", 32), "0kwvliWmBxHEXXWVNhNfBZsQFGaWejcojKq79d3Im+A=", 48756940000002},
		{"-1:" + strings.Repeat("55", 32), "AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src=", 48756940000003},
	}
	for i, w := range want {
		assert.Equal(t, mustAddress(w.account), got.Transactions[i].Account)
		assert.Equal(t, w.hash, got.Transactions[i].Hash.String())
		assert.Equal(t, w.lt, got.Transactions[i].LT)
	}
	assert.Equal(t, time.Date(2024, 8, 27, 7, 40, 27, 0, time.UTC), got.Transactions[0].Time)
	assert.Contains(t, string(got.Transactions[1].Transaction), `"29165187604"`)
}

func TestBlockTransactionsRecordedBody(t *testing.T) {
	c := gockClient(t)
	mockGET(t, pathBlock, mcQuery, 200, string(testdata(t, blockFixture)))
	got, err := c.BlockTransactions(context.Background(), mcBlockQuery())
	require.NoError(t, err)
	checkFixtureBlock(t, got)
}

// interfaceShaped rewrites the recorded block into the interface document's
// shape: bare (no ok envelope), entries {account, hash, lt, transaction}.
func interfaceShaped(t *testing.T, ltAsNumber bool) string {
	var file struct {
		Result struct {
			ID           json.RawMessage   `json:"id"`
			Transactions []json.RawMessage `json:"transactions"`
		}
	}
	require.NoError(t, json.Unmarshal(testdata(t, blockFixture), &file))
	type entry struct {
		Account     string          `json:"account"`
		Hash        string          `json:"hash"`
		LT          any             `json:"lt"`
		Transaction json.RawMessage `json:"transaction"`
	}
	var entries []entry
	for _, raw := range file.Result.Transactions {
		var tx struct {
			Account       string
			TransactionID struct{ LT, Hash string } `json:"transaction_id"`
		}
		require.NoError(t, json.Unmarshal(raw, &tx))
		var lt any = tx.TransactionID.LT
		if ltAsNumber {
			n, _ := strconv.ParseUint(tx.TransactionID.LT, 10, 64)
			lt = n
		}
		entries = append(entries, entry{tx.Account, tx.TransactionID.Hash, lt, raw})
	}
	out, err := json.Marshal(map[string]any{"id": file.Result.ID, "transactions": entries, "incomplete": false, "req_count": 40})
	require.NoError(t, err)
	return string(out)
}

func TestBlockTransactionsInterfaceShape(t *testing.T) {
	for _, body := range []string{
		interfaceShaped(t, false),
		interfaceShaped(t, true),
		`{"ok":true,"result":` + interfaceShaped(t, false) + `}`,
		`{"jsonrpc":"2.0","id":1,"result":` + interfaceShaped(t, true) + `}`,
	} {
		c := gockClient(t)
		mockGET(t, pathBlock, mcQuery, 200, body)
		got, err := c.BlockTransactions(context.Background(), mcBlockQuery())
		require.NoError(t, err)
		checkFixtureBlock(t, got)
	}
}

func TestBlockTransactionsMinimalEntries(t *testing.T) {
	// Only what the interface promises; shard as a JSON number, lt as a
	// number, an upper-case raw account, a user-friendly account, and a
	// transaction without typed members.
	body := `{"id":{"workchain":0,"shard":-2305843009213693952,"seqno":"12","root_hash":"","file_hash":null},"incomplete":true,"transactions":[
		{"account":"0:5B6A643CF4E32FF0391C476456FED5BDB17EF10A55CBB7C2980C76D4AAD07875","hash":"AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src=","lt":7,"transaction":{"x":1}},
		{"address":{"account_address":"EQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4deEw"},"transaction_id":{"lt":"8","hash":"0kwvliWmBxHEXXWVNhNfBZsQFGaWejcojKq79d3Im-A"}}]}`
	c := gockClient(t)
	mockGET(t, pathBlock, "count=2&seqno=12&shard=-2305843009213693952&workchain=0", 200, body)
	got, err := c.BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: ton.BlockRef{Shard: -2305843009213693952, Seqno: 12}, Count: 2})
	require.NoError(t, err)
	acct := mustAddress("0:5b6a643cf4e32ff0391c476456fed5bdb17ef10a55cbb7c2980c76d4aad07875")
	assert.Equal(t, ton.BlockID{BlockRef: ton.BlockRef{Workchain: 0, Shard: -2305843009213693952, Seqno: 12}}, got.Block)
	assert.True(t, got.Incomplete)
	assert.Equal(t, 0, got.RequestedCount)
	require.Len(t, got.Transactions, 2)
	assert.Equal(t, ton.BlockTransaction{Account: acct, Hash: mustHash(t, "AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src="), LT: 7,
		Transaction: json.RawMessage(`{"x":1}`)}, got.Transactions[0])
	assert.Equal(t, acct, got.Transactions[1].Account)
	assert.Equal(t, "0kwvliWmBxHEXXWVNhNfBZsQFGaWejcojKq79d3Im+A=", got.Transactions[1].Hash.String())
	assert.Equal(t, uint64(8), got.Transactions[1].LT)
	assert.Nil(t, got.Transactions[1].Fee)
	assert.True(t, got.Transactions[1].Time.IsZero())
	next, ok := got.Next()
	assert.True(t, ok)
	assert.Equal(t, ton.BlockCursor{Account: acct, LT: 8}, next)
}

func mustHash(t *testing.T, s string) ton.Hash {
	t.Helper()
	h, err := ton.ParseHash(s)
	require.NoError(t, err)
	return h
}

func TestBlockTransactionsBadBodies(t *testing.T) {
	fixture := string(testdata(t, blockFixture))
	for name, body := range map[string]string{
		"not JSON":              `<html>oops</html>`,
		"truncated":             fixture[:len(fixture)/2],
		"ok true, no result":    `{"ok":true}`,
		"ok true, result array": `{"ok":true,"result":[]}`,
		"no id":                 `{"transactions":[],"incomplete":false}`,
		"no transactions":       `{"id":{"workchain":-1,"shard":"-9223372036854775808","seqno":1},"incomplete":false}`,
		"shard as hex":          `{"id":{"workchain":-1,"shard":"8000000000000000x","seqno":1},"transactions":[]}`,
		"seqno negative":        `{"id":{"workchain":-1,"shard":"1","seqno":-1},"transactions":[]}`,
		"missing seqno":         `{"id":{"workchain":-1,"shard":"1"},"transactions":[]}`,
		"bad root hash":         `{"id":{"workchain":-1,"shard":"1","seqno":1,"root_hash":"xyz"},"transactions":[]}`,
		"entry without account": `{"id":{"workchain":-1,"shard":"1","seqno":1},"transactions":[{"hash":"AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src=","lt":"1"}]}`,
		"entry without lt":      `{"id":{"workchain":-1,"shard":"1","seqno":1},"transactions":[{"account":"0:` + strings.Repeat("00", 32) + `","hash":"AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src="}]}`,
		"lt fraction":           `{"id":{"workchain":-1,"shard":"1","seqno":1},"transactions":[{"account":"0:` + strings.Repeat("00", 32) + `","hash":"AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src=","lt":1.5}]}`,
		"negative fee":          `{"id":{"workchain":-1,"shard":"1","seqno":1},"transactions":[{"account":"0:` + strings.Repeat("00", 32) + `","hash":"AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src=","lt":1,"fee":"-1"}]}`,
		"bad account":           `{"id":{"workchain":-1,"shard":"1","seqno":1},"transactions":[{"account":"0:zz","hash":"AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src=","lt":1}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			c := gockClient(t)
			mockGET(t, pathBlock, mcQuery, 200, body)
			_, err := c.BlockTransactions(context.Background(), mcBlockQuery())
			require.Error(t, err)
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			assert.NotErrorIs(t, err, nodeaccess.ErrInvalidInput)
			assert.True(t, strings.HasPrefix(err.Error(), "ton: getBlockTransactionsExt: invalid response: "), err.Error())
		})
	}
}

func TestBlockTransactionsBigFee(t *testing.T) {
	body := `{"id":{"workchain":0,"shard":"-9223372036854775808","seqno":1},"incomplete":false,"transactions":[{"account":"0:` + strings.Repeat("00", 32) +
		`","transaction_id":{"lt":"18446744073709551615","hash":"AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src="},"fee":"1329227995784915872903807060280344575","storage_fee":123,"utime":"1724744427"}]}`
	c := gockClient(t)
	mockGET(t, pathBlock, "count=40&seqno=1&shard=-9223372036854775808&workchain=0", 200, body)
	got, err := c.BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: ton.BlockRef{Shard: ton.MasterchainShard, Seqno: 1}})
	require.NoError(t, err)
	max120, _ := new(big.Int).SetString("1329227995784915872903807060280344575", 10) // 2^120-1
	assert.Equal(t, max120, got.Transactions[0].Fee)
	assert.Equal(t, big.NewInt(123), got.Transactions[0].StorageFee)
	assert.Equal(t, uint64(18446744073709551615), got.Transactions[0].LT)
	assert.Equal(t, int64(1724744427), got.Transactions[0].Time.Unix())
}

// Item 10: utime 0 (as a number or a string) is the zero time.Time, not
// 1970-01-01; utime 1 is a real time.
func TestBlockTransactionsZeroUtime(t *testing.T) {
	body := `{"ok":true,"result":{"id":{"workchain":-1,"shard":"-9223372036854775808","seqno":39984096},"incomplete":false,"transactions":[
		{"account":"` + acctLower + `","transaction_id":{"lt":"1","hash":"AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src="},"utime":0},
		{"account":"` + acctLower + `","transaction_id":{"lt":"2","hash":"AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src="},"utime":"0"},
		{"account":"` + acctLower + `","transaction_id":{"lt":"3","hash":"AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src="},"utime":null},
		{"account":"` + acctLower + `","transaction_id":{"lt":"4","hash":"AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src="},"utime":1}]}}`
	c := gockClient(t)
	mockGET(t, pathBlock, mcQuery, 200, body)
	got, err := c.BlockTransactions(context.Background(), mcBlockQuery())
	require.NoError(t, err)
	require.Len(t, got.Transactions, 4)
	for i := range 3 {
		assert.Equal(t, time.Time{}, got.Transactions[i].Time, "transaction %d", i)
	}
	assert.Equal(t, time.Unix(1, 0).UTC(), got.Transactions[3].Time)
}
