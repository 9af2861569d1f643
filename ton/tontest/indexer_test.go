package tontest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The default account's newest state as the indexer writes it (the
// member order of toncenter/ton-indexer eb9fbfa3 index/models/
// blockchain.go 31-46 AccountStateFull; data_hash and code_hash before the
// bocs, contract_methods and interfaces last).
const idxStateAfter = `{"address":"0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A","account_state_hash":"4OBdR8k83rjRSwwreZI6a8TmlsuKN5MrCbM/6B+8bFw=",` +
	`"balance":"2715939331","extra_currencies":{},"status":"active","last_transaction_hash":"L/DSNQ43lWUDdga8h4ci8hVp+nVS6/BxEF7KrAO0yTo=","last_transaction_lt":"36582626000003",` +
	`"data_hash":"86U+qAM9Gn2Vq9aPLlAW+s6FEpXYZG6v9LwsXNapESw=","code_hash":"vqMbw5w/UEelgUr4xN5vkmkbOqjfAcck49G02pV9Pho=","contract_methods":null,"interfaces":[]}`

// Issue 21: accountStates as the indexer answers it (toncenter/ton-indexer
// eb9fbfa3 main.go 647-675, crud_accounts.go 14-49): the latest state of
// each account asked for, under the indexer's names, with metadata;
// limit, offset, sort and account_address ignored.
func TestIndexerAccountStatesWire(t *testing.T) {
	s := start(t, tontest.WithIndexer())
	upper := strings.ToUpper(tontest.DefaultAccount().String()) // as the indexer writes it
	want := `{"accounts":[` + idxStateAfter + `],"address_book":` + defaultBook + `,"metadata":{}}`
	for _, q := range []string{
		"?address=" + upper,
		"?address=" + upper + "&limit=1&offset=5&sort=asc&include_boc=false",
		"?account_address=" + relayer + "&address=" + tontest.DefaultAccount().String() + "&address=" + upper + "&limit=5000",
		"?address=" + upper + "&address=&address=" + relayer, // an unknown account is left out
	} {
		r := get(t, s, pathStates+q)
		assert.Equal(t, http.StatusOK, r.status, q)
		assert.Equal(t, want, r.body, q)
	}
	r := get(t, s, pathStates+"?address="+relayer)
	assert.Equal(t, `{"accounts":[],"address_book":{},"metadata":{}}`, r.body)

	for _, c := range []struct{ q, msg string }{
		{"", "address of account is required"},
		{"?account_address=" + defaultAcct + "&limit=1", "address of account is required"},
		{"?code_hash=vqMbw5w/UEelgUr4xN5vkmkbOqjfAcck49G02pV9Pho=", "address of account is required"},
		{"?address=" + defaultAcct + "&address=nope", `failed to decode: schema: error converting value for index 1 of \"address\"`},
		{"?address=" + defaultAcct + "&code_hash=abc", `failed to decode: schema: error converting value for index 0 of \"code_hash\"`},
		{"?address=" + defaultAcct + "&include_boc=yes", `failed to decode: schema: error converting value for \"include_boc\"`},
	} {
		r := get(t, s, pathStates+c.q)
		assert.Equal(t, http.StatusUnprocessableEntity, r.status, c.q)
		assert.Equal(t, `{"error":"`+c.msg+`"}`, r.body, c.q)
	}
}

// code_hash filters the states of the accounts asked for (AND); include_boc
// defaults to true and writes data_boc, code_boc when the state has them;
// address= alone lists every account.
func TestIndexerAccountStatesCodeHashAndBOCs(t *testing.T) {
	a := mustAddress("0:" + strings.Repeat("0a", 32))
	b := mustAddress("0:" + strings.Repeat("0b", 32))
	code := ton.Hash{7}
	s := start(t, tontest.WithIndexer(), tontest.WithoutDefaults())
	require.NoError(t, s.SetAccountStates(a, ton.AccountState{Account: a, LastTransactionLT: 1, Balance: big.NewInt(1), CodeHash: code, CodeBOC: []byte{1}, DataBOC: []byte{2},
		Raw: json.RawMessage(`{"interfaces":["wallet_v4r2"],"contract_methods":[1,2],"zzz":true}`)}))
	require.NoError(t, s.SetAccountStates(b, ton.AccountState{Account: b, LastTransactionLT: 2, Status: ton.StatusUninit}))
	r := get(t, s, pathStates+"?address="+a.String()+"&address="+b.String()+"&code_hash="+strings.Repeat("07", 1)+strings.Repeat("00", 31))
	require.Equal(t, http.StatusOK, r.status, r.body)
	assert.Equal(t, `{"accounts":[{"address":"0:`+strings.Repeat("0A", 32)+`","account_state_hash":null,"balance":"1","extra_currencies":{},"status":null,`+
		`"last_transaction_hash":null,"last_transaction_lt":"1","code_hash":"BwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","data_boc":"Ag==","code_boc":"AQ==",`+
		`"contract_methods":[1,2],"interfaces":["wallet_v4r2"],"zzz":true}],`+
		`"address_book":{"0:`+strings.Repeat("0A", 32)+`":{"user_friendly":"`+a.Friendly(true, false).String()+`","domain":null,"interfaces":[]}},"metadata":{}}`, r.body)

	r = get(t, s, pathStates+"?address="+b.String()+"&code_hash=BwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")
	assert.Equal(t, `{"accounts":[],"address_book":{},"metadata":{}}`, r.body)

	// address= is no filter at all, as on master's indexer.
	var all struct {
		Accounts []json.RawMessage `json:"accounts"`
	}
	r = get(t, s, pathStates+"?address=&include_boc=false")
	require.NoError(t, json.Unmarshal([]byte(r.body), &all))
	assert.Len(t, all.Accounts, 2)
	assert.NotContains(t, r.body, "code_boc")
}

// At most 1000 states an answer, in a new order every time.
func TestIndexerAccountStatesCapAndOrder(t *testing.T) {
	s := start(t, tontest.WithIndexer(), tontest.WithoutDefaults())
	for i := range 1200 {
		a := mustAddress(fmt.Sprintf("0:%064x", i+1))
		require.NoError(t, s.SetAccountStates(a, ton.AccountState{Account: a, LastTransactionLT: uint64(i + 1), Balance: big.NewInt(int64(i))}))
	}
	orders := map[string]bool{}
	for range 5 {
		var body struct {
			Accounts []struct {
				Address string `json:"address"`
			} `json:"accounts"`
		}
		r := get(t, s, pathStates+"?address=&include_boc=false")
		require.NoError(t, json.Unmarshal([]byte(r.body), &body))
		assert.Len(t, body.Accounts, 1000)
		var order []string
		for _, a := range body.Accounts {
			order = append(order, a.Address)
		}
		orders[strings.Join(order, ",")] = true
	}
	assert.Greater(t, len(orders), 1, "the order changes between requests")

	// Also for accounts named one by one.
	q := "?include_boc=false"
	for i := range 20 {
		q += fmt.Sprintf("&address=0:%064x", i+1)
	}
	orders = map[string]bool{}
	for range 5 {
		var body struct {
			Accounts []struct {
				Address string `json:"address"`
			} `json:"accounts"`
		}
		require.NoError(t, json.Unmarshal([]byte(get(t, s, pathStates+q).body), &body))
		assert.Len(t, body.Accounts, 20)
		var order []string
		for _, a := range body.Accounts {
			order = append(order, a.Address)
		}
		orders[strings.Join(order, ",")] = true
	}
	assert.Greater(t, len(orders), 1, "the order changes between requests")
}

// Issue 21: pendingTransactions as the indexer answers it (toncenter/
// ton-indexer eb9fbfa3 main.go 335-370, crud_pending.go): account required
// and checked before trace_id, limit and offset ignored, only emulated
// transactions, 404 when the accounts have none, a null list when none is
// emulated any more, a new order on every request.
func TestIndexerPending(t *testing.T) {
	s := start(t, tontest.WithIndexer())
	r := get(t, s, pathPending+"?account="+defaultAcct+"&limit=2000&offset=7&trace_id=6h4rXxxaXBcwgFnNiyyzXolMBo6wDeqiW2%2BLIq8feHE%3D")
	assert.Equal(t, http.StatusOK, r.status)
	var body struct {
		Transactions []struct {
			LT       string `json:"lt"`
			Emulated bool   `json:"emulated"`
			Finality string `json:"finality"`
		} `json:"transactions"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.body), &body))
	require.Len(t, body.Transactions, 1)
	assert.True(t, body.Transactions[0].Emulated)
	assert.Equal(t, "pending", body.Transactions[0].Finality)

	for _, c := range []struct {
		q      string
		status int
		body   string
	}{
		{"", 422, `{"error":"at least 1 account address required"}`},
		{"?trace_id=6h4rXxxaXBcwgFnNiyyzXolMBo6wDeqiW2%2BLIq8feHE%3D", 422, `{"error":"at least 1 account address required"}`},
		{"?account=" + defaultAcct + "&account=x", 422, `{"error":"failed to decode: schema: error converting value for index 1 of \"account\""}`},
		{"?account=" + defaultAcct + "&trace_id=abc", 422, `{"error":"failed to decode: schema: error converting value for index 0 of \"trace_id\""}`},
		{"?account=" + relayer, 404, `{"error":"emulated traces not found"}`},
	} {
		r := get(t, s, pathPending+c.q)
		assert.Equal(t, c.status, r.status, c.q)
		assert.Equal(t, c.body, r.body, c.q)
	}

	// Transactions set, none emulated: already in blocks, a null list.
	a := mustAddress("0:" + strings.Repeat("aa", 32))
	require.NoError(t, s.SetPendingTransactions(a, ton.PendingTransaction{Account: a, Hash: ton.Hash{1}, LT: 1, Finality: ton.FinalityConfirmed}))
	r = get(t, s, pathPending+"?account="+a.String())
	assert.Equal(t, http.StatusOK, r.status)
	assert.Equal(t, `{"transactions":null,"address_book":{}}`, r.body)

	// Emulated ones only, in a new order every time.
	var txs []ton.PendingTransaction
	for i := range 6 {
		txs = append(txs, ton.PendingTransaction{Account: a, Hash: ton.Hash{byte(i + 1)}, LT: uint64(i + 1), Emulated: i != 0})
	}
	require.NoError(t, s.SetPendingTransactions(a, txs...))
	orders := map[string]bool{}
	for range 20 {
		require.NoError(t, json.Unmarshal([]byte(get(t, s, pathPending+"?account="+a.String()).body), &body))
		var lts []string
		for _, tx := range body.Transactions {
			lts = append(lts, tx.LT)
			assert.True(t, tx.Emulated)
		}
		assert.ElementsMatch(t, []string{"2", "3", "4", "5", "6"}, lts)
		orders[strings.Join(lts, ",")] = true
	}
	assert.Greater(t, len(orders), 1, "the order changes between requests")
}

// The ton client against the indexer mode: many accounts in one request,
// walkers that end without an error after the server's one answer, a
// sorted pending page, and the indexer's refusals as invalid input.
func TestIndexerWithClient(t *testing.T) {
	ctx := context.Background()
	s := start(t, tontest.WithIndexer(), tontest.WithoutDefaults())
	var accounts []string
	for i := range 30 {
		a := mustAddress(fmt.Sprintf("0:%064x", i+1))
		accounts = append(accounts, a.Friendly(true, false).String())
		require.NoError(t, s.SetAccountStates(a,
			ton.AccountState{Account: a, LastTransactionLT: 5, Balance: big.NewInt(int64(i)), Hash: ton.Hash{byte(i)}},
			ton.AccountState{Account: a, LastTransactionLT: 9, Balance: big.NewInt(int64(100 + i)), Hash: ton.Hash{byte(i), 1}}))
		require.NoError(t, s.SetPendingTransactions(a,
			ton.PendingTransaction{Account: a, Hash: ton.Hash{byte(i), 2}, LT: 20, Emulated: true, Finality: ton.FinalityPending, TraceExternalHash: ton.Hash{9}},
			ton.PendingTransaction{Account: a, Hash: ton.Hash{byte(i), 3}, LT: 10, Emulated: true, Finality: ton.FinalityPending, TraceExternalHash: ton.Hash{8}}))
	}
	c := client(t, s)
	unknown := "0:" + strings.Repeat("ee", 32)

	page, err := c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: append(accounts, unknown), Limit: 3, Sort: "asc"})
	require.NoError(t, err)
	require.Len(t, page.States, 30, "limit is ignored: the latest state of each known account")
	for _, st := range page.States {
		assert.Equal(t, uint64(9), st.LastTransactionLT)
	}
	assert.Len(t, page.AddressBook, 30)
	assert.Equal(t, 1, s.RequestCount())

	n := s.RequestCount()
	states, errs := collect(c.AllAccountStates(ctx, ton.AccountStatesQuery{Accounts: accounts}))
	assert.Empty(t, errs)
	assert.Len(t, states, 30)
	assert.Equal(t, 2, s.RequestCount()-n, "the answer, and the repeat that shows the server does not page")

	n = s.RequestCount()
	pend, err := c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: accounts})
	require.NoError(t, err)
	require.Len(t, pend.Transactions, 60)
	for i, tx := range pend.Transactions {
		assert.Equal(t, mustAddress(accounts[i/2]), tx.Account)
		assert.Equal(t, uint64(10+10*(i%2)), tx.LT, "sorted by account, then lt")
		assert.True(t, tx.Emulated)
		assert.Equal(t, ton.FinalityPending, tx.Finality)
	}
	txs, errs := collect(c.AllPendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: accounts, Limit: 10}))
	assert.Empty(t, errs)
	assert.Len(t, txs, 60)
	assert.Equal(t, 3, s.RequestCount()-n)

	_, err = c.PendingTransactions(ctx, ton.PendingTransactionsQuery{})
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	_, err = c.AccountStates(ctx, ton.AccountStatesQuery{})
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.ErrorContains(t, err, "address of account is required")

	// An account whose transactions are all in blocks: the null list.
	a := mustAddress(accounts[0])
	require.NoError(t, s.SetPendingTransactions(a, ton.PendingTransaction{Account: a, Hash: ton.Hash{1}, LT: 1}))
	pend, err = c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: accounts[:1]})
	require.NoError(t, err)
	assert.Empty(t, pend.Transactions)
}

func collect[T any](seq func(func(T, error) bool)) (items []T, errs []error) {
	for it, err := range seq {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		items = append(items, it)
	}
	return items, errs
}

// WithIndexer serves the metadata of address book entries set with
// TokenInfo, and the client reads back what the test set: typed members,
// flags, the other members of Raw, and IsIndexed; an entry without
// TokenInfo has no metadata.
func TestIndexerMetadata(t *testing.T) {
	s := start(t, tontest.WithIndexer())
	acct := tontest.DefaultAccount()
	tru, fls := true, false
	jetton := ton.TokenInfo{Type: "jetton_masters", Name: "Tether USD", Symbol: "USD₮", Valid: &tru, IsScam: &fls,
		Raw: json.RawMessage(`{"type":"ignored: the typed member wins","decimals":"6","extra":{"admin":null}}`)}
	require.NoError(t, s.SetAddressBookEntry(acct, ton.AddressBookEntry{Domain: "usdt.ton", IsIndexed: true, TokenInfo: []ton.TokenInfo{jetton}}))
	r := get(t, s, "/"+testKey+"/api/v3/accountStates?address="+defaultAcct)
	assert.Contains(t, r.body, `"metadata":{"`+defaultAcct+`":{"is_indexed":true,"token_info":[`+
		`{"type":"jetton_masters","name":"Tether USD","symbol":"USD₮","valid":true,"is_scam":false,"decimals":"6","extra":{"admin":null}}]}}}`)

	page, err := client(t, s).AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount().String()}})
	require.NoError(t, err)
	e := page.AddressBook[acct]
	assert.Equal(t, "usdt.ton", e.Domain)
	assert.True(t, e.IsIndexed)
	require.Len(t, e.TokenInfo, 1)
	got := e.TokenInfo[0]
	assert.JSONEq(t, `{"type":"jetton_masters","name":"Tether USD","symbol":"USD₮","valid":true,"is_scam":false,"decimals":"6","extra":{"admin":null}}`, string(got.Raw))
	got.Raw, jetton.Raw = nil, nil
	assert.Equal(t, jetton, got)

	require.NoError(t, s.SetAddressBookEntry(acct, ton.AddressBookEntry{Domain: "usdt.ton"}))
	page, err = client(t, s).AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount().String()}})
	require.NoError(t, err)
	assert.Nil(t, page.AddressBook[acct].TokenInfo, "no metadata without TokenInfo")

	err = s.SetAddressBookEntry(acct, ton.AddressBookEntry{TokenInfo: []ton.TokenInfo{{Raw: json.RawMessage(`[1]`)}}})
	assert.EqualError(t, err, "tontest: address book entry of "+acct.String()+": TokenInfo 0: the Raw field: the raw JSON is not an object")
}
