package tontest_test

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// Walking the default block with ton's AllBlockTransactions, at every page
// size and in both forms of API v2, yields every transaction once, in the
// block's order, with the recorded values.
func TestClientWalksDefaultBlock(t *testing.T) {
	s := start(t)
	want := tontest.RecordedBlock()
	require.Len(t, want.Transactions, 3)
	for _, form := range []struct {
		name string
		opts []nodeaccess.Option
	}{{"REST", nil}, {"JSON-RPC", []nodeaccess.Option{ton.WithJSONRPC()}}} {
		c := client(t, s, form.opts...)
		for count := 1; count <= 4; count++ {
			var got []ton.BlockTransaction
			for tx, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock(), Count: count}) {
				require.NoError(t, err, "%s count %d", form.name, count)
				got = append(got, tx)
			}
			require.Len(t, got, 3, "%s count %d", form.name, count)
			for i, tx := range got {
				w := want.Transactions[i]
				assert.Equal(t, w.Account, tx.Account)
				assert.Equal(t, w.LT, tx.LT)
				assert.Equal(t, w.Hash, tx.Hash)
				assert.Equal(t, w.Time, tx.Time)
				assert.Equal(t, w.Data, tx.Data)
				assert.Equal(t, "0", tx.Fee.String())
				assert.JSONEq(t, string(w.Transaction), string(tx.Transaction))
			}
		}
	}
	// One page: the block id with its recorded hashes.
	page, err := client(t, s).BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock()})
	require.NoError(t, err)
	assert.Equal(t, "(-1,8000000000000000,39984096):b26/Pw8BYz6VY7RyYB/w2Nf8pKBebsg+H4rT1pH5ZEM=:lLylrj7eZn0TSNxpg4yovJJ4x/ILgeeJ3byS6MFVTJw=", page.Block.String())
	assert.Equal(t, 40, page.RequestedCount)
	assert.False(t, page.Incomplete)
	assert.Equal(t, uint64(48756940000001), page.Transactions[0].LT)
	assert.Equal(t, uint64(48756940000002), page.Transactions[1].LT)
	assert.Equal(t, "AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src=", page.Transactions[2].Hash.String())
}

// A block set by the user round-trips through the client: what was set is
// what the client reads, in account-then-lt order, whatever the order set.
func TestClientUserBlock(t *testing.T) {
	a := mustAddress("0:" + strings.Repeat("22", 32))
	b := mustAddress("0:" + strings.Repeat("11", 32))
	shard, err := ton.ParseShardID("6000000000000000")
	require.NoError(t, err)
	block := tontest.Block{ID: ton.BlockID{BlockRef: ton.BlockRef{Workchain: 0, Shard: shard, Seqno: 7}, RootHash: ton.Hash{1}, FileHash: ton.Hash{2}}}
	var want []ton.BlockTransaction
	for i := range 25 {
		acct := a
		if i%2 == 0 {
			acct = b
		}
		tx := ton.BlockTransaction{Account: acct, LT: uint64(1000 + i), Hash: ton.Hash{byte(i)}, Time: time.Unix(1700000000+int64(i), 0).UTC(),
			Fee: big.NewInt(int64(i) * 1000003), StorageFee: big.NewInt(int64(i)), OtherFee: big.NewInt(0), Data: []byte{byte(i), 1},
			Transaction: json.RawMessage(`{"in_msg":{"value":"` + strings.Repeat("9", i+1) + `"},"lt":"1","hash":"ignored"}`)}
		block.Transactions = append(block.Transactions, tx)
	}
	for _, acct := range []ton.Address{b, a} { // the block's order
		for _, tx := range block.Transactions {
			if tx.Account == acct {
				want = append(want, tx)
			}
		}
	}
	s := start(t, tontest.WithoutDefaults())
	require.NoError(t, s.SetBlock(block))
	for _, opts := range [][]nodeaccess.Option{nil, {ton.WithJSONRPC()}} {
		var got []ton.BlockTransaction
		for tx, err := range client(t, s, opts...).AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: block.ID.BlockRef, Count: 4}) {
			require.NoError(t, err)
			got = append(got, tx)
		}
		require.Len(t, got, len(want))
		for i := range want {
			assert.Equal(t, want[i].Account, got[i].Account, i)
			assert.Equal(t, want[i].LT, got[i].LT, i)
			assert.Equal(t, want[i].Hash, got[i].Hash, i)
			assert.Equal(t, want[i].Time, got[i].Time, i)
			assert.Equal(t, want[i].Fee, got[i].Fee, i)
			assert.Equal(t, want[i].StorageFee, got[i].StorageFee, i)
			assert.Equal(t, want[i].Data, got[i].Data, i)
			assert.Contains(t, string(got[i].Transaction), `"in_msg":{"value":"`+strings.Repeat("9", int(want[i].LT-1000)+1)+`"}`)
		}
	}
	// The default block is not there; removing the user's block unknowns it.
	_, err = client(t, s, nodeaccess.WithMaxAttempts(1)).BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock()})
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, 500, he.StatusCode)
	assert.Equal(t, "LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno=39984096: seqno not in db", he.Message)
	s.RemoveBlock(block.ID.BlockRef)
	_, err = client(t, s, nodeaccess.WithMaxAttempts(1)).BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: block.ID.BlockRef})
	require.ErrorAs(t, err, &he)
	assert.Equal(t, 500, he.StatusCode)
	assert.ErrorIs(t, err, ton.ErrNotYetAvailable)
}

func TestClientAccountStates(t *testing.T) {
	s := start(t)
	c := client(t, s)
	ctx := context.Background()
	page, err := c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount}})
	require.NoError(t, err)
	require.Len(t, page.States, 2)
	acct := mustAddress(tontest.DefaultAccount)
	newest, older := page.States[0], page.States[1]
	assert.Equal(t, acct, newest.Account)
	assert.Equal(t, "2715939331", newest.Balance.String())
	assert.Equal(t, ton.StatusActive, newest.Status)
	assert.Equal(t, uint64(36582626000003), newest.LastTransactionLT)
	assert.Equal(t, "L/DSNQ43lWUDdga8h4ci8hVp+nVS6/BxEF7KrAO0yTo=", newest.LastTransactionHash.String())
	assert.Equal(t, "vqMbw5w/UEelgUr4xN5vkmkbOqjfAcck49G02pV9Pho=", newest.CodeHash.String())
	assert.True(t, newest.FrozenHash == (ton.Hash{}))
	assert.Nil(t, newest.CodeBOC)
	assert.Equal(t, "2717267789", older.Balance.String())
	assert.Equal(t, uint64(36552848000003), older.LastTransactionLT)
	assert.Equal(t, "EQAAGUqtjkIr7fQ_7nRtbZKdNp26slRopp1RNwbqaXi2Os5N", page.AddressBook[acct].UserFriendly)

	page, err = c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount}, Sort: ton.SortAsc, Limit: 1, Offset: 1})
	require.NoError(t, err)
	require.Len(t, page.States, 1)
	assert.Equal(t, uint64(36582626000003), page.States[0].LastTransactionLT)

	// States set by the user, walked a page at a time: each once.
	var states []ton.AccountState
	for i := range 7 {
		states = append(states, ton.AccountState{Account: acct, LastTransactionLT: uint64(10 + i), Balance: big.NewInt(int64(i)), Hash: ton.Hash{byte(i)},
			Status: ton.StatusActive, CodeBOC: []byte{0xb5, 0xee, byte(i)}})
	}
	require.NoError(t, s.SetAccountStates(acct, states...))
	var lts []uint64
	for st, err := range c.AllAccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{acct.Friendly(false, true).String()}, Limit: 2, Sort: ton.SortAsc, IncludeBOC: true}) {
		require.NoError(t, err)
		assert.Equal(t, []byte{0xb5, 0xee, byte(st.LastTransactionLT - 10)}, st.CodeBOC)
		lts = append(lts, st.LastTransactionLT)
	}
	assert.Equal(t, []uint64{10, 11, 12, 13, 14, 15, 16}, lts)
}

func TestClientPendingTransactions(t *testing.T) {
	s := start(t)
	c := client(t, s)
	ctx := context.Background()
	page, err := c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}})
	require.NoError(t, err)
	require.Len(t, page.Transactions, 1)
	tx := page.Transactions[0]
	assert.Equal(t, mustAddress(tontest.DefaultAccount), tx.Account)
	assert.Equal(t, uint64(36582626000003), tx.LT)
	assert.Equal(t, time.Date(2025, 7, 8, 11, 9, 36, 0, time.UTC), tx.Now)
	assert.Equal(t, uint32(33013054), tx.MCBlockSeqno)
	assert.Equal(t, "6h4rXxxaXBcwgFnNiyyzXolMBo6wDeqiW2+LIq8feHE=", tx.TraceID)
	assert.Equal(t, "6617389", tx.TotalFees.String())
	assert.Len(t, page.AddressBook, 2)

	// Nothing pending: the 404 is an empty page, not an error.
	page, err = c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{elector}})
	require.NoError(t, err)
	assert.Empty(t, page.Transactions)
	assert.NotNil(t, page.Transactions)

	// Without an account the server answers 422, an error the client keeps.
	_, err = client(t, s, nodeaccess.WithMaxAttempts(1)).PendingTransactions(ctx, ton.PendingTransactionsQuery{})
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, 422, he.StatusCode)
	assert.Contains(t, err.Error(), "at least 1 account address required")

	// A limit above 1000 is refused by the client before sending; the
	// server's own 422 for it is in TestV3BadParameters.
	n := s.Requests()
	_, err = c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}, Limit: 1001})
	require.Error(t, err)
	assert.Equal(t, n, s.Requests())
}

// The setters refuse bad data and change nothing.
func TestSettersRefuseBadData(t *testing.T) {
	s := start(t)
	acct := mustAddress(tontest.DefaultAccount)
	other := mustAddress(elector)
	good := tontest.RecordedBlock()
	for name, b := range map[string]tontest.Block{
		"zero shard":     {ID: ton.BlockID{BlockRef: ton.BlockRef{Workchain: -1, Seqno: 39984096}}},
		"workchain":      {ID: good.ID, Transactions: []ton.BlockTransaction{{Account: acct, LT: 1}}},
		"lt 0":           {ID: good.ID, Transactions: []ton.BlockTransaction{{Account: other}}},
		"twice":          {ID: good.ID, Transactions: []ton.BlockTransaction{{Account: other, LT: 5}, {Account: other, LT: 5}}},
		"negative fee":   {ID: good.ID, Transactions: []ton.BlockTransaction{{Account: other, LT: 5, OtherFee: big.NewInt(-1)}}},
		"raw not object": {ID: good.ID, Transactions: []ton.BlockTransaction{{Account: other, LT: 5, Transaction: json.RawMessage(`[1]`)}}},
	} {
		assert.Error(t, s.SetBlock(b), name)
	}
	assert.Error(t, s.SetAccountStates(acct, ton.AccountState{Account: other}))
	assert.Error(t, s.SetAccountStates(acct, ton.AccountState{Account: acct, Balance: big.NewInt(-5)}))
	assert.Error(t, s.SetAccountStates(acct, ton.AccountState{Account: acct, Raw: json.RawMessage(`"x"`)}))
	assert.Error(t, s.SetPendingTransactions(acct, ton.PendingTransaction{Account: other, LT: 1}))
	assert.Error(t, s.SetPendingTransactions(acct, ton.PendingTransaction{Account: acct}))
	assert.Error(t, s.SetPendingTransactions(acct, ton.PendingTransaction{Account: acct, LT: 1}, ton.PendingTransaction{Account: acct, LT: 2}))
	assert.Error(t, s.SetPendingTransactions(acct, ton.PendingTransaction{Account: acct, LT: 1, TotalFees: big.NewInt(-1)}))
	_, err := tontest.New(tontest.WithKey("a/b"))
	assert.Error(t, err)
	_, err = tontest.New(tontest.WithKey(""))
	assert.Error(t, err)

	// The defaults are untouched.
	c := client(t, s)
	page, err := c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount}})
	require.NoError(t, err)
	assert.Len(t, page.States, 2)
	p, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}})
	require.NoError(t, err)
	assert.Len(t, p.Transactions, 1)
	var n int
	for _, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock()}) {
		require.NoError(t, err)
		n++
	}
	assert.Equal(t, 3, n)
}

// Data may change while clients call (run with -race).
func TestConcurrentSetAndServe(t *testing.T) {
	s := start(t)
	acct := mustAddress(tontest.DefaultAccount)
	c := client(t, s)
	ctx := context.Background()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				switch g {
				case 0:
					assert.NoError(t, s.SetAccountStates(acct, ton.AccountState{Account: acct, LastTransactionLT: uint64(i + 1), Balance: big.NewInt(int64(i))}))
					assert.NoError(t, s.SetPendingTransactions(acct, ton.PendingTransaction{Account: acct, LT: uint64(i + 1)}))
					require.NoError(t, s.SetAddressBookEntry(acct, ton.AddressBookEntry{Domain: "x.ton"}))
					assert.NoError(t, s.SetBlock(tontest.RecordedBlock()))
				case 1:
					_, err := c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount}})
					assert.NoError(t, err)
				case 2:
					_, err := c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}})
					assert.NoError(t, err)
				case 3:
					_, err := c.BlockTransactions(ctx, ton.BlockTransactionsQuery{Block: tontest.DefaultBlock(), Count: 1})
					assert.NoError(t, err)
				}
			}
		}()
	}
	wg.Wait()
	page, err := c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount}})
	require.NoError(t, err)
	require.Len(t, page.States, 1)
	assert.Equal(t, uint64(20), page.States[0].LastTransactionLT)
	assert.Equal(t, "x.ton", page.AddressBook[acct].Domain)
}

func TestClientString(t *testing.T) {
	s := start(t)
	c := client(t, s, ton.WithJSONRPC())
	assert.Equal(t, "ton.Client{"+s.URL+", key REDACTED, v2 JSON-RPC}", c.String())
}
