package ton_test

import (
	"context"
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	axelarAcct       = "0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A"
	axelarAcctEscape = "0%3A00194aad8e422bedf43fee746d6d929d369dbab25468a69d513706ea6978b63a"
)

func wantAxelar(t *testing.T) ton.PendingTransaction {
	return ton.PendingTransaction{
		Account:      mustAddress(axelarAcct),
		Hash:         mustHash(t, "L/DSNQ43lWUDdga8h4ci8hVp+nVS6/BxEF7KrAO0yTo="),
		LT:           36582626000003,
		Now:          time.Date(2025, 7, 8, 11, 9, 36, 0, time.UTC),
		MCBlockSeqno: 33013054,
		TraceID:      "6h4rXxxaXBcwgFnNiyyzXolMBo6wDeqiW2+LIq8feHE=",
	}
}

func TestPendingTransactionsWire(t *testing.T) {
	cases := []struct {
		name  string
		q     ton.PendingTransactionsQuery
		query string
	}{
		{"zero query sends nothing", ton.PendingTransactionsQuery{}, ""},
		{"account in raw form, limit, offset", ton.PendingTransactionsQuery{Accounts: []string{axelarAcct}, Limit: 10, Offset: 20},
			"account=" + axelarAcctEscape + "&limit=10&offset=20"},
		{"user-friendly account", ton.PendingTransactionsQuery{Accounts: []string{stdBase64(mustAddress(axelarAcct).Friendly(false, true))}},
			"account=" + axelarAcctEscape},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := gockClient(t)
			mockGET(t, pathPending, tc.query, 200, `{"transactions":[],"address_book":{}}`)
			page, err := c.PendingTransactions(context.Background(), tc.q)
			require.NoError(t, err)
			assert.Empty(t, page.Transactions)
		})
	}
}

// The recorded v3 transaction body (the model pendingTransactions answers
// with) decodes as a pending entry.
func TestPendingTransactionsRecordedV3Body(t *testing.T) {
	raw := testdata(t, v3TxFixture)
	c := gockClient(t)
	mockGET(t, pathPending, "account="+axelarAcctEscape, 200, string(raw))
	page, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{axelarAcct}})
	require.NoError(t, err)
	require.Len(t, page.Transactions, 1)
	got := page.Transactions[0]
	var file struct {
		Transactions []json.RawMessage `json:"transactions"`
	}
	require.NoError(t, json.Unmarshal(raw, &file))
	assert.JSONEq(t, string(file.Transactions[0]), string(got.Raw))
	assert.Equal(t, big.NewInt(6617389), got.TotalFees)
	// Messages and the previous transaction: TestMessagesV3BounceAndExternalOut.
	assert.NotNil(t, got.InMsg)
	assert.Len(t, got.OutMsgs, 2)
	assert.NotZero(t, got.PrevTransactionLT)
	assert.False(t, got.PrevTransactionHash == (ton.Hash{}))
	got.Raw, got.TotalFees, got.InMsg, got.OutMsgs, got.PrevTransactionLT, got.PrevTransactionHash = nil, nil, nil, nil, 0, ton.Hash{}
	assert.Equal(t, wantAxelar(t), got)
	assert.NotNil(t, page.AddressBook)
	assert.Empty(t, page.AddressBook)
}

func TestPendingTransactionsInterfaceShape(t *testing.T) {
	body := `{"transactions":[{"account":"0:00194aad8e422bedf43fee746d6d929d369dbab25468a69d513706ea6978b63a","hash":"L/DSNQ43lWUDdga8h4ci8hVp+nVS6/BxEF7KrAO0yTo=",
		"lt":36582626000003,"now":1751972976,"mc_block_seqno":33013054,"trace_id":"6h4rXxxaXBcwgFnNiyyzXolMBo6wDeqiW2+LIq8feHE="},
		{"account":"` + axelarAcct + `","hash":"L/DSNQ43lWUDdga8h4ci8hVp+nVS6/BxEF7KrAO0yTo=","lt":"1","now":null,"mc_block_seqno":null,"trace_id":null}],
		"address_book":{"` + axelarAcct + `":{"user_friendly":"EQAAGUqtjkIr7fQ_7nRtbZKdNp26slRopp1RNwbqaXi2Os5N","domain":null}}}`
	c := gockClient(t)
	mockGET(t, pathPending, "account="+axelarAcctEscape, 200, body)
	page, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{axelarAcct}})
	require.NoError(t, err)
	require.Len(t, page.Transactions, 2)
	// Sorted by account, then lt: the server's second entry comes first.
	got := page.Transactions[1]
	got.Raw = nil
	assert.Equal(t, wantAxelar(t), got)
	assert.Nil(t, got.TotalFees)
	second := page.Transactions[0]
	assert.Equal(t, uint64(1), second.LT)
	assert.True(t, second.Now.IsZero())
	assert.Zero(t, second.MCBlockSeqno)
	assert.Empty(t, second.TraceID)
	entry := page.AddressBook[mustAddress(axelarAcct)]
	assert.Equal(t, "EQAAGUqtjkIr7fQ_7nRtbZKdNp26slRopp1RNwbqaXi2Os5N", entry.UserFriendly)
	f, err := ton.ParseFriendlyAddress(entry.UserFriendly)
	require.NoError(t, err)
	assert.Equal(t, mustAddress(axelarAcct).Friendly(true, false), f)
}

func TestPendingTransactions404IsEmpty(t *testing.T) {
	for _, body := range []string{`{"error":"emulated traces not found"}`, `{"error":"Emulated Traces NOT FOUND"}`, `{"error":" emulated traces not found\n"}`} {
		c := gockClient(t)
		mockGET(t, pathPending, "account="+axelarAcctEscape, 404, body)
		page, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{axelarAcct}})
		require.NoError(t, err, body)
		assert.NotNil(t, page.Transactions)
		assert.Empty(t, page.Transactions)
		assert.NotNil(t, page.AddressBook)
	}
}

// Bug 4: only the indexer's own phrase is an empty page; a gateway's
// {"error":"Not Found"} and any other "… not found" 404 is ErrNotFound.
func TestPendingTransactionsOther404IsAnError(t *testing.T) {
	for _, body := range []string{`<html>404 page not found</html>`, `{"detail":"Not Found"}`, `{"error":"route does not exist"}`,
		`{"error":"Not Found"}`, `{"error":"not found"}`, `{"error":"account not found"}`, `{"error":"traces not found"}`,
		`{"error":"emulated traces not found for this route"}`} {
		c := gockClient(t, nodeaccess.WithMaxAttempts(1))
		mockGET(t, pathPending, "account="+axelarAcctEscape, 404, body)
		_, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{axelarAcct}})
		require.Error(t, err, body)
		assert.ErrorIs(t, err, nodeaccess.ErrNotFound, body)
	}
}

func TestPendingTransactionsBadBodies(t *testing.T) {
	for name, body := range map[string]string{
		"no transactions": `{"address_book":{}}`,
		"missing hash":    `{"transactions":[{"account":"` + axelarAcct + `","lt":"1"}]}`,
		"missing account": `{"transactions":[{"hash":"L/DSNQ43lWUDdga8h4ci8hVp+nVS6/BxEF7KrAO0yTo=","lt":"1"}]}`,
		"negative lt":     `{"transactions":[{"account":"` + axelarAcct + `","hash":"L/DSNQ43lWUDdga8h4ci8hVp+nVS6/BxEF7KrAO0yTo=","lt":"-1"}]}`,
		"bad total fees":  `{"transactions":[{"account":"` + axelarAcct + `","hash":"L/DSNQ43lWUDdga8h4ci8hVp+nVS6/BxEF7KrAO0yTo=","lt":"1","total_fees":"1e3"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			c := gockClient(t)
			mockGET(t, pathPending, "", 200, body)
			_, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{})
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		})
	}
	// Secondary members cost neither the transaction nor the page.
	for name, tc := range map[string]struct{ body, unread string }{
		"bad now":       {`{"transactions":[{"account":"` + axelarAcct + `","hash":"L/DSNQ43lWUDdga8h4ci8hVp+nVS6/BxEF7KrAO0yTo=","lt":"1","now":"soon"}]}`, "now"},
		"seqno too big": {`{"transactions":[{"account":"` + axelarAcct + `","hash":"L/DSNQ43lWUDdga8h4ci8hVp+nVS6/BxEF7KrAO0yTo=","lt":"1","mc_block_seqno":4294967296}]}`, "mc_block_seqno"},
	} {
		t.Run(name, func(t *testing.T) {
			c := gockClient(t)
			mockGET(t, pathPending, "", 200, tc.body)
			page, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{})
			require.NoError(t, err)
			assert.Equal(t, []string{tc.unread}, page.Transactions[0].Unread)
			assert.EqualValues(t, 1, page.Transactions[0].LT)
		})
	}
}

// Item 10: now 0 is the zero time.Time, not 1970-01-01.
func TestPendingTransactionsZeroNow(t *testing.T) {
	tx := func(lt, now string) string {
		return `{"account":"` + axelarAcct + `","hash":"L/DSNQ43lWUDdga8h4ci8hVp+nVS6/BxEF7KrAO0yTo=","lt":"` + lt + `","now":` + now + `}`
	}
	body := `{"transactions":[` + tx("1", "0") + `,` + tx("2", `"0"`) + `,` + tx("3", "null") + `,` + tx("4", "1751972976") + `],"address_book":{}}`
	c := gockClient(t)
	mockGET(t, pathPending, "", 200, body)
	page, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{})
	require.NoError(t, err)
	require.Len(t, page.Transactions, 4)
	for i := range 3 {
		assert.Equal(t, time.Time{}, page.Transactions[i].Now, "transaction %d", i)
	}
	assert.Equal(t, time.Date(2025, 7, 8, 11, 9, 36, 0, time.UTC), page.Transactions[3].Now)
}
